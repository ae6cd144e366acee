import { descriptorOf, type VolumeType } from '../aws/volume-types.ts';
import { formatInt } from '../units.ts';

/**
 * What a cheaper volume type gives up (docs/domain.md §7, "Every cheaper type, with its trade"):
 * the words are each type's `trade` (its descriptor, aws/volume-types/*.ts), from these sources.
 * Durability and annual failure rate: Amazon EBS User Guide, "Amazon EBS volume types" (gp2, gp3,
 * io1, st1, sc1: 99.8–99.9 %, AFR 0.1–0.2 %; io2 Block Express: 99.999 %, AFR ≤ 0.001 %).
 * Latency: "Provisioned IOPS SSD volumes" (io2 Block Express: sub-millisecond average latency) and
 * "Amazon EBS optimization" (io2 Block Express under 500 µs average at 16 KiB I/O; io1/io2 deliver
 * ≥ 90 % of provisioned IOPS 99.9 % of the time, gp2/gp3 99 %); "General Purpose SSD volumes"
 * (gp3: single-digit millisecond latency).
 */

const LATENCY = (type: VolumeType) => descriptorOf(type).trade.latency;
const DURABILITY = (type: VolumeType) => descriptorOf(type).trade.durability;
const CONSISTENCY = (type: VolumeType) => descriptorOf(type).trade.consistency;

/**
 * The trade of moving a volume from `from` to `to`, in one sentence: what is kept and what is
 * given up, and to benchmark p99 latency first when latency or consistency is given up.
 */
export function tradeOf(from: VolumeType, to: VolumeType): string {
  const gives: string[] = [];
  const keeps: string[] = [];
  (DURABILITY(from) === DURABILITY(to) ? keeps : gives).push(
    DURABILITY(from) === DURABILITY(to)
      ? DURABILITY(to)
      : `${from}'s ${DURABILITY(from)} for ${DURABILITY(to)}`,
  );
  (LATENCY(from) === LATENCY(to) ? keeps : gives).push(
    LATENCY(from) === LATENCY(to) ? LATENCY(to) : `${from}'s ${LATENCY(from)} for ${LATENCY(to)}`,
  );
  if (CONSISTENCY(from) !== CONSISTENCY(to))
    gives.push(`${from}'s ${CONSISTENCY(from)} for ${CONSISTENCY(to)}`);
  const parts = [
    gives.length > 0
      ? `${from} → ${to} gives up ${gives.join('; ')}`
      : `${from} → ${to} gives up nothing AWS publishes`,
    keeps.length > 0 ? `keeps ${keeps.join(' and ')}` : null,
  ].filter(Boolean);
  const benchmark = gives.length > 0 ? ' — benchmark p99 latency on the cheaper type before moving' : '';
  return `${parts.join('; ')}${benchmark}`;
}

/**
 * A RAID 0 stripe of `count` volumes is lost when any member fails: its annual failure rate is
 * 1 − (1 − AFR)^N ≈ N × AFR. Each member's snapshot is its own point in time, so snapshots taken
 * one by one do not restore a consistent stripe: take a multi-volume, crash-consistent snapshot
 * set (EC2 CreateSnapshots, by instance) or freeze the file system first.
 */
export function stripeTrade(type: VolumeType, count: number): string | null {
  if (count <= 1) return null;
  const afr = descriptorOf(type).trade.annualFailureRatePct;
  const set = (p: number) => (1 - (1 - p / 100) ** count) * 100;
  const pct = (p: number) => `${p < 0.1 ? p.toFixed(3) : p.toFixed(1)} %`;
  const range = afr.min === afr.max ? pct(set(afr.min)) : `${pct(set(afr.min))}–${pct(set(afr.max))}`;
  const member = afr.min === afr.max ? `${afr.min} %` : `${afr.min}–${afr.max} %`;
  return `RAID 0 of ${formatInt(count)} ${type} volumes: any member failing loses the whole set — about ${range} a year (≈ ${formatInt(count)} × the member's ${member} annual failure rate); snapshots of members taken one by one are not consistent with each other: use a multi-volume crash-consistent snapshot (aws ec2 create-snapshots --instance-specification InstanceId=…) or freeze the file system first`;
}
