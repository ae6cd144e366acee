import { z } from 'zod';
import { ProblemSchema, WarningSchema } from '../problem.ts';

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

export const SERIES_FORMATS = [
  'cloudwatch-console-csv',
  'cloudwatch-get-metric-data',
  'grafana-csv',
] as const;
export const SeriesFormatSchema = z.enum(SERIES_FORMATS);
export type SeriesFormat = z.infer<typeof SeriesFormatSchema>;

/** CloudWatch statistics whose values can be turned into rates (see build-series.ts for the semantics). */
export const CLOUDWATCH_STATISTICS = ['Sum', 'Average', 'Maximum', 'Minimum'] as const;
export const CloudWatchStatisticSchema = z.enum(CLOUDWATCH_STATISTICS);
export type CloudWatchStatistic = z.infer<typeof CloudWatchStatisticSchema>;

const rates = z.array(z.number().nonnegative().finite().nullable());

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
});
export type IoSeries = z.infer<typeof IoSeriesSchema>;

/** Options every importer accepts. Each resolves an ambiguity the file itself may leave open. */
export type SeriesImportOptions = {
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
  /** Largest number of points accepted (default 1,000,000). */
  maxPoints?: number;
  label?: string;
};

export const DEFAULT_MAX_POINTS = 1_000_000;

/** A question the file leaves open: what to pass, why, and the plausible answers. */
export const SeriesChoiceSchema = z.object({
  option: z.enum(['statistic', 'periodSec', 'sourceIntervalSec', 'throughputUnit', 'timeZone']),
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
