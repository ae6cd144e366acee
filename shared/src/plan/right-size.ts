import { z } from 'zod';
import {
  categoryOf,
  isStorageOptimizedFamily,
  parseFamily,
  type InstanceSpec,
} from '../aws/instance-spec.ts';
import { missingPriceMessage, priceAvailable, type RateCard, type RegionRateCard } from '../aws/rate-card.ts';
import {
  DELIVERY_FLOOR_FRACTION,
  descriptorOf,
  GP3,
  VOLUME_TYPES,
  VolumeTypeSchema,
  type Gp3Generation,
  type VolumeType,
} from '../aws/volume-types.ts';
import {
  never,
  type Sized,
  type SizingContext,
  type SizingNeed as Need,
} from '../aws/volume-types/descriptor.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import {
  HOURS_PER_MONTH,
  averageBlockSize,
  bytesPerSec,
  formatInt,
  formatUsd,
  iops,
  mbps,
  mbpsToMiBps,
  roundCents,
  unitSchema,
} from '../units.ts';
import { stripeTrade, tradeOf } from './alternatives.ts';
import { burstGivenUp } from './headroom.ts';
import { CostBreakdownSchema, monthlyCost, scaleCost, type CostBreakdown } from './cost.ts';
import { demandOf, hasRandomIo } from './demand.ts';
import { attachContextOf } from './limits.ts';
import {
  gp2BaselineIops,
  gp2ThroughputMiBps,
  volumeCapabilities,
  volumeWithSettings,
  type VolumeConfig,
} from './volume.ts';

/**
 * Right-sizing (docs/domain.md §7): the cheapest configuration of each volume type that meets
 * peak × (1 + headroom), honoring each type's ratio rules — and never paying for IOPS or
 * throughput the instance cannot deliver.
 */

export const RecommendationSchema = z.object({
  type: VolumeTypeSchema,
  /** `meets`: delivers the target; `capped-by-instance`: provisioned up to what the instance sustains
   * (more would be waste) — the instance, not the volume, must change; `unpriced`: sized, but the
   * region's price list has no price for this type; `not-viable`: the type cannot. */
  status: z.enum(['meets', 'capped-by-instance', 'unpriced', 'not-viable']),
  /** Volumes striped together (RAID 0); 1 = a single volume. Absent in analyses stored before 2026.11.2. */
  volumeCount: z.number().int().min(1).optional(),
  /** What to provision on EACH volume of the stripe (null where the type takes no such setting). */
  perVolume: z
    .object({
      sizeGiB: unitSchema.gib(z.number()),
      iops: unitSchema.iops(z.number()).nullable(),
      throughputMiBps: unitSchema.mibps(z.number()).nullable(),
    })
    .optional(),
  /** Capacity over all volumes, GiB: never below the data it must hold. */
  sizeGiB: unitSchema.gib(z.number()),
  /** What the configuration delivers on this instance, over all volumes (never above the instance cap it is capped at). */
  iops: unitSchema.iops(z.number()),
  throughputMiBps: unitSchema.mibps(z.number()),
  /** Per node (all striped volumes of the configuration). */
  monthlyUsd: CostBreakdownSchema,
  /** × nodes. */
  clusterMonthlyUsd: CostBreakdownSchema,
  /** Why this configuration, or why the type does not fit, in plain words. */
  reasons: z.array(z.string()),
  rank: z.number().int(),
});
export type Recommendation = z.infer<typeof RecommendationSchema>;

export const InstanceOptionSchema = z.object({
  instanceType: z.string(),
  baselineBandwidthMbps: z.number(),
  baselineIops: z.number(),
  usdPerHourUsEast1: z.number().nullable(),
  /** us-east-1 on-demand Linux, 730 h. */
  usdPerMonthUsEast1: z.number().nullable().optional(),
  /** Has local NVMe (a `d` type). */
  instanceStore: z.boolean().optional(),
});
export type InstanceOption = z.infer<typeof InstanceOptionSchema>;

