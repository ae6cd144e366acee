import { formatInt } from '../units.ts';

/**
 * The sizing target: a peak × (1 + headroom), rounded up to whole IOPS and MiB/s (docs/domain.md
 * §7). One formula for the single-volume demand, the fleet's volumes and its instance rows.
 */
export function headroomTarget(
  peak: { iops: number; mibps: number },
  headroom: number,
): { iops: number; throughputMibps: number } {
  const f = 1 + headroom;
  return { iops: Math.ceil(peak.iops * f), throughputMibps: Math.ceil(peak.mibps * f) };
}

/**
 * What capping a volume at an instance's baseline gives up when its peaks rode the burst, in one
 * sentence (the planner's reasons and the fleet's instance flags say it alike); null when no peak
 * is above the baseline.
 */
export function burstGivenUp(
  peak: { iops: number; mibps: number },
  baseline: { iops: number; mibps: number },
): string | null {
  const n0 = formatInt;
  const parts = [
    peak.iops > baseline.iops
      ? `peaks of ${n0(peak.iops)} IOPS will be throttled to ${n0(baseline.iops)}`
      : null,
    peak.mibps > baseline.mibps
      ? `peaks of ${n0(peak.mibps)} MiB/s will be throttled to ${n0(baseline.mibps)}`
      : null,
  ].filter(Boolean);
  return parts.length === 0
    ? null
    : `capping at the instance baseline gives up the burst: ${parts.join(' and ')}`;
}
