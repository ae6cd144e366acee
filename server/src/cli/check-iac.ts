import { RunListSchema, RunSchema } from '@blockwise/shared/api';
import { escapeText } from '@blockwise/shared/escape-text';
import {
  DEFAULT_CSI_DRIVER_VERSION,
  IAC_FAIL_ON,
  checkIac,
  extractKubernetesVolumes,
  extractTerraformVolumes,
  failingFindings,
  formatIacCodeQuality,
  formatIacJunit,
  formatIacMarkdown,
  formatIacSarif,
  formatIacText,
  iacGithubReport,
  manifestSubject,
  parseCsiDriverVersion,
  type CsiDriverVersion,
  type IacFailOn,
  type IacFinding,
  type IacVolume,
  type ManifestObject,
} from '@blockwise/shared/iac';
import { profileFromFio, type IoProfile } from '@blockwise/shared/profile';
import { profileFromSeries, type IoSeries } from '@blockwise/shared/timeseries';
import { findInstanceType } from '@blockwise/shared/catalog';
import { APP_VERSION } from '../config.ts';
import { createHash } from 'node:crypto';
import { relative, resolve } from 'node:path';
import { LineCounter, isSeq, parseAllDocuments, type Node } from 'yaml';
import type { z } from 'zod';
import { CATALOG_FLAG, CATALOG_USAGE, applyCatalogFlag } from './catalog-flag.ts';
import { parseFraction, parseGp3Generation, resolveRegionRateCard } from './flags.ts';
import { IAC_INPUT_LIMITS, isStackOverflow, jsonTooDeep, scanYaml, type InputBound } from './iac-input.ts';
import { writeGithubReport } from './github.ts';
import { EXIT, UsageError, parseFlags, type Command } from './io.ts';
import {
  IMPORT_FLAGS,
  IMPORT_USAGE,
  InputError,
  importOptionsFrom,
  loadFioProfile,
  loadSeries,
  parseGroupFlag,
  parseSizingStatistic,
  readInputFile,
} from './metrics-input.ts';

const usage = `Usage: blockwise check-iac FILE... [--series S --server URL [--branch B] [--token T] | --metrics F | --fio F]
                           [--headroom 0.25] [--fail-on over|under|incomplete|any|none] [--format text|markdown|json|sarif|junit|codequality|github]
                           [--volume TEXT ...] [--region us-east-1] [--rates k=v,…] [--gp3-limits current|before-2025]
                           [--csi-driver-version 1.66]

  Checks the EBS volumes that infrastructure code provisions (docs/iac.md) against AWS's rules and
  the EBS CSI driver's, and, given measured demand, against what the workload needs:
    FILE   \`terraform show -json plan.tfplan > plan.json\` output (aws_ebs_volume, aws_instance
           root_block_device / ebs_block_device, aws_launch_template block_device_mappings), or
           Kubernetes manifests in YAML or JSON (StorageClass and VolumeAttributesClass of
           ebs.csi.aws.com, PersistentVolumeClaim; multi-document files and Lists are read).

  Demand (one of; without any, only the rules that need none are applied):
  --series S --server URL   the latest run of a CI series on a Blockwise server (--branch B: of that
                            branch; --token or BLOCKWISE_TOKEN when the server asks for one)
  --metrics F               a metrics export (the inputs of \`blockwise metrics\`), sized by --statistic
                            (max, default; p99; p95) over the points at their own step; p99/p95 keep a
                            recurring peak unless --ignore-recurring (the risk is then stated);
                            a volume whose series sits within 5 % of its own provisioned IOPS or
                            throughput is censored (demand_censored, under): demand unknown above it
  --fio F                   a fio result file (--group N for one group of several)

  --headroom   fraction above the peak to provision for (default 0.25)
  --fail-on    which findings fail the build: over, under, incomplete (the demand's data is
               incomplete: a page left out, missing spans), any (every finding but notes and hints,
               and incomplete demand) or none (default: report only)
  --format     text (default), markdown (a pull-request comment), json, sarif (SARIF 2.1.0 for
               GitHub code scanning: a rule per finding code, the file and, for YAML manifests, the
               object's line) or junit (JUnit XML for GitLab test reports and Jenkins: a test suite
               per file, a test case per volume, failures per --fail-on), codequality (GitLab Code
               Quality: an issue per finding on its file and line) or github (GitHub Actions:
               an annotation per finding on its file and line, the report appended to the job
               summary, step outputs; action.yml runs it); docs/ci.md has examples.
               The format never changes the exit status
  --volume     judge only volumes whose name contains TEXT against the demand (repeatable); the
               rules still apply to all (a root volume does not carry the database's load)
  --csi-driver-version  the EBS CSI driver release the manifests meet (default 1.66, the newest
               cited): after v1.66 it caps an IOPS request whose per-GiB cap is below the type's
               minimum to that minimum (PR #3021) instead of passing it on for EC2 to refuse
  --region     EBS price table (default us-east-1); --rates your own rates over it
${CATALOG_USAGE}
${IMPORT_USAGE}

  Exit status: 0 no finding fails the build; 1 findings per --fail-on; 2 usage error, or an input
  that cannot be read (a file that is neither a plan nor manifests, one past the input limits —
  input_too_large, input_too_deep: docs/iac.md —, an unreachable server, a series with no runs).`;

