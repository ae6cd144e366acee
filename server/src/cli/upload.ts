import { readFile, stat } from 'node:fs/promises';
import { basename, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  CreatedRunSchema,
  ErrorResponseSchema,
  LABEL_WIRE_NAMES,
  RunRegressionSchema,
  type CreatedRun,
  type RunRegression,
} from '@blockwise/shared/api';
import { escapeText } from '@blockwise/shared/escape-text';
import {
  formatGateJunit,
  formatGateSarif,
  gateGithubReport,
  formatRegressionMarkdown,
  formatRegressionText,
  type GateOutcome,
} from '@blockwise/shared/history';
import { APP_VERSION } from '../config.ts';
import type { z } from 'zod';
import { writeGithubReport } from './github.ts';
import { EXIT, UsageError, parseFlags, type CliIo, type Command } from './io.ts';

const usage = `Usage: blockwise upload FILE... --server URL [--token T] [--label key=value ...]
                        [--series S] [--branch B] [--commit C] [--base-branch main]
                        [--fail-on-regression] [--format text|markdown|json|sarif|junit|github] [--json]

  Uploads fio result files to a Blockwise server and prints each run's URL. Needs only Node.
  The token can also come from BLOCKWISE_TOKEN (better: it stays out of process listings).
  Labels: name, kind (nvme|ebs), instanceType, volumeType, volumeSizeGiB, volumeIops,
  volumeThroughputMiBps, volumeCount, region, series, branch, baseBranch, commit, tag.NAME.
  Retries on 429/503 and network errors (uploads are idempotent: same bytes + labels = same run).

  Regression gate: with --series, each uploaded run is checked against the latest runs of its
  base branch (--base-branch, else the series' setting, "main" by default) and the report is
  printed: as an aligned table on stderr (text, the default; stdout keeps one URL per file), as a
  markdown table on stdout ready for a pull-request comment (--format markdown; the URLs go to
  stderr), or inside the JSON document (--format json, same as --json). --format sarif (SARIF
  2.1.0 for GitHub code scanning: a result per regressed metric on its file) and --format junit
  (JUnit XML for GitLab test reports and Jenkins: a test suite per file, a test case per metric,
  failures with --fail-on-regression) print the document on stdout and the URLs on stderr;
  --format github (GitHub Actions: an annotation per regressed metric on its file on stdout, the
  report appended to the job summary, step outputs; action.yml runs it) likewise (docs/ci.md has
  examples). The format never changes the exit status.
  Exit status: 0 uploaded (and passed, or too little history to judge); 1 an upload failed, or
  with --fail-on-regression a regression was found or the check could not run; 2 usage error.`;

const FORMATS = ['text', 'markdown', 'json', 'sarif', 'junit', 'github'] as const;
type Format = (typeof FORMATS)[number];

const LABEL_NAMES = new Set([
  ...Object.keys(LABEL_WIRE_NAMES),
  ...Object.values(LABEL_WIRE_NAMES).flatMap((w) => w.query),
]);
const MAX_ATTEMPTS = 5;
/** First backoff step (doubling); BLOCKWISE_RETRY_BASE_MS shortens it in tests. */
const retryBaseMs = (io: CliIo) => Number(io.env.BLOCKWISE_RETRY_BASE_MS) || 500;

type Failure = { status: number | null; error: { code: string; message: string } };

export type UploadOutcome =
  | {
      file: string;
      ok: true;
      run: CreatedRun;
      /** The regression gate's report (uploads with a series); a failure when it could not run. */
      regression?: { ok: true; report: RunRegression } | ({ ok: false } & Failure);
    }
  | ({ file: string; ok: false } & Failure);

