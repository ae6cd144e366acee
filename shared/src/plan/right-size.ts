import { z } from 'zod';
import type { InstanceSpec } from '../aws/instance-spec.ts';
import type { RateCard } from '../aws/rate-card.ts';
import {
  DELIVERY_FLOOR_FRACTION,
  GP2,
  GP3,
  HDD,
  IO1,
  IO2,
  IO_ACCOUNTING_UNIT_BYTES,
  VOLUME_TYPES,
  VolumeTypeSchema,
  type Gp3Generation,
  type VolumeType,
} from '../aws/volume-types.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { formatInt, mbps, mbpsToMiBps } from '../units.ts';
import { CostBreakdownSchema, monthlyCost, scaleCost, type CostBreakdown } from './cost.ts';
import { demandOf } from './demand.ts';
import { gp2BaselineIops, gp2ThroughputMiBps, io1ThroughputMiBps, type VolumeConfig } from './volume.ts';

/**
 * Right-sizing (domain.md §7): the cheapest configuration of each volume type that meets
 * peak × (1 + headroom), honoring each type's ratio rules — and never paying for IOPS or
 * throughput the instance cannot deliver.
 */

export const RecommendationSchema = z.object({
  type: VolumeTypeSchema,
  /** `meets`: delivers the target; `capped-by-instance`: provisioned up to what the instance sustains
   * (more would be waste) — the instance, not the volume, must change; `not-viable`: the type cannot. */
  status: z.enum(['meets', 'capped-by-instance', 'not-viable']),
  sizeGiB: z.number(),
  iops: z.number(),
  throughputMiBps: z.number(),
  /** Per node (all striped volumes of the configuration). */
  monthlyUsd: CostBreakdownSchema,
  /** × nodes. */
  clusterMonthlyUsd: CostBreakdownSchema,
  /** Why this configuration, or why the type does not fit, in plain words. */
  reasons: z.array(z.string()),
  rank: z.number().int(),
});
export type Recommendation = z.infer<typeof RecommendationSchema>;

export const InstanceAdviceSchema = z.object({
  /** Which instance ceiling the target exceeds. */
  exceeds: z.array(z.enum(['instance-iops', 'instance-bandwidth'])),
  message: z.string(),
  /** The cheapest instance of the same family whose SUSTAINED limits carry the target, if any. */
  upgrade: z
    .object({
      instanceType: z.string(),
      baselineBandwidthMbps: z.number(),
      baselineIops: z.number(),
      usdPerHourUsEast1: z.number().nullable(),
    })
    .nullable(),
});
export type InstanceAdvice = z.infer<typeof InstanceAdviceSchema>;

export const RightSizeResultSchema = z.object({
  target: z.object({
    headroom: z.number(),
    /** IOPS as EBS counts them (I/Os > 256 KiB split), × (1 + headroom). */
    iops: z.number(),
    throughputMiBps: z.number(),
    minSizeGiB: z.number(),
  }),
  recommendations: z.array(RecommendationSchema),
  instanceAdvice: InstanceAdviceSchema.nullable(),
  notes: z.array(z.string()),
});
export type RightSizeResult = z.infer<typeof RightSizeResultSchema>;

export type RightSizeInput = {
  profile: IoProfile;
  /** Fraction above the peak to provision for (0.25 = 25%, the guide's 20–30% advice). */
  headroom: number;
  /** Storage the data needs, GiB (e.g. the current volume's size). */
  minSizeGiB: number;
  instance: InstanceSpec | null;
  rateCard: RateCard;
  gp3Generation?: Gp3Generation;
  nodes?: number;
  types?: readonly VolumeType[];
  /** Other sizes of the instance's family, to name an upgrade when the instance caps the target. */
  familyMembers?: readonly InstanceSpec[];
};

type Sized = { volume: VolumeConfig; reasons: string[]; capped: boolean } | { notViable: string[] };

const n0 = formatInt;