const FORMATS = ['text', 'markdown', 'json', 'sarif', 'junit', 'codequality', 'github'] as const;
/** The demand model's notes (demand/demand.ts) printed with the report. */
const DEMAND_NOTE_CODES = new Set([
  'recurring_peak',
  'recurring_peak_ignored',
  'peak_left_out',
  'coarse_resolution',
  'demand_censored',
]);
type Format = (typeof FORMATS)[number];

const MAX_INPUT_BYTES = 50 * 1024 * 1024;

/** One input file, told apart by content: a Terraform plan (JSON with format_version) or manifests. */
function readInfraFile(
  file: string,
  bytes: Uint8Array,
):
  | { kind: 'terraform'; doc: unknown }
  | { kind: 'kubernetes'; objects: ManifestObject[]; lines: Map<string, number> } {
  const text = Buffer.from(bytes).toString('utf8');
  if (text.trimStart().startsWith('{')) {
    const deep = jsonTooDeep(text, IAC_INPUT_LIMITS.depth);
    if (deep) throw boundError(file, deep);
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${file}: not valid JSON: ${(error as Error).message}`, 'FILE');
    }
    if (doc && typeof doc === 'object' && 'format_version' in doc) return { kind: 'terraform', doc };
    if (doc && typeof doc === 'object' && 'kind' in doc) {
      const lines = new Map<string, number>();
      const subject = manifestSubject(doc);
      // The object starts at the first brace: its line is 1 + the line breaks before it.
      if (subject) lines.set(subject, 1 + (/^\s*/.exec(text)![0].match(/\n/g)?.length ?? 0));
      return { kind: 'kubernetes', objects: [{ file, object: doc }], lines };
    }
    throw new UsageError(
      `${file}: neither \`terraform show -json\` output (no format_version) nor a Kubernetes object (no kind)`,
      'FILE',
    );
  }
  // Size, nodes, aliases and depth are checked on the tokens before any object is built.
  const scan = scanYaml(text);
  if (!scan.ok) throw boundError(file, scan.bound);
  // Aliases expand into the plain objects: a bound on them keeps a "billion laughs" file small.
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { prettyErrors: true, lineCounter });
  const list = Array.isArray(docs) ? docs : [docs];
  const objects: ManifestObject[] = [];
  const lines = new Map<string, number>();
  for (const doc of list) {
    const error = doc.errors[0];
    if (error && isStackOverflow(error))
      throw boundError(file, {
        code: 'input_too_deep',
        message: 'nested too deep for the YAML parser',
      });
    if (error) throw new UsageError(`${file}: not valid YAML: ${error.message.split('\n')[0]}`, 'FILE');
    let object: unknown;
    try {
      object = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      throw new UsageError(`${file}: cannot read the YAML: ${(e as Error).message}`, 'FILE');
    }
    if (object !== null && object !== undefined) {
      objects.push({ file, object });
      recordLines(doc.contents, object, lineCounter, lines);
    }
  }
  if (!objects.some((o) => o.object && typeof o.object === 'object' && 'kind' in o.object))
    throw new UsageError(
      `${file}: no Kubernetes object (a document with kind) and not \`terraform show -json\` output`,
      'FILE',
    );
  return { kind: 'kubernetes', objects, lines };
}

