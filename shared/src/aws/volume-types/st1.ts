import { c } from './descriptor.ts';
import { hddVolumeType, type HddSpec } from './hdd.ts';

/** Throughput Optimized HDD st1. */
export const ST1 = {
  sizeGiB: { min: c(125, 'docs2023 hdd-vols.md'), max: c(16_384, 'docs2023 hdd-vols.md') },
  baselineMiBpsPerTiB: c(40, 'docs2023 hdd-vols.md'),
  burstMiBpsPerTiB: c(250, 'docs2023 hdd-vols.md'),
  maxMiBps: c(500, 'docs2023 hdd-vols.md'),
  maxIops: c(500, 'docs2023 hdd-vols.md'),
  creditsTiBPerTiB: c(1, 'docs2023 hdd-vols.md'),
} as const satisfies HddSpec;

export const st1 = hddVolumeType('st1', ST1, {
  name: 'Throughput Optimized HDD (st1)',
  durability: '99.8%–99.9%',
  annualFailureRate: '0.1%–0.2%',
  consistency: '≥ 90% of expected throughput 99% of the time; poor at small random I/O',
});
