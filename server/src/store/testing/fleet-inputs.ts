/**
 * A small fleet with known peaks, in the AWS CLI's output shapes (describe-volumes,
 * describe-instances, get-metric-data as `blockwise fleet query` asks for it), for the fleet
 * route and store tests. Two days of 5-minute points; each volume runs at a steady rate with one
 * busier 5-minute period — its peak.
 */
import {
  FleetPlanSchema,
  labelOf,
  parseFleetInstances,
  parseFleetVolumes,
  parseMetricData,
  concurrencyGroupsOf,
  planFleet,
  type FleetPlan,
  type MetricName,
} from '@blockwise/shared/fleet';
import { fleetCatalogFor } from '@blockwise/shared/analysis';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { fleetPlanDocumentOf, fleetPlanIdempotencyKey } from '../fleet-plan-document.ts';
import { StoreInputError, type InsertFleetPlanInput } from '../run-store.ts';

const PERIOD_S = 300;
const POINTS = 2 * 288; // two days of 5-minute points
const END_MS = Date.parse('2026-11-20T00:00:00Z');

/** Per volume: steady and peak rates per second (IOPS and MiB/s per direction). */
type Load = { readIops: number; writeIops: number; readMibps: number; writeMibps: number };

export const FLEET_VOLUMES = {
  /** gp3 at 16,000 IOPS / 1,000 MiB/s peaking at 2,000 IOPS: over-provisioned. */
  over: 'vol-0000000000000over',
  /** gp3 at the 3,000 IOPS baseline peaking at 6,000 IOPS: under-provisioned, a risk. */
  under: 'vol-000000000000under',
  /** io2 at 20,000 IOPS on an m5.large, whose EBS caps bind before the volume. */
  capped: 'vol-00000000000capped',
  /** No CloudWatch points at all. */
  noData: 'vol-00000000000nodata',
  /** State `available`: attached to nothing. */
  unattached: 'vol-0000000000unattch',
} as const;

const PEAKS: Partial<Record<string, Load>> = {
  [FLEET_VOLUMES.over]: { readIops: 1200, writeIops: 800, readMibps: 20, writeMibps: 10 },
  [FLEET_VOLUMES.under]: { readIops: 2500, writeIops: 3500, readMibps: 40, writeMibps: 60 },
  [FLEET_VOLUMES.capped]: { readIops: 9000, writeIops: 6000, readMibps: 60, writeMibps: 40 },
};

const volume = (id: string, fields: Record<string, unknown>, instanceId: string | null) => ({
  VolumeId: id,
  AvailabilityZone: 'us-east-1a',
  State: instanceId ? 'in-use' : 'available',
  Attachments: instanceId ? [{ InstanceId: instanceId, Device: '/dev/xvdf', State: 'attached' }] : [],
  Tags: [{ Key: 'Name', Value: `test ${id.slice(-6)}` }],
  ...fields,
});

export function fleetVolumesJson() {
  return {
    Volumes: [
      volume(
        FLEET_VOLUMES.over,
        { Size: 500, VolumeType: 'gp3', Iops: 16000, Throughput: 1000 },
        'i-00000000000000001',
      ),
      volume(
        FLEET_VOLUMES.under,
        { Size: 200, VolumeType: 'gp3', Iops: 3000, Throughput: 125 },
        'i-00000000000000001',
      ),
      volume(FLEET_VOLUMES.capped, { Size: 400, VolumeType: 'io2', Iops: 20000 }, 'i-00000000000000002'),
      volume(
        FLEET_VOLUMES.noData,
        { Size: 100, VolumeType: 'gp3', Iops: 3000, Throughput: 125 },
        'i-00000000000000001',
      ),
      volume(FLEET_VOLUMES.unattached, { Size: 300, VolumeType: 'gp2', Iops: 900 }, null),
    ],
  };
}

export function fleetInstancesJson() {
  return {
    Reservations: [
      {
        Instances: [
          { InstanceId: 'i-00000000000000001', InstanceType: 'r6i.4xlarge', State: { Name: 'running' } },
          { InstanceId: 'i-00000000000000002', InstanceType: 'm5.large', State: { Name: 'running' } },
        ],
      },
    ],
  };
}

const MIB = 1024 * 1024;

/** One get-metric-data response: Sum per 5-minute period, newest first as CloudWatch returns them. */
export function fleetMetricsJson() {
  const timestamps = Array.from({ length: POINTS }, (_, i) =>
    new Date(END_MS - (i + 1) * PERIOD_S * 1000).toISOString().replace('.000Z', 'Z'),
  );
  const results = Object.entries(PEAKS).flatMap(([volumeId, peak]) => {
    const perMetric: Partial<Record<MetricName, number>> = {
      VolumeReadOps: peak!.readIops,
      VolumeWriteOps: peak!.writeIops,
      VolumeReadBytes: peak!.readMibps * MIB,
      VolumeWriteBytes: peak!.writeMibps * MIB,
    };
    return (Object.entries(perMetric) as [MetricName, number][]).map(([metric, perSecond], m) => ({
      Id: `q${m}`,
      Label: labelOf(volumeId, metric),
      // Half the peak rate most of the time; the peak once, at the 100th period.
      Values: timestamps.map((_, i) => (i === 100 ? perSecond : perSecond / 2) * PERIOD_S),
      Timestamps: timestamps,
      StatusCode: 'Complete',
    }));
  });
  return { MetricDataResults: results, Messages: [] };
}

/** The plan of this fleet as the server computes it (us-east-1, built-in catalog). */
export function fleetPlanOfInputs(options: { headroom?: number } = {}): FleetPlan {
  const volumes = parseFleetVolumes(fleetVolumesJson());
  const instances = parseFleetInstances(fleetInstancesJson());
  if (!volumes.ok) throw new Error('fleet test inputs do not parse');
  // As the route reads them: the volumes of each instance summed point by point.
  const metrics = parseMetricData([fleetMetricsJson()], { concurrency: concurrencyGroupsOf(volumes.value) });
  if (!instances.ok || !metrics.ok) throw new Error('fleet test inputs do not parse');
  // The catalog the route plans with (fleet.router.ts), not one assembled here.
  const catalog = fleetCatalogFor('us-east-1');
  if (!catalog.ok) throw new Error(catalog.error.message);
  return planFleet({
    volumes: volumes.value,
    instances: instances.value,
    metrics: metrics.value,
    catalog: catalog.value,
    headroom: options.headroom ?? 0.25,
    statistic: 'max',
    region: 'us-east-1',
  });
}

/**
 * What the route hands insertFleetPlan for a plan: its gzip document and a key. The key defaults
 * to one of the plan itself (a test storing two different plans gets two rows).
 */
export function fleetPlanInsert(
  plan: FleetPlan = fleetPlanOfInputs(),
  options: { analysisVersion?: string; key?: string } = {},
): InsertFleetPlanInput {
  const parsed = FleetPlanSchema.safeParse(plan);
  if (!parsed.success) throw new StoreInputError(parsed.error.message, 'plan');
  const document = fleetPlanDocumentOf(Buffer.from(JSON.stringify(parsed.data)), parsed.data.priceDate);
  const analysisVersion = options.analysisVersion ?? ANALYSIS_VERSION;
  return {
    document,
    analysisVersion,
    idempotencyKey:
      options.key ??
      fleetPlanIdempotencyKey(Buffer.from(JSON.stringify(plan)), analysisVersion, plan.priceDate),
  };
}
