import { z } from 'zod';

/**
 * Censored demand: a volume delivering at its provisioned limit shows what the limit let through,
 * not what the workload asked for. When the delivered rate sits within 5 % of the limit
 * (`AT_LIMIT_FRACTION`, the same tolerance as CEILING_TOLERANCE in plan/sustainability.ts: EBS
 * delivery wobbles by a few percent) at `CENSORED_MIN_SHARE` of the points or more, the demand
 * is *at least* the limit and unknown above it: the plan says so, recommends raising the limit
 * and measuring again, and never calls the volume right-sized.
 *
 * `evidence` names what showed it. Today only `delivered-at-limit` (the rates); AWS's own
 * throttling metrics (`VolumeIOPSExceededCheck`, `VolumeThroughputExceededCheck`: 1 when the
 * application tried to drive more than provisioned within the minute) are the next kind, and go
 * in the same record so every surface shows them without change.
 */

export const AT_LIMIT_FRACTION = 0.95;
/** 1 % of the points: 3.4 hours of 14 days, 40 of 4,032 five-minute points. */
export const CENSORED_MIN_SHARE = 0.01;
const CENSORED_MIN_POINTS = 3;

export const CensoringSchema = z.object({
  quantity: z.enum(['iops', 'throughput']),
  /** What showed it (see above). */
  evidence: z.enum(['delivered-at-limit', 'exceeded-check']),
  /** The provisioned limit: IOPS, or bytes/s for throughput. */
  limit: z.number().positive(),
  /** Points at ≥ 95 % of the limit, of the points with a value. */
  pointsAtLimit: z.number().int().nonnegative(),
  points: z.number().int().nonnegative(),
  /** pointsAtLimit ÷ points. */
  share: z.number().min(0).max(1),
  /** false when only a lower bound of pointsAtLimit is known (fleet summaries keep the top 5 %). */
  exact: z.boolean(),
});
export type Censoring = z.infer<typeof CensoringSchema>;

/** Whether a share of points at the limit is enough to call the demand censored. */
export const isCensored = (pointsAtLimit: number, points: number) =>
  points > 0 && pointsAtLimit >= CENSORED_MIN_POINTS && pointsAtLimit / points >= CENSORED_MIN_SHARE;

/** Censoring of one quantity from its points (read + write at each point), or null when not censored. */
export function censoringOf(
  values: readonly (number | null)[],
  limit: number | null | undefined,
  quantity: Censoring['quantity'],
): Censoring | null {
  if (limit === null || limit === undefined || !(limit > 0)) return null;
  let points = 0;
  let atLimit = 0;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    points++;
    if (v >= limit * AT_LIMIT_FRACTION) atLimit++;
  }
  if (!isCensored(atLimit, points)) return null;
  return {
    quantity,
    evidence: 'delivered-at-limit',
    limit,
    pointsAtLimit: atLimit,
    points,
    share: atLimit / points,
    exact: true,
  };
}
