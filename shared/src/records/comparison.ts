import { z } from 'zod';
import { RunJobSettingsSchema } from '../compare/compare-jobs.ts';
import { RunPairComparisonSchema } from '../compare/compare-runs.ts';
import { LatencyComparisonSchema } from '../plan/latency.ts';
import { PlanResultSchema } from '../plan/plan.ts';
import { WarningSchema } from '../problem.ts';
import { IdSchema, RunLabelsSchema, RunSummarySchema } from './run.ts';

/**
 * What a share link shows, computed once at creation and never again (immutable). Fields added
 * later are optional: comparisons stored before them must still parse.
 */
export const ComparisonResultSchema = z.object({
  runs: z.array(
    z.object({
      id: IdSchema,
      labels: RunLabelsSchema,
      fioVersion: z.string().nullable(),
      summary: RunSummarySchema,
      /** The settings of the run's fio jobs (absent in comparisons stored before jobs were compared). */
      jobSettings: RunJobSettingsSchema.optional(),
    }),
  ),
  /** One plan per candidate configuration of the session (or per run when there is no session). */
  plans: z.array(z.object({ title: z.string(), plan: PlanResultSchema })),
  /**
   * EBS vs NVMe latency, reads (else writes), when the comparison holds one run of each kind; null
   * when the verdict is withheld because the runs ran different fio jobs. `nvmeVsEbs` has both directions.
   */
  latency: LatencyComparisonSchema.nullable(),
  /**
   * The first NVMe run (reference) against the first EBS run (candidate): whether they ran the
   * same fio job, the numbers side by side, and the verdicts — withheld when the jobs differ.
   * null without a run of each kind; absent in comparisons stored before jobs were compared.
   */
  nvmeVsEbs: RunPairComparisonSchema.nullable().optional(),
  /** About the comparison as a whole: `jobs_differ`. Absent in comparisons stored before it existed. */
  warnings: z.array(WarningSchema).optional(),
  rates: z.object({ region: z.string().nullable(), source: z.string(), date: z.string() }),
});
export type ComparisonResult = z.infer<typeof ComparisonResultSchema>;
