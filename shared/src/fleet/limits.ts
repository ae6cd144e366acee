import { VOLUME_TYPE_REGISTRY, VOLUME_TYPES } from '../aws/volume-types.ts';
import { fail, ok, type Result } from '../problem.ts';
import { MiB } from '../units.ts';

/**
 * Physical ceilings of one point (a Sum over one period), per second: 10 × the IOPS of the largest EBS volume
 * type (io2 Block Express, 256,000 IOPS: aws/volume-types/io2.ts) and 100 GiB/s of bytes (no EC2 instance
 * reaches that EBS bandwidth). A Sum above them is not a reading of an EBS volume; the metrics
 * reader (metrics.ts, checkValues) holds each point to them times its period.
 */
export const IMPLAUSIBLE_IOPS =
  10 * Math.max(...VOLUME_TYPES.map((type) => VOLUME_TYPE_REGISTRY[type].maxima.iops));
export const IMPLAUSIBLE_BYTES_PER_SEC = 100 * 1024 * MiB;
/** A one-point result shows no spacing: its Sum is bounded over the longest history CloudWatch keeps (455 days). */
export const LONGEST_PERIOD_SECONDS = 455 * 86_400;

/**
 * What one `POST /api/fleet/plans` may ask for (docs/fleet.md §7, "Share links"). The body's byte limit
 * (BLOCKWISE_MAX_UPLOAD_MB) bounds reading it; these bound the work and the stored plan, whatever
 * the bytes: 700,000 one-line volumes fit in 51 MB and planned into a 508 MB document (probe of
 * 2026-11-28, issue 24). A larger fleet is planned locally with `blockwise fleet plan`, which has
 * no such cap (P15: 5,000 volumes × 14 days of points in < 10 s).
 */
export const FLEET_REQUEST_LIMITS = {
  /** Volumes in describe-volumes: twice the account P15 measures, a few seconds of planning. */
  maxVolumes: 10_000,
  /** Instances in describe-instances (only their types are read). */
  maxInstances: 20_000,
  /**
   * Metric points (the Values of every MetricDataResult, all files). 2,000,000 ≈ 60 MB of
   * get-metric-data JSON (~30 bytes a point): the 50 MiB default body limit binds first; this
   * binds when BLOCKWISE_MAX_UPLOAD_MB is raised.
   */
  maxMetricPoints: 2_000_000,
  /**
   * The largest value of one point (a CloudWatch Sum over its Period), before the metric and its
   * Period are known: the loosest ceiling the metrics reader applies (100 GiB/s of bytes over the
   * longest Period, 455 days ≈ 4.2e18), so no point it would accept is refused here. Finite, it
   * keeps every rate, target and cost derived from it finite (1e308 IOPS once became a 500).
   */
  maxMetricValue: IMPLAUSIBLE_BYTES_PER_SEC * LONGEST_PERIOD_SECONDS,
} as const;

/**
 * The stored plan may be at most this many times the (decompressed) request plus
 * FLEET_PLAN_BYTES_SLACK, as a stored fio report (server/src/ingest/analyze-upload.ts): real
 * requests carry CloudWatch points, and a planned volume (~2 KB) is far smaller than its points
 * (4 metrics × 288 points a day); what grows past is a request built to grow (volumes without
 * points, each a ~1 KB entry of the plan from a ~70-byte entry of describe-volumes).
 */
export const MAX_FLEET_PLAN_TO_REQUEST = 2;
export const FLEET_PLAN_BYTES_SLACK = 64 * 1024;
export const maxFleetPlanBytes = (requestBytes: number) =>
  MAX_FLEET_PLAN_TO_REQUEST * requestBytes + FLEET_PLAN_BYTES_SLACK;

/** The largest size (GiB), IOPS and throughput (MiB/s) a volume of a type can have. */
export type VolumeTypeLimits = { sizeGib: number; iops: number; throughputMibps: number };

