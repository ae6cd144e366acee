import { formatInt as n0 } from '../../units.ts';
import {
  c,
  defineVolumeType,
  deliverablePiops,
  NON_NITRO,
  SUB_MILLISECOND,
  tooBig,
  validateProvisionedIops,
} from './descriptor.ts';

/** Provisioned IOPS SSD io2 Block Express: IOPS provisioned and billed in graduated tiers. */
export const IO2 = {
  sizeGiB: { min: c(4, 'sdk'), max: c(65_536, 'sdk') },
  iops: {
    min: c(100, 'sdk'),
    /** Block Express on Nitro instances; other instances up to 32,000. */
    max: c(256_000, 'sdk'),
    maxPerGiB: c(1_000, 'sdk'),
  },
  throughputMiBps: {
    max: c(4_000, 'docs2023 provisioned-iops.md'),
    maxPerProvisionedIops: c(0.256, 'docs2023 provisioned-iops.md'),
  },
} as const;

export function io2ThroughputMiBps(provisionedIops: number): number {
  return Math.min(
    provisionedIops * IO2.throughputMiBps.maxPerProvisionedIops.value,
    IO2.throughputMiBps.max.value,
  );
}

/**
 * io2's IOPS price tiers: 1–32,000 at `iops`, 32,001–64,000 at `iops2`, above at `iops3` (AWS's
 * Amazon EBS pricing page; cloudkeep-io/ebs-pricing's field names carry the same bounds). The
 * AWS Price List does not hold them: each tier is its own usage type (`EBS:VolumeP-IOPS.io2`,
 * `….io2.tier2`, `….io2.tier3`) listed over 0–Inf (see aws/catalog-build/offer-prices.ts).
 */
export const IO2_IOPS_TIERS = { tier2From: 32_000, tier3From: 64_000 } as const;

/** The IOPS of a volume that fall inside each io2 price tier. */
export function io2IopsByTier(iops: number): { t1: number; t2: number; t3: number } {
  const { tier2From, tier3From } = IO2_IOPS_TIERS;
  return {
    t1: Math.min(iops, tier2From),
    t2: Math.min(Math.max(iops - tier2From, 0), tier3From - tier2From),
    t3: Math.max(iops - tier3From, 0),
  };
}

/** What an io2 volume on an instance not built on Nitro is promised, and what is only planned with. */
const IO2_NOT_NITRO_TERMS = `on an instance not built on Nitro, AWS's current EBS guide says only that io2 "can achieve up to ${n0(NON_NITRO.maxPiops.value)} IOPS" (no throughput figure, no guarantee); the 2023 EC2 guide guaranteed up to ${n0(NON_NITRO.maxPiops.value)} IOPS and ${n0(NON_NITRO.maxMiBps.value)} MiB/s, the figures planned with here`;

const NAME = 'Provisioned IOPS SSD (io2 Block Express)';

