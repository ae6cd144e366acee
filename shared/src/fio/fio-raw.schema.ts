import { z } from 'zod';
import type { Problem } from '../problem.ts';

/**
 * fio's JSON as fio writes it, for every version that still circulates (docs/fio-format.md §1–§3,
 * §5, §7). Lenient by design: unknown keys are allowed (and not copied), and anything that some
 * version leaves out is optional. Only the fields the normalizer reads are described; their
 * types are checked so that `jobs.0.read.iops: "fast"` becomes a readable error with a path
 * instead of a NaN three modules later.
 *
 * Performance: a json+ file is mostly `bins` maps (latency bucket → count, up to 1856 keys per
 * map). Validating those with `z.record` costs several times `JSON.parse` itself, so `bins` is
 * declared `unknown` here and checked by `readBins` in one plain loop.
 */

/**
 * fio prints integers as 64-bit (`%llu`), so no value it writes exceeds 2^64. The normalizer
 * refuses larger (and negative) numbers where it reads them (`checkFioNumber`), which keeps every
 * sum and product it makes finite (16 jobs × 2^64 × 1024 is nowhere near Number.MAX_VALUE)
 * without walking the report afterwards. (As a Zod check on every number it cost 10 % of a parse.)
 */
export const MAX_FIO_NUMBER = 2 ** 64;

/** A count or size (range checked by `checkFioNumber` when read). */
const count = z.number();
/** A float printed with `%f`: null only after a bare `nan`/`inf` was read as null (docs/fio-format.md §8.5). */
const float = count.nullable();

/**
 * A Problem when a number fio wrote is negative or beyond 64 bits; null when it is fine or absent.
 * The path is `parent.key`, joined only for a Problem (the checks run on every number of every job).
 */
export function checkFioNumber(
  value: number | null | undefined,
  parent: string,
  key: string,
): Problem | null {
  if (value === null || value === undefined || (value >= 0 && value <= MAX_FIO_NUMBER)) return null;
  const path = `${parent}.${key}`;
  return {
    code: 'fio_invalid',
    message: `${path}: expected a number from 0 to 2^64 (fio writes 64-bit counts), got number ${value}`,
    path,
  };
}

/**
 * Upper bounds on the keys of the objects the parser walks key by key (docs/fio-format.md §3.2,
 * §8.10), so that the work per object stays small whatever a file invents. Each is fio's own
 * maximum with a margin; a larger object is refused (`fio_invalid`, naming its path, the limit
 * and the count) before any per-key work, never silently cut.
 *
 * - Percentiles: fio prints at most FIO_IO_U_LIST_MAX_LEN = 20 entries per `percentile` object
 *   (stat.h; `percentile_list` is declared with `.maxlen = FIO_IO_U_LIST_MAX_LEN` in options.c,
 *   and stat.c clamps the printed list to it). Unchanged since 2011 (axboe/fio a64e88da).
 * - Bins: json+ prints one key per non-empty bucket, at most FIO_IO_U_PLAT_NR =
 *   FIO_IO_U_PLAT_GROUP_NR × 2^FIO_IO_U_PLAT_BITS = 29 × 64 = 1856 since fio 3.0 (stat.h, commit
 *   d6bb626e; 19 × 64 = 1216 before).
 * - Options: fio prints only the options a job set; options.c and the engines define about 500.
 *
 * The distinct percentiles over all jobs of a file are bounded too: fio's percentile list is per
 * job, so a file of several job sections may print several lists, and the totals carry their union.
 */
export const MAX_PERCENTILES = 32;
export const MAX_DISTINCT_PERCENTILES = 128;
export const MAX_BINS = 2048;
export const MAX_OPTIONS = 1024;

/** "jobs.0.read.clat_ns.percentile: expected at most 32 percentiles (…), got 56000". */
export function tooManyKeys(path: string, found: number, limit: number, what: string, why: string): Problem {
  return {
    code: 'fio_invalid',
    message: `${path}: expected at most ${limit} ${what} (${why}), got ${found}`,
    path,
  };
}

/**
 * Options are always strings in fio's JSON (`"iodepth" : "64"`); docs/fio-format.md §1 and §8.10.
 * Checked in one loop rather than per key by `z.record` (every job repeats them); the first
 * non-string value is reported with its path.
 */
function checkOptions(value: unknown, path: (string | number)[], issues: z.core.$ZodRawIssue[]): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    issues.push({ code: 'invalid_type', expected: 'object', input: value, path });
    return false;
  }
  const keys = Object.keys(value);
  if (keys.length > MAX_OPTIONS) {
    issues.push({
      code: 'custom',
      message: `expected at most ${MAX_OPTIONS} options (fio defines about 500 and prints only those a job set), got ${keys.length}`,
      input: value,
      path,
    });
    return false;
  }
  for (const name of keys) {
    const v = (value as Record<string, unknown>)[name];
    if (typeof v !== 'string') {
      issues.push({ code: 'invalid_type', expected: 'string', input: v, path: [...path, name] });
      return false;
    }
  }
  return true;
}

export const FioRawOptionsSchema = z.custom<Record<string, string>>().check((ctx) => {
  checkOptions(ctx.value, [], ctx.issues);
});

