import { z } from 'zod';
import { STORABLE_TEXT_MESSAGE, isStorableText } from '../storable-text.ts';
import { MetricIdSchema } from './metrics.ts';

/**
 * How a CI series is judged (`PUT /api/series/:series/settings`). Every field has a default, so
 * `{}` is a complete configuration; unknown keys are refused (a typo such as `treshold` must not
 * silently leave the default in force).
 */

export const REGRESSION_METHODS = ['percent', 'minmax', 'sigma'] as const;
/**
 * - `percent`: worse than the baseline mean by more than the threshold;
 * - `minmax`: outside the baseline's min–max range by more than the threshold (the range already
 *   holds the noise the runs showed, so the threshold can be small);
 * - `sigma`: outside mean ± k·σ (sample standard deviation) AND by more than the threshold — the
 *   threshold is the smallest change worth a red build, so a baseline of near-identical runs
 *   (σ ≈ 0) does not turn 0.5 % of jitter into an alarm. Set the thresholds to 0 for pure k·σ.
 */
export const RegressionMethodSchema = z.enum(REGRESSION_METHODS);

const percent = z.number().min(0).max(1000);

/** Percent, per metric family. Latency is noisier than throughput run to run, hence 20 vs 10. */
export const ThresholdsSchema = z.strictObject({
  iops: percent.default(10),
  throughput: percent.default(10),
  latency: percent.default(20),
});

export const SeriesConfigSchema = z
  .strictObject({
    /**
     * The branch a run is compared with when its upload names none (`--base-branch`). Text the
     * `branch` label accepts: a value the archive cannot query (U+0000) would fail every check.
     */
    baseBranch: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .refine(isStorableText, STORABLE_TEXT_MESSAGE)
      .default('main'),
    /** How many of the base branch's latest runs (older than the checked run) form the baseline. */
    baselineRuns: z.number().int().min(1).max(50).default(5),
    /** Fewer baseline runs than this: nothing is judged ("insufficient history"), the gate passes. */
    minBaselineRuns: z.number().int().min(1).max(50).default(3),
    method: RegressionMethodSchema.default('percent'),
    /** k of the `sigma` method. */
    sigmaK: z.number().positive().max(10).default(3),
    thresholds: ThresholdsSchema.prefault({}),
    /** Metrics the series does not judge (e.g. `read.clat.p99.9` on a 30-second job). */
    ignoreMetrics: z.array(MetricIdSchema).max(20).default([]),
  })
  .refine((c) => c.minBaselineRuns <= c.baselineRuns, {
    message: 'minBaselineRuns cannot exceed baselineRuns (the baseline would never be complete)',
    path: ['minBaselineRuns'],
  });
export type SeriesConfig = z.infer<typeof SeriesConfigSchema>;
export type SeriesConfigInput = z.input<typeof SeriesConfigSchema>;

/** The configuration of a series nobody configured. */
export function defaultSeriesConfig(): SeriesConfig {
  return SeriesConfigSchema.parse({});
}
