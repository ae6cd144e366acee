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
  GP2,
  GP3,
  HDD,
  IO1,
  IO2,
  NON_NITRO,
  VOLUME_TYPES,
  VolumeTypeSchema,
  type Gp3Generation,
  type VolumeType,
} from '../aws/volume-types.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import {
  HOURS_PER_MONTH,
  averageBlockSize,
  bytesPerSec,
  formatDecimal,
  formatInt,
  formatUsd,
  iops,
  mbps,
  mbpsToMiBps,
  roundCents,
} from '../units.ts';
import { stripeTrade, tradeOf } from './alternatives.ts';
import { burstGivenUp } from './headroom.ts';
import { CostBreakdownSchema, monthlyCost, scaleCost, type CostBreakdown } from './cost.ts';
import { demandOf, hasRandomIo } from './demand.ts';
import { attachContextOf } from './limits.ts';
import {
  gp2BaselineIops,
  gp2ThroughputMiBps,
  hddThroughputMiBps,
  io1ThroughputMiBps,
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
    .object({ sizeGiB: z.number(), iops: z.number().nullable(), throughputMiBps: z.number().nullable() })
    .optional(),
  /** Capacity over all volumes, GiB: never below the data it must hold. */
  sizeGiB: z.number(),
  /** What the configuration delivers on this instance, over all volumes (never above the instance cap it is capped at). */
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

/** What one volume of a stripe must deliver and hold. */
type Need = { iops: number; tp: number; hddBudget: number; hddIops: number; capacity: number };

type Sized =
  | { volume: VolumeConfig; reasons: string[] }
  /** `perVolume`: the need is above one volume's maxima — more volumes striped could carry it. */
  | { notViable: string; perVolume: boolean };

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

const tooBig = (why: string): Sized => ({ notViable: why, perVolume: true });
const never = (why: string): Sized => ({ notViable: why, perVolume: false });

function sizeGp3(t: Need, gen: Gp3Generation): Sized {
  const maxIops = GP3.iops.max[gen].value;
  const maxTp = GP3.throughputMiBps.max[gen].value;
  const tp = Math.max(GP3.throughputMiBps.included.value, Math.ceil(t.tp));
  let iops = Math.max(GP3.iops.included.value, Math.ceil(t.iops));
  const reasons: string[] = [];
  if (iops > maxIops || tp > maxTp)
    return tooBig(
      `needs ${n0(iops)} IOPS / ${n0(tp)} MiB/s, above one gp3 volume's ${n0(maxIops)} IOPS / ${n0(maxTp)} MiB/s (${gen === 'current' ? 'current limits' : 'limits before 2025'})`,
    );
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
  // The 500 IOPS/GiB ratio limits provisioned IOPS above the included 3,000, which any gp3 size
  // gets (validateVolume applies the same rule): a 1 GiB gp3 at 3,000 IOPS is valid.
  const sizeForIops = iops <= GP3.iops.included.value ? 0 : Math.ceil(iops / GP3.iops.maxPerGiB.value);
  const size = Math.max(t.capacity, sizeForIops, GP3.sizeGiB.min.value);
  if (sizeForIops > t.capacity)
    reasons.push(`size raised to ${n0(size)} GiB: gp3 allows ${GP3.iops.maxPerGiB.value} IOPS per GiB`);
  if (size > GP3.sizeGiB.max[gen].value) return tooBig(`needs ${n0(size)} GiB, above gp3's maximum size`);
  return { volume: { type: 'gp3', sizeGiB: size, iops, throughputMiBps: tp }, reasons };
}

/** What an io2 volume on an instance not built on Nitro is promised, and what is only planned with. */
const IO2_NOT_NITRO_TERMS = `on an instance not built on Nitro, AWS's current EBS guide says only that io2 "can achieve up to ${n0(NON_NITRO.maxPiops.value)} IOPS" (no throughput figure, no guarantee); the 2023 EC2 guide guaranteed up to ${n0(NON_NITRO.maxPiops.value)} IOPS and ${n0(NON_NITRO.maxMiBps.value)} MiB/s, the figures planned with here`;

function sizeIo2(t: Need, nitro: boolean | null): Sized {
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
  return { volume: { type: 'io2', sizeGiB: size, iops }, reasons };
}

function sizeIo1(t: Need, nitro: boolean | null): Sized {
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
  return { volume: { type: 'io1', sizeGiB: size, iops }, reasons };
}

function sizeGp2(t: Need): Sized {
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
  return { volume: { type: 'gp2', sizeGiB: size }, reasons };
}

/**
 * st1/sc1 spend a whole 1 MiB of throughput on every operation, so small or random I/O drains
 * them: 200 random IOPS cost 200 MiB/s (a 1 TiB sc1 sustains 12 of them). AWS advises SSD for
 * small, random I/O; so does the planner — HDD is offered only for sequential work, sized on the
 * merged throughput it really spends.
 */
function sizeHdd(type: 'st1' | 'sc1', t: Need, random: boolean, blockSize: number | null): Sized {
  const spec = HDD[type];
  const kib = blockSize !== null ? `${n0(blockSize / 1024)} KiB ` : '';
  if (random) {
    const perTiB = spec.baselineMiBpsPerTiB.value;
    return never(
      `random I/O: every ${kib}I/O costs a whole 1 MiB of ${type} throughput, so ${n0(t.hddIops)} IOPS spend ${n0(t.hddIops)} MiB/s (a 1 TiB ${type} sustains ${perTiB} such IOPS). HDD volumes are for large sequential I/O; AWS recommends SSD for small, random I/O`,
    );
  }
  if (t.hddIops > spec.maxIops.value)
    return tooBig(
      `needs ${n0(t.hddIops)} operations of up to 1 MiB per second; one ${type} volume handles ${spec.maxIops.value}`,
    );
  if (t.hddBudget > spec.maxMiBps.value)
    return tooBig(`needs ${n0(t.hddBudget)} MiB/s, above ${type}'s ${spec.maxMiBps.value} MiB/s`);
  const sizeForTp = Math.ceil((t.hddBudget / spec.baselineMiBpsPerTiB.value) * 1024);
  const size = Math.max(t.capacity, sizeForTp, spec.sizeGiB.min.value);
  if (size > spec.sizeGiB.max.value)
    return tooBig(
      `needs ${n0(size)} GiB for ${n0(t.hddBudget)} MiB/s baseline, above ${type}'s maximum size`,
    );
  return {
    volume: { type, sizeGiB: size },
    reasons: [
      `${n0(size)} GiB for a ${n0(hddThroughputMiBps(type, size).sustained)} MiB/s baseline (${spec.baselineMiBpsPerTiB.value} MiB/s per TiB); sequential I/O merges into 1 MiB operations`,
    ],
  };
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
  const sizers: Record<VolumeType, (per: Need) => Sized> = {
    gp3: (per) => sizeGp3(per, gen),
    io2: (per) => sizeIo2(per, nitro),
    io1: (per) => sizeIo1(per, nitro),
    gp2: (per) => sizeGp2(per),
    st1: (per) => sizeHdd('st1', per, random, blockSize),
    sc1: (per) => sizeHdd('sc1', per, random, blockSize),
  };
  const capNote = ceil
    ? `capped at what ${ceil.name} sustains (${n0(ceil.iops)} IOPS, ${n0(ceil.throughputMiBps)} MiB/s): the instance, not the volume, must change`
    : '';
  const recs: Recommendation[] = (input.types ?? VOLUME_TYPES).map((type) => {
    const { sized, count } = sizeStripe(type, need, maxVolumes, sizers[type]);
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
    const config: VolumeConfig = count > 1 ? { ...sized.volume, count } : sized.volume;
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
