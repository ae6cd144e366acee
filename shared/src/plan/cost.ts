import { z } from 'zod';
import { descriptorOf, VOLUME_TYPE_REGISTRY } from '../aws/volume-types.ts';
import type { CostLine, VolumeSettings, VolumeTypeDescriptor } from '../aws/volume-types/descriptor.ts';
import type { RateCard } from '../aws/rate-card.ts';
import { HOURS_PER_MONTH, roundCents, usd, type Usd } from '../units.ts';
import { volumeCapabilities, type VolumeConfig } from './volume.ts';

/**
 * Monthly cost of EBS volumes (docs/domain.md §8), in USD: Σ quantity × rate over the cost
 * components of the volume's type (its descriptor, aws/volume-types/*.ts), added up per line of the
 * breakdown:
 * - gp3 = GiB × storage + max(0, IOPS − 3,000) × iops + max(0, MiB/s − 125) × throughput
 * - gp2, st1, sc1 = GiB × storage;  io1 = GiB × storage + IOPS × iops
 * - io2 = GiB × storage + IOPS graduated: 1–32,000 at `iops`, 32,001–64,000 at `iops2`, above at `iops3`
 * Components are rounded to cents and the total is their sum, as on an invoice.
 */
export const CostBreakdownSchema = z.object({
  storage: z.number(),
  iops: z.number(),
  throughput: z.number(),
  total: z.number(),
});
export type CostBreakdown = z.infer<typeof CostBreakdownSchema>;

const breakdown = (storage: number, iops: number, throughput: number): CostBreakdown => {
  const s = roundCents(storage);
  const i = roundCents(iops);
  const t = roundCents(throughput);
  return { storage: s, iops: i, throughput: t, total: roundCents(s + i + t) };
};

/** Σ quantity × rate over a type's components that are billed on `line`, for one volume. */
function lineCost(
  d: VolumeTypeDescriptor,
  volume: VolumeSettings,
  rates: Readonly<Record<string, number>>,
  line: CostLine,
): number {
  let sum = 0;
  for (const component of d.costComponents)
    if (component.line === line) sum += component.quantity(volume) * rates[component.key]!;
  return sum;
}

/** io2's graduated IOPS price: each tier's rate applies only to the IOPS inside it. */
export function io2IopsCost(iops: number, card: RateCard): number {
  return lineCost(VOLUME_TYPE_REGISTRY.io2, { sizeGiB: 0, iops }, card.io2, 'iops');
}

/** One volume's monthly USD per component, unrounded: [storage, iops, throughput] (Σ quantity × rate of its descriptor's components). */
function singleVolumeMonthlyUsd(volume: VolumeConfig, card: RateCard): [number, number, number] {
  const d = descriptorOf(volume.type);
  const rates: Readonly<Record<string, number>> = card[volume.type];
  return [
    lineCost(d, volume, rates, 'storage'),
    lineCost(d, volume, rates, 'iops'),
    lineCost(d, volume, rates, 'throughput'),
  ];
}

/** Cost of ONE volume of the configuration (not multiplied by `count`). */
function singleVolumeCost(volume: VolumeConfig, card: RateCard): CostBreakdown {
  return breakdown(...singleVolumeMonthlyUsd(volume, card));
}

export function scaleCost(cost: CostBreakdown, factor: number): CostBreakdown {
  return breakdown(cost.storage * factor, cost.iops * factor, cost.throughput * factor);
}

/** Monthly cost of a configuration: all `count` striped volumes. */
export function monthlyCost(volume: VolumeConfig, card: RateCard): CostBreakdown {
  return scaleCost(singleVolumeCost(volume, card), volume.count ?? 1);
}

/** A fleet: the per-node configuration × nodes (e.g. 4 database nodes with one data volume each). */
export function clusterMonthlyCost(volume: VolumeConfig, card: RateCard, nodes: number): CostBreakdown {
  return scaleCost(monthlyCost(volume, card), nodes);
}

/**
 * EBS bills a volume's provisioned storage, IOPS and throughput per second, with a 60-second
 * minimum (AWS's Amazon EBS pricing page; docs/domain.md §8): a volume deleted after 20 s is
 * billed for 60.
 */
export const EBS_MINIMUM_BILLED_SECONDS = 60;

/** The seconds in a month of HOURS_PER_MONTH (730 h): 2,628,000. */
export const SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600;

/**
 * What volumes that live `seconds` cost: each component's monthly rate × billed seconds ÷
 * SECONDS_PER_MONTH. In USD to a millionth of a dollar, not to cents: a CI runner's 12-minute
 * volume costs a fraction of a cent.
 */