/** `global options`: one object, or one per client in client mode with several clients (docs/fio-format.md §1, §7). */
export const FioRawGlobalOptionsSchema = z
  .custom<Record<string, string> | Record<string, string>[]>()
  .check((ctx) => {
    if (!Array.isArray(ctx.value)) {
      checkOptions(ctx.value, [], ctx.issues);
      return;
    }
    ctx.value.every((options, i) => checkOptions(options, [i], ctx.issues));
  });

export const FioRawLatencySchema = z.object({
  mean: float.optional(),
  /** Sample count, fio ≥ 3.18. */
  N: count.optional(),
  /** `"99.500000" : 1234` in the object's unit (ns or µs); validated while converting (percentiles.ts). */
  percentile: z.unknown().optional(),
  /** json+ only; validated by `readBins`. */
  bins: z.unknown().optional(),
});
export type FioRawLatency = z.infer<typeof FioRawLatencySchema>;

export const FioRawDirectionSchema = z.object({
  /** KiB before fio 2.21, bytes after (docs/fio-format.md §3.1); `io_kbytes` present ⇒ bytes. */
  io_bytes: count,
  io_kbytes: count.optional(),
  /** bytes/s, fio ≥ 3.2. */
  bw_bytes: count.optional(),
  /** KiB/s in every version. */
  bw: count,
  iops: float,
  /** ms, this direction only. */
  runtime: count,
  total_ios: count.optional(),
  /** fio ≥ 3.0: ns. */
  clat_ns: FioRawLatencySchema.optional(),
  lat_ns: FioRawLatencySchema.optional(),
  /** fio < 3.0: µs. */
  clat: FioRawLatencySchema.optional(),
  lat: FioRawLatencySchema.optional(),
});
export type FioRawDirection = z.infer<typeof FioRawDirectionSchema>;

export const FioRawJobSchema = z.object({
  jobname: z.string(),
  groupid: z.number().int().nonnegative().optional(),
  error: z.number().int().optional(),
  /** Client/server mode only. */
  hostname: z.string().optional(),
  'job options': FioRawOptionsSchema.optional(),
  read: FioRawDirectionSchema.optional(),
  write: FioRawDirectionSchema.optional(),
  trim: FioRawDirectionSchema.optional(),
  /** `unified_rw_reporting` (docs/fio-format.md §5). */
  mixed: FioRawDirectionSchema.optional(),
  /** fsync/fdatasync, fio ≥ 3.4. */
  sync: z.object({ total_ios: count.optional(), lat_ns: FioRawLatencySchema.optional() }).optional(),
});
export type FioRawJob = z.infer<typeof FioRawJobSchema>;

export const FioRawDocumentSchema = z.object({
  'fio version': z.string().optional(),
  timestamp: z.number().optional(),
  /** An array of objects in client mode with several clients (docs/fio-format.md §1, §7). */
  'global options': FioRawGlobalOptionsSchema.optional(),
  jobs: z.array(FioRawJobSchema).optional(),
  client_stats: z.array(FioRawJobSchema).optional(),
});
export type FioRawDocument = z.infer<typeof FioRawDocumentSchema>;

/**
 * The schemas above as plain checks, for the documents they accept: `FioRawDocumentSchema` walks
 * every job and builds a copy of each object it checks (4 % of an upload's parse). Each check is
 * the schema's own condition or stricter (a finite number where Zod may allow more, a safe
 * integer for `.int()`), so a document it accepts is one the schema accepts; everything else,
 * including every refusal, goes through the schema. The copy the schema returns holds, under
 * each key it describes, what the document holds there (unknown keys dropped, `z.custom` and
 * `z.unknown` values as they are), and the normalizer reads only those keys, so the document
 * itself serves as the copy.
 */
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isOptionalNumber = (v: unknown) => v === undefined || isNumber(v);
const isOptionalString = (v: unknown) => v === undefined || typeof v === 'string';

function isOptions(v: unknown): boolean {
  if (!isRecord(v)) return false;
  let keys = 0;
  for (const name in v) {
    if (!Object.hasOwn(v, name)) continue;
    if (typeof v[name] !== 'string' || ++keys > MAX_OPTIONS) return false;
  }
  return true;
}

function isLatency(v: unknown): boolean {
  if (v === undefined) return true;
  return isRecord(v) && (v.mean === null || isOptionalNumber(v.mean)) && isOptionalNumber(v.N);
}

function isDirection(v: unknown): boolean {
  if (v === undefined) return true;
  return (
    isRecord(v) &&
    isNumber(v.io_bytes) &&
    isOptionalNumber(v.io_kbytes) &&
    isOptionalNumber(v.bw_bytes) &&
    isNumber(v.bw) &&
    (v.iops === null || isNumber(v.iops)) &&
    isNumber(v.runtime) &&
    isOptionalNumber(v.total_ios) &&
    isLatency(v.clat_ns) &&
    isLatency(v.lat_ns) &&
    isLatency(v.clat) &&
    isLatency(v.lat)
  );
}