/** Per type: its descriptor's maxima (aws/volume-types/*.ts, where each number cites its AWS source). */
const VOLUME_TYPE_LIMITS: Readonly<Record<string, VolumeTypeLimits>> = Object.fromEntries(
  VOLUME_TYPES.map((type) => {
    const max = VOLUME_TYPE_REGISTRY[type].maxima;
    return [type, { sizeGib: max.sizeGiB, iops: max.iops, throughputMibps: max.throughputMiBps }];
  }),
);

/** Any other type (`standard`, a type newer than this build): the largest any known type allows. */
const ANY_TYPE_LIMITS: VolumeTypeLimits = {
  sizeGib: Math.max(...Object.values(VOLUME_TYPE_LIMITS).map((l) => l.sizeGib)),
  iops: Math.max(...Object.values(VOLUME_TYPE_LIMITS).map((l) => l.iops)),
  throughputMibps: Math.max(...Object.values(VOLUME_TYPE_LIMITS).map((l) => l.throughputMibps)),
};

export function volumeTypeLimits(type: string): VolumeTypeLimits {
  return VOLUME_TYPE_LIMITS[type] ?? ANY_TYPE_LIMITS;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const arrayAt = (value: unknown, key: string): unknown[] =>
  isRecord(value) && Array.isArray(value[key]) ? value[key] : [];

/** `1e15` as people read it in a message. */
const count = (n: number) => n.toLocaleString('en-US');

/**
 * Counts what a fleet request asks for before any of it is parsed (the parsers name malformed
 * fields later): too many volumes, instances or metric points is `too_many_volumes`,
 * `too_many_instances` or `too_many_metric_points` (HTTP 413), and a point no volume can produce
 * (negative, or above FLEET_REQUEST_LIMITS.maxMetricValue) is `metrics_invalid` naming it.
 * Linear in the request, no allocation per point.
 */
export function checkFleetRequestSize(body: {
  volumes: unknown;
  metrics: readonly unknown[];
  instances?: unknown;
}): Result<void> {
  const L = FLEET_REQUEST_LIMITS;
  const volumes = arrayAt(body.volumes, 'Volumes').length;
  if (volumes > L.maxVolumes)
    return fail(
      'too_many_volumes',
      `volumes: ${count(volumes)} volumes, more than the ${count(L.maxVolumes)} one plan takes (split the fleet, or plan it locally with \`blockwise fleet plan\`)`,
      'volumes.Volumes',
    );
  let instances = 0;
  for (const reservation of arrayAt(body.instances, 'Reservations'))
    instances += arrayAt(reservation, 'Instances').length;
  if (instances > L.maxInstances)
    return fail(
      'too_many_instances',
      `instances: ${count(instances)} instances, more than the ${count(L.maxInstances)} one plan takes (give only the instances the volumes are attached to)`,
      'instances.Reservations',
    );
  let points = 0;
  for (const [f, file] of body.metrics.entries()) {
    for (const [r, result] of arrayAt(file, 'MetricDataResults').entries()) {
      const values = arrayAt(result, 'Values');
      points += values.length;
      if (points > L.maxMetricPoints)
        return fail(
          'too_many_metric_points',
          `metrics: more than ${count(L.maxMetricPoints)} metric points in one plan (a longer Period, or fewer days, or \`blockwise fleet plan\` locally)`,
          'metrics',
        );
      for (const [i, value] of values.entries()) {
        if (typeof value === 'number' && !(value >= 0 && value <= L.maxMetricValue)) {
          const path = `metrics.${f}.MetricDataResults.${r}.Values.${i}`;
          return fail(
            'metrics_invalid',
            `${path}: ${value} is no CloudWatch Sum of an EBS volume (expected 0 to ${L.maxMetricValue.toExponential(2)}: 100 GiB/s over 455 days)`,
            path,
          );
        }
      }
    }
  }
  return ok(undefined);
}
