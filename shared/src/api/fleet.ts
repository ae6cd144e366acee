import { AudienceSchema } from '../audience.ts';
import { z } from 'zod';
import { FleetHeadroomSchema, FleetPlanSchema, FleetStatisticSchema } from '../fleet/schema.ts';
import { IdSchema } from '../records/run.ts';

/**
 * POST /api/fleet/plans: the AWS CLI outputs exactly as saved (`--output json`) and the planning
 * options. The outputs are read by the shared parsers (parseFleetVolumes, parseMetricData,
 * parseFleetInstances), which name the field that is wrong; this schema checks only the envelope.
 */
export const CreateFleetPlanBodySchema = z.strictObject({
  /** `aws ec2 describe-volumes --output json`. */
  volumes: z.custom<unknown>((value) => value !== undefined, 'required: the describe-volumes output'),
  /** One or more `aws cloudwatch get-metric-data --output json` responses (NextToken pages, batches). */
  metrics: z
    .array(z.unknown())
    .min(1, 'give at least one get-metric-data response')
    .max(10_000, 'at most 10,000 get-metric-data responses'),
  /** `aws ec2 describe-instances --output json`: the instance types whose EBS caps apply. */
  instances: z.unknown().optional(),
  /** Headroom over the observed peak: 0.25 = 25 % (FLEET_DEFAULTS.headroom when absent; FLEET_HEADROOM_BOUNDS). */
  headroom: FleetHeadroomSchema.optional(),
  statistic: FleetStatisticSchema.optional(),
  /**
   * Size p99/p95 on the percentile even where a peak recurs (`--ignore-recurring`): those peaks are
   * then throttled every time they recur, and the plan says so per volume. Default false.
   */
  ignoreRecurring: z.boolean().optional(),
  /**
   * Who reads the plan's notes: 'web' names the Fleet page's options (“Ignore recurring peaks”),
   * 'cli' (the default) the `blockwise fleet plan` flags they match. The web app sends 'web'.
   */
  audience: AudienceSchema.optional(),
  /** The region whose prices apply (default FLEET_DEFAULTS.region, us-east-1). */
  region: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'expected an AWS region code such as eu-west-1')
    .optional(),
});
export type CreateFleetPlanBody = z.infer<typeof CreateFleetPlanBodySchema>;

/** 201 of POST /api/fleet/plans. */
export const CreatedFleetPlanSchema = z.object({
  id: IdSchema,
  /** The share page (`/fleet/ID`), absolute when BLOCKWISE_PUBLIC_URL is set. */
  url: z.string(),
  plan: FleetPlanSchema,
});

/** GET /api/fleet/plans/:id: the plan as it was stored, never recomputed. */
export const StoredFleetPlanResponseSchema = CreatedFleetPlanSchema.extend({
  createdAt: z.iso.datetime(),
  analysisVersion: z.string(),
});
export type CreatedFleetPlan = z.infer<typeof CreatedFleetPlanSchema>;
export type StoredFleetPlanResponse = z.infer<typeof StoredFleetPlanResponseSchema>;