/** What the instance sustains (baseline), floor-rounded: provisioning beyond it is waste. */
function instanceCeilings(instance: InstanceSpec | null) {
  if (!instance?.ebs) return null;
  return {
    iops: instance.ebs.baselineIops,
    throughputMiBps: Math.floor(mbpsToMiBps(mbps(instance.ebs.baselineBandwidthMbps))),
    name: instance.instanceType,
  };
}

type Target = { iops: number; tp: number; hddIops: number; minSize: number; blockSize: number | null };
type Ceilings = ReturnType<typeof instanceCeilings>;

/** Caps a requirement at what the instance sustains; reports whether it had to. */
function cap(value: number, ceiling: number | undefined): [number, boolean] {
  return ceiling !== undefined && value > ceiling ? [ceiling, true] : [value, false];
}

function sizeGp3(t: Target, ceil: Ceilings, gen: Gp3Generation): Sized {
  const maxIops = GP3.iops.max[gen].value;
  const maxTp = GP3.throughputMiBps.max[gen].value;
  const [wantIops, cappedIops] = cap(t.iops, ceil?.iops);
  const [wantTp, cappedTp] = cap(t.tp, ceil?.throughputMiBps);
  const tp = Math.max(GP3.throughputMiBps.included.value, Math.ceil(wantTp));
  let iops = Math.max(GP3.iops.included.value, Math.ceil(wantIops));
  const reasons: string[] = [];
  if (iops > maxIops || tp > maxTp) {
    const stripes = Math.ceil(Math.max(iops / maxIops, tp / maxTp));
    return {
      notViable: [
        `needs ${n0(iops)} IOPS / ${n0(tp)} MiB/s, above one gp3 volume's ${n0(maxIops)} IOPS / ${n0(maxTp)} MiB/s (${gen === 'current' ? 'current limits' : 'limits before 2025'}); use io2, or stripe ${stripes} gp3 volumes`,
      ],
    };
  }
  const ratio = GP3.throughputMiBps.maxPerProvisionedIops.value;
  if (tp > ratio * iops) {
    reasons.push(
      `IOPS raised to ${n0(Math.ceil(tp / ratio))}: gp3 allows ${ratio} MiB/s per provisioned IOPS`,
    );
    iops = Math.ceil(tp / ratio);
  }
  if (iops === GP3.iops.included.value && tp === GP3.throughputMiBps.included.value)
    reasons.push('the included 3,000 IOPS and 125 MiB/s cover the target: pay for storage only');
  else
    reasons.push(`${n0(iops)} IOPS and ${n0(tp)} MiB/s provisioned (3,000 IOPS and 125 MiB/s are included)`);
  const sizeForIops = Math.ceil(iops / GP3.iops.maxPerGiB.value);
  const size = Math.max(t.minSize, sizeForIops, GP3.sizeGiB.min.value);
  if (sizeForIops > t.minSize)
    reasons.push(`size raised to ${n0(size)} GiB: gp3 allows ${GP3.iops.maxPerGiB.value} IOPS per GiB`);
  if (size > GP3.sizeGiB.max[gen].value)
    return { notViable: [`needs ${n0(size)} GiB, above gp3's maximum size`] };
  return {
    volume: { type: 'gp3', sizeGiB: size, iops, throughputMiBps: tp },
    reasons,
    capped: cappedIops || cappedTp,
  };
}

