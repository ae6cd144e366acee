import { z } from 'zod';
import { WarningSchema } from '../problem.ts';

/**
 * What Blockwise makes of one fio result file: normalized, unit-safe, version-independent.
 * Units are in the field names: bytes, bytes/s, ms. Produced only by `parseFio`; everything
 * downstream (planning, server, web, CLI `analyze --json`) reads this shape, never raw fio JSON.
 */

/** Percentile → latency in ms. Keys are the shortest decimal form of the percentile: "50", "99.5", "99.99". */
export const PercentilesMsSchema = z.record(z.string(), z.number());
export type PercentilesMs = z.infer<typeof PercentilesMsSchema>;

export const PercentileRangeMsSchema = z.record(z.string(), z.object({ min: z.number(), max: z.number() }));
export type PercentileRangeMs = z.infer<typeof PercentileRangeMsSchema>;

/**
 * How the percentiles of a direction were obtained:
 * - `reported`: fio's own numbers for this entry (one job, or one group_reporting entry);
 * - `merged-bins`: json+ latency bins of several jobs merged — exact, like fio's own;
 * - `range-over-jobs`: several jobs without bins: percentiles cannot be added, so `percentiles`
 *   is null and `range` gives, per percentile, the min and max over the jobs (the combined value
 *   lies between them); `approximate` is true;
 * - `none`: no percentiles (no I/O in this direction, or fio printed none: `clat_percentiles=0`
 *   without `lat_percentiles`).
 */
export const PercentileMethodSchema = z.enum(['reported', 'merged-bins', 'range-over-jobs', 'none']);

export const LatencyMsSchema = z.object({
  /** Mean completion latency (ms, from clat); over several jobs, the mean weighted by sample count. */
  mean: z.number().nullable(),
  percentiles: PercentilesMsSchema.nullable(),
  method: PercentileMethodSchema,
  range: PercentileRangeMsSchema.nullable(),
  approximate: z.boolean(),
  /**
   * The percentiles (and range) are TOTAL latency, submission + completion, not completion latency:
   * fio 3.4–3.12 with `lat_percentiles=1` writes them under `clat_ns.percentile`, fio 3.13–3.17
   * under `lat_ns.percentile` (clat_ns then has none), and fio ≥ 3.18 under `lat_ns` only when
   * `clat_percentiles=0`. The mean stays completion latency. A warning
   * (`total_latency_percentiles`) names the fio key they came from.
   */
  isTotalLatency: z.boolean(),
  samples: z.number().nullable(),
});
export type LatencyMs = z.infer<typeof LatencyMsSchema>;

export const DirectionStatsSchema = z.object({
  iops: z.number(),
  bytesPerSec: z.number(),
  /** bytes/s ÷ IOPS (exactly io bytes ÷ total I/Os when fio gives them); null when there was no I/O. */
  blockSizeBytes: z.number().nullable(),
  ioBytes: z.number(),
  /** Runtime of this direction in ms (fio's `runtime`; over several jobs, the maximum). */
  runtimeMs: z.number(),
  totalIos: z.number().nullable(),
  clatMs: LatencyMsSchema,
});
export type DirectionStats = z.infer<typeof DirectionStatsSchema>;

export const DIRECTIONS = ['read', 'write', 'trim'] as const;

/** A value per direction, as fio's `bs`-style options give them (read,write,trim); null = fio's default / not set. */
const perDirectionOf = <T extends z.ZodType>(value: T) =>
  z.object({ read: value.nullable(), write: value.nullable(), trim: value.nullable() });
export type PerDirection<T> = { read: T | null; write: T | null; trim: T | null };

export const BlockSizeShareSchema = z.object({
  blockSizeBytes: z.number(),
  /** Share of the I/Os in percent; null = fio spreads what the other entries leave evenly. */
  percent: z.number().nullable(),
});
export type BlockSizeShare = z.infer<typeof BlockSizeShareSchema>;

/**
 * Typed facts read from the job's option strings (see job-settings.ts for fio's unit rules).
 * null means "not in the options": fio used its default, or printed no value (flags given bare,
 * such as `--time_based`, never appear in fio's JSON).
 */