export const DurationCostSchema = z.object({
  /** How long the volumes lived, as given (s). */
  seconds: z.number(),
  /** What AWS bills: whole seconds, at least EBS_MINIMUM_BILLED_SECONDS. */
  billedSeconds: z.number(),
  storage: z.number(),
  iops: z.number(),
  throughput: z.number(),
  total: z.number(),
});
export type DurationCost = z.infer<typeof DurationCostSchema>;

const roundMicros = (value: number) => Math.round(value * 1e6) / 1e6;

/** Seconds AWS bills for a volume that lived `seconds`: rounded up to whole seconds, at least 60. */
export function billedSeconds(seconds: number): number {
  if (!(seconds > 0) || !Number.isFinite(seconds))
    throw new RangeError(`seconds must be positive, got ${seconds}`);
  return Math.max(EBS_MINIMUM_BILLED_SECONDS, Math.ceil(seconds));
}

/**
 * Cost of a configuration (all `count` volumes) × `nodes` for `seconds` of life, billed per
 * second with the 60-second minimum. Computed from the unrounded monthly components, so short
 * lives are not distorted by the monthly figures' rounding to cents.
 */
export function durationCost(volume: VolumeConfig, card: RateCard, seconds: number, nodes = 1): DurationCost {
  const billed = billedSeconds(seconds);
  const factor = ((volume.count ?? 1) * nodes * billed) / SECONDS_PER_MONTH;
  const [storage, iops, throughput] = singleVolumeMonthlyUsd(volume, card).map(
    (usdPerMonth) => usdPerMonth * factor,
  ) as [number, number, number];
  return {
    seconds,
    billedSeconds: billed,
    storage: roundMicros(storage),
    iops: roundMicros(iops),
    throughput: roundMicros(throughput),
    total: roundMicros(storage + iops + throughput),
  };
}

/**
 * Money, not only speed: what one provisioned IOPS and one MiB/s cost per month in this
 * configuration (total ÷ sustained capability), so EBS and NVMe compare on the same footing.
 */
export function costPerCapability(
  volume: VolumeConfig,
  card: RateCard,
): { usdPerIops: number; usdPerMiBps: number } {
  const caps = volumeCapabilities(volume);
  const total = monthlyCost(volume, card).total;
  return { usdPerIops: total / caps.iops, usdPerMiBps: total / caps.throughputMiBps };
}

/**
 * Local NVMe is paid for in the instance price: the `d` variant's premium over its base type
 * (same vCPU, memory and EBS limits). Per IOPS on the AWS 4 KiB spec; per MiB/s on what was
 * measured (AWS publishes no instance-store throughput).
 */
export function nvmeCostPerCapability(
  premiumUsdPerHour: number,
  spec: { randomReadIops: number | null; writeIops: number | null },
  measuredMiBps?: number | null,
): {
  monthly: Usd;
  usdPerReadIops: number | null;
  usdPerWriteIops: number | null;
  usdPerMiBps: number | null;
} {
  const monthly = usd(roundCents(premiumUsdPerHour * HOURS_PER_MONTH));
  return {
    monthly,
    usdPerReadIops: spec.randomReadIops ? monthly / spec.randomReadIops : null,
    usdPerWriteIops: spec.writeIops ? monthly / spec.writeIops : null,
    usdPerMiBps: measuredMiBps && measuredMiBps > 0 ? monthly / measuredMiBps : null,
  };
}

/**
 * What over-provisioning costs a fleet per month: `provisioned` vs `rightSized`, × volumes per
 * node × nodes ([guide]'s "4 nodes at max vs right-sized", docs/domain.md sources: $2,310 vs
 * $320, $1,990 wasted).
 */
export function overProvisioningWaste(
  provisioned: VolumeConfig,
  rightSized: VolumeConfig,
  card: RateCard,
  nodes: number,
): { provisioned: CostBreakdown; rightSized: CostBreakdown; wasteUsd: number } {
  return wasteOf(clusterMonthlyCost(provisioned, card, nodes), clusterMonthlyCost(rightSized, card, nodes));
}

/**
 * The monthly waste between two costs already computed (a stored plan's cluster cost and its
 * right-sized one): provisioned − right-sized, in cents like every other amount.
 */
export function wasteOf(
  provisioned: CostBreakdown,
  rightSized: CostBreakdown,
): { provisioned: CostBreakdown; rightSized: CostBreakdown; wasteUsd: number } {
  return { provisioned, rightSized, wasteUsd: roundCents(provisioned.total - rightSized.total) };
}