function sizeIo2(t: Target, ceil: Ceilings): Sized {
  const perIops = IO2.throughputMiBps.maxPerProvisionedIops.value;
  const [wantIops, cappedIops] = cap(t.iops, ceil?.iops);
  const [wantTp, cappedTp] = cap(t.tp, ceil?.throughputMiBps);
  if (wantTp > IO2.throughputMiBps.max.value)
    return {
      notViable: [`needs ${n0(wantTp)} MiB/s, above io2's ${n0(IO2.throughputMiBps.max.value)} MiB/s`],
    };
  const forTp = Math.ceil(wantTp / perIops);
  let iops = Math.max(IO2.iops.min.value, Math.ceil(wantIops));
  const reasons: string[] = [];
  if (forTp > iops) {
    reasons.push(`IOPS raised to ${n0(forTp)}: io2 delivers ${perIops} MiB/s per provisioned IOPS`);
    iops = forTp;
  }
  if (iops > IO2.iops.max.value)
    return { notViable: [`needs ${n0(iops)} IOPS, above io2's ${n0(IO2.iops.max.value)}`] };
  reasons.push(`${n0(iops)} provisioned IOPS (billed in graduated tiers); 99.999% durability`);
  const sizeForIops = Math.ceil(iops / IO2.iops.maxPerGiB.value);
  const size = Math.max(t.minSize, sizeForIops, IO2.sizeGiB.min.value);
  if (size > IO2.sizeGiB.max.value) return { notViable: [`needs ${n0(size)} GiB, above io2's maximum size`] };
  if (sizeForIops > t.minSize)
    reasons.push(`size raised to ${n0(size)} GiB: io2 allows ${n0(IO2.iops.maxPerGiB.value)} IOPS per GiB`);
  return { volume: { type: 'io2', sizeGiB: size, iops }, reasons, capped: cappedIops || cappedTp };
}

function sizeIo1(t: Target, ceil: Ceilings): Sized {
  const [wantIops, cappedIops] = cap(t.iops, ceil?.iops);
  const [wantTp, cappedTp] = cap(t.tp, ceil?.throughputMiBps);
  if (wantTp > IO1.throughputMiBps.max.value)
    return {
      notViable: [`needs ${n0(wantTp)} MiB/s, above io1's ${n0(IO1.throughputMiBps.max.value)} MiB/s`],
    };
  // Smallest IOPS whose io1 throughput curve reaches the target (256 KiB per IOPS up to 500 MiB/s; then 16 KiB per IOPS above 32,000).
  const forTp = wantTp <= 500 ? Math.ceil(wantTp * 4) : Math.max(32_001, Math.ceil((wantTp * 1024) / 16));
  let iops = Math.max(IO1.iops.min.value, Math.ceil(wantIops));
  const reasons: string[] = [];
  if (forTp > iops) {
    reasons.push(
      `IOPS raised to ${n0(forTp)} for ${n0(wantTp)} MiB/s (io1 throughput follows provisioned IOPS)`,
    );
    iops = forTp;
  }
  if (iops > IO1.iops.max.value)
    return { notViable: [`needs ${n0(iops)} IOPS, above io1's ${n0(IO1.iops.max.value)}`] };
  if (io1ThroughputMiBps(iops) + 1e-9 < wantTp)
    return { notViable: [`io1 cannot reach ${n0(wantTp)} MiB/s`] };
  const size = Math.max(t.minSize, Math.ceil(iops / IO1.iops.maxPerGiB.value), IO1.sizeGiB.min.value);
  if (size > IO1.sizeGiB.max.value) return { notViable: [`needs ${n0(size)} GiB, above io1's maximum size`] };
  reasons.push(
    `${n0(iops)} provisioned IOPS at a flat rate; io2 is usually cheaper above 32,000 IOPS and more durable`,
  );
  return { volume: { type: 'io1', sizeGiB: size, iops }, reasons, capped: cappedIops || cappedTp };
}

