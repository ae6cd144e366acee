import { z } from 'zod';
import { instanceBursts, type InstanceSpec } from '../aws/instance-spec.ts';
import { INSTANCE_BURST_MINUTES_PER_DAY } from '../aws/volume-types.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { formatDecimal, formatInt, mbps, mbpsToMiBps } from '../units.ts';
import { demandOf, type Demand, type Media } from './demand.ts';
import { CEILING_TOLERANCE, type Overrun } from './sustainability.ts';
import { describeVolume, volumeCapabilities, type AttachContext, type VolumeConfig } from './volume.ts';
import { LimitIdSchema, type Limit, type LimitId, type LimitTarget } from './limit.schema.ts';

/**
 * The ceilings a workload runs into (docs/domain.md §6). Four separate sustained ceilings — volume IOPS,
 * volume throughput, instance IOPS, instance bandwidth — kept apart (instance IOPS are quoted at
 * 16 KiB I/O and bandwidth at 128 KiB: one does not imply the other), plus the burst ceilings
 * reachable only for a while, and, for local NVMe, the instance store's own IOPS.
 */
export { LIMIT_IDS, LimitSchema } from './limit.schema.ts';
export type { Limit, LimitTarget } from './limit.schema.ts';

const n0 = formatInt;
const n1 = (v: number) => formatDecimal(v, 1);

function limit(id: LimitId, fields: Omit<Limit, 'id' | 'utilization'> & { utilization?: number }): Limit {
  return {
    id,
    ...fields,
    utilization: fields.utilization ?? (fields.capacity > 0 ? fields.demand / fields.capacity : Infinity),
  };
}

/** `demandUnmerged` when merging changed the count (kept as the worst case). */
const unmergedField = (demand: Demand) =>
  demand.iopsUnmerged > demand.iops * 1.001 ? { demandUnmerged: demand.iopsUnmerged } : {};

/** How the IOPS demand was counted, in words (merging, splitting, HDD's whole-MiB cost). */
function countingNote(demand: Demand, unitKiB: number): string {
  const merged = demand.iopsUnmerged > demand.iops * 1.001;
  return merged
    ? `demand counts contiguous I/O merged into ${unitKiB} KiB operations (best effort; ${n0(demand.iopsUnmerged)} IOPS if every I/O counted alone)`
    : `demand counts each I/O up to ${unitKiB} KiB as one operation`;
}

/** Volume ceilings for an EBS target; IOPS demand counted as the volume's media counts it. */
function volumeLimits(profile: IoProfile, volume: VolumeConfig, ctx: AttachContext): Limit[] {
  const caps = volumeCapabilities(volume, ctx);
  const demand = demandOf(profile, caps.media);
  const count = volume.count ?? 1;
  const hdd = caps.media === 'hdd';
  const what = `${describeVolume(volume)}${count > 1 ? ' striped (RAID 0)' : ''}`;
  const limits: Limit[] = [
    limit('volume-iops', {
      label: 'Volume IOPS',
      scope: 'volume',
      sustained: true,
      unit: 'IOPS',
      capacity: caps.iops,
      demand: demand.iops,
      ...unmergedField(demand),
      native: null,
      explanation: `${what}: ${n0(caps.iops)} IOPS${volume.type === 'gp2' ? ' baseline (3 per GiB)' : ''}${caps.nitroCapped ? ' (held to 32,000 per volume: the instance is not built on Nitro)' : ''}; ${countingNote(demand, caps.ioUnitBytes / 1024)}`,
    }),
    limit('volume-throughput', {
      label: 'Volume throughput',
      scope: 'volume',
      sustained: true,
      unit: 'MiB/s',
      capacity: caps.throughputMiBps,
      demand: demand.budgetMiBps,
      native: null,
      explanation: hdd
        ? `${what}: ${n1(caps.throughputMiBps)} MiB/s baseline (scales with size); every operation costs a whole 1 MiB of it${demand.budgetMiBps > demand.throughputMiBps * 1.001 ? `, so ${n1(demand.throughputMiBps)} MiB/s of data in ${n0(demand.iops)} operations spends ${n1(demand.budgetMiBps)} MiB/s` : ''}`
        : `${what}: ${n1(caps.throughputMiBps)} MiB/s`,
    }),
  ];
  if (caps.burstIops !== null) {
    limits.push(
      limit('volume-iops-burst', {
        label: 'Volume IOPS (burst credits)',
        scope: 'volume',
        sustained: false,
        unit: 'IOPS',
        capacity: caps.burstIops,
        demand: demand.iops,
        ...unmergedField(demand),
        native: null,
        explanation: `gp2 below 1 TiB bursts to 3,000 IOPS per volume while its 5.4 M credits last`,
      }),
    );
  }
  if (caps.burstThroughputMiBps !== null) {
    limits.push(
      limit('volume-throughput-burst', {
        label: 'Volume throughput (burst credits)',
        scope: 'volume',
        sustained: false,
        unit: 'MiB/s',
        capacity: caps.burstThroughputMiBps,
        demand: demand.budgetMiBps,
        native: null,
        explanation: `${volume.type} reaches ${n1(caps.burstThroughputMiBps)} MiB/s only while burst credits last`,
      }),
    );
  }
  return limits;
}

