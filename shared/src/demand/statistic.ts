import { z } from 'zod';

/**
 * The statistic a demand is sized on, over the points at their own step (never averaged up):
 * the maximum (AWS Compute Optimizer's convention, over its 5-minute data), p99 (ignores the
 * busiest 1 % of points) or p95 (5 %). A percentile never silently drops a peak that recurs
 * (recurrence.ts).
 */
export const SIZING_STATISTICS = ['max', 'p99', 'p95'] as const;
export const SizingStatisticSchema = z.enum(SIZING_STATISTICS);
export type SizingStatistic = z.infer<typeof SizingStatisticSchema>;

export const SIZING_STATISTIC_LABELS: Record<SizingStatistic, string> = {
  max: 'maximum of the points at their own step',
  p99: 'p99 of the points (recurring peaks kept)',
  p95: 'p95 of the points (recurring peaks kept)',
};