export const JobSettingsSchema = z.object({
  /** I/O pattern without the `:N` modifier: "randread", "rw", … */
  rw: z.string().nullable(),
  /** true for read/write/trim/rw/trimwrite, false for the rand* patterns. */
  sequential: z.boolean().nullable(),
  /** From `bs` (e.g. "4k,64k" → 4096 read, 65536 write and trim). */
  blockSizeBytes: perDirectionOf(z.number()),
  /** From `bsrange` (e.g. "4k-16k,64k-64k"). */
  blockSizeRangeBytes: perDirectionOf(z.object({ minBytes: z.number(), maxBytes: z.number() })),
  /** From `bssplit` (e.g. "4k/10:64k/90"). */
  blockSizeSplit: perDirectionOf(z.array(BlockSizeShareSchema)),
  /** No bs, bsrange or bssplit in the options: fio used its default of 4 KiB. null when the file has no options at all. */
  blockSizeDefaulted: z.boolean().nullable(),
  /** `rwmixread`, or 100 − `rwmixwrite`. Printed even when the pattern does not mix (docs/fio-format.md §8.10). */
  rwmixreadPercent: z.number().nullable(),
  iodepth: z.number().nullable(),
  numjobs: z.number().nullable(),
  /** O_DIRECT; null when not set (fio's default is 0, buffered). */
  direct: z.boolean().nullable(),
  ioengine: z.string().nullable(),
  /** A synchronous engine (psync, sync, …) caps the queue depth at 1; null when unknown. */
  synchronousEngine: z.boolean().nullable(),
  /** `runtime=`, seconds (fio: a bare number is seconds, "5m" minutes). */
  runtimeSec: z.number().nullable(),
  timeBased: z.boolean().nullable(),
  rampTimeSec: z.number().nullable(),
  /** `fsync=N`: an fsync every N writes. */
  fsync: z.number().nullable(),
  /** `size=` in bytes; null when absent or a percentage. */
  sizeBytes: z.number().nullable(),
  /** fio's `kb_base`: 1024 (default: k = 1024 and, inverted, KiB = 1000) or 1000. */
  kbBase: z.union([z.literal(1000), z.literal(1024)]),
});
export type JobSettings = z.infer<typeof JobSettingsSchema>;

export const FioJobSchema = z.object({
  name: z.string(),
  groupId: z.number().int(),
  /** errno of the job's first error; 0 = OK. fio still writes results when a job fails. */
  error: z.number().int(),
  /** Client/server mode: the fio server this entry came from. */
  hostname: z.string().nullable(),
  /** `global options` overridden by `job options`, as fio prints them (strings: "4k", "64", "1"). */
  options: z.record(z.string(), z.string()),
  /** The options as typed facts (block sizes, mix, depth, engine, timing). */
  settings: JobSettingsSchema,
  read: DirectionStatsSchema,
  write: DirectionStatsSchema,
  trim: DirectionStatsSchema,
  /** `unified_rw_reporting`: read+write+trim merged by fio. Never add it to read/write. */
  mixed: DirectionStatsSchema.nullable(),
  /** fsync/fdatasync latency (fio ≥ 3.4) when the job synced. */
  sync: z.object({ totalIos: z.number(), latMs: LatencyMsSchema }).nullable(),
});
export type FioJob = z.infer<typeof FioJobSchema>;

export const DirectionTotalsSchema = z.object({
  read: DirectionStatsSchema,
  write: DirectionStatsSchema,
  trim: DirectionStatsSchema,
  mixed: DirectionStatsSchema.nullable(),
});
export type DirectionTotals = z.infer<typeof DirectionTotalsSchema>;

export const FioReportSchema = z.object({
  /** e.g. "fio-3.33", "fio-3.14-6-g97134"; null when the file does not say. */
  fioVersion: z.string().nullable(),
  /** Unix epoch seconds when fio wrote the report (top-level `timestamp`), if present. */
  timestamp: z.number().nullable(),
  /** How the input was decoded (PowerShell 5 writes UTF-16LE, docs/fio-format.md §8.6). */
  encoding: z.enum(['utf-8', 'utf-16le', 'utf-16be']),
  jsonPlus: z.boolean(),
  clientMode: z.boolean(),
  /** How many complete fio JSON documents the file held (`--status-interval` writes several; the last is used). */
  documentsFound: z.number().int(),
  jobs: z.array(FioJobSchema),
  /** IOPS and bytes/s summed over jobs (and groups); percentiles merged from bins, or a range. */
  total: DirectionTotalsSchema,
  /** The same per group (stonewall / new_group phases ran one after another). */
  groups: z.array(DirectionTotalsSchema.extend({ groupId: z.number().int() })),
  /** Client/server mode: fio's own "All clients" entry, kept aside (never summed with the jobs). */
  fioAllClients: FioJobSchema.nullable(),
  warnings: z.array(WarningSchema),
});
export type FioReport = z.infer<typeof FioReportSchema>;
