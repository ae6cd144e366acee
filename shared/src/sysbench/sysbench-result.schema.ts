import { z } from 'zod';
import { WarningSchema } from '../problem.ts';

/**
 * What Blockwise makes of one `sysbench fileio ... run` text output, whatever the sysbench version.
 * Units are in the field names (bytes, bytes/s, ms, s). Produced only by `parseSysbench`.
 *
 * Two output families exist (both seen in the published benchmarks [piops-2012] and [scalebench], docs/domain.md §2):
 * - 1.0 (2017–): "File operations: reads/s … writes/s … fsyncs/s", "Throughput: read, MiB/s …",
 *   "Latency (ms): min/avg/max/95th percentile/sum". Rates are printed; counts are not.
 * - 0.4 (0.4.12 was the common one until 2017; 0.5 prints the same lines with small wording
 *   changes): "Operations performed: N Read, N Write, N Other = N Total", "Read 9.339Gb Written …
 *   (53.125Mb/sec)", "per-request statistics: … approx. 95 percentile: 9.86ms". Counts are printed;
 *   rates are derived. 0.4 writes "Mb"/"Gb"/"Kb" meaning MiB/GiB/KiB (it divides by 1024:
 *   612,043 reads × 16 KiB = 9,563.2 MiB, printed "9.339Gb").
 */

export const SYSBENCH_TEST_MODES = ['seqwr', 'seqrewr', 'seqrd', 'rndrd', 'rndwr', 'rndrw'] as const;
export const SysbenchTestModeSchema = z.enum(SYSBENCH_TEST_MODES);
export type SysbenchTestMode = z.infer<typeof SysbenchTestModeSchema>;

/** sysbench's `--file-io-mode`: `async` is Linux native AIO (libaio), `mmap` memory-maps the files. */
export const SysbenchIoModeSchema = z.enum(['sync', 'async', 'mmap']);
export type SysbenchIoMode = z.infer<typeof SysbenchIoModeSchema>;

export const SysbenchOpenFlagsSchema = z.object({
  /** The header line as printed: "directio", "(none)", or 0.4's decimal O_* bits such as "16384". */
  raw: z.string(),
  /** O_DIRECT: the page cache is bypassed. null when the printed flags cannot be decoded. */
  direct: z.boolean().nullable(),
  /** O_SYNC or O_DSYNC: every write waits for the device. */
  syncWrites: z.boolean().nullable(),
});
export type SysbenchOpenFlags = z.infer<typeof SysbenchOpenFlagsSchema>;

export const SysbenchOpRatesSchema = z.object({
  /** Operations per second over the whole run (`total time`). */
  perSec: z.number().nonnegative(),
  /** Count of operations (0.4 prints it; 1.0 prints only rates, so null there). */
  count: z.number().int().nonnegative().nullable(),
});

export const SysbenchDirectionSchema = SysbenchOpRatesSchema.extend({
  bytesPerSec: z.number().nonnegative(),
  /** How bytesPerSec was obtained: operations × block size (exact), or the printed MiB/s (rounded). */
  bytesFrom: z.enum(['ops-times-block-size', 'printed-throughput']),
});
export type SysbenchDirection = z.infer<typeof SysbenchDirectionSchema>;

export const SysbenchLatencySchema = z.object({
  minMs: z.number().nonnegative().nullable(),
  avgMs: z.number().nonnegative().nullable(),
  maxMs: z.number().nonnegative().nullable(),
  /** sysbench reports ONE percentile (`--percentile`, default 95); 0 disables it. */
  percentile: z
    .object({ rank: z.number().positive().max(100), valueMs: z.number().nonnegative() })
    .nullable(),
  /** Sum of all event times over all threads (1.0 "sum", 0.4 "total time taken by event execution"), ms. */
  sumMs: z.number().nonnegative().nullable(),
});

export const SysbenchHistogramBinSchema = z.object({
  valueMs: z.number().nonnegative(),
  count: z.number().int(),
});

export const SysbenchIntervalSchema = z.object({
  atSec: z.number().nonnegative(),
  readMiBps: z.number().nonnegative(),
  writeMiBps: z.number().nonnegative(),
  fsyncsPerSec: z.number().nonnegative(),
  latencyMs: z.number().nonnegative().nullable(),
});

export const SysbenchFileioSchema = z.object({
  /** "1.0.20", "0.4.12"; null when the banner line is missing (output pasted without it). */
  version: z.string().nullable(),
  format: z.enum(['1.0', '0.4']),
  testMode: SysbenchTestModeSchema.nullable(),
  ioMode: SysbenchIoModeSchema.nullable(),
  threads: z.number().int().positive().nullable(),
  openFlags: SysbenchOpenFlagsSchema.nullable(),
  fileCount: z.number().int().positive().nullable(),
  totalFileSizeBytes: z.number().positive().nullable(),
  /** `--file-block-size`: every read and write has this size (unless requests are merged). */
  blockSizeBytes: z.number().positive().nullable(),
  /** `--events` (0.4 `--max-requests`): 0 = no limit, the run lasts `--time`. null: not printed. */
  requestLimit: z.number().int().nonnegative().nullable(),
  /** `--file-rw-ratio`: reads per write in rndrw. */
  readWriteRatio: z.number().nonnegative().nullable(),
  fsync: z.object({
    /** `--file-fsync-freq`: fsync() after this many requests; null = no periodic fsync. */
    everyRequests: z.number().int().positive().nullable(),
    /** `--file-fsync-all`: fsync() after every write. */
    afterEachWrite: z.boolean(),
    /** `--file-fsync-end`: one fsync() per file when the test ends (not part of the workload). */
    atEnd: z.boolean().nullable(),
  }),
  /** "Time limit exceeded" (0.4) or a time-based 1.0 run: the run ended by time, not by request count. */
  timeLimited: z.boolean().nullable(),
  reportIntervalSec: z.number().positive().nullable(),
  reads: SysbenchDirectionSchema,
  writes: SysbenchDirectionSchema,
  /** fsync()/fdatasync() calls ("Other" in 0.4). */
  fsyncs: SysbenchOpRatesSchema,
  totalTimeSec: z.number().positive(),
  /** Events sysbench counted: reads + writes + fsyncs in 1.0, reads + writes in 0.4. */
  totalEvents: z.number().int().nonnegative().nullable(),
  latency: SysbenchLatencySchema,
  /** `--histogram=on` (1.0): latency bins, each the upper value of its bucket in ms. */
  histogram: z.array(SysbenchHistogramBinSchema).nullable(),
  /** `--report-interval` lines (1.0). */
  intervals: z.array(SysbenchIntervalSchema),
  warnings: z.array(WarningSchema),
});
export type SysbenchFileio = z.infer<typeof SysbenchFileioSchema>;
