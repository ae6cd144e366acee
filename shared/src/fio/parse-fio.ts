import type { Problem, Warning } from '../problem.ts';
import { aggregateReport } from './aggregate.ts';
import { decodeInput, DEFAULT_MAX_INPUT_BYTES } from './decode-input.ts';
import { DEFAULT_MAX_DEPTH, extractFioDocument } from './extract-documents.ts';
import type { FioReport } from './fio-report.schema.ts';
import { validateFioDocument, type FioRawDocument, type FioRawJob } from './fio-raw.schema.ts';
import { normalizeJob, parseFioVersion, type JobContext, type NormalizedJob } from './normalize-job.ts';

/**
 * fio result file → FioReport, following docs/fio-format.md §9: decode (BOM, UTF-16), find the last
 * complete fio document among whatever text surrounds it, validate the fields we read, normalize
 * each job to bytes / bytes/s / ms, and aggregate per group and in total.
 *
 * Every expected failure is a value with a stable code; nothing here throws for any input.
 */

export type ParseFioOptions = {
  /** Larger input is refused with `too_large` (default 100 MiB). */
  maxBytes?: number;
  /** Deeper JSON nesting is refused with `too_deep` before parsing (default 64). */
  maxDepth?: number;
};

export type ParseFioResult = { ok: true; report: FioReport } | { ok: false; error: Problem };

/** The codes `parseFio` fails with: stable, for tests, the API and UI copy. */
export const PARSE_FIO_ERROR_CODES = [
  'empty_input',
  'too_large',
  'binary_input',
  'too_deep',
  'invalid_json',
  'not_fio_json',
  'fio_invalid',
  'unsupported_fio_output',
] as const;
export type ParseFioErrorCode = (typeof PARSE_FIO_ERROR_CODES)[number];

/** fio's own aggregate in client/server mode (docs/fio-format.md §7): kept aside, never summed. */
const ALL_CLIENTS = 'All clients';

export function parseFio(input: string | Uint8Array, options: ParseFioOptions = {}): ParseFioResult {
  const decoded = decodeInput(input, { maxBytes: options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES });
  if (!decoded.ok) return decoded;
  const extracted = extractFioDocument(decoded.value.text, {
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  });
  if (!extracted.ok) return extracted;
  const validated = validateFioDocument(extracted.document);
  if (!validated.ok) return validated;
  return buildReport(validated.value, {
    encoding: decoded.value.encoding,
    documentsFound: extracted.documentsFound,
    warnings: [...decoded.value.warnings, ...extracted.warnings],
  });
}

type Envelope = Pick<FioReport, 'encoding' | 'documentsFound' | 'warnings'>;

function buildReport(doc: FioRawDocument, envelope: Envelope): ParseFioResult {
  const clientMode = doc.jobs === undefined && doc.client_stats !== undefined;
  const listName = clientMode ? 'client_stats' : 'jobs';
  const entries = (clientMode ? doc.client_stats : doc.jobs) ?? null;
  if (entries === null) {
    return unsupported(
      'the fio JSON has no "jobs" (or "client_stats") array, so it holds no results (fio writes it once jobs have run)',
    );
  }
  if (entries.length === 0)
    return unsupported(`the fio JSON has an empty "${listName}" array: no job reported results`);

  const version = parseFioVersion(doc['fio version']);
  const globals = doc['global options'];
  // Client mode with several clients prints one object per client (docs/fio-format.md §1, §7).
  const globalOptions = Array.isArray(globals) ? (globals[0] ?? null) : (globals ?? null);
  const warnings: Warning[] = [...envelope.warnings];

  const indexed = entries.map((raw, index) => ({ raw, path: `${listName}.${index}` }));
  let jobEntries = indexed;
  let allClientsEntry: (typeof indexed)[number] | null = null;
  if (clientMode) {
    jobEntries = indexed.filter((e) => e.raw.jobname !== ALL_CLIENTS);
    allClientsEntry = indexed.find((e) => e.raw.jobname === ALL_CLIENTS) ?? null;
    if (jobEntries.length === 0 && allClientsEntry !== null) {
      jobEntries = [allClientsEntry];
      warnings.push({
        code: 'all_clients_only',
        message: `client_stats holds only fio's "${ALL_CLIENTS}" summary, so it is used as the job`,
      });
    }
  }

  const settingsCache: NonNullable<JobContext['settingsCache']> = new Map();
  const normalize = (raw: FioRawJob, path: string) =>
    normalizeJob(raw, { path, globalOptions, version, settingsCache });
  const jobs: NormalizedJob[] = [];
  for (const entry of jobEntries) {
    const job = normalize(entry.raw, entry.path);
    if (!job.ok) return job;
    jobs.push(job.value);
    warnings.push(...job.value.warnings);
  }
  let fioAllClients: FioReport['fioAllClients'] = null;
  if (allClientsEntry !== null && jobEntries[0] !== allClientsEntry) {
    const all = normalize(allClientsEntry.raw, allClientsEntry.path);
    if (!all.ok) return all;
    fioAllClients = all.value.job;
  }

  const { total, groups, warnings: aggregateWarnings } = aggregateReport(jobs);
  warnings.push(...aggregateWarnings);

  const report: FioReport = {
    fioVersion: doc['fio version'] ?? null,
    timestamp: doc.timestamp ?? null,
    encoding: envelope.encoding,
    jsonPlus: jobs.some((j) => [j.read, j.write, j.trim, j.mixed].some((d) => d !== null && d.bins !== null)),
    clientMode,
    documentsFound: envelope.documentsFound,
    jobs: jobs.map((j) => j.job),
    total,
    groups,
    fioAllClients,
    warnings: dedupe(warnings),
  };
  return { ok: true, report };
}

function unsupported(message: string): ParseFioResult {
  return { ok: false, error: { code: 'unsupported_fio_output', message } };
}

/** Sixteen clones of a job repeat the same option warning sixteen times: keep the first. */
function dedupe(warnings: readonly Warning[]): Warning[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = `${w.code}\u0000${w.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
