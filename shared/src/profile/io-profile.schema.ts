import { z } from 'zod';
import { unitSchema } from '../units.ts';
import { PercentilesMsSchema } from '../fio/fio-report.schema.ts';
import { WarningSchema } from '../problem.ts';

/**
 * The I/O profile: what the planner needs to know about a workload, whatever it came from
 * (a fio run, numbers typed from CloudWatch/Grafana/Datadog, a metrics export, sysbench).
 * Rates are per second, peak (not average), per direction.
 */

export const LatencySummarySchema = z.object({
  /** Completion latency percentiles in ms, keys "50", "99", "99.9" … */
  percentiles: PercentilesMsSchema,
  /** True when the values are bounds (several fio jobs without json+ bins) or otherwise not exact. */
  approximate: z.boolean(),
  meanMs: z.number().nonnegative().nullable(),
});
export type LatencySummary = z.infer<typeof LatencySummarySchema>;

/**
 * How the I/Os of one direction land on the device. It decides how EBS counts them
 * (plan/demand.ts): contiguous I/Os of 32 KiB or more are merged into one operation up to
 * 256 KiB (SSD) or 1 MiB (HDD); random ones are counted one by one. `mixed`: both kinds, in a
 * share nobody measured.
 */
export const AccessPatternSchema = z.enum(['random', 'sequential', 'mixed']);
export type AccessPattern = z.infer<typeof AccessPatternSchema>;

/**
 * The access pattern of a profile, per direction, and where it comes from: `fio` (the jobs' rw=),
 * `stated` (the user said so), `assumed` (nobody said: random is assumed, the safe side, and a
 * warning says so).
 */
export const AccessSchema = z.object({
  read: AccessPatternSchema,
  write: AccessPatternSchema,
  origin: z.enum(['fio', 'sysbench', 'stated', 'assumed']),
});
export type Access = z.infer<typeof AccessSchema>;

export const DirectionLoadSchema = z.object({
  iops: unitSchema.iops(z.number().nonnegative().finite()),
  bytesPerSec: unitSchema.bytesPerSec(z.number().nonnegative().finite()),
  /** bytes/s ÷ IOPS; null without I/O. */
  blockSizeBytes: unitSchema.bytes(z.number().positive()).nullable(),
  latency: LatencySummarySchema.nullable(),
  /**
   * The I/O size mix when the job set one (fio bssplit: share of I/Os per size, percent): the
   * 32 KiB merge threshold applies per size, which an average would blur.
   */
  sizeMix: z
    .array(z.object({ blockSizeBytes: z.number().positive(), percent: z.number().min(0).max(100) }))
    .optional(),
});
export type DirectionLoad = z.infer<typeof DirectionLoadSchema>;

/** Facts about HOW a benchmark ran: what the trust checks (plan/benchmark-checks.ts) look at. */
export const BenchmarkFactsSchema = z.object({
  tool: z.enum(['fio', 'sysbench']),
  version: z.string().nullable(),
  /** Block sizes the job asked for (fio `bs`/`bsrange`), per direction, bytes; null when not set. */
  configuredBlockSize: z.object({ read: z.number().nullable(), write: z.number().nullable() }),
  /** No bs/bsrange/bssplit anywhere: fio used its default of 4 KiB. */
  blockSizeDefaulted: z.boolean(),
  /** O_DIRECT: false means the page cache was in the path (fio's default is direct=0). null: unknown. */
  direct: z.boolean().nullable(),
  rw: z.string().nullable(),
  sequential: z.boolean().nullable(),
  ioengine: z.string().nullable(),
  /** I/Os in flight over all jobs: iodepth × numjobs (1 per job for synchronous engines). */
  outstandingIos: z.number().nullable(),
  timeBased: z.boolean().nullable(),
  rampTimeSec: z.number().nullable(),
  /** The runtime the job asked for (fio `runtime=`), seconds. */
  requestedRuntimeSec: z.number().nullable(),
  /** Job entries in the file vs groups: more entries than groups means no group_reporting. */
  jobEntries: z.number().int(),
  groups: z.number().int(),
  jobErrors: z.array(z.object({ job: z.string(), error: z.number().int() })),
  /** The job synced (fsync/fdatasync): synchronous-commit latency thresholds apply. */
  syncs: z.boolean(),
});
export type BenchmarkFacts = z.infer<typeof BenchmarkFactsSchema>;

export const ProfileSourceSchema = z.enum(['fio', 'observed', 'timeseries', 'sysbench']);

export const IoProfileSchema = z.object({
  source: ProfileSourceSchema,
  label: z.string().max(200).nullable(),
  read: DirectionLoadSchema,
  write: DirectionLoadSchema,
  /** How long the measurement lasted (s): fio's runtime; null for typed-in peaks. */
  durationSec: z.number().nonnegative().nullable(),
  benchmark: BenchmarkFactsSchema.nullable(),
  /** Warnings from reading the input (parser, import), carried along with the numbers. */
  warnings: z.array(WarningSchema),
  /** Random or sequential, per direction; absent in profiles stored before 2026.11.2 (= assumed random). */
  access: AccessSchema.optional(),
});
export type IoProfile = z.infer<typeof IoProfileSchema>;

/** Random for both directions, said to be assumed: the safe side when nobody knows. */
export const ASSUMED_RANDOM: Access = { read: 'random', write: 'random', origin: 'assumed' };

/** The profile's access pattern, random (assumed) when it carries none. */
export function accessOf(profile: IoProfile): Access {
  return profile.access ?? ASSUMED_RANDOM;
}
