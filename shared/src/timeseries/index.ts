export {
  CLOUDWATCH_STATISTICS,
  CloudWatchStatisticSchema,
  VALUE_KINDS,
  ValueKindSchema,
} from './series.schema.ts';
export type { IoSeries, SeriesChoice, SeriesImportOptions } from './series.schema.ts';
export { parseTimeZone } from './timestamps.ts';

export { importMetrics } from './import-metrics.ts';
export { looksLikeMetricsExport, METRICS_FORMATS, SERIES_FORMATS } from './formats.ts';
export type { ImportFlag } from './formats.ts';
export { summarizeSeries } from './stats.ts';
export type { RateSummary, SeriesSummary } from './stats.ts';
export {
  profileFromSeries,
  profilesByStatistic,
  SIZING_STATISTIC_LABELS,
  SIZING_STATISTICS,
  sizingSummary,
} from './sizing.ts';
export type { SizingStatistic } from './sizing.ts';
export { minutesAbovePerDay } from './burst.ts';
export type { Capacity, MinutesAbove } from './burst.ts';

export { iopsFromQueue, summarizeQueue } from './queue.ts';
export type { QueueSummary } from './queue.ts';
export { PROMQL_COUNTERS, PROMQL_EBS_CSI } from './promql.ts';
export { summarizeEbsNvme } from './ebs-nvme.ts';