function sizeGp2(t: Target, ceil: Ceilings): Sized {
  const [wantIops, cappedIops] = cap(t.iops, ceil?.iops);
  const [wantTp, cappedTp] = cap(t.tp, ceil?.throughputMiBps);
  const maxIops = GP2.iops.baselineMax.value;
  if (wantIops > maxIops)
    return { notViable: [`needs ${n0(wantIops)} sustained IOPS, above gp2's ${n0(maxIops)}`] };
  if (wantTp > GP2.throughputMiBps.from334GiB.value)
    return {
      notViable: [`needs ${n0(wantTp)} MiB/s, above gp2's ${GP2.throughputMiBps.from334GiB.value} MiB/s`],
    };
  const sizeForIops = Math.ceil(wantIops / GP2.iops.perGiB.value);
  const sizeForTp = wantTp > GP2.throughputMiBps.upTo170GiB.value ? 334 : 0;
  const size = Math.max(t.minSize, sizeForIops, sizeForTp, GP2.sizeGiB.min.value);
  if (size > GP2.sizeGiB.max.value) return { notViable: [`needs ${n0(size)} GiB, above gp2's maximum size`] };
  const reasons = [
    `${n0(size)} GiB gives ${n0(gp2BaselineIops(size))} baseline IOPS (3 per GiB) and ${gp2ThroughputMiBps(size).sustained} MiB/s sustained`,
  ];
  if (sizeForIops > t.minSize || sizeForTp > t.minSize)
    reasons.push('size bought for performance, not capacity: gp3 decouples the two');
  return { volume: { type: 'gp2', sizeGiB: size }, reasons, capped: cappedIops || cappedTp };
}

function sizeHdd(type: 'st1' | 'sc1', t: Target, ceil: Ceilings): Sized {
  const spec = HDD[type];
  const [wantTp, cappedTp] = cap(t.tp, ceil?.throughputMiBps);
  const reasons: string[] = [];
  if (t.hddIops > spec.maxIops.value)
    return {
      notViable: [
        `needs ${n0(t.hddIops)} IOPS counted in 1 MiB units; ${type} handles ${spec.maxIops.value} — HDD volumes are for large sequential I/O, not ${t.blockSize !== null ? `${Math.round(t.blockSize / 1024)} KiB ` : ''}random I/O`,
      ],
    };
  if (wantTp > spec.maxMiBps.value)
    return { notViable: [`needs ${n0(wantTp)} MiB/s, above ${type}'s ${spec.maxMiBps.value} MiB/s`] };
  const sizeForTp = Math.ceil((wantTp / spec.baselineMiBpsPerTiB.value) * 1024);
  const size = Math.max(t.minSize, sizeForTp, spec.sizeGiB.min.value);
  if (size > spec.sizeGiB.max.value)
    return {
      notViable: [`needs ${n0(size)} GiB for ${n0(wantTp)} MiB/s baseline, above ${type}'s maximum size`],
    };
  reasons.push(
    `${n0(size)} GiB for a ${n0(Math.min((spec.baselineMiBpsPerTiB.value * size) / 1024, spec.maxMiBps.value))} MiB/s baseline (${spec.baselineMiBpsPerTiB.value} MiB/s per TiB)`,
  );
  if (t.blockSize !== null && t.blockSize < 128 * 1024)
    reasons.push('only sequential access reaches these numbers on HDD');
  return { volume: { type, sizeGiB: size }, reasons, capped: cappedTp };
}

/** The cheapest same-family instance whose sustained limits carry the target (or null). */
function findUpgrade(target: { iops: number; tp: number }, members: readonly InstanceSpec[]) {
  const fits = members.filter(
    (m) =>
      m.ebs &&
      m.ebs.baselineIops >= target.iops &&
      mbpsToMiBps(mbps(m.ebs.baselineBandwidthMbps)) >= target.tp,
  );
  fits.sort(
    (a, b) =>
      (a.usdPerHourUsEast1 ?? Infinity) - (b.usdPerHourUsEast1 ?? Infinity) ||
      a.ebs!.baselineBandwidthMbps - b.ebs!.baselineBandwidthMbps,
  );
  const best = fits[0];
  return best?.ebs
    ? {
        instanceType: best.instanceType,
        baselineBandwidthMbps: best.ebs.baselineBandwidthMbps,
        baselineIops: best.ebs.baselineIops,
        usdPerHourUsEast1: best.usdPerHourUsEast1,
      }
    : null;
}

