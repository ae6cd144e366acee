import { formatInt as n0 } from '../../units.ts';
import {
  c,
  defineVolumeType,
  deliverablePiops,
  NON_NITRO,
  SINGLE_DIGIT_MS,
  tooBig,
  validateProvisionedIops,
} from './descriptor.ts';

/** Provisioned IOPS SSD io1: IOPS provisioned (and billed) flat; throughput follows them. */
export const IO1 = {
  sizeGiB: { min: c(4, 'docs2023 provisioned-iops.md'), max: c(16_384, 'docs2023 provisioned-iops.md') },
  iops: {
    min: c(100, 'docs2023 provisioned-iops.md'),
    /** 64,000 on Nitro instances; other instances up to 32,000. */
    max: c(64_000, 'docs2023 provisioned-iops.md'),
    maxPerGiB: c(50, 'docs2023 provisioned-iops.md'),
  },
  throughputMiBps: { max: c(1_000, 'docs2023 provisioned-iops.md') },
} as const;

/**
 * io1 maximum throughput for a provisioned IOPS (docs2023 provisioned-iops.md): up to 32,000 IOPS
 * each I/O may be 256 KiB, capped at 500 MiB/s (reached at 2,000 IOPS); above, 16 KiB per IOPS
 * (48,000 IOPS → 750 MiB/s), capped at 1,000 MiB/s.
 */
export function io1ThroughputMiBps(provisionedIops: number): number {
  if (provisionedIops <= 32_000) return Math.min(provisionedIops * 0.25, 500);
  return Math.min((provisionedIops * 16) / 1024, IO1.throughputMiBps.max.value);
}

const NAME = 'Provisioned IOPS SSD (io1)';

export const io1 = defineVolumeType({
  traits: {
    name: NAME,
    media: 'ssd',
    durability: '99.8%–99.9%',
    annualFailureRate: '≤ 0.2%',
    consistency: '≥ 90% of provisioned IOPS 99.9% of the time',
  },
  trade: {
    annualFailureRatePct: { min: 0.1, max: 0.2 },
    latency: 'single-digit-millisecond latency',
    durability: '99.8–99.9 % durability (AFR 0.1–0.2 %)',
    consistency: '≥ 90 % of provisioned IOPS 99.9 % of the time',
  },
  latencyPromise: SINGLE_DIGIT_MS,
  alternatives: ['io2', 'io1'],
  provisionedIops: true,
  included: { iops: null, throughputMiBps: null },
  settingRanges: () => ({
    sizeGiB: [IO1.sizeGiB.min.value, IO1.sizeGiB.max.value],
    iops: [IO1.iops.min.value, IO1.iops.max.value],
    throughputMiBps: null,
  }),
  maxIopsPerGiB: IO1.iops.maxPerGiB.value,
  maxima: {
    sizeGiB: IO1.sizeGiB.max.value,
    iops: IO1.iops.max.value,
    throughputMiBps: IO1.throughputMiBps.max.value,
  },
  capabilities(v, ctx) {
    const provisioned = v.iops ?? IO1.iops.min.value;
    const iops = deliverablePiops(provisioned, ctx);
    return {
      iops,
      throughputMiBps: io1ThroughputMiBps(iops),
      burstIops: null,
      burstThroughputMiBps: null,
      nitroCapped: iops < provisioned,
    };
  },
  validate: (v) => validateProvisionedIops(v, 'io1', NAME, IO1),
  size(t, { nitro }) {
    const maxIops = nitro === false ? NON_NITRO.maxPiops.value : IO1.iops.max.value;
    const onXen = nitro === false ? ' on an instance not built on Nitro' : '';
    if (t.tp > IO1.throughputMiBps.max.value)
      return tooBig(`needs ${n0(t.tp)} MiB/s, above io1's ${n0(IO1.throughputMiBps.max.value)} MiB/s`);
    // Smallest IOPS whose io1 throughput curve reaches the target (256 KiB per IOPS up to 500 MiB/s; then 16 KiB per IOPS above 32,000).
    const forTp = t.tp <= 500 ? Math.ceil(t.tp * 4) : Math.max(32_001, Math.ceil((t.tp * 1024) / 16));
    let iops = Math.max(IO1.iops.min.value, Math.ceil(t.iops));
    const reasons: string[] = [];
    if (forTp > iops) {
      reasons.push(
        `IOPS raised to ${n0(forTp)} for ${n0(t.tp)} MiB/s (io1 throughput follows provisioned IOPS)`,
      );
      iops = forTp;
    }
    if (iops > maxIops) return tooBig(`needs ${n0(iops)} IOPS, above io1's ${n0(maxIops)}${onXen}`);
    if (io1ThroughputMiBps(iops) + 1e-9 < t.tp) return tooBig(`io1 cannot reach ${n0(t.tp)} MiB/s`);
    const size = Math.max(t.capacity, Math.ceil(iops / IO1.iops.maxPerGiB.value), IO1.sizeGiB.min.value);
    if (size > IO1.sizeGiB.max.value) return tooBig(`needs ${n0(size)} GiB, above io1's maximum size`);
    reasons.push(
      `${n0(iops)} provisioned IOPS at a flat rate; io2 is usually cheaper above 32,000 IOPS and more durable`,
    );
    return { volume: { sizeGiB: size, iops }, reasons };
  },
  burst: null,
  // io1 = GiB × storage + IOPS × iops (every provisioned IOPS, flat). The Price List calls io1 `piops`.
  costComponents: [
    {
      key: 'storage',
      name: 'Storage',
      unit: 'GiB-month',
      line: 'storage',
      quantity: (v) => v.sizeGiB,
      usageType: 'EBS:VolumeUsage.piops',
      priceListUnit: 'GB-Mo',
    },
    {
      key: 'iops',
      name: 'Provisioned IOPS',
      unit: 'IOPS-month',
      line: 'iops',
      quantity: (v) => v.iops ?? 0,
      usageType: 'EBS:VolumeP-IOPS.piops',
      priceListUnit: 'IOPS-Mo',
    },
  ],
});
