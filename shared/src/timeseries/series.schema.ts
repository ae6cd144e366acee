import type { Audience } from '../audience.ts';
import { z } from 'zod';
import { ProblemSchema, WarningSchema } from '../problem.ts';
import { SERIES_FORMATS } from './formats.ts';

/**
 * A production I/O time series, normalized: per-second rates (IOPS, bytes/s) per direction, one
 * point per period, sorted by time (UTC), duplicates removed, gaps left as gaps (never
 * interpolated) and counted. Produced only by the importers in this folder; the statistics, the
 * sizing profile and the burst-window check read this shape.
 *
 * Stored column-wise (one array per quantity, same length as `timeMs`) so a million points stay a
 * few arrays of numbers. `null` = no data point for that quantity at that time.
 */

export const IO_METRICS = ['readOps', 'writeOps', 'readBytes', 'writeBytes'] as const;
export const IoMetricSchema = z.enum(IO_METRICS);
export type IoMetric = z.infer<typeof IoMetricSchema>;

/** The metrics formats' ids: one entry each in METRICS_FORMATS (formats.ts, the registry). */
export const SeriesFormatSchema = z.enum(SERIES_FORMATS);
export type SeriesFormat = z.infer<typeof SeriesFormatSchema>;

/** CloudWatch statistics whose values can be turned into rates (see build-series.ts for the semantics). */
export const CLOUDWATCH_STATISTICS = ['Sum', 'Average', 'Maximum', 'Minimum'] as const;
export const CloudWatchStatisticSchema = z.enum(CLOUDWATCH_STATISTICS);
export type CloudWatchStatistic = z.infer<typeof CloudWatchStatisticSchema>;

const rates = z.array(z.number().nonnegative().finite().nullable());

/**
 * The device a per-device export was read for (iostat, sar, sadf, Prometheus node_exporter,
 * Datadog), how it was chosen, and what the tool reported beyond the four rates.
 */
export const SeriesDeviceSchema = z.object({
  /** The device read: `nvme0n1`, `dev8-0`, or `host:device` when several hosts share a name. */
  name: z.string(),
  /** `asked`: the caller named it (`device`); `only`: the file has one; `busiest`: the most operations. */
  chosenBy: z.enum(['asked', 'only', 'busiest']),
  /** Every device in the file with its operations over the file (for a choice and its reason). */
  devices: z.array(z.object({ name: z.string(), operations: z.number().nonnegative() })),
  /**
   * Per point, aligned with `timeMs` (null where not reported): the average number of requests
   * in the device's queue (iostat `aqu-sz`/`avgqu-sz`, sar `aqu-sz`), their average time from
   * issue to completion (`await`, or the per-direction awaits weighted by their rates), and the
   * requests per second that queue saw — reads and writes plus discards and flushes (iostat
   * d/s, f/s; sar's tps). With the three, Little's law can be checked (queue.ts). Null when the
   * tool reports no queue (Prometheus, Datadog).
   */
  queue: z.object({ queueDepth: rates, awaitMs: rates, requestsPerSec: rates }).nullable(),
  /**
   * The tool's own average request size checked against bytes ÷ operations at each point with at
   * least one operation per second (iostat rareq-sz/wareq-sz/avgrq-sz, sar areq-sz/avgrq-sz):
   * a disagreement beyond rounding means the units were misread. Null when the tool prints none.
   */
  requestSizeCheck: z
    .object({
      checked: z.number().int().nonnegative(),
      mismatched: z.number().int().nonnegative(),
      /** The largest disagreement: where, the size printed and bytes ÷ operations (bytes). */
      worst: z.object({ where: z.string(), reportedBytes: z.number(), computedBytes: z.number() }).nullable(),
    })
    .nullable(),
});
export type SeriesDevice = z.infer<typeof SeriesDeviceSchema>;

/** A latency percentile per point, in µs (null where the interval had no operation in that direction). */
const latencyUs = z.object({ avg: rates, p50: rates, p99: rates, p999: rates });

/**
 * What an EBS volume says about itself through NVMe (`nvme amzn stats`, log page 0xD0; read by
 * nvme-amzn.ts), per point and aligned with `timeMs`: the latency of the interval's operations
 * (µs: the average from the total time, percentiles from the histogram's difference — the upper
 * bound of the bin holding the rank) and the seconds of the interval during which the volume's
 * or the instance's IOPS or throughput limit held the I/O back.
 */
export const EbsNvmeStatsSchema = z.object({
  readLatencyUs: latencyUs,
  writeLatencyUs: latencyUs,
  exceededSec: z.object({
    volumeIops: rates,
    volumeThroughput: rates,
    instanceIops: rates,
    instanceThroughput: rates,
  }),
  /** `volume_queue_length` at the end of the interval (a point in time, not an average). */
  queueLength: rates,
});
export type EbsNvmeStats = z.infer<typeof EbsNvmeStatsSchema>;