/** Instance EBS ceilings: baseline (sustained) and, where the type bursts, maximum (30 min per 24 h). */
function instanceLimits(profile: IoProfile, instance: InstanceSpec, media: Media): Limit[] {
  const ebs = instance.ebs;
  if (!ebs) return [];
  const demand = demandOf(profile, media);
  const baselineMiBps = mbpsToMiBps(mbps(ebs.baselineBandwidthMbps));
  const maximumMiBps = mbpsToMiBps(mbps(ebs.maximumBandwidthMbps));
  const limits: Limit[] = [
    limit('instance-iops', {
      label: 'Instance EBS IOPS',
      scope: 'instance',
      sustained: true,
      unit: 'IOPS',
      capacity: ebs.baselineIops,
      demand: demand.iops,
      ...unmergedField(demand),
      native: { capacity: ebs.baselineIops, unit: 'IOPS (at 16 KiB I/O)' },
      explanation: `${instance.instanceType} sustains ${n0(ebs.baselineIops)} EBS IOPS (AWS measures this cap with 16 KiB I/O)`,
    }),
    limit('instance-bandwidth', {
      label: 'Instance EBS bandwidth',
      scope: 'instance',
      sustained: true,
      unit: 'MiB/s',
      capacity: baselineMiBps,
      demand: demand.throughputMiBps,
      native: { capacity: ebs.baselineBandwidthMbps, unit: 'Mbps' },
      explanation: `${instance.instanceType} sustains ${n0(ebs.baselineBandwidthMbps)} Mbps = ${n1(ebs.baselineBandwidthMbps / 8)} MB/s = ${n1(baselineMiBps)} MiB/s to all its EBS volumes together (measured with 128 KiB I/O)`,
    }),
  ];
  if (instanceBursts(instance)) {
    limits.push(
      limit('instance-iops-burst', {
        label: 'Instance EBS IOPS (burst)',
        scope: 'instance',
        sustained: false,
        unit: 'IOPS',
        capacity: ebs.maximumIops,
        demand: demand.iops,
        ...unmergedField(demand),
        native: { capacity: ebs.maximumIops, unit: 'IOPS (at 16 KiB I/O)' },
        explanation: `${instance.instanceType} reaches ${n0(ebs.maximumIops)} IOPS for ${INSTANCE_BURST_MINUTES_PER_DAY} minutes at least once every 24 hours, then falls back to ${n0(ebs.baselineIops)}`,
      }),
      limit('instance-bandwidth-burst', {
        label: 'Instance EBS bandwidth (burst)',
        scope: 'instance',
        sustained: false,
        unit: 'MiB/s',
        capacity: maximumMiBps,
        demand: demand.throughputMiBps,
        native: { capacity: ebs.maximumBandwidthMbps, unit: 'Mbps' },
        explanation: `${instance.instanceType} reaches ${n0(ebs.maximumBandwidthMbps)} Mbps = ${n1(maximumMiBps)} MiB/s for ${INSTANCE_BURST_MINUTES_PER_DAY} minutes at least once every 24 hours, then falls back to ${n1(baselineMiBps)} MiB/s`,
      }),
    );
  }
  return limits;
}

/**
 * AWS publishes instance store IOPS for 4 KiB random I/O only (queue-depth saturation, all
 * volumes): the figure is a ceiling for I/O of about that size and says nothing about larger
 * blocks, where the devices run into a throughput limit AWS does not publish (a 64 KiB run that
 * saturated r5d's store did ~8k IOPS, 9% of the 4 KiB figure). Up to this average size the spec applies.
 */