export const InstanceAdviceSchema = z.object({
  /** Which instance ceiling the target exceeds. */
  exceeds: z.array(z.enum(['instance-iops', 'instance-bandwidth'])),
  message: z.string(),
  /**
   * The cheapest instance whose SUSTAINED limits carry the target: the same category (general,
   * compute, memory), the same or a newer generation, the same CPU architecture, at least the
   * vCPUs and memory of the current one — with or without local NVMe.
   */
  upgrade: InstanceOptionSchema.nullable(),
  /** The next cheapest such instances (the cheapest with local NVMe among them, when there is one). */
  alternatives: z.array(InstanceOptionSchema).optional(),
});
export type InstanceAdvice = z.infer<typeof InstanceAdviceSchema>;

export const RightSizeResultSchema = z.object({
  target: z.object({
    headroom: z.number(),
    /** EBS operations (contiguous I/O merged where it can be, large I/O split), × (1 + headroom). */
    iops: z.number(),
    /** The same with every I/O counted alone — the worst case if merging does not happen; only when merging changed it. */
    iopsUnmerged: z.number().optional(),
    throughputMiBps: z.number(),
    /** Capacity the data needs (dataset, or the measured volume or stripe's total size), GiB. */
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
  /** Capacity the data needs over all volumes, GiB (the dataset, or the current volume or stripe's total). */
  minSizeGiB: number;
  instance: InstanceSpec | null;
  /** A region's prices; a type the region does not price is sized but marked `unpriced`. */
  rateCard: RegionRateCard;
  gp3Generation?: Gp3Generation;
  nodes?: number;
  types?: readonly VolumeType[];
  /** Instances to look through for one that sustains the target (e.g. the whole catalog). */
  instanceCandidates?: readonly InstanceSpec[];
};

const n0 = formatInt;
const MAX_STRIPE = 64;

/** What the instance sustains (baseline), floor-rounded: provisioning beyond it is waste. */
function instanceCeilings(instance: InstanceSpec | null) {
  if (!instance?.ebs) return null;
  return {
    iops: instance.ebs.baselineIops,
    throughputMiBps: Math.floor(mbpsToMiBps(mbps(instance.ebs.baselineBandwidthMbps))),
    name: instance.instanceType,
  };
}

/**
 * EBS volumes the instance can take for data: its attachment limit less the root volume
 * (DescribeInstanceTypes MaximumEbsAttachments), at most 64 (what the planner stripes).
 */
export function maxDataVolumes(instance: InstanceSpec | null): number {
  const limit = instance?.maximumEbsAttachments;
  return limit ? Math.max(1, Math.min(MAX_STRIPE, limit - 1)) : MAX_STRIPE;
}

/** A whole-number share of a total over `n` volumes (rounded up: each must carry its part). */
const share = (total: number, n: number) => Math.ceil(total / n - 1e-9);

/**
 * The fewest identical volumes of a type that carry the need together (RAID 0 adds IOPS,
 * throughput and capacity), up to what the instance can attach. One volume when one will do.
 */
function sizeStripe(
  type: VolumeType,
  need: Need,
  maxVolumes: number,
  size: (perVolume: Need) => Sized,
): { sized: Sized; count: number } {
  const single = size(need);
  if ('volume' in single || !single.perVolume) return { sized: single, count: 1 };
  const why = single.notViable;
  for (let n = 2; n <= maxVolumes; n++) {
    const sized = size({
      iops: share(need.iops, n),
      tp: share(need.tp, n),
      hddBudget: share(need.hddBudget, n),
      hddIops: share(need.hddIops, n),
      capacity: share(need.capacity, n),
    });
    if ('volume' in sized) {
      sized.reasons.unshift(
        `${n} × ${type} striped (RAID 0): one ${type} volume cannot carry the target (${why})`,
      );
      // A stripe's failure arithmetic and snapshot caveat travel with it (plan/alternatives.ts).
      sized.reasons.push(stripeTrade(type, n)!);
      return { sized, count: n };
    }
    if (!sized.perVolume) return { sized, count: 1 };
  }
  return {
    sized: never(
      `${why}; even ${maxVolumes} striped volumes${maxVolumes < MAX_STRIPE ? ' (what the instance can attach besides its root volume)' : ''} cannot carry it`,
    ),
    count: 1,
  };
}

/**
 * Whether `m` can replace `current` and sustain the target: baseline EBS IOPS and bandwidth that
 * carry it, at least the vCPUs and memory, priced; then the same category (general/compute/memory)
 * of the same or a newer generation and the same architecture — or, for other series, the same
 * family. Numbers first: most of a category fails on them, before any name is parsed.
 */
function canReplace(m: InstanceSpec, current: InstanceSpec, target: { iops: number; tp: number }): boolean {
  if (!m.ebs || m.usdPerHourUsEast1 == null) return false;
  if (m.ebs.baselineIops < target.iops || mbpsToMiBps(mbps(m.ebs.baselineBandwidthMbps)) < target.tp)
    return false;
  if ((m.vCpus ?? 0) < (current.vCpus ?? 0) || (m.memoryMiB ?? 0) < (current.memoryMiB ?? 0)) return false;
  if (!current.instanceType.includes('.metal') && m.instanceType.includes('.metal')) return false;
  const category = categoryOf(current.family);
  const sameArch = !(current.architecture && m.architecture && m.architecture !== current.architecture);
  // Off local NVMe onto EBS: any general-purpose, compute- or memory-optimized type (upgradePool).
  if (category === null && isStorageOptimizedFamily(current.family))
    return categoryOf(m.family) !== null && sameArch;
  if (category === null) return m.family === current.family;
  const p = parseFamily(m.family);
  if (
    !p ||
    categoryOf(m.family) !== category ||
    p.generation < (parseFamily(current.family)?.generation ?? 0)
  )
    return false;
  return !(current.architecture && m.architecture && m.architecture !== current.architecture);
}

const optionOf = (m: InstanceSpec): InstanceOption => ({
  instanceType: m.instanceType,
  baselineBandwidthMbps: m.ebs!.baselineBandwidthMbps,
  baselineIops: m.ebs!.baselineIops,
  usdPerHourUsEast1: m.usdPerHourUsEast1,
  usdPerMonthUsEast1: m.usdPerHourUsEast1 == null ? null : roundCents(m.usdPerHourUsEast1 * HOURS_PER_MONTH),
  instanceStore: m.instanceStore !== null,
});

/** Cheaper first; at one price, less bandwidth (less over-buying), then by name for a stable answer. */
const byPrice = (a: InstanceSpec, b: InstanceSpec) =>
  a.usdPerHourUsEast1! - b.usdPerHourUsEast1! ||
  a.ebs!.baselineBandwidthMbps - b.ebs!.baselineBandwidthMbps ||
  (a.instanceType < b.instanceType ? -1 : 1);

/**
 * A pool's priced types, cheapest first — sorted once per pool (a plan's caller passes the same
 * catalog array every time), so a search can stop at the first fits.
 */
const sortedPools = new WeakMap<readonly InstanceSpec[], readonly InstanceSpec[]>();
function byPriceOf(pool: readonly InstanceSpec[]): readonly InstanceSpec[] {
  if (pool.length === 0) return pool;
  let sorted = sortedPools.get(pool);
  if (!sorted) {
    sorted = pool.filter((m) => m.ebs && m.usdPerHourUsEast1 != null).sort(byPrice);
    sortedPools.set(pool, sorted);
  }
  return sorted;
}

/**
 * The three cheapest instances whose sustained limits carry the target, cheapest first, and the
 * cheapest with local NVMe when it is not among them.
 */
function findUpgrades(
  target: { iops: number; tp: number },
  current: InstanceSpec,
  pool: readonly InstanceSpec[],
): InstanceOption[] {
  const top: InstanceSpec[] = [];
  let withStore: InstanceSpec | null = null;
  for (const m of byPriceOf(pool)) {
    if (top.length === 3 && withStore) break;
    if (!canReplace(m, current, target)) continue;
    if (top.length < 3) top.push(m);
    withStore ??= m.instanceStore !== null ? m : null;
  }
  if (withStore && !top.includes(withStore)) top.push(withStore);
  return top.map(optionOf);
}

/**
 * The cheapest instances that can replace `current` and whose sustained (baseline) EBS IOPS and
 * bandwidth carry the target, cheapest first (the same search as the instance advice). The fleet
 * planner asks it for an instance whose volumes' concurrent demand exceeds its baseline.
 */
export function instancesSustaining(
  target: { iops: number; throughputMiBps: number },
  current: InstanceSpec,
  pool: readonly InstanceSpec[],
): InstanceOption[] {
  return findUpgrades({ iops: target.iops, tp: target.throughputMiBps }, current, pool);
}

function adviseInstance(
  target: { iops: number; tp: number },
  instance: InstanceSpec | null,
  pool: readonly InstanceSpec[],
): InstanceAdvice | null {
  const ceil = instanceCeilings(instance);
  if (!ceil || !instance?.ebs) return null;
  const exceeds: InstanceAdvice['exceeds'] = [];
  if (target.iops > ceil.iops) exceeds.push('instance-iops');
  if (target.tp > ceil.throughputMiBps) exceeds.push('instance-bandwidth');
  if (exceeds.length === 0) return null;
  const [upgrade = null, ...alternatives] = findUpgrades(target, instance, pool);
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
  const category = categoryOf(instance.family);
  const offNvme = category === null && isStorageOptimizedFamily(instance.family);
  const scope = category
    ? `${category === 'general' ? 'general-purpose' : category === 'compute' ? 'compute-optimized' : 'memory-optimized'} instance (same or newer generation, ${instance.architecture ?? 'same'} architecture, at least ${instance.vCpus ?? '?'} vCPUs and ${n0((instance.memoryMiB ?? 0) / 1024)} GiB)`
    : offNvme
      ? `general-purpose, compute- or memory-optimized instance (${instance.architecture ?? 'same'} architecture, at least ${instance.vCpus ?? '?'} vCPUs and ${n0((instance.memoryMiB ?? 0) / 1024)} GiB; not a larger ${instance.family}, whose price buys more local store)`
      : instance.family;
  const price = (o: InstanceOption) =>
    o.usdPerMonthUsEast1 != null ? `, ${formatUsd(o.usdPerMonthUsEast1)}/month on demand in us-east-1` : '';
  const next = upgrade
    ? ` ${upgrade.instanceType} is the cheapest ${scope} that sustains it (${n0(upgrade.baselineBandwidthMbps)} Mbps, ${n0(upgrade.baselineIops)} IOPS${price(upgrade)}).${alternatives.length > 0 ? ` Also: ${alternatives.map((a) => `${a.instanceType}${price(a)}`).join('; ')}.` : ''}`
    : offNvme
      ? ` No ${scope} sustains it on its EBS baseline: stay on NVMe (${instance.instanceType}'s local store).`
      : ` No ${scope} sustains it: consider a family with higher EBS bandwidth, or local NVMe.`;
  // Leaving NVMe for EBS pays for the instance and the volumes: when the instance alone already costs
  // more than the storage-optimized one, staying on NVMe is the cheaper answer, and is said first.
  const nowMonthly = instance.usdPerHourUsEast1 == null ? null : instance.usdPerHourUsEast1 * HOURS_PER_MONTH;
  const stay =
    offNvme &&
    upgrade?.usdPerMonthUsEast1 != null &&
    nowMonthly !== null &&
    upgrade.usdPerMonthUsEast1 > nowMonthly
      ? ` Stay on NVMe unless EBS is needed for another reason: ${upgrade.instanceType} alone costs ${formatUsd(upgrade.usdPerMonthUsEast1 - nowMonthly)}/month more than ${instance.instanceType} (us-east-1 on demand), before any EBS volume.`
      : '';
  return {
    exceeds,
    message: `${parts.join('; ')}. Volume provisioning above that is money for nothing.${burst}${next}${stay}`,
    upgrade,
    alternatives,
  };
}

const zeroCost = { storage: 0, iops: 0, throughput: 0, total: 0 } satisfies CostBreakdown;

/** Right-sizes every requested volume type and ranks them: meets (cheapest first), capped, unpriced, not viable. */
export function rightSize(input: RightSizeInput): RightSizeResult {
  const gen = input.gp3Generation ?? 'current';
  const nodes = input.nodes ?? 1;
  const factor = 1 + input.headroom;
  const ssd = demandOf(input.profile, 'ssd');
  const hdd = demandOf(input.profile, 'hdd');
  const totalOps = input.profile.read.iops + input.profile.write.iops;
  const blockSize = averageBlockSize(
    bytesPerSec(input.profile.read.bytesPerSec + input.profile.write.bytesPerSec),
    iops(totalOps),
  );
  const ceil = instanceCeilings(input.instance);
  const nitro = attachContextOf(input.instance).nitro;
  const maxVolumes = maxDataVolumes(input.instance);
  const random = hasRandomIo(input.profile);
  const wanted = {
    iops: Math.ceil(ssd.iops * factor),
    tp: Math.ceil(ssd.throughputMiBps * factor),
  };
  const capped = {
    iops: ceil ? Math.min(wanted.iops, ceil.iops) : wanted.iops,
    tp: ceil ? Math.min(wanted.tp, ceil.throughputMiBps) : wanted.tp,
  };
  const isCapped = capped.iops < wanted.iops || capped.tp < wanted.tp;
  const need: Need = {
    iops: capped.iops,
    tp: capped.tp,
    hddBudget: Math.ceil(Math.min(hdd.budgetMiBps * factor, ceil?.throughputMiBps ?? Infinity)),
    hddIops: Math.ceil(hdd.iops * factor),
    capacity: Math.max(1, Math.ceil(input.minSizeGiB)),
  };
  // Each type sizes itself (its descriptor, aws/volume-types/*.ts): one volume of the stripe.
  const sizing: SizingContext = { gen, nitro, random, blockSize };
  const capNote = ceil
    ? `capped at what ${ceil.name} sustains (${n0(ceil.iops)} IOPS, ${n0(ceil.throughputMiBps)} MiB/s): the instance, not the volume, must change`
    : '';
  const recs: Recommendation[] = (input.types ?? VOLUME_TYPES).map((type) => {
    const { sized, count } = sizeStripe(type, need, maxVolumes, (per) =>
      descriptorOf(type).size(per, sizing),
    );
    if ('notViable' in sized)
      return {
        type,
        status: 'not-viable',
        volumeCount: 1,
        sizeGiB: 0,
        iops: 0,
        throughputMiBps: 0,
        monthlyUsd: zeroCost,
        clusterMonthlyUsd: zeroCost,
        reasons: [sized.notViable],
        rank: 0,
      };
    const config: VolumeConfig = count > 1 ? { type, ...sized.volume, count } : { type, ...sized.volume };
    const caps = volumeCapabilities(config, { nitro });
    const delivered = {
      iops: ceil ? Math.min(caps.iops, ceil.iops) : caps.iops,
      tp: ceil ? Math.min(caps.throughputMiBps, ceil.throughputMiBps) : caps.throughputMiBps,
    };
    const gap = priceAvailable(input.rateCard, type) ? null : missingPriceMessage(input.rateCard, type);
    const cost = gap ? zeroCost : monthlyCost(config, input.rateCard as RateCard);
    const reasons = [...sized.reasons];
    if (isCapped) reasons.push(capNote);
    // Never below what was delivered, silently (docs/domain.md §7a): the peak itself above the
    // baseline rode the instance's burst, and a cap at the baseline throttles it.
    const givenUp =
      isCapped && ceil
        ? burstGivenUp(
            { iops: ssd.iops, mibps: ssd.throughputMiBps },
            { iops: ceil.iops, mibps: ceil.throughputMiBps },
          )
        : null;
    if (givenUp !== null) reasons.push(givenUp);
    if (ceil && (caps.iops > delivered.iops || caps.throughputMiBps > delivered.tp))
      reasons.push(
        `the volume${count > 1 ? 's' : ''} could deliver ${n0(caps.iops)} IOPS / ${n0(caps.throughputMiBps)} MiB/s; ${ceil.name} lets through ${n0(delivered.iops)} IOPS / ${n0(delivered.tp)} MiB/s`,
      );
    if (gap) reasons.push(`not priced: ${gap}`);
    return {
      type,
      status: gap ? 'unpriced' : isCapped ? 'capped-by-instance' : 'meets',
      volumeCount: count,
      perVolume: {
        sizeGiB: sized.volume.sizeGiB,
        iops: sized.volume.iops ?? null,
        throughputMiBps: sized.volume.throughputMiBps ?? null,
      },
      sizeGiB: sized.volume.sizeGiB * count,
      iops: delivered.iops,
      throughputMiBps: delivered.tp,
      monthlyUsd: cost,
      clusterMonthlyUsd: gap ? zeroCost : scaleCost(cost, nodes),
      reasons,
      rank: 0,
    };
  });
  // A cheaper type is listed with its trade, never chosen silently (plan/alternatives.ts).
  const piops = recs.find((r) => (r.type === 'io2' || r.type === 'io1') && r.status === 'meets');
  const gp3Rec = recs.find((r) => r.type === 'gp3' && r.status === 'meets');
  if (piops && gp3Rec && gp3Rec.monthlyUsd.total < piops.monthlyUsd.total)
    gp3Rec.reasons.push(`beside ${piops.type}: ${tradeOf(piops.type, 'gp3')}`);
  const order = { meets: 0, 'capped-by-instance': 1, unpriced: 2, 'not-viable': 3 } as const;
  recs.sort(
    (a, b) =>
      order[a.status] - order[b.status] ||
      a.monthlyUsd.total - b.monthlyUsd.total ||
      (a.volumeCount ?? 1) - (b.volumeCount ?? 1),
  );
  recs.forEach((r, i) => (r.rank = i + 1));

  const notes: string[] = [];
  if (input.headroom < 1 / DELIVERY_FLOOR_FRACTION - 1)
    notes.push(
      `Headroom below ${((1 / DELIVERY_FLOOR_FRACTION - 1) * 100).toFixed(1)}%: EBS promises ≥ 90% of provisioned IOPS 99% (gp) or 99.9% (io) of the time, so the peak may not be served when it matters`,
    );
  const merged = ssd.iopsUnmerged > ssd.iops * 1.001;
  if (merged)
    notes.push(
      `Sequential I/O of 32 KiB or more is sized on merged EBS operations (up to 256 KiB each): ${n0(wanted.iops)} IOPS with headroom. Merging is best effort; if it does not happen the volume sees ${n0(Math.ceil(ssd.iopsUnmerged * factor))} IOPS (the worst case)`,
    );
  else if (ssd.iops > totalOps * 1.001)
    notes.push(
      'I/Os larger than 256 KiB count as several EBS operations: the IOPS target includes that split',
    );
  return {
    target: {
      headroom: input.headroom,
      iops: wanted.iops,
      ...(merged ? { iopsUnmerged: Math.ceil(ssd.iopsUnmerged * factor) } : {}),
      throughputMiBps: wanted.tp,
      minSizeGiB: need.capacity,
    },
    recommendations: recs,
    instanceAdvice: adviseInstance(wanted, input.instance, input.instanceCandidates ?? []),
    notes,
  };
}

/**
 * The configuration a recommendation stands for — what to provision on each volume, × count —
 * with only the fields its type takes. Analyses stored before 2026.11.2 have no `perVolume`: their
 * totals were one volume's settings.
 */
export function volumeOfRecommendation(rec: Recommendation): VolumeConfig {
  const count = rec.volumeCount ?? 1;
  const per = rec.perVolume ?? {
    sizeGiB: rec.sizeGiB,
    iops: rec.iops,
    throughputMiBps: rec.throughputMiBps,
  };
  return volumeWithSettings({
    type: rec.type,
    sizeGiB: per.sizeGiB,
    iops: per.iops,
    throughputMiBps: per.throughputMiBps,
    count: count > 1 ? count : null,
  });
}

/** Whether a recommendation can be bought as stated (sized and priced): `meets` or capped by the instance. */
export function isUsable(rec: Recommendation): boolean {
  return rec.status === 'meets' || rec.status === 'capped-by-instance';
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
