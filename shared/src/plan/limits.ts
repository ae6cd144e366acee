import { z } from 'zod';
import { instanceBursts, type InstanceSpec } from '../aws/instance-spec.ts';
import { INSTANCE_BURST_MINUTES_PER_DAY, VOLUME_TRAITS } from '../aws/volume-types.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { formatDecimal, formatInt, mbps, mbpsToMiBps } from '../units.ts';
import { demandOf } from './demand.ts';
import { volumeCapabilities, type VolumeConfig } from './volume.ts';

/**
 * The ceilings a workload runs into (domain.md §6). Four separate sustained ceilings — volume IOPS,
 * volume throughput, instance IOPS, instance bandwidth — kept apart (instance IOPS are quoted at
 * 16 KiB I/O and bandwidth at 128 KiB: one does not imply the other), plus the burst ceilings
 * reachable only for a while, and, for local NVMe, the instance store's own IOPS.
 */
export const LIMIT_IDS = [
  'volume-iops',
  'volume-throughput',
  'instance-iops',
  'instance-bandwidth',
  'volume-iops-burst',
  'volume-throughput-burst',
  'instance-iops-burst',
  'instance-bandwidth-burst',
  'nvme-read-iops',
  'nvme-write-iops',
] as const;
export const LimitIdSchema = z.enum(LIMIT_IDS);
export type LimitId = z.infer<typeof LimitIdSchema>;

export const LimitSchema = z.object({
  id: LimitIdSchema,
  label: z.string(),
  scope: z.enum(['volume', 'instance', 'instance-store']),
  /** Sustained ceilings can bind indefinitely; burst ceilings only while credits or the daily window last. */
  sustained: z.boolean(),
  /** Throughput limits are all in MiB/s so they compare; `native` keeps the unit AWS quotes. */
  unit: z.enum(['IOPS', 'MiB/s']),
  capacity: z.number(),
  demand: z.number(),
  /** demand ÷ capacity (1 = 100%). */
  utilization: z.number(),
  native: z.object({ capacity: z.number(), unit: z.string() }).nullable(),
  explanation: z.string(),
});
export type Limit = z.infer<typeof LimitSchema>;

export type LimitTarget = { kind: 'ebs'; volume: VolumeConfig } | { kind: 'nvme' };

const n0 = formatInt;
const n1 = (v: number) => formatDecimal(v, 1);

function limit(id: LimitId, fields: Omit<Limit, 'id' | 'utilization'> & { utilization?: number }): Limit {
  return {
    id,
    ...fields,
    utilization: fields.utilization ?? (fields.capacity > 0 ? fields.demand / fields.capacity : Infinity),
  };
}

/** Volume ceilings for an EBS target; IOPS demand counted in the volume type's accounting unit. */
function volumeLimits(profile: IoProfile, volume: VolumeConfig): Limit[] {
  const caps = volumeCapabilities(volume);
  const demand = demandOf(profile, caps.ioUnitBytes);
  const count = volume.count ?? 1;
  const what = `${count > 1 ? `${count} × ` : ''}${volume.type} ${n1(volume.sizeGiB)} GiB${count > 1 ? ' striped (RAID 0)' : ''}`;
  const limits: Limit[] = [
    limit('volume-iops', {
      label: 'Volume IOPS',
      scope: 'volume',
      sustained: true,
      unit: 'IOPS',
      capacity: caps.iops,
      demand: demand.iops,
      native: null,
      explanation: `${what}: ${n0(caps.iops)} IOPS${volume.type === 'gp2' ? ' baseline (3 per GiB)' : ''}; demand counts each I/O up to ${caps.ioUnitBytes / 1024} KiB as one operation`,
    }),
    limit('volume-throughput', {
      label: 'Volume throughput',
      scope: 'volume',
      sustained: true,
      unit: 'MiB/s',
      capacity: caps.throughputMiBps,
      demand: demand.throughputMiBps,
      native: null,
      explanation: `${what}: ${n1(caps.throughputMiBps)} MiB/s${VOLUME_TRAITS[volume.type].media === 'hdd' ? ' baseline (scales with size)' : ''}`,
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
        demand: demand.throughputMiBps,
        native: null,
        explanation: `${volume.type} reaches ${n1(caps.burstThroughputMiBps)} MiB/s only while burst credits last`,
      }),
    );
  }
  return limits;
}

/** Instance EBS ceilings: baseline (sustained) and, where the type bursts, maximum (30 min per 24 h). */
function instanceLimits(profile: IoProfile, instance: InstanceSpec, ioUnitBytes: number): Limit[] {
  const ebs = instance.ebs;
  if (!ebs) return [];
  const demand = demandOf(profile, ioUnitBytes);
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

/** Local NVMe: the instance store's 4 KiB random read / write IOPS over all its volumes (AWS docs). */
function instanceStoreLimits(profile: IoProfile, instance: InstanceSpec): Limit[] {
  const store = instance.instanceStore;
  if (!store) return [];
  const limits: Limit[] = [];
  const volumes = `${store.volumes} × ${n0(store.volumeSizeGB)} GB ${store.kind}`;
  if (store.randomReadIops !== null) {
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
  if (store.writeIops !== null) {
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
  // Without a volume, the instance's own EBS caps still apply (EBS I/O counted in 256 KiB units).
  if (target === null) return instance ? instanceLimits(profile, instance, 256 * 1024) : [];
  if (target.kind === 'nvme') return instance ? instanceStoreLimits(profile, instance) : [];
  const caps = volumeCapabilities(target.volume);
  return [
    ...volumeLimits(profile, target.volume),
    ...(instance ? instanceLimits(profile, instance, caps.ioUnitBytes) : []),
  ];
}

/** At or above this utilization a limit is saturated: the workload is pinned against it (domain.md §6). */
export const SATURATED_UTILIZATION = 0.95;

export const BottleneckSchema = z.object({
  id: LimitIdSchema,
  utilization: z.number(),
  saturated: z.boolean(),
  explanation: z.string(),
});
export type Bottleneck = z.infer<typeof BottleneckSchema>;

/**
 * The sustained limit with the highest utilization. Burst limits are never the bottleneck: they
 * end (credits, the 30-minute window), and the sustained ceiling is what the workload lives with.
 */
export function findBottleneck(limits: readonly Limit[]): Bottleneck | null {
  let best: Limit | null = null;
  for (const l of limits) {
    if (!l.sustained) continue;
    // Ties go to the instance (paying for more volume cannot help there) — hence `>=` for instance scope.
    if (
      best === null ||
      l.utilization > best.utilization ||
      (l.utilization === best.utilization && l.scope === 'instance')
    )
      best = l;
  }
  if (best === null) return null;
  const pct = `${(best.utilization * 100).toFixed(1)}%`;
  const saturated = best.utilization >= SATURATED_UTILIZATION;
  return {
    id: best.id,
    utilization: best.utilization,
    saturated,
    explanation: `${best.label} binds at ${pct} (${n1(best.demand)} of ${n1(best.capacity)} ${best.unit})${saturated ? ': saturated — the measurement is pinned against this ceiling, not the others' : ''}`,
  };
}