export const NVME_SPEC_MAX_BLOCK_BYTES = 4 * 1024 * 1.1;

/** Whether the 4 KiB spec can judge this direction (it moved I/O, of about 4 KiB). */
export function nvmeSpecApplies(load: { iops: number; blockSizeBytes: number | null }): boolean {
  return load.iops > 0 && load.blockSizeBytes !== null && load.blockSizeBytes <= NVME_SPEC_MAX_BLOCK_BYTES;
}

/**
 * Local NVMe: the instance store's 4 KiB random read / write IOPS over all its volumes (AWS docs),
 * for the directions whose I/O is that small; for larger I/O no ceiling is known, so no limit is
 * listed (plan.ts warns `nvme_ceiling_unknown` and gives no bottleneck verdict).
 */
function instanceStoreLimits(profile: IoProfile, instance: InstanceSpec): Limit[] {
  const store = instance.instanceStore;
  if (!store) return [];
  const limits: Limit[] = [];
  const volumes = `${store.volumes} × ${n0(store.volumeSizeGB)} GB ${store.kind}`;
  if (store.randomReadIops !== null && nvmeSpecApplies(profile.read)) {
    limits.push(
      limit('nvme-read-iops', {
        label: 'Instance store read IOPS',
        scope: 'instance-store',
        sustained: true,
        unit: 'IOPS',
        capacity: store.randomReadIops,
        demand: profile.read.iops,
        native: { capacity: store.randomReadIops, unit: 'IOPS (4 KiB random read)' },
        explanation: `${instance.instanceType} instance store (${volumes}): ${n0(store.randomReadIops)} random read IOPS at 4 KiB over all volumes (AWS spec)`,
      }),
    );
  }
  if (store.writeIops !== null && nvmeSpecApplies(profile.write)) {
    limits.push(
      limit('nvme-write-iops', {
        label: 'Instance store write IOPS',
        scope: 'instance-store',
        sustained: true,
        unit: 'IOPS',
        capacity: store.writeIops,
        demand: profile.write.iops,
        native: { capacity: store.writeIops, unit: 'IOPS (4 KiB random write)' },
        explanation: `${instance.instanceType} instance store (${volumes}): ${n0(store.writeIops)} write IOPS at 4 KiB over all volumes (AWS spec)`,
      }),
    );
  }
  return limits;
}

/**
 * Every ceiling that applies to this profile on this target: capacity, demand and utilization.
 * Without an instance only the volume's own limits apply (the caller says so to the user); without
 * a target only the instance's.
 */
export function computeLimits(
  profile: IoProfile,
  target: LimitTarget | null,
  instance: InstanceSpec | null,
): Limit[] {
  // Without a volume, the instance's own EBS caps still apply (EBS I/O counted in SSD units).
  if (target === null) return instance ? instanceLimits(profile, instance, 'ssd') : [];
  if (target.kind === 'nvme') return instance ? instanceStoreLimits(profile, instance) : [];
  const ctx = attachContextOf(instance);
  const caps = volumeCapabilities(target.volume, ctx);
  return [
    ...volumeLimits(profile, target.volume, ctx),
    ...(instance ? instanceLimits(profile, instance, caps.media) : []),
  ];
}

/** What the instance allows its volumes (Nitro or not; unknown without an instance). */
export function attachContextOf(instance: InstanceSpec | null): AttachContext {
  return { nitro: instance?.hypervisor == null ? null : instance.hypervisor === 'nitro' };
}

/** At or above this utilization a limit is saturated: the workload is pinned against it (docs/domain.md §6). */
export const SATURATED_UTILIZATION = 0.95;

export const BottleneckSchema = z.object({
  id: LimitIdSchema,
  utilization: z.number(),
  /** Pinned against the ceiling: utilization 95%–105% (within measurement noise of it). */
  saturated: z.boolean(),
  explanation: z.string(),
  /**
   * `within`: below the ceiling; `saturated`: at it; `bursting`: a burst ceiling binds because the
   * demand is above the sustained one (the sustained figure is in `sustained`); `impossible`:
   * above what the configuration delivers for that long — a labelling or runtime error, never
   * "pinned". Absent in analyses stored before 2026.11.2.
   */
  state: z.enum(['within', 'saturated', 'bursting', 'impossible']).optional(),
  /** When a burst ceiling binds: the sustained ceiling the workload falls back to. */
  sustained: z
    .object({
      id: LimitIdSchema,
      capacity: z.number(),
      unit: z.enum(['IOPS', 'MiB/s']),
      utilization: z.number(),
    })
    .nullable()
    .optional(),
});
export type Bottleneck = z.infer<typeof BottleneckSchema>;
export type BottleneckState = NonNullable<Bottleneck['state']>;