function adviseInstance(
  target: { iops: number; tp: number },
  instance: InstanceSpec | null,
  members: readonly InstanceSpec[],
): InstanceAdvice | null {
  const ceil = instanceCeilings(instance);
  if (!ceil || !instance?.ebs) return null;
  const exceeds: InstanceAdvice['exceeds'] = [];
  if (target.iops > ceil.iops) exceeds.push('instance-iops');
  if (target.tp > ceil.throughputMiBps) exceeds.push('instance-bandwidth');
  if (exceeds.length === 0) return null;
  const upgrade = findUpgrade(target, members);
  const parts = [
    exceeds.includes('instance-bandwidth')
      ? `${instance.instanceType} sustains ${n0(instance.ebs.baselineBandwidthMbps)} Mbps = ${n0(ceil.throughputMiBps)} MiB/s of EBS traffic, below the ${n0(target.tp)} MiB/s target`
      : null,
    exceeds.includes('instance-iops')
      ? `${instance.instanceType} sustains ${n0(ceil.iops)} EBS IOPS, below the ${n0(target.iops)} IOPS target`
      : null,
  ].filter(Boolean);
  const burst =
    instance.ebs.maximumBandwidthMbps > instance.ebs.baselineBandwidthMbps
      ? ` Its burst ceiling (${n0(instance.ebs.maximumBandwidthMbps)} Mbps, ${n0(instance.ebs.maximumIops)} IOPS) lasts 30 minutes per 24 hours: not a plan.`
      : '';
  const next = upgrade
    ? ` ${upgrade.instanceType} is the cheapest ${instance.family} that sustains it (${n0(upgrade.baselineBandwidthMbps)} Mbps, ${n0(upgrade.baselineIops)} IOPS).`
    : ` No ${instance.family} size sustains it: consider a family with higher EBS bandwidth, or local NVMe.`;
  return {
    exceeds,
    message: `${parts.join('; ')}. Volume provisioning above that is money for nothing.${burst}${next}`,
    upgrade,
  };
}

/** Right-sizes every requested volume type and ranks them: meets (cheapest first), capped, not viable. */
export function rightSize(input: RightSizeInput): RightSizeResult {
  const gen = input.gp3Generation ?? 'current';
  const nodes = input.nodes ?? 1;
  const factor = 1 + input.headroom;
  const ssd = demandOf(input.profile, IO_ACCOUNTING_UNIT_BYTES.ssd.value);
  const hdd = demandOf(input.profile, IO_ACCOUNTING_UNIT_BYTES.hdd.value);
  const totalOps = input.profile.read.iops + input.profile.write.iops;
  const target: Target = {
    iops: Math.ceil(ssd.iops * factor),
    tp: Math.ceil(ssd.throughputMiBps * factor),
    hddIops: Math.ceil(hdd.iops * factor),
    minSize: Math.max(1, Math.ceil(input.minSizeGiB)),
    blockSize:
      totalOps > 0 ? (input.profile.read.bytesPerSec + input.profile.write.bytesPerSec) / totalOps : null,
  };
  const ceil = instanceCeilings(input.instance);
  const sizers: Record<VolumeType, () => Sized> = {
    gp3: () => sizeGp3(target, ceil, gen),
    io2: () => sizeIo2(target, ceil),
    io1: () => sizeIo1(target, ceil),
    gp2: () => sizeGp2(target, ceil),
    st1: () => sizeHdd('st1', target, ceil),
    sc1: () => sizeHdd('sc1', target, ceil),
  };
  const capNote = ceil
    ? `capped at what ${ceil.name} sustains (${n0(ceil.iops)} IOPS, ${n0(ceil.throughputMiBps)} MiB/s)`
    : '';
  const recs: Recommendation[] = (input.types ?? VOLUME_TYPES).map((type) => {
    const sized = sizers[type]();
    if ('notViable' in sized) {
      const zero = { storage: 0, iops: 0, throughput: 0, total: 0 } satisfies CostBreakdown;
      return {
        type,
        status: 'not-viable',
        sizeGiB: 0,
        iops: 0,
        throughputMiBps: 0,
        monthlyUsd: zero,
        clusterMonthlyUsd: zero,
        reasons: sized.notViable,
        rank: 0,
      };
    }
    const cost = monthlyCost(sized.volume, input.rateCard);
    const caps = capabilitiesOf(sized.volume);
    return {
      type,
      status: sized.capped ? 'capped-by-instance' : 'meets',
      sizeGiB: sized.volume.sizeGiB,
      iops: caps.iops,
      throughputMiBps: caps.tp,
      monthlyUsd: cost,
      clusterMonthlyUsd: scaleCost(cost, nodes),
      reasons: sized.capped ? [...sized.reasons, capNote] : sized.reasons,
      rank: 0,
    };
  });
  const order = { meets: 0, 'capped-by-instance': 1, 'not-viable': 2 } as const;
  recs.sort((a, b) => order[a.status] - order[b.status] || a.monthlyUsd.total - b.monthlyUsd.total);
  recs.forEach((r, i) => (r.rank = i + 1));

  const notes: string[] = [];
  if (input.headroom < 1 / DELIVERY_FLOOR_FRACTION - 1)
    notes.push(
      `Headroom below ${((1 / DELIVERY_FLOOR_FRACTION - 1) * 100).toFixed(1)}%: EBS promises ≥ 90% of provisioned IOPS 99% (gp) or 99.9% (io) of the time, so the peak may not be served when it matters`,
    );
  if (ssd.iops > totalOps * 1.001)
    notes.push(
      'I/Os larger than 256 KiB count as several EBS operations: the IOPS target includes that split',
    );
  return {
    target: {
      headroom: input.headroom,
      iops: target.iops,
      throughputMiBps: target.tp,
      minSizeGiB: target.minSize,
    },
    recommendations: recs,
    instanceAdvice: adviseInstance(
      { iops: target.iops, tp: target.tp },
      input.instance,
      input.familyMembers ?? [],
    ),
    notes,
  };
}