/**
 * Where each object of a YAML document starts (its first key's line, 1-based), by the subject
 * findings name it with; the items of a `List` each at their own line. The first of two objects
 * with one subject keeps its line.
 */
function recordLines(
  node: Node | null,
  object: unknown,
  counter: LineCounter,
  lines: Map<string, number>,
): void {
  if (!node?.range) return;
  const list = object as { kind?: unknown; items?: unknown };
  if (list && typeof list === 'object' && list.kind === 'List' && Array.isArray(list.items)) {
    const items = (node as { get?: (key: string, keepScalar?: boolean) => unknown }).get?.('items', true);
    if (isSeq(items))
      items.items.forEach((item, i) =>
        recordLines(item as Node, (list.items as unknown[])[i], counter, lines),
      );
    return;
  }
  const subject = manifestSubject(object);
  if (subject && !lines.has(subject)) lines.set(subject, counter.linePos(node.range[0]).line);
}

/** A refused input as check-iac reports it: a usage error (exit 2) with its stable code. */
function boundError(file: string, bound: InputBound): UsageError {
  return new UsageError(`${file}: ${bound.message} [${bound.code}]`, 'FILE');
}

/**
 * Runs a reader of the inputs; a stack overflow in it (a document nested past what it can
 * recurse through, which the depth checks should have refused first) is `input_too_deep`, never
 * an internal error.
 */
function readingInputs<T>(what: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (isStackOverflow(error))
      throw boundError(what, { code: 'input_too_deep', message: 'nested too deep to read' });
    throw error;
  }
}

/** One GET of the Blockwise API, its answer checked against `schema`; failures are usage errors (exit 2). */
async function getJson<S extends z.ZodType>(
  url: URL,
  token: string | undefined,
  schema: S,
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(url, { headers, signal: AbortSignal.timeout(60_000) });
  } catch (error) {
    throw new UsageError(
      `--server: cannot reach ${url.origin}: ${String((error as Error).cause ?? (error as Error).message)}`,
      '--server',
    );
  }
  const text = await res.text();
  // The body is the server's (or a proxy's) text: escaped here so a newline in it cannot start a
  // log line of its own (main escapes each line of the message, not the line breaks).
  if (!res.ok)
    throw new UsageError(
      `--server: GET ${url.pathname} answered ${res.status}: ${escapeText(text.slice(0, 200))}`,
      '--server',
    );
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* reported below */
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new UsageError(`--server: GET ${url.pathname} answered with an unexpected body`, '--server');
  return parsed.data;
}

/** The demand of a CI series: its latest run (of --branch, when given), profiled like `--fio`. */
async function seriesProfile(
  series: string,
  server: string,
  branch: string | undefined,
  token: string | undefined,
): Promise<{ profile: IoProfile; source: string }> {
  const list = new URL(`/api/series/${encodeURIComponent(series)}/runs`, server);
  list.searchParams.set('limit', '1');
  if (branch !== undefined) list.searchParams.set('branch', branch);
  const page = await getJson(list, token, RunListSchema);
  const latest = page.items[0];
  if (!latest)
    throw new UsageError(
      `--series: series "${series}"${branch !== undefined ? ` has no runs on branch "${branch}"` : ' has no runs'} on ${server}`,
      '--series',
    );
  const run = await getJson(new URL(`/api/runs/${encodeURIComponent(latest.id)}`, server), token, RunSchema);
  const profile = profileFromFio(run.report);
  if (!profile.ok) throw new UsageError(`--series: run ${latest.id}: ${profile.error.message}`, '--series');
  const url = URL.canParse(latest.url, server) ? new URL(latest.url, server).href : latest.url;
  return {
    profile: profile.value,
    source: `series ${series}, run ${latest.id} of ${latest.createdAt.slice(0, 10)}: ${url}`,
  };
}

function parseCsiDriverVersionFlag(text: string | undefined): CsiDriverVersion {
  if (text === undefined) return DEFAULT_CSI_DRIVER_VERSION;
  const v = parseCsiDriverVersion(text);
  if (!v.ok) throw new UsageError(`--csi-driver-version: ${v.error.message}`, '--csi-driver-version');
  return v.value;
}

