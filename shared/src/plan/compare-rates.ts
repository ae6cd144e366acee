import { bytesPerSecToMiBps, bytesPerSec } from '../units.ts';

/**
 * EBS vs local NVMe, rate by rate ([guide]'s tables, docs/domain.md sources: "Read BW 286 vs 333
 * MiB/s, +16% EBS"): the twin of `compareLatency` for IOPS and throughput. `delta` = (EBS − NVMe)
 * ÷ NVMe, so +0.16 means EBS delivered 16% more; null when NVMe measured nothing in that
 * direction (no ratio to take).
 */
export type MeasuredRates = {
  readIops: number;
  writeIops: number;
  readBytesPerSec: number;
  writeBytesPerSec: number;
};

export type RateComparisonRow = {
  metric: 'read-throughput' | 'write-throughput' | 'read-iops' | 'write-iops';
  /** MiB/s for throughput rows, IOPS for IOPS rows. */
  unit: 'MiB/s' | 'IOPS';
  ebs: number;
  nvme: number;
  delta: number | null;
  /** Which side delivered more (or `equal` within 0.5%). */
  faster: 'ebs' | 'nvme' | 'equal';
};

const row = (
  metric: RateComparisonRow['metric'],
  unit: RateComparisonRow['unit'],
  ebs: number,
  nvme: number,
): RateComparisonRow => {
  const delta = nvme > 0 ? (ebs - nvme) / nvme : null;
  const faster =
    delta === null
      ? ebs > 0
        ? 'ebs'
        : 'equal'
      : Math.abs(delta) < 0.005
        ? 'equal'
        : delta > 0
          ? 'ebs'
          : 'nvme';
  return { metric, unit, ebs, nvme, delta, faster };
};

export function compareRates(ebs: MeasuredRates, nvme: MeasuredRates): RateComparisonRow[] {
  const mib = (v: number) => bytesPerSecToMiBps(bytesPerSec(v));
  return [
    row('read-throughput', 'MiB/s', mib(ebs.readBytesPerSec), mib(nvme.readBytesPerSec)),
    row('write-throughput', 'MiB/s', mib(ebs.writeBytesPerSec), mib(nvme.writeBytesPerSec)),
    row('read-iops', 'IOPS', ebs.readIops, nvme.readIops),
    row('write-iops', 'IOPS', ebs.writeIops, nvme.writeIops),
  ];
}