export const IoSeriesSchema = z.object({
  format: SeriesFormatSchema,
  /** What the series measures, from the labels (a volume or instance id) or the caller. */
  label: z.string().nullable(),
  /** Seconds each point covers (CloudWatch's period; Grafana's step). */
  periodSec: z.number().positive(),
  conversion: z.object({
    /** The CloudWatch statistic the values were; null when the file held per-second rates already. */
    statistic: CloudWatchStatisticSchema.nullable(),
    /** Each value was divided by this many seconds to become a per-second rate; null for rates. */
    divisorSec: z.number().positive().nullable(),
    /** One sentence: how values became rates, for people. */
    explanation: z.string(),
  }),
  /** Which input column/result became which quantity, in what unit. Several for one metric are added. */
  columns: z.array(
    z.object({ metric: IoMetricSchema, label: z.string(), source: z.string(), unit: z.string() }),
  ),
  timeMs: z.array(z.number()),
  readIops: rates,
  writeIops: rates,
  readBytesPerSec: rates,
  writeBytesPerSec: rates,
  quality: z.object({
    /** Data rows (or timestamps) read from the input. */
    inputPoints: z.number().int().nonnegative(),
    /** Runs of missing periods between the first and last point. */
    gaps: z.number().int().nonnegative(),
    /** Periods missing in those runs, plus rows without any value. */
    missingPoints: z.number().int().nonnegative(),
    /** Repeated timestamps dropped (the first occurrence is kept). */
    duplicates: z.number().int().nonnegative(),
    /** …of which carried different values (two exports concatenated?). */
    conflictingDuplicates: z.number().int().nonnegative(),
    /** Points where some but not all quantities have a value. */
    partialPoints: z.number().int().nonnegative(),
    /** The input was not in time order (get-metric-data is newest-first by default). */
    reordered: z.boolean(),
    /** Repeated local hours (daylight saving time ended) placed after each other. */
    dstRepairs: z.number().int().nonnegative(),
    /** How wall-clock times without an offset were read: "UTC", "UTC+01:00", "America/New_York", or null when every value had an offset. */
    naiveTimesAs: z.string().nullable(),
  }),
  warnings: z.array(WarningSchema),
  /** Per-device exports only (see SeriesDeviceSchema); absent or null for the others. */
  device: SeriesDeviceSchema.nullable().optional(),
  /** `nvme amzn stats` only (see EbsNvmeStatsSchema); absent for the other formats and older stored series. */
  ebsNvme: EbsNvmeStatsSchema.optional(),
});
export type IoSeries = z.infer<typeof IoSeriesSchema>;

/** Options every importer accepts. Each resolves an ambiguity the file itself may leave open. */
export type SeriesImportOptions = {
  /** Who reads the warnings: a setting is named by its flag (CLI) or its control (web). */
  audience?: Audience;
  /** The statistic of CloudWatch values (when the labels don't say; when they do, this overrides with a warning). */
  statistic?: CloudWatchStatistic;
  /** Seconds per point (when the labels don't say and the spacing can't tell, e.g. one point). */
  periodSec?: number;
  /**
   * For Average/Maximum/Minimum: how many seconds each raw CloudWatch data point covers — 60 for
   * EBS volume metrics and EC2 detailed monitoring, 300 for EC2 basic monitoring.
   */
  sourceIntervalSec?: number;
  /** Zone of timestamps written without an offset: "UTC", "+01:00", "America/New_York". */
  timeZone?: string;
  /** For throughput columns whose header names no unit (Grafana). */
  throughputUnit?: string;
  /** Keep only columns/results whose label contains this text (e.g. one volume id of several). */
  match?: string;
  /** Per-device exports (iostat, sar, sadf, Prometheus, Datadog): the device to read; else the busiest. */
  device?: string;
  /**
   * Prometheus query_range: whether the values are cumulative counters (node_exporter's
   * `*_total`, turned into rates here) or already rates (`rate(…[1m])`). Normally told by the
   * series name; asked when the values contradict it.
   */
  valueKind?: ValueKind;
  /** Largest number of points accepted (default 1,000,000). */
  maxPoints?: number;
  label?: string;
};

export const DEFAULT_MAX_POINTS = 1_000_000;

export const VALUE_KINDS = ['counter', 'rate'] as const;
export const ValueKindSchema = z.enum(VALUE_KINDS);
export type ValueKind = z.infer<typeof ValueKindSchema>;

/** A question the file leaves open: what to pass, why, and the plausible answers. */
export const SeriesChoiceSchema = z.object({
  option: z.enum(['statistic', 'periodSec', 'sourceIntervalSec', 'throughputUnit', 'timeZone', 'valueKind']),
  /** The CLI flag that answers it. */
  flag: z.string(),
  why: z.string(),
  candidates: z.array(z.string()),
});
export type SeriesChoice = z.infer<typeof SeriesChoiceSchema>;

/**
 * An import either succeeds, fails, or — `error.code` `choice_required` — stops because the file
 * is ambiguous and lists what the caller must choose (never a silent guess: Sum and Average
 * differ by a factor of the period).
 */
export const SeriesImportFailureSchema = z.object({
  ok: z.literal(false),
  error: ProblemSchema,
  choices: z.array(SeriesChoiceSchema).optional(),
});
export type SeriesImportResult = { ok: true; value: IoSeries } | z.infer<typeof SeriesImportFailureSchema>;
