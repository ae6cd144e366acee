import { z } from 'zod';
import { MetricDirectionSchema, MetricIdSchema, MetricUnitSchema } from './metrics.ts';
import { RegressionMethodSchema } from './series-config.ts';

/**
 * What a regression gate says about one run. Plain (non-strict) objects: a CLI that validates
 * the server's answer keeps working when a later server adds a field.
 */

export const RegressionVerdictSchema = z.enum(['pass', 'regression', 'insufficient-history', 'no-base']);
export type RegressionVerdict = z.infer<typeof RegressionVerdictSchema>;

export const MetricVerdictSchema = z.enum(['ok', 'regression', 'improvement', 'skipped']);

/** The baseline runs' values of one metric (stddev: sample standard deviation, 0 for one run). */
export const BaselineStatsSchema = z.object({
  mean: z.number(),
  min: z.number(),
  max: z.number(),
  stddev: z.number(),
  n: z.number().int(),
});
export type BaselineStats = z.infer<typeof BaselineStatsSchema>;

export const MetricCheckSchema = z.object({
  metric: MetricIdSchema,
  /** "read IOPS", "write clat p99". */
  label: z.string(),
  io: z.enum(['read', 'write']),
  family: z.enum(['iops', 'throughput', 'latency']),
  direction: MetricDirectionSchema,
  unit: MetricUnitSchema,
  /** null when no baseline run has the metric. */
  baseline: BaselineStatsSchema.nullable(),
  /** This run's value; null when it has none (no I/O in that direction, percentile not reported). */
  value: z.number().nullable(),
  /** (value − baseline mean) / mean, in percent. */
  deltaPct: z.number().nullable(),
  /** The family's threshold in percent. */
  threshold: z.number(),
  /** The value past which this metric is a regression under the series' method (null when skipped). */
  limit: z.number().nullable(),
  /** Latency percentiles that are per-job upper bounds (several jobs, no json+ bins). */
  approximate: z.boolean(),
  verdict: MetricVerdictSchema,
  reason: z.string(),
});
export type MetricCheck = z.infer<typeof MetricCheckSchema>;

export const RegressionReportSchema = z.object({
  verdict: RegressionVerdictSchema,
  runId: z.string(),
  series: z.string().nullable(),
  branch: z.string().nullable(),
  commit: z.string().nullable(),
  /** The branch the baseline came from; null when none could be picked (`no-base`). */
  baseBranch: z.string().nullable(),
  /** Newest first. */
  baselineRunIds: z.array(z.string()),
  method: RegressionMethodSchema,
  sigmaK: z.number(),
  thresholds: z.object({ iops: z.number(), throughput: z.number(), latency: z.number() }),
  baselineRuns: z.number().int(),
  minBaselineRuns: z.number().int(),
  metrics: z.array(MetricCheckSchema),
  /** Things a reader should know (the job's block size changed, metrics ignored, …). */
  notes: z.array(z.string()),
  message: z.string(),
});
export type RegressionReport = z.infer<typeof RegressionReportSchema>;