function parseLabels(pairs: string[]): URLSearchParams {
  const params = new URLSearchParams();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--label: expected key=value, got "${pair}"`, '--label');
    const key = pair.slice(0, eq).trim();
    if (!LABEL_NAMES.has(key) && !key.startsWith('tag.')) {
      throw new UsageError(
        `--label: unknown label "${key}" (known: ${[...Object.keys(LABEL_WIRE_NAMES)].join(', ')}, tag.NAME)`,
        '--label',
      );
    }
    params.set(key, pair.slice(eq + 1).trim());
  }
  return params;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One JSON request to the server, retrying what is transient — network errors, and 429/503
 * (after Retry-After when the server gives one, else exponential backoff) — up to MAX_ATTEMPTS.
 * A 2xx answer must match `schema`; any other answer is returned as the server's error.
 */
async function requestJson<S extends z.ZodType>(
  url: URL,
  init: { method?: string; headers: Record<string, string>; body?: Buffer; timeoutMs: number },
  schema: S,
  io: CliIo,
  onRetry?: (failure: Failure, attempt: number) => void,
): Promise<{ ok: true; data: z.infer<S> } | ({ ok: false } & Failure)> {
  let last: { ok: false } & Failure = {
    ok: false,
    status: null,
    error: { code: 'network_error', message: `cannot reach ${url.origin}` },
  };
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
    let res: Response;
    try {
      res = await fetch(url, {
        method: init.method ?? 'GET',
        headers: init.headers,
        body: init.body ?? null,
        signal: AbortSignal.timeout(init.timeoutMs),
      });
    } catch (error) {
      last = {
        ok: false,
        status: null,
        error: {
          code: 'network_error',
          message: `cannot reach ${url.origin}: ${(error as Error).cause ?? (error as Error).message}`,
        },
      };
      if (attempt < MAX_ATTEMPTS) await sleep(retryBaseMs(io) * 2 ** attempt);
      continue;
    }
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* reported below */
    }
    if (res.ok) {
      const parsed = schema.safeParse(json);
      if (parsed.success) return { ok: true, data: parsed.data };
      return {
        ok: false,
        status: res.status,
        error: { code: 'bad_response', message: `the server answered ${res.status} with an unexpected body` },
      };
    }
    const err = ErrorResponseSchema.safeParse(json);
    last = {
      ok: false,
      status: res.status,
      error: err.success ? err.data.error : { code: `http_${res.status}`, message: text.slice(0, 200) },
    };
    if (res.status !== 429 && res.status !== 503) return last;
    const retryAfter = Number(res.headers.get('retry-after'));
    if (attempt < MAX_ATTEMPTS) {
      onRetry?.(last, attempt);
      await sleep(
        Number.isFinite(retryAfter) && retryAfter > 0
          ? Math.min(retryAfter, 60) * 1000
          : retryBaseMs(io) * 2 ** attempt,
      );
    }
  }
  return last;
}

/** POSTs one file, retrying transient failures with backoff (Retry-After when the server gives one). */
export async function uploadFile(
  server: string,
  file: string,
  bytes: Buffer,
  params: URLSearchParams,
  token: string | undefined,
  io: CliIo,
): Promise<UploadOutcome> {
  const url = new URL('/api/runs', server);
  for (const [k, v] of params) url.searchParams.set(k, v);
  if (!url.searchParams.has('filename')) url.searchParams.set('filename', basename(file));
  const firstChar = bytes.subarray(0, 64).toString('utf8').trimStart()[0];
  const headers: Record<string, string> = {
    'Content-Type': firstChar === '{' ? 'application/json' : 'text/plain',
  };
  let body: Buffer = bytes;
  if (bytes.length > 64 * 1024) {
    body = gzipSync(bytes);
    headers['Content-Encoding'] = 'gzip';
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  const result = await requestJson(
    url,
    { method: 'POST', headers, body, timeoutMs: 120_000 },
    CreatedRunSchema,
    io,
    (failure, attempt) =>
      io.stderr(
        `${escapeText(file)}: ${failure.status} ${escapeText(failure.error.code)}, retrying (${attempt}/${MAX_ATTEMPTS - 1})\n`,
      ),
  );
  return result.ok
    ? { file, ok: true, run: { ...result.data, url: absoluteLink(server, result.data.url) } }
    : { file, ok: false, status: result.status, error: result.error };
}

/**
 * A link the server returned, made absolute against --server: without BLOCKWISE_PUBLIC_URL the
 * server answers paths (`/runs/ID`), which a CI log or a PR comment cannot open.
 */
export function absoluteLink(server: string, link: string): string {
  return URL.canParse(link, server) ? new URL(link, server).href : link;
}

/**
 * GETs the regression report of an uploaded run, retrying what uploadFile retries (429/503 with
 * Retry-After, network errors): a gate that gives up on the first hiccup would fail builds for
 * nothing.
 */
export async function fetchRegression(
  server: string,
  runId: string,
  token: string | undefined,
  io: CliIo,
): Promise<{ ok: true; report: RunRegression } | ({ ok: false } & Failure)> {
  const url = new URL(`/api/runs/${encodeURIComponent(runId)}/regression`, server);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const result = await requestJson(url, { headers, timeoutMs: 60_000 }, RunRegressionSchema, io);
  if (!result.ok) return result;
  const { runUrl, comparisonUrl } = result.data;
  return {
    ok: true,
    report: {
      ...result.data,
      runUrl: absoluteLink(server, runUrl),
      comparisonUrl: comparisonUrl === null ? null : absoluteLink(server, comparisonUrl),
    },
  };
}

export const uploadCommand: Command = {
  summary: 'Upload fio results to a Blockwise server (for CI: needs only Node).',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      server: { type: 'string' },
      token: { type: 'string' },
      label: { type: 'string', multiple: true },
      series: { type: 'string' },
      branch: { type: 'string' },
      commit: { type: 'string' },
      'base-branch': { type: 'string' },
      json: { type: 'boolean' },
      format: { type: 'string' },
      'fail-on-regression': { type: 'boolean' },
    });
    const server = values.server ?? io.env.BLOCKWISE_URL;
    if (!server) throw new UsageError('--server URL is required (or BLOCKWISE_URL)', '--server');
    try {
      new URL(server);
    } catch {
      throw new UsageError(
        `--server: expected a URL such as https://blockwise.example.com, got "${server}"`,
        '--server',
      );
    }
    if (positionals.length === 0) throw new UsageError('give at least one fio result file', 'FILE');
    if (values.format !== undefined && !(FORMATS as readonly string[]).includes(values.format))
      throw new UsageError(
        `--format: expected text, markdown, json, sarif, junit or github, got "${values.format}"`,
        '--format',
      );
    if (values.json && values.format !== undefined && values.format !== 'json')
      throw new UsageError(`--json and --format ${values.format} contradict each other`, '--format');
    const format: Format = values.json ? 'json' : ((values.format as Format | undefined) ?? 'text');
    const params = parseLabels(values.label ?? []);
    for (const [flag, key] of [
      ['series', 'series'],
      ['branch', 'branch'],
      ['commit', 'commit'],
      ['base-branch', 'baseBranch'],
    ] as const) {
      if (values[flag] !== undefined) params.set(key, values[flag]!);
    }
    // The gate needs a series: a run without one has no history (the server answers no_series).
    const gate = params.has('series');
    if (!gate && values['fail-on-regression'])
      throw new UsageError('--fail-on-regression needs --series (the history to compare with)', '--series');
    if (!gate && (format === 'markdown' || format === 'sarif' || format === 'junit' || format === 'github'))
      throw new UsageError(
        `--format ${format} prints the regression report, which needs --series`,
        '--series',
      );
    const token = values.token ?? io.env.BLOCKWISE_TOKEN;
    const outcomes: UploadOutcome[] = [];
    for (const file of positionals) {
      const path = resolve(io.cwd, file);
      let bytes: Buffer;
      try {
        const info = await stat(path);
        if (info.size >= 100 * 1024 * 1024) {
          outcomes.push({
            file,
            ok: false,
            status: null,
            error: { code: 'too_large', message: `${file} is over 100 MiB` },
          });
          continue;
        }
        bytes = await readFile(path);
      } catch (error) {
        outcomes.push({
          file,
          ok: false,
          status: null,
          error: {
            code: 'read_failed',
            message: `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
          },
        });
        continue;
      }
      const outcome = await uploadFile(server, file, bytes, params, token, io);
      if (outcome.ok && gate) outcome.regression = await fetchRegression(server, outcome.run.id, token, io);
      outcomes.push(outcome);
    }
    return await report(outcomes, format, Boolean(values['fail-on-regression']), io);
  },
};

/**
 * Prints the outcomes in the chosen format and decides the exit status. File names, URLs and the
 * server's messages go through escapeText: this lands in a CI log, where a raw newline in a file
 * name could start a line the runner executes (`::error::…`).
 */
async function report(
  outcomes: UploadOutcome[],
  format: Format,
  failOnRegression: boolean,
  io: CliIo,
): Promise<number> {
  if (format === 'json') io.stdout(`${JSON.stringify({ runs: outcomes })}\n`);
  // stdout keeps its meaning per format: one URL per file (text), else only the document.
  const urlLine = format === 'text' ? io.stdout : io.stderr;
  const markdown: string[] = [];
  let regressions = 0;
  let unchecked = 0;
  for (const o of outcomes) {
    if (!o.ok) {
      if (format !== 'json')
        io.stderr(
          `${escapeText(o.file)}: ${o.status ?? 'failed'} ${escapeText(o.error.code)}: ${escapeText(o.error.message)}\n`,
        );
      continue;
    }
    if (format !== 'json')
      urlLine(
        `${escapeText(o.file)}: ${escapeText(o.run.url)}${o.run.created ? '' : ' (already uploaded)'}\n`,
      );
    if (!o.regression) continue;
    if (!o.regression.ok) {
      unchecked += 1;
      if (format !== 'json')
        io.stderr(
          `${escapeText(o.file)}: regression check failed: ${o.regression.status ?? 'failed'} ${escapeText(o.regression.error.code)}: ${escapeText(o.regression.error.message)}\n`,
        );
      continue;
    }
    const r = o.regression.report;
    if (r.verdict === 'regression') regressions += 1;
    const links = { comparison: r.comparisonUrl, run: r.runUrl };
    if (format === 'text') io.stderr(`\n${formatRegressionText(r, links)}\n`);
    if (format === 'markdown') markdown.push(formatRegressionMarkdown(r, links));
  }
  if (markdown.length > 0) io.stdout(markdown.join('\n---\n\n'));
  if (format === 'sarif')
    io.stdout(
      formatGateSarif(outcomes.map(gateOutcome), {
        toolVersion: APP_VERSION,
        relativePath: (file) => relative(io.cwd, resolve(io.cwd, file)),
      }),
    );
  if (format === 'junit') io.stdout(formatGateJunit(outcomes.map(gateOutcome), failOnRegression));
  if (format === 'github')
    await writeGithubReport(
      gateGithubReport(outcomes.map(gateOutcome), {
        failOnRegression,
        relativePath: (file) => relative(io.cwd, resolve(io.cwd, file)),
      }),
      io,
    );
  if (regressions > 0 && !failOnRegression && format !== 'json')
    io.stderr(`${regressions} run(s) regressed; not failing (add --fail-on-regression to fail the build)\n`);
  if (!outcomes.every((o) => o.ok)) return EXIT.failed;
  // A gate that was asked for must not pass silently when it could not run.
  if (failOnRegression && (regressions > 0 || unchecked > 0)) return EXIT.failed;
  return EXIT.ok;
}

/** An upload's outcome as the gate's SARIF and JUnit formats read it. */
function gateOutcome(o: UploadOutcome): GateOutcome {
  if (!o.ok) return { file: o.file, uploadError: o.error };
  if (!o.regression) return { file: o.file, links: { run: o.run.url } };
  if (!o.regression.ok) return { file: o.file, gateError: o.regression.error, links: { run: o.run.url } };
  const r = o.regression.report;
  return { file: o.file, report: r, links: { run: r.runUrl, comparison: r.comparisonUrl } };
}
