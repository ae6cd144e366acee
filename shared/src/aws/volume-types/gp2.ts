import { formatDecimal, formatInt as n0 } from '../../units.ts';
import type { Problem } from '../../problem.ts';
import { c, defineVolumeType, SINGLE_DIGIT_MS, tooBig, validationHelpers } from './descriptor.ts';

/** General Purpose SSD gp2: IOPS and throughput follow the size; small volumes burst on credits. */
export const GP2 = {
  sizeGiB: { min: c(1, 'docs2023 general-purpose.md'), max: c(16_384, 'docs2023 general-purpose.md') },
  iops: {
    perGiB: c(3, 'docs2023 general-purpose.md'),
    baselineMin: c(100, 'docs2023 general-purpose.md'),
    baselineMax: c(16_000, 'docs2023 general-purpose.md'),
    /** Only volumes whose baseline is below 3,000 (< 1 TiB) burst. */
    burst: c(3_000, 'docs2023 general-purpose.md'),
    creditBucket: c(5_400_000, 'docs2023 general-purpose.md'),
  },
  throughputMiBps: {
    /**
     * AWS's gp2 throughput formula: size × 3 IOPS per GiB × the I/O size, at most 256 KiB — the
     * baseline IOPS × 0.25 MiB (0.75 MiB/s per GiB). The volume sustains that; above it, only while
     * burst credits last, up to the size's maximum (docs2023 general-purpose.md "Throughput
     * performance"; awslabs/aws-support-tools EBS/VolumeLimitCalculator: min(maximum, baseline IOPS ÷ 4)).
     */
    perBaselineIops: c(0.25, 'docs2023 general-purpose.md + VolumeLimitCalculator'),
    /** Volumes of 170 GiB and smaller: at most 128 MiB/s. */
    maxUpTo170GiB: c(128, 'docs2023 general-purpose.md'),
    /** Larger volumes: at most 250 MiB/s, sustained from 334 GiB (3 × 334 × 0.25 ≥ 250). */
    maxFrom171GiB: c(250, 'docs2023 general-purpose.md'),
  },
} as const;

export function gp2BaselineIops(sizeGiB: number): number {
  return Math.min(
    GP2.iops.baselineMax.value,
    Math.max(GP2.iops.baselineMin.value, GP2.iops.perGiB.value * sizeGiB),
  );
}

/**
 * gp2 throughput (AWS's formula, GP2 above): sustained = baseline IOPS × 256 KiB = 0.75 MiB/s per
 * GiB, up to the size's maximum (128 MiB/s up to 170 GiB, 250 above); while credits last it
 * reaches that maximum. 100 GiB: 75 sustained, 128 burst; 250 GiB: 187.5 sustained, 250 burst;
 * from 334 GiB 250 sustained, no burst.
 */
export function gp2ThroughputMiBps(sizeGiB: number): { sustained: number; burst: number | null } {
  const t = GP2.throughputMiBps;
  const max = sizeGiB <= 170 ? t.maxUpTo170GiB.value : t.maxFrom171GiB.value;
  const sustained = Math.min(max, gp2BaselineIops(sizeGiB) * t.perBaselineIops.value);
  return { sustained, burst: sustained < max ? max : null };
}

/**
 * gp2 burst credits: the bucket holds 5.4 M I/O credits (full at creation) and earns the baseline
 * IOPS per second; above baseline it drains by (demand − baseline) per second. Burst duration =
 * balance ÷ (burst − baseline): a 20 GiB volume (100 IOPS) bursts 3,000 IOPS for 1,862 s ≈ 31 min.
 */
export function gp2BurstSeconds(
  sizeGiB: number,
  demandIops: number,
  creditBalance = GP2.iops.creditBucket.value,
): number | null {
  const baseline = gp2BaselineIops(sizeGiB);
  if (demandIops <= baseline) return null; // never drains: sustainable
  if (baseline >= GP2.iops.burst.value) return 0; // ≥ 1 TiB volumes do not burst: demand above baseline is simply not served
  const drainRate = Math.min(demandIops, GP2.iops.burst.value) - baseline;
  return creditBalance / drainRate;
}

const NAME = 'General Purpose SSD (gp2)';