export const checkIacCommand: Command = {
  summary: 'Check the EBS volumes in a Terraform plan or Kubernetes manifests (for CI).',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      series: { type: 'string' },
      server: { type: 'string' },
      branch: { type: 'string' },
      token: { type: 'string' },
      metrics: { type: 'string' },
      statistic: { type: 'string' },
      'ignore-recurring': { type: 'boolean' },
      fio: { type: 'string' },
      group: { type: 'string' },
      headroom: { type: 'string' },
      'fail-on': { type: 'string' },
      format: { type: 'string' },
      volume: { type: 'string', multiple: true },
      region: { type: 'string' },
      rates: { type: 'string' },
      'gp3-limits': { type: 'string' },
      'csi-driver-version': { type: 'string' },
      ...IMPORT_FLAGS,
      ...CATALOG_FLAG,
    });
    if (positionals.length === 0) throw new UsageError('give at least one plan or manifest file', 'FILE');
    const format = (values.format ?? 'text') as Format;
    if (!FORMATS.includes(format))
      throw new UsageError(
        `--format: expected text, markdown, json, sarif, junit, codequality or github, got "${values.format}"`,
        '--format',
      );
    const failOnFlag = values['fail-on'] ?? 'none';
    if (!IAC_FAIL_ON.includes(failOnFlag as IacFailOn) && failOnFlag !== 'incomplete')
      throw new UsageError(
        `--fail-on: expected over, under, incomplete, any or none, got "${values['fail-on']}"`,
        '--fail-on',
      );
    const failOn = (failOnFlag === 'incomplete' ? 'none' : failOnFlag) as IacFailOn;
    const failOnIncomplete = failOnFlag === 'incomplete' || failOnFlag === 'any';
    const headroom =
      values.headroom === undefined ? 0.25 : parseFraction(values.headroom, '--headroom', { max: 10 });
    const demands = [values.series, values.metrics, values.fio].filter((d) => d !== undefined);
    if (demands.length > 1) throw new UsageError('give one demand: --series, --metrics or --fio', '--series');
    if (values.series !== undefined && values.server === undefined && !io.env.BLOCKWISE_URL)
      throw new UsageError('--series needs --server URL (or BLOCKWISE_URL)', '--server');
    const server = values.server ?? io.env.BLOCKWISE_URL;
    if (values.series !== undefined && !URL.canParse(server!))
      throw new UsageError(
        `--server: expected a URL such as https://blockwise.example.com, got "${server}"`,
        '--server',
      );
    const gen = parseGp3Generation(values['gp3-limits']);
    const driverVersion = parseCsiDriverVersionFlag(values['csi-driver-version']);
    await applyCatalogFlag(values.catalog, io);
    const rateCard = resolveRegionRateCard(values.region, values.rates);

    const volumes: IacVolume[] = [];
    const findings: IacFinding[] = [];
    const manifests: ManifestObject[] = [];
    const objectLines = new Map<string, Map<string, number>>();
    const terraformFiles = new Set<string>();
    for (const file of positionals) {
      const bytes = await readInputFile(file, 'FILE', io, MAX_INPUT_BYTES);
      const read = readingInputs(file, () => readInfraFile(file, bytes));
      if (read.kind === 'kubernetes') {
        manifests.push(...read.objects);
        objectLines.set(file, read.lines);
        continue;
      }
      terraformFiles.add(file);
      const tf = readingInputs(file, () => extractTerraformVolumes(read.doc, file));
      if (!tf.ok) throw new UsageError(`${file}: ${tf.error.message}`, 'FILE');
      volumes.push(...tf.value.volumes);
      findings.push(...tf.value.findings);
    }
    const k8s = readingInputs([...new Set(manifests.map((m) => m.file))].join(', '), () =>
      extractKubernetesVolumes(manifests, gen, driverVersion),
    );
    volumes.push(...k8s.volumes);
    findings.push(...k8s.findings);

    // The metrics series, when that is the demand: checked for censoring against each volume's own limits.
    let demand: { profile: IoProfile; source: string; series?: IoSeries } | null = null;
    try {
      if (values.fio !== undefined)
        demand = {
          profile: await loadFioProfile(values.fio, parseGroupFlag(values.group), io),
          source: `fio result ${values.fio}`,
        };
      else if (values.metrics !== undefined) {
        const statistic = parseSizingStatistic(values.statistic);
        const series = await loadSeries(values.metrics, '--metrics', importOptionsFrom(values), io);
        const ignoreRecurring = values['ignore-recurring'] === true;
        const profile = profileFromSeries(series, { statistic, ignoreRecurring });
        if (!profile.ok) throw new InputError(values.metrics, profile.error);
        demand = { profile: profile.value, source: `${statistic} of metrics ${values.metrics}`, series };
      } else if (values.series !== undefined)
        demand = await seriesProfile(
          values.series,
          server!,
          values.branch,
          values.token ?? io.env.BLOCKWISE_TOKEN,
        );
    } catch (error) {
      // Exit 1 means "findings fail the build": an unreadable demand is bad input (2), never that.
      if (error instanceof InputError)
        throw new UsageError(
          `${error.file}: ${error.problem.message} [${error.problem.code}]`,
          values.fio !== undefined ? '--fio' : '--metrics',
        );
      throw error;
    }

    const only = values.volume ?? [];
    const report = checkIac({
      volumes,
      profile: demand?.profile ?? null,
      ...(demand ? { demandSource: demand.source } : {}),
      ...(demand?.series ? { deliveredSeries: demand.series } : {}),
      headroom,
      rateCard,
      findInstance: findInstanceType,
      gp3Generation: gen,
      ...(only.length > 0 ? { judgeDemand: (v: IacVolume) => only.some((t) => v.subject.includes(t)) } : {}),
    });
    report.findings = [...findings, ...report.findings];
    const failing = failingFindings(report.findings, failOn);
    // Demand from incomplete data (a page left out, missing spans: demand/demand.ts) is never silent.
    const incomplete = (demand?.profile.warnings ?? []).filter((w) => w.code === 'incomplete_data');
    const failsIncomplete = failOnIncomplete && incomplete.length > 0;
    // Where findings are (SARIF, GitHub annotations): relative to the working directory.
    const locations = {
      relativePath: (file: string) => relative(io.cwd, resolve(io.cwd, file)),
      objectLines,
      terraformFiles,
    };
    if (format === 'json')
      io.stdout(
        `${JSON.stringify({ ...report, failOn: failOnFlag, failing: failing.length, demandComplete: incomplete.length === 0, incomplete: incomplete.map((w) => w.message) })}\n`,
      );
    else if (format === 'sarif')
      io.stdout(formatIacSarif(report, { toolVersion: APP_VERSION, ...locations }));
    else if (format === 'codequality')
      io.stdout(
        formatIacCodeQuality(report, {
          ...locations,
          failing,
          fingerprint: (key) => createHash('md5').update(key).digest('hex'),
        }),
      );
    else if (format === 'github')
      await writeGithubReport(
        iacGithubReport(report, { ...locations, failing, failOn: failOnFlag, failsIncomplete }),
        io,
      );
    else if (format === 'junit') io.stdout(formatIacJunit(report, failing, positionals));
    else if (format === 'markdown') io.stdout(formatIacMarkdown(report));
    else io.stdout(formatIacText(report));
    // What the percentile would drop, what coarse points hide: beside the verdicts, not in a log.
    const demandNotes = (demand?.profile.warnings ?? []).filter((w) => DEMAND_NOTE_CODES.has(w.code));
    // SARIF, JUnit, Code Quality and GitHub's commands are parsed by a tool: the notes go to the log (stderr) instead.
    const notesTo = format === 'text' || format === 'markdown' ? io.stdout : io.stderr;
    if (format !== 'json' && demandNotes.length > 0)
      notesTo(`${demandNotes.map((w) => `demand: [${w.code}] ${escapeText(w.message)}`).join('\n')}\n`);
    if (incomplete.length > 0)
      io.stderr(
        `check-iac: the demand is from incomplete data:\n${incomplete.map((w) => `  ${escapeText(w.message)}`).join('\n')}\n`,
      );
    if (format !== 'json' && failing.length > 0)
      io.stderr(
        `check-iac: ${failing.length} finding(s) fail the build (--fail-on ${escapeText(failOnFlag)})\n`,
      );
    if (format !== 'json' && failsIncomplete)
      io.stderr(`check-iac: incomplete demand data fails the build (--fail-on ${escapeText(failOnFlag)})\n`);
    return failing.length > 0 || failsIncomplete ? EXIT.failed : EXIT.ok;
  },
};
