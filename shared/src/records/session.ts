import { z } from 'zod';
import { Gp3GenerationSchema } from '../aws/volume-types.ts';
import { DatasetGrowthSchema } from '../plan/dataset-growth.ts';
import { ResidencySchema } from '../plan/viability.ts';
import { VolumeConfigSchema } from '../plan/volume.ts';
import { ObservedMetricsSchema } from '../profile/observed.ts';

/**
 * A typed-in profile of a planning session (numbers from CloudWatch/Grafana/Datadog, a metrics
 * export's peaks), or an imported benchmark's numbers (sysbench). `role`: what the numbers are
 * (issue 27) — absent or `demand`, what the workload asks (sized on); `capacity`, what a storage
 * delivered (compared, never sized on unless the session names it as its profileRef). Optional:
 * sessions saved before roles were kept held typed-in numbers only.
 */
export const SessionObservedSchema = ObservedMetricsSchema.extend({
  id: z.string().max(40),
  role: z.enum(['demand', 'capacity']).optional(),
  /**
   * What measured a benchmark's numbers (`sysbench`), so a share link names it as the planning
   * page did. Optional: absent in entries typed in, and in sessions saved before it was kept.
   */
  kind: z.enum(['sysbench']).optional(),
});

/**
 * The inputs of a planning session: what "Save & share" stores (with the run ids) and what an
 * unsaved session encodes in its URL (typed-in inputs only). The server recomputes the result
 * from these and freezes it in the comparison.
 */
export const PlanSessionSchema = z.object({
  version: z.literal(1),
  observed: z.array(SessionObservedSchema).max(20),
  /**
   * Which profile the plan is for: `run:<id>` or `observed:<id>`; null = the newest demand source (chooseDemandSource)
   * (a rate-capped run, a typed-in entry), and none: the comparison holds no plan (issue 27).
   */
  profileRef: z.string().max(60).nullable(),
  instanceType: z.string().max(64).nullable(),
  /** Candidate EBS configurations to compare (gp3 vs io2 vs gp2 …). */
  candidates: z.array(VolumeConfigSchema).max(10),
  headroom: z.number().min(0).max(5),
  region: z.string().max(40),
  /** `storage=0.08,iops=0.005` or qualified `gp3.iops=…`, applied over the region's card. */
  rateOverrides: z.string().max(500).nullable(),
  nodes: z.number().int().min(1).max(100_000),
  gp3Generation: Gp3GenerationSchema,
  syncCommits: z.boolean(),
  residency: ResidencySchema,
  datasetGiB: z.number().positive().max(10_000_000).nullable(),
  /**
   * How the dataset grows over the planning horizon; null or absent = planned for today's size.
   * Optional: sessions saved and links shared before growth existed still parse.
   */
  datasetGrowth: DatasetGrowthSchema.nullable().optional(),
  /**
   * The runs (`run:<id>`) the user marked "this run replays our load": demand, though no rate is
   * set in them (issue 27). Optional: sessions saved before the marks were kept lack it, and a
   * stored one that names a run at saturation as its profileRef then answers with what each
   * storage delivered (answersWithCapacity), since that web named the first run whatever its role.
   * POST /api/comparisons stores [] when a client omits it, so absent means "stored before".
   */
  replaysLoad: z
    .array(z.string().max(60))
    .max(100)
    .optional()
    .describe(
      'The runs ("run:<id>") the user marked as replaying the workload\'s load: sized on as demand though no rate is set in them. POST /api/comparisons stores [] when absent; a stored session without it was saved before the marks were kept, and if its profileRef names a run at saturation the link answers with what each storage delivered.',
    ),
});
export type PlanSession = z.infer<typeof PlanSessionSchema>;