/** Sustained IOPS and MiB/s of a sized configuration, for the recommendation table. */
function capabilitiesOf(volume: VolumeConfig): { iops: number; tp: number } {
  switch (volume.type) {
    case 'gp3':
      return { iops: volume.iops!, tp: volume.throughputMiBps! };
    case 'gp2':
      return { iops: gp2BaselineIops(volume.sizeGiB), tp: gp2ThroughputMiBps(volume.sizeGiB).sustained };
    case 'io1':
      return { iops: volume.iops!, tp: io1ThroughputMiBps(volume.iops!) };
    case 'io2':
      return {
        iops: volume.iops!,
        tp: Math.min(
          volume.iops! * IO2.throughputMiBps.maxPerProvisionedIops.value,
          IO2.throughputMiBps.max.value,
        ),
      };
    case 'st1':
    case 'sc1':
      return {
        iops: HDD[volume.type].maxIops.value,
        tp: Math.min(
          (HDD[volume.type].baselineMiBpsPerTiB.value * volume.sizeGiB) / 1024,
          HDD[volume.type].maxMiBps.value,
        ),
      };
  }
}

/**
 * gp2 → gp3 migration that keeps at least gp2's performance for that size: IOPS ≥ max(3,000,
 * gp2 baseline) — which also covers gp2's 3,000 burst — and MiB/s ≥ gp2's best throughput.
 */
export function gp3ForGp2(sizeGiB: number, gen: Gp3Generation = 'current'): VolumeConfig {
  const iops = Math.max(GP3.iops.included.value, gp2BaselineIops(sizeGiB));
  const tp = gp2ThroughputMiBps(sizeGiB);
  const throughputMiBps = Math.max(GP3.throughputMiBps.included.value, tp.burst ?? tp.sustained);
  return {
    type: 'gp3',
    sizeGiB: Math.min(sizeGiB, GP3.sizeGiB.max[gen].value),
    iops: Math.min(iops, GP3.iops.max[gen].value),
    throughputMiBps: Math.min(throughputMiBps, GP3.throughputMiBps.max[gen].value),
  };
}