export const gp2 = defineVolumeType({
  traits: {
    name: NAME,
    media: 'ssd',
    durability: '99.8%–99.9%',
    annualFailureRate: '≤ 0.2%',
    consistency: '≥ 90% of baseline IOPS 99% of the time; bursts while credits last',
  },
  trade: {
    annualFailureRatePct: { min: 0.1, max: 0.2 },
    latency: 'single-digit-millisecond latency',
    durability: '99.8–99.9 % durability (AFR 0.1–0.2 %)',
    consistency: '≥ 90 % of provisioned IOPS 99 % of the time',
  },
  latencyPromise: SINGLE_DIGIT_MS,
  alternatives: ['gp3', 'gp2'],
  provisionedIops: false,
  included: { iops: null, throughputMiBps: null },
  settingRanges: () => ({
    sizeGiB: [GP2.sizeGiB.min.value, GP2.sizeGiB.max.value],
    iops: null,
    throughputMiBps: null,
  }),
  maxIopsPerGiB: null,
  maxima: {
    sizeGiB: GP2.sizeGiB.max.value,
    iops: GP2.iops.baselineMax.value,
    throughputMiBps: GP2.throughputMiBps.maxFrom171GiB.value,
  },
  capabilities(v) {
    const baseline = gp2BaselineIops(v.sizeGiB);
    const tp = gp2ThroughputMiBps(v.sizeGiB);
    return {
      iops: baseline,
      throughputMiBps: tp.sustained,
      burstIops: baseline < GP2.iops.burst.value ? GP2.iops.burst.value : null,
      burstThroughputMiBps: tp.burst,
      nitroCapped: false,
    };
  },
  validate(v) {
    const problems: Problem[] = [];
    const check = validationHelpers(v, NAME, problems);
    check.sizeRange(GP2.sizeGiB.min.value, GP2.sizeGiB.max.value);
    check.unsupported('iops', 'IOPS follow the size (3 IOPS per GiB, 100–16,000); set the size instead');
    check.unsupported(
      'throughputMiBps',
      'throughput follows the size (128 or 250 MiB/s); set the size instead',
    );
    return problems;
  },
  size(t) {
    const maxIops = GP2.iops.baselineMax.value;
    if (t.iops > maxIops) return tooBig(`needs ${n0(t.iops)} sustained IOPS, above gp2's ${n0(maxIops)}`);
    const maxTp = GP2.throughputMiBps.maxFrom171GiB.value;
    if (t.tp > maxTp) return tooBig(`needs ${n0(t.tp)} MiB/s, above gp2's ${maxTp} MiB/s`);
    const sizeForIops = Math.ceil(t.iops / GP2.iops.perGiB.value);
    // Sustained MiB/s = 3 IOPS per GiB × 0.25 MiB (gp2ThroughputMiBps): 200 MiB/s needs 267 GiB, 250 needs 334.
    const miBpsPerGiB = GP2.iops.perGiB.value * GP2.throughputMiBps.perBaselineIops.value;
    const sizeForTp = Math.ceil(t.tp / miBpsPerGiB - 1e-9);
    const size = Math.max(t.capacity, sizeForIops, sizeForTp, GP2.sizeGiB.min.value);
    if (size > GP2.sizeGiB.max.value) return tooBig(`needs ${n0(size)} GiB, above gp2's maximum size`);
    const reasons = [
      `${n0(size)} GiB gives ${n0(gp2BaselineIops(size))} baseline IOPS (3 per GiB) and ${formatDecimal(gp2ThroughputMiBps(size).sustained, 2)} MiB/s sustained`,
    ];
    if (sizeForIops > t.capacity || sizeForTp > t.capacity)
      reasons.push('size bought for performance, not capacity: gp3 decouples the two');
    return { volume: { sizeGiB: size }, reasons };
  },
  burst: {
    allowance: 'gp2',
    drainedBy: 'operations',
    seconds: (sizeGiB, ops) => gp2BurstSeconds(sizeGiB, ops),
  },
  // gp2 = GiB × storage: its performance comes with the size.
  costComponents: [
    {
      key: 'storage',
      name: 'Storage',
      unit: 'GiB-month',
      line: 'storage',
      quantity: (v) => v.sizeGiB,
      usageType: 'EBS:VolumeUsage.gp2',
      priceListUnit: 'GB-Mo',
    },
  ],
});
