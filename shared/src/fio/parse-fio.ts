import type { Problem, Warning } from '../problem.ts';
import { aggregateReport } from './aggregate.ts';
import { decodeInput, DEFAULT_MAX_INPUT_BYTES } from './decode-input.ts';
import { DEFAULT_MAX_DEPTH, extractFioDocument } from './extract-documents.ts';
import type { FioReport } from './fio-report.schema.ts';
import {
  MAX_DISTINCT_PERCENTILES,
  tooManyKeys,
  validateFioDocument,
  type FioRawDocument,
  type FioRawJob,
} from './fio-raw.schema.ts';
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
  /**
   * A file whose report would clearly serialize to more bytes is refused with
   * `report_too_large` before its jobs are normalized (default: no limit). The estimate is a
   * lower bound (REPORT_BYTES_PER_JOB per job plus the options each job repeats); the exact size
   * is the caller's to check once it has serialized the report.
   */
  maxReportBytes?: number;
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
  'report_too_large',
] as const;

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
    maxReportBytes: options.maxReportBytes ?? Infinity,
  });
}

/**
 * Fewer bytes than any job takes in the serialized report: its three directions, each with its
 * latency object, and its settings (1.6 KB for a job with no options and no percentiles).
 */
export const REPORT_BYTES_PER_JOB = 1024;

/**
 * A lower bound on the serialized report, from what every job repeats: the fixed part of a job
 * and its options (global options are copied into every job, docs/fio-format.md §9 step 5). A
 * 1 MB file of 15,000 bare jobs, or of 1,000 global options and 200 jobs, is refused before
 * anything is normalized.
 */
function reportBytesAtLeast(entries: readonly FioRawJob[], globalOptions: Record<string, string> | null) {
  const globalBytes = globalOptions === null ? 0 : optionBytes(globalOptions);
  let bytes = 0;
  for (const entry of entries) {
    bytes += REPORT_BYTES_PER_JOB + globalBytes;
    const own = entry['job options'];
    if (own !== undefined) bytes += optionBytes(own);
  }
  return bytes;
}

/** `"name":"value",` for each option (a lower bound: escapes only add). */
function optionBytes(options: Readonly<Record<string, string>>): number {
  let bytes = 0;
  for (const name in options) bytes += name.length + options[name]!.length + 6;
  return bytes;
}

type Envelope = Pick<FioReport, 'encoding' | 'documentsFound' | 'warnings'> & { maxReportBytes: number };

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

  const atLeast = reportBytesAtLeast(entries, globalOptions);
  if (atLeast > envelope.maxReportBytes) {
    return {
      ok: false,
      error: {
        code: 'report_too_large',
        message: `the analysis of this file would take at least ${atLeast} bytes to store (${entries.length} jobs, each stored with its options and every direction), more than the ${envelope.maxReportBytes} allowed for its size; real fio output needs less than 1.5 × its own size`,
      },
    };
  }

  const settingsCache: NonNullable<JobContext['settingsCache']> = { byKey: new Map(), last: null };
  const normalize = (raw: FioRawJob, path: string) =>
    normalizeJob(raw, { path, globalOptions, version, settingsCache });
  const jobs: NormalizedJob[] = [];
  const percentiles = new DistinctPercentiles();
  for (const entry of jobEntries) {
    const job = normalize(entry.raw, entry.path);
    if (!job.ok) return job;
    const tooMany = percentiles.add(job.value, entry.path);
    if (tooMany) return { ok: false, error: tooMany };
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

/**
 * The union of the percentile lists of all jobs, which the totals and groups carry (aggregate.ts).
 * Each list is bounded (MAX_PERCENTILES), but fio's list is per job, so without this bound 4,000
 * jobs with lists of their own would put 128,000 percentiles into every total.
 */
class DistinctPercentiles {
  private readonly values = new Set<number>();
  /** Lists already counted: jobs with the same percentile keys share one list (percentiles.ts). */
  private readonly seen = new Set<readonly number[]>();

  add(job: NormalizedJob, path: string): Problem | null {
    for (const name of ['read', 'write', 'trim', 'mixed'] as const) {
      const direction = job[name];
      const list = direction?.percentileList;
      if (!direction || !list || list.length === 0 || this.seen.has(list)) continue;
      this.seen.add(list);
      for (const p of list) this.values.add(p);
      if (this.values.size > MAX_DISTINCT_PERCENTILES) {
        const at = `${path}.${name}.${direction.percentilesFrom ?? 'clat_ns'}.percentile`;
        const why = `over all jobs; fio prints at most 20 per job, and a file's jobs rarely use more than one list`;
        return tooManyKeys(at, this.values.size, MAX_DISTINCT_PERCENTILES, 'distinct percentiles', why);
      }
    }
    return null;
  }
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