/**
 * The bottleneck's state. Analyses stored before 2026.11.2 carry none: above the tolerance a
 * measurement was never "pinned", so it reads as impossible; else saturated or within.
 */
export function bottleneckStateOf(b: Bottleneck): BottleneckState {
  if (b.state) return b.state;
  if (b.utilization > CEILING_TOLERANCE) return 'impossible';
  return b.saturated ? 'saturated' : 'within';
}

/** One limit's utilization in words: at the ceiling from 95%, within 5% above it still "at" it (noise). */
export type UtilizationStatus = 'ok' | 'saturated' | 'over';
export function utilizationStatus(u: number): UtilizationStatus {
  if (!(u <= CEILING_TOLERANCE)) return 'over';
  return u >= SATURATED_UTILIZATION ? 'saturated' : 'ok';
}

const pctOf = (u: number) => `${(u * 100).toFixed(1)}%`;

/**
 * The limit that binds: the sustained limit with the highest utilization — except where the
 * demand is above a sustained ceiling on a burst allowance it has not outlived (`bursting`
 * overruns): there the burst ceiling is what bound the measurement, and the sustained figure is
 * stated beside it (a 2-minute run at 40,000 IOPS on c6a.xlarge is bound by its 40,000-IOPS
 * burst at 100%, not by its 6,000-IOPS baseline "at 667%").
 */
export function findBottleneck(
  limits: readonly Limit[],
  overruns: readonly Overrun[] = [],
): Bottleneck | null {
  const bursting = new Map(
    overruns.filter((o) => o.verdict === 'bursting' && o.burst).map((o) => [o.limit.id, o.burst!]),
  );
  const impossible = new Set(overruns.filter((o) => o.verdict !== 'bursting').map((o) => o.limit.id));
  let best: { binding: Limit; sustained: Limit | null } | null = null;
  for (const l of limits) {
    if (!l.sustained) continue;
    const burst = bursting.get(l.id);
    const candidate = burst ? { binding: burst, sustained: l } : { binding: l, sustained: null };
    const u = candidate.binding.utilization;
    // Ties go to the instance (paying for more volume cannot help there).
    if (
      best === null ||
      u > best.binding.utilization ||
      (u === best.binding.utilization && l.scope === 'instance')
    )
      best = candidate;
  }
  if (best === null) return null;
  const { binding, sustained } = best;
  const u = binding.utilization;
  const overTolerance = u > CEILING_TOLERANCE || impossible.has(binding.id);
  const saturated = !overTolerance && u >= SATURATED_UTILIZATION;
  const state = overTolerance ? 'impossible' : sustained ? 'bursting' : saturated ? 'saturated' : 'within';
  const amounts = `${n1(binding.demand)} of ${n1(binding.capacity)} ${binding.unit}`;
  let explanation: string;
  if (state === 'impossible')
    explanation = `${binding.label} is asked for ${pctOf(u)} of its ceiling (${amounts}): this configuration cannot deliver that for as long as it was asked for — if it was measured, check the labels (instance, volume) or the runtime; if it is a target, the configuration is too small`;
  else if (sustained)
    explanation = `${binding.label} binds at ${pctOf(u)} (${amounts})${saturated ? ': saturated — pinned against the burst ceiling' : ''}. Sustained, the ceiling is ${n1(sustained.capacity)} ${sustained.unit} (${sustained.label}; the demand is ${pctOf(sustained.utilization)} of it): the measurement ran on a burst allowance that ends`;
  else
    explanation = `${binding.label} binds at ${pctOf(u)} (${amounts})${saturated ? ': saturated — the measurement is pinned against this ceiling, not the others' : ''}`;
  return {
    id: binding.id,
    utilization: u,
    saturated,
    explanation,
    state,
    sustained: sustained
      ? {
          id: sustained.id,
          capacity: sustained.capacity,
          unit: sustained.unit,
          utilization: sustained.utilization,
        }
      : null,
  };
}
