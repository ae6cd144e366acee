import { descriptorOf, INSTANCE_BURST_MINUTES_PER_DAY } from '../aws/volume-types.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import type { Limit, LimitTarget } from './limit.schema.ts';

/**
 * Can the measured rates be real on this configuration, for as long as they were held?
 *
 * A rate above a SUSTAINED ceiling is reachable only on a burst allowance: the instance's EBS
 * maximum for 30 minutes per 24 hours (AWS EC2 "Amazon EBS-optimized instances"), a gp2 volume's
 * I/O credits (5.4 M, earned at its baseline), an st1/sc1 volume's throughput credits (1 TiB per
 * TiB). Above a ceiling that has no burst — or above the burst ceiling itself — the configuration
 * cannot deliver it at all. Each overrun gets a verdict:
 * - `bursting`: within the allowance (or nobody said how long): the burst ceiling is what binds;
 * - `exceeds-sustainable`: held longer than the allowance lasts at that rate: cannot be real;
 * - `above-ceiling`: above anything the configuration delivers, even bursting.
 */

/**
 * A measurement within 5% of a ceiling is AT the ceiling: fio's IOPS and EBS's delivery wobble by
 * a few percent (16,002 IOPS measured on a 16,000-IOPS gp3 is that volume pinned, not an anomaly).
 * Above it, a measurement is never called "pinned".
 */
export const CEILING_TOLERANCE = 1.05;

export type OverrunVerdict = 'bursting' | 'exceeds-sustainable' | 'above-ceiling';

export type Overrun = {
  /** The sustained limit the demand is above. */
  limit: Limit;
  /** Its burst counterpart, when the configuration has one. */
  burst: Limit | null;
  /** What grants the burst. */
  allowance: 'instance' | 'gp2' | 'hdd' | null;
  /** How long the burst lasts at this demand from full credits, s (Infinity: credits do not drain; null: no burst). */
  allowanceSec: number | null;
  /** How long the measurement held the rate, s (null: unknown). */
  heldSec: number | null;
  verdict: OverrunVerdict;
};

/**
 * How long the profile's rates were held. fio, sysbench: the runtime (their numbers are averages
 * over it); typed-in peaks: the runtime the user gave, if any; a time series: unknown here — its
 * peak is one 5-minute point, and the series' own burst analysis counts minutes above baseline.
 */
export function heldSecondsOf(profile: IoProfile): number | null {
  return profile.source === 'timeseries' ? null : profile.durationSec;
}

const burstIdOf = (id: Limit['id']) => `${id}-burst` as Limit['id'];

function allowanceOf(
  limit: Limit,
  limits: readonly Limit[],
  target: LimitTarget | null,
): { allowance: Overrun['allowance']; seconds: number | null } {
  if (limit.scope === 'instance')
    return { allowance: 'instance', seconds: INSTANCE_BURST_MINUTES_PER_DAY * 60 };
  if (target?.kind !== 'ebs') return { allowance: null, seconds: null };
  const v = target.volume;
  const count = v.count ?? 1;
  // The type's credit bucket (its descriptor): gp2's drains with operations, st1/sc1's with MiB/s.
  const burst = descriptorOf(v.type).burst;
  if (burst) {
    const perVolume =
      burst.drainedBy === 'operations' ? operationsPerVolume(limits, count) : limit.demand / count;
    return { allowance: burst.allowance, seconds: burst.seconds(v.sizeGiB, perVolume) ?? Infinity };
  }
  return { allowance: null, seconds: null };
}

/** EBS operations per second per volume of the stripe, as the volume-iops limit counted them. */
export function operationsPerVolume(limits: readonly Limit[], count: number): number {
  return (limits.find((l) => l.id === 'volume-iops')?.demand ?? 0) / count;
}

/** Every sustained ceiling the demand is above (beyond the tolerance), with its verdict. */
export function findOverruns(input: {
  profile: IoProfile;
  target: LimitTarget | null;
  limits: readonly Limit[];
}): Overrun[] {
  const heldSec = heldSecondsOf(input.profile);
  const overruns: Overrun[] = [];
  for (const limit of input.limits) {
    if (!limit.sustained || limit.scope === 'instance-store' || limit.utilization <= CEILING_TOLERANCE)
      continue;
    const burst = input.limits.find((l) => l.id === burstIdOf(limit.id)) ?? null;
    const { allowance, seconds } = burst
      ? allowanceOf(limit, input.limits, input.target)
      : { allowance: null, seconds: null };
    let verdict: OverrunVerdict;
    if (!burst || burst.utilization > CEILING_TOLERANCE || seconds === 0) verdict = 'above-ceiling';
    else if (heldSec !== null && seconds !== null && heldSec > seconds) verdict = 'exceeds-sustainable';
    else verdict = 'bursting';
    overruns.push({ limit, burst, allowance, allowanceSec: seconds, heldSec, verdict });
  }
  return overruns;
}
