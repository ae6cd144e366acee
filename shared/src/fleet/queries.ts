import {
  METRIC_NAMES,
  MINUTE_METRIC_UNITS,
  type EvidenceLevel,
  type FleetVolume,
  type MetricDataQuery,
  type MetricName,
  type MetricQueryBatch,
} from './schema.ts';
import { buildEvidenceQueries } from './evidence.ts';

/** GetMetricData takes at most 500 MetricDataQuery structures per request (CloudWatch API reference, GetMetricData). */
export const MAX_QUERIES_PER_REQUEST = 500;
/** A GetMetricData response holds at most 100,800 data points; the rest follows with NextToken. */
export const MAX_POINTS_PER_RESPONSE = 100_800;

/** Short, stable id suffixes: Ids must start with a lowercase letter and use only letters, digits and `_`. */
const SUFFIX: Record<MetricName, string> = {
  VolumeReadOps: 'r_ops',
  VolumeWriteOps: 'w_ops',
  VolumeReadBytes: 'r_bytes',
  VolumeWriteBytes: 'w_bytes',
  VolumeAvgIOPS: 'm_iops',
  VolumeAvgThroughput: 'm_tput',
};

/** `vol-0abc VolumeReadOps`: the Label carries the volume id and metric, so responses map back without a table. */
export const labelOf = (volumeId: string, metric: MetricName) => `${volumeId} ${metric}`;

/** `vol-0abc VolumeReadOps` → its parts; null for a label this project did not write. */
export function parseLabel(label: string): { volumeId: string; metric: MetricName } | null {
  const [volumeId, metric, ...rest] = label.trim().split(/\s+/);
  if (!volumeId || rest.length > 0 || !(METRIC_NAMES as readonly string[]).includes(metric ?? ''))
    return null;
  return { volumeId, metric: metric as MetricName };
}

export type BuildQueriesInput = {
  volumes: readonly (Pick<FleetVolume, 'volumeId'> &
    Partial<Pick<FleetVolume, 'type' | 'instanceId' | 'alsoAttachedTo'>>)[];
  /** AWS's evidence metrics to ask for too (evidence.ts); default `none`. */
  evidence?: EvidenceLevel;
  days: number;
  periodSeconds: number;
  /** Default: now, rounded down to the period. */
  end?: Date;
};

/** Whole seconds, ISO 8601 UTC without milliseconds: what the aws cli takes. */
const isoSeconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The --metric-data-queries JSON for every volume, in batches of 500 with the exact
 * `aws cloudwatch get-metric-data` line for each: the four Sums (read/write operations and bytes
 * per period) and, beside them, VolumeAvgIOPS and VolumeAvgThroughput with Stat Maximum — the
 * busiest minute of each period, which a 5-minute Sum averages away (docs/domain.md "Demand").
 * Those two are published for volumes on Nitro instances only; elsewhere they come back empty and
 * the plan sizes on the Sums, saying so.
 */
export function buildMetricQueries(input: BuildQueriesInput): MetricQueryBatch[] {
  const period = input.periodSeconds;
  const endMs = Math.floor((input.end ?? new Date()).getTime() / 1000 / period) * period * 1000;
  const startMs = endMs - input.days * 86_400_000;
  const start = isoSeconds(new Date(startMs));
  const end = isoSeconds(new Date(endMs));
  const all: MetricDataQuery[] = input.volumes.flatMap((v, i) =>
    METRIC_NAMES.map((metric) => ({
      Id: `v${i}_${SUFFIX[metric]}`,
      Label: labelOf(v.volumeId, metric),
      MetricStat: {
        Metric: {
          Namespace: 'AWS/EBS' as const,
          MetricName: metric,
          Dimensions: [{ Name: 'VolumeId' as const, Value: v.volumeId }],
        },
        Period: period,
        ...(metric === 'VolumeAvgIOPS' || metric === 'VolumeAvgThroughput'
          ? { Stat: 'Maximum' as const, Unit: MINUTE_METRIC_UNITS[metric] }
          : { Stat: 'Sum' as const }),
      },
      ReturnData: true as const,
    })),
  );
  // The evidence after every volume's sizing metrics: `--evidence none` gives the same batches as before.
  all.push(
    ...buildEvidenceQueries(
      input.volumes.map((v) => ({
        volumeId: v.volumeId,
        type: v.type ?? '',
        instanceId: v.instanceId ?? null,
        alsoAttachedTo: v.alsoAttachedTo ?? [],
      })),
      input.evidence ?? 'none',
      period,
    ),
  );
  const batches: MetricQueryBatch[] = [];
  for (let i = 0; i < all.length; i += MAX_QUERIES_PER_REQUEST) {
    const index = batches.length + 1;
    const fileName = `batch-${index}.json`;
    batches.push({
      index,
      queries: all.slice(i, i + MAX_QUERIES_PER_REQUEST),
      fileName,
      command: `aws cloudwatch get-metric-data --start-time ${start} --end-time ${end} --metric-data-queries file://${fileName} --output json > metrics-${index}.json`,
    });
  }
  return batches;
}
