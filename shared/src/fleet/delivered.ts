import type { InstanceSpec } from '../aws/instance-spec.ts';
import { INSTANCE_BURST_MINUTES_PER_DAY } from '../aws/volume-types.ts';
import { burstGivenUp } from '../plan/headroom.ts';
import { instancesSustaining } from '../plan/right-size.ts';
import { formatInt } from '../units.ts';
import { capsOf } from './instances.ts';
import type { FleetInstanceFlag } from './schema.ts';

/**
 * Never below what is delivered today, silently (docs/fleet.md §2, step 4). A recommendation stops
 * at the instance's baseline EBS IOPS or bandwidth when the target is above it. Two cases:
 *
 * - the observed peak itself is above the baseline: the instance's burst (its maximum, 30 minutes
 *   at least once every 24 hours) delivered it. Capping the volume at the baseline would throttle
 *   those peaks, so the volume is kept at the target and the instance is flagged, with the
 *   cheapest one whose baseline carries the target — and what capping would give up, plainly;
 * - the peak is within the baseline, only the headroom is not: the cap keeps every observed peak,
 *   and the note says how much headroom is left instead of the one asked for.
 */
export type DeliveredCheck =
  { kind: 'keep-target'; flag: FleetInstanceFlag } | { kind: 'cap'; note: string } | { kind: 'none' };

const n0 = formatInt;

export function checkDelivered(args: {
  peak: { iops: number; mibps: number };
  target: { iops: number; throughputMibps: number };
  instance: InstanceSpec | null;
  headroom: number;
  pool: readonly InstanceSpec[];
}): DeliveredCheck {
  const caps = capsOf(args.instance);
  if (!caps || !args.instance) return { kind: 'none' };
  const { peak, target } = args;
  if (target.iops <= caps.baselineIops && target.throughputMibps <= caps.baselineMibps)
    return { kind: 'none' };
  const name = args.instance.instanceType;
  const peakIops = Math.round(peak.iops);
  const peakMibps = Math.round(peak.mibps);
  const aboveIops = peakIops > caps.baselineIops;
  const aboveMibps = peakMibps > caps.baselineMibps;
  if (aboveIops || aboveMibps) {
    const rode = [
      aboveIops ? `${n0(peakIops)} IOPS above its ${n0(caps.baselineIops)} baseline IOPS` : null,
      aboveMibps ? `${n0(peakMibps)} MiB/s above its ${n0(caps.baselineMibps)} MiB/s baseline` : null,
    ]
      .filter(Boolean)
      .join(' and ');
    const next = instancesSustaining(
      { iops: target.iops, throughputMiBps: target.throughputMibps },
      args.instance,
      args.pool,
    )[0];
    const sustained = next
      ? `; ${next.instanceType} is the cheapest replacement whose baseline carries the ${n0(target.iops)} IOPS / ${n0(target.throughputMibps)} MiB/s target (${n0(next.baselineIops)} IOPS, ${n0(next.baselineBandwidthMbps)} Mbps${next.usdPerMonthUsEast1 != null ? `, $${next.usdPerMonthUsEast1.toFixed(2)}/month on demand in us-east-1` : ''})`
      : args.pool.length > 0
        ? '; no replacement instance in the catalog carries the target on its baseline'
        : '';
    return {
      kind: 'keep-target',
      flag: {
        instanceType: name,
        reason: `${name}'s burst (up to ${n0(caps.maximumIops)} IOPS / ${n0(caps.maximumMibps)} MiB/s, ${INSTANCE_BURST_MINUTES_PER_DAY} minutes at least once every 24 hours) carried peaks of ${rode}: the volume is kept at the target, the instance is what must change${sustained}`,
        sustainedBy: next?.instanceType ?? null,
        cappingGivesUp: burstGivenUp(
          { iops: peakIops, mibps: peakMibps },
          { iops: caps.baselineIops, mibps: caps.baselineMibps },
        )!,
      },
    };
  }
  const left = Math.min(
    peakIops > 0 ? caps.baselineIops / peakIops - 1 : Infinity,
    peakMibps > 0 ? caps.baselineMibps / peakMibps - 1 : Infinity,
  );
  const leftText = Number.isFinite(left) ? `${Math.round(left * 1000) / 10}%` : 'all of it';
  return {
    kind: 'cap',
    note: `the cap at ${name}'s baseline still covers the observed peak (${n0(peakIops)} IOPS, ${n0(peakMibps)} MiB/s) but leaves ${leftText} headroom instead of the ${Math.round(args.headroom * 100)}% asked for`,
  };
}