function isJob(v: unknown): boolean {
  if (!isRecord(v)) return false;
  const { groupid, error, sync } = v;
  return (
    typeof v.jobname === 'string' &&
    (groupid === undefined || (Number.isSafeInteger(groupid) && (groupid as number) >= 0)) &&
    (error === undefined || Number.isSafeInteger(error)) &&
    isOptionalString(v.hostname) &&
    (v['job options'] === undefined || isOptions(v['job options'])) &&
    isDirection(v.read) &&
    isDirection(v.write) &&
    isDirection(v.trim) &&
    isDirection(v.mixed) &&
    (sync === undefined || (isRecord(sync) && isOptionalNumber(sync.total_ios) && isLatency(sync.lat_ns)))
  );
}

const isJobs = (v: unknown) => v === undefined || (Array.isArray(v) && v.every(isJob));

function isFioRawDocument(v: unknown): v is FioRawDocument {
  if (!isRecord(v)) return false;
  const globals = v['global options'];
  return (
    isOptionalString(v['fio version']) &&
    isOptionalNumber(v.timestamp) &&
    (globals === undefined || isOptions(globals) || (Array.isArray(globals) && globals.every(isOptions))) &&
    isJobs(v.jobs) &&
    isJobs(v.client_stats)
  );
}

/** Validates a parsed fio document; a failure names the JSON path and what was expected. */
export function validateFioDocument(
  value: unknown,
): { ok: true; value: FioRawDocument } | { ok: false; error: Problem } {
  if (isFioRawDocument(value)) return { ok: true, value };
  const result = FioRawDocumentSchema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0]!;
  const path = issue.path.map(String).join('.');
  return {
    ok: false,
    error: { code: 'fio_invalid', message: `${path || '(document)'}: ${describeIssue(issue, value)}`, path },
  };
}

function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  const got = describeValue(valueAt(root, issue.path));
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${withArticle(issue.expected)}, got ${got}`;
    case 'too_small':
      return `expected a number ≥ ${String(issue.minimum)}, got ${got}`;
    case 'custom':
      return issue.message;
    default:
      return `${issue.message} (got ${got})`;
  }
}

function withArticle(expected: string): string {
  switch (expected) {
    case 'number':
      return 'a number';
    case 'int':
      return 'an integer';
    case 'object':
    case 'record':
      return 'an object';
    case 'array':
      return 'an array';
    case 'string':
      return 'a string';
    default:
      return expected;
  }
}

/** What a value is, in words: `string "5"`, `nothing (the key is missing)`, `null`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the key is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number')
    return Number.isFinite(value) ? `number ${value}` : `${value} (a number too large for JSON)`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null || typeof key === 'symbol') return undefined;
    if (!Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

/** json+ latency histogram: bucket values (the object's unit, ascending) and their counts. */
export type Bins = { values: Float64Array; counts: Float64Array; total: number };

/**
 * Reads a json+ `bins` map (`{"15296": 1, "15680": 2}`) in one loop: keys must be non-negative
 * integers, counts finite and ≥ 0, at most MAX_BINS keys. Returns the histogram sorted by bucket.
 */
export function readBins(
  value: unknown,
  path: string,
): { ok: true; value: Bins } | { ok: false; error: Problem } {
  const bad = (message: string, at = path) => ({
    ok: false as const,
    error: { code: 'fio_invalid', message: `${at}: ${message}`, path: at },
  });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return bad(`expected an object of latency buckets, got ${describeValue(value)}`);
  }
  // Counted (natively) before any per-key work: 56,000 keys are refused as fast as 2,049.
  const keys = Object.keys(value);
  if (keys.length > MAX_BINS) {
    const why = 'fio prints at most 1856, FIO_IO_U_PLAT_NR';
    return { ok: false, error: tooManyKeys(path, keys.length, MAX_BINS, 'latency buckets', why) };
  }
  const values = new Float64Array(keys.length);
  const counts = new Float64Array(keys.length);
  const map = value as Record<string, unknown>;
  let total = 0;
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const bucket = Number(key);
    if (key === '' || !Number.isSafeInteger(bucket) || bucket < 0) {
      return bad(`expected a latency bucket value (a whole number), got key ${JSON.stringify(key)}`);
    }
    const n = map[key];
    if (typeof n !== 'number' || !(n >= 0 && n <= MAX_FIO_NUMBER)) {
      return bad(`expected a count (a number from 0 to 2^64), got ${describeValue(n)}`, `${path}.${key}`);
    }
    values[i] = bucket;
    counts[i] = n;
    total += n;
    if (i > 0 && bucket < values[i - 1]!) sorted = false;
  }
  // Integer-like keys enumerate in ascending order in every engine, so this is the rare path.
  if (!sorted) return { ok: true, value: sortBins(values, counts, total) };
  return { ok: true, value: { values, counts, total } };
}

function sortBins(values: Float64Array, counts: Float64Array, total: number): Bins {
  const order = Array.from(values.keys()).sort((a, b) => values[a]! - values[b]!);
  return {
    values: Float64Array.from(order, (i) => values[i]!),
    counts: Float64Array.from(order, (i) => counts[i]!),
    total,
  };
}