export const io2 = defineVolumeType({
  traits: {
    name: NAME,
    media: 'ssd',
    durability: '99.999%',
    annualFailureRate: '≤ 0.001%',
    consistency: '≥ 90% of provisioned IOPS 99.9% of the time; sub-millisecond average latency',
  },
  trade: {
    annualFailureRatePct: { min: 0.001, max: 0.001 },
    latency: 'sub-millisecond average latency (under 500 µs at 16 KiB I/O)',
    durability: '99.999 % durability (AFR ≤ 0.001 %)',
    consistency: '≥ 90 % of provisioned IOPS 99.9 % of the time',
  },
  latencyPromise: SUB_MILLISECOND,
  alternatives: ['io2', 'io1'],
  provisionedIops: true,
  included: { iops: null, throughputMiBps: null },
  settingRanges: () => ({
    sizeGiB: [IO2.sizeGiB.min.value, IO2.sizeGiB.max.value],
    iops: [IO2.iops.min.value, IO2.iops.max.value],
    throughputMiBps: null,
  }),
  maxIopsPerGiB: IO2.iops.maxPerGiB.value,
  maxima: {
    sizeGiB: IO2.sizeGiB.max.value,
    iops: IO2.iops.max.value,
    throughputMiBps: IO2.throughputMiBps.max.value,
  },
  capabilities(v, ctx) {
    const provisioned = v.iops ?? IO2.iops.min.value;
    const iops = deliverablePiops(provisioned, ctx);
    const tp =
      ctx.nitro === false
        ? Math.min(io2ThroughputMiBps(iops), NON_NITRO.maxMiBps.value)
        : io2ThroughputMiBps(iops);
    return {
      iops,
      throughputMiBps: tp,
      burstIops: null,
      burstThroughputMiBps: null,
      nitroCapped: iops < provisioned,
    };
  },
  validate: (v) => validateProvisionedIops(v, 'io2', NAME, IO2),
  size(t, { nitro }) {
    const perIops = IO2.throughputMiBps.maxPerProvisionedIops.value;
    const maxIops = nitro === false ? NON_NITRO.maxPiops.value : IO2.iops.max.value;
    const maxTp = nitro === false ? NON_NITRO.maxMiBps.value : IO2.throughputMiBps.max.value;
    const onXen = nitro === false ? ' on an instance not built on Nitro' : '';
    if (t.tp > maxTp) return tooBig(`needs ${n0(t.tp)} MiB/s, above io2's ${n0(maxTp)} MiB/s${onXen}`);
    const forTp = Math.ceil(t.tp / perIops);
    let iops = Math.max(IO2.iops.min.value, Math.ceil(t.iops));
    const reasons: string[] = [];
    if (forTp > iops) {
      reasons.push(`IOPS raised to ${n0(forTp)}: io2 delivers ${perIops} MiB/s per provisioned IOPS`);
      iops = forTp;
    }
    if (iops > maxIops) return tooBig(`needs ${n0(iops)} IOPS, above io2's ${n0(maxIops)}${onXen}`);
    reasons.push(`${n0(iops)} provisioned IOPS (billed in graduated tiers); 99.999% durability`);
    if (nitro === false) reasons.push(IO2_NOT_NITRO_TERMS);
    const sizeForIops = Math.ceil(iops / IO2.iops.maxPerGiB.value);
    const size = Math.max(t.capacity, sizeForIops, IO2.sizeGiB.min.value);
    if (size > IO2.sizeGiB.max.value) return tooBig(`needs ${n0(size)} GiB, above io2's maximum size`);
    if (sizeForIops > t.capacity)
      reasons.push(`size raised to ${n0(size)} GiB: io2 allows ${n0(IO2.iops.maxPerGiB.value)} IOPS per GiB`);
    return { volume: { sizeGiB: size, iops }, reasons };
  },
  burst: null,
  // io2 = GiB × storage + IOPS graduated: 1–32,000 at `iops`, 32,001–64,000 at `iops2`, above at `iops3`.
  costComponents: [
    {
      key: 'storage',
      name: 'Storage',
      unit: 'GiB-month',
      line: 'storage',
      quantity: (v) => v.sizeGiB,
      usageType: 'EBS:VolumeUsage.io2',
      priceListUnit: 'GB-Mo',
    },
    {
      key: 'iops',
      name: 'Provisioned IOPS 1–32,000',
      unit: 'IOPS-month',
      line: 'iops',
      quantity: (v) => io2IopsByTier(v.iops ?? 0).t1,
      usageType: 'EBS:VolumeP-IOPS.io2',
      priceListUnit: 'IOPS-Mo',
    },
    {
      key: 'iops2',
      name: 'Provisioned IOPS 32,001–64,000',
      unit: 'IOPS-month',
      line: 'iops',
      quantity: (v) => io2IopsByTier(v.iops ?? 0).t2,
      usageType: 'EBS:VolumeP-IOPS.io2.tier2',
      priceListUnit: 'IOPS-Mo',
    },
    {
      key: 'iops3',
      name: 'Provisioned IOPS above 64,000',
      unit: 'IOPS-month',
      line: 'iops',
      quantity: (v) => io2IopsByTier(v.iops ?? 0).t3,
      usageType: 'EBS:VolumeP-IOPS.io2.tier3',
      priceListUnit: 'IOPS-Mo',
    },
  ],
});
