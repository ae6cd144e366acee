import type { Warning } from '../problem.ts';
import { seriesFromDeviceMetrics, type DeviceMetricSeries } from './device-series.ts';
import { importFailure } from './input.ts';
import { intervalLatency, type IntervalLatency, type LatencyBin } from './latency-bins.ts';
import type { EbsNvmeStats, IoMetric, SeriesImportOptions, SeriesImportResult } from './series.schema.ts';

/**
 * The EBS CSI driver node plugin's NVMe metrics (kubernetes-sigs/aws-ebs-csi-driver
 * pkg/metrics/nvme.go, `NVMECollector`): the same log page 0xD0 that `nvme amzn stats` prints,
 * scraped on port 3302 and read here from a Prometheus `query_range` answer of the raw series
 * (counters, not rate()d). One series per `volume_id` (and `instance_id`), so no device mapping:
 *
 * - counters `aws_ebs_csi_{read,write}_ops_total`, `…_{read,write}_bytes_total` (→ the rates),
 *   `…_{read,write}_seconds_total` (the operations' summed time, s → the average latency),
 *   `…_exceeded_{iops,tp}_seconds_total` (the volume's limits) and
 *   `…_ec2_exceeded_{iops,tp}_seconds_total` (the instance's EBS limits);
 * - the gauge `aws_ebs_csi_volume_queue_length`;
 * - the histograms `aws_ebs_csi_{read,write}_io_latency_seconds` (`_bucket{le}` cumulative over
 *   the log page's bins, `le` = each bin's upper bound in seconds; `_sum` is always 0 there).
 *
 * Each pair of consecutive samples makes one interval, placed at its start, as for
 * `nvme amzn stats` (nvme-amzn.ts): rates from the counters' differences, p50/p99/p99.9 from the
 * buckets' differences read by latency-bins.ts, seconds over each limit. Names and the commit they
 * were read from: docs/metrics-inputs.md.
 */

/** A query_range series with its samples parsed (prometheus.ts). */
export type CsiSeries = {
  at: string;
  labels: Record<string, string>;
  samples: { t: number; v: number | null }[];
};

/** Is this the name of an EBS CSI driver metric (any: the ones not read are listed as ignored)? */
export const isEbsCsiName = (name: string | undefined) => name?.startsWith('aws_ebs_csi_') === true;

/** The counters and gauge read, by the name after `aws_ebs_csi_`. */
const COUNTERS = {
  read_ops_total: 'readOps',
  write_ops_total: 'writeOps',
  read_bytes_total: 'readBytes',
  write_bytes_total: 'writeBytes',
  read_seconds_total: 'readSec',
  write_seconds_total: 'writeSec',
  exceeded_iops_seconds_total: 'volumeIops',
  exceeded_tp_seconds_total: 'volumeThroughput',
  ec2_exceeded_iops_seconds_total: 'instanceIops',
  ec2_exceeded_tp_seconds_total: 'instanceThroughput',
} as const;
type CounterKey = (typeof COUNTERS)[keyof typeof COUNTERS];
const IO: readonly [CounterKey & IoMetric, string][] = [
  ['readOps', 'operations (counter → per second)'],
  ['writeOps', 'operations (counter → per second)'],
  ['readBytes', 'bytes (counter → per second)'],
  ['writeBytes', 'bytes (counter → per second)'],
];
const BUCKET = /^aws_ebs_csi_(read|write)_io_latency_seconds_bucket$/;

type Volume = {
  counters: Partial<Record<CounterKey, CsiSeries>>;
  queue: CsiSeries | null;
  buckets: { read: Map<number, CsiSeries>; write: Map<number, CsiSeries> };
};

type Diff = { startMs: number; seconds: number; value: number };

/** Consecutive samples' differences (a counter that went down: the interval is left out). */
function differences(s: CsiSeries, resets: string[]): Map<number, Diff> {
  const out = new Map<number, Diff>();
  for (let i = 1; i < s.samples.length; i++) {
    const a = s.samples[i - 1]!;
    const b = s.samples[i]!;
    if (a.v === null || b.v === null) continue;
    if (b.v < a.v) {
      resets.push(`${s.at} at ${new Date(b.t).toISOString()}`);
      continue;
    }
    out.set(a.t, { startMs: a.t, seconds: (b.t - a.t) / 1000, value: b.v - a.v });
  }
  return out;
}

/** The `le` buckets' differences at one interval → bins (µs); null when a bucket has no difference there. */
function binsAt(buckets: Map<number, Map<number, Diff>>, startMs: number): LatencyBin[] | null {
  if (buckets.size === 0) return null;
  const bins: LatencyBin[] = [];
  let lowerUs = 0;
  let below = 0;
  for (const [le, diffs] of [...buckets].sort((a, b) => a[0] - b[0])) {
    const d = diffs.get(startMs);
    if (d === undefined) return null;
    // The driver exports each bin's upper bound as whole µs ÷ 1e6: rounding undoes the float error.
    const upperUs = Number.isFinite(le) ? Math.round(le * 1e6) : Infinity;
    // Cumulative buckets: this bin's operations are its bucket's minus the one below.
    bins.push({ lowerUs, upperUs, count: Math.max(0, d.value - below) });
    below = d.value;
    lowerUs = upperUs;
  }
  return bins;
}

type Evidence = {
  read: IntervalLatency;
  write: IntervalLatency;
  exceededSec: [number | null, number | null, number | null, number | null];
  queueLength: number | null;
};

/** The EBS CSI driver's series (at least one `aws_ebs_csi_*`) → IoSeries with `ebsNvme`, one volume_id. */
export function seriesFromEbsCsi(
  list: readonly CsiSeries[],
  warnings: Warning[],
  options: SeriesImportOptions,
): SeriesImportResult {
  const volumes = new Map<string, Volume>();
  const ignored: string[] = [];
  for (const s of list) {
    const name = s.labels.__name__ ?? '';
    const short = name.slice('aws_ebs_csi_'.length);
    const counter = COUNTERS[short as keyof typeof COUNTERS];
    const bucket = BUCKET.exec(name);
    if (!counter && !bucket && short !== 'volume_queue_length') {
      ignored.push(name);
      continue;
    }
    const volumeId = s.labels.volume_id;
    if (volumeId === undefined) {
      return importFailure(
        'missing_label',
        `${s.at}: ${name} has no volume_id label: query the series as the EBS CSI driver's node plugin exports them (keep the volume_id label: no sum() or by() without it)`,
        `${s.at}.metric`,
      );
    }
    const v: Volume = volumes.get(volumeId) ?? {
      counters: {},
      queue: null,
      buckets: { read: new Map(), write: new Map() },
    };
    volumes.set(volumeId, v);
    if (counter) v.counters[counter] = s;
    else if (bucket) {
      const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
      if (s.labels.le === undefined || Number.isNaN(le)) {
        return importFailure(
          'bad_label',
          `${s.at}: ${name} needs an "le" label (a bucket's upper bound in seconds)`,
          `${s.at}.metric.le`,
        );
      }
      v.buckets[bucket[1] as 'read' | 'write'].set(le, s);
    } else v.queue = s;
  }
  if (ignored.length > 0) {
    warnings.push({
      code: 'columns_ignored',
      message: `Not used: ${[...new Set(ignored)].slice(0, 6).join('; ')}.`,
    });
  }
  const resets: string[] = [];
  const rates: DeviceMetricSeries[] = [];
  const intervalSeconds = new Map<number, number>();
  const evidence = new Map<string, Map<number, Evidence>>();
  for (const [volumeId, v] of volumes) {
    const diffs: Partial<Record<CounterKey, Map<number, Diff>>> = {};
    for (const [key, s] of Object.entries(v.counters) as [CounterKey, CsiSeries][])
      diffs[key] = differences(s, resets);
    for (const [metric, unit] of IO) {
      const s = v.counters[metric];
      if (!s) continue;
      const points = new Map<number, number | null>();
      for (const d of diffs[metric]!.values()) {
        points.set(d.startMs, d.value / d.seconds);
        intervalSeconds.set(d.startMs, d.seconds);
      }
      rates.push({ device: volumeId, metric, source: s.at, label: labelOf(s), unit, points });
    }
    const bucketDiffs = (m: Map<number, CsiSeries>) =>
      new Map([...m].map(([le, s]) => [le, differences(s, resets)] as const));
    const readBuckets = bucketDiffs(v.buckets.read);
    const writeBuckets = bucketDiffs(v.buckets.write);
    const byStart = new Map<number, Evidence>();
    const starts = new Set(Object.values(diffs).flatMap((m) => [...m.keys()]));
    const value = (key: CounterKey, t: number) => diffs[key]?.get(t)?.value ?? null;
    for (const t of starts) {
      const latency = (ops: CounterKey, sec: CounterKey, buckets: Map<number, Map<number, Diff>>) => {
        const n = value(ops, t);
        const s = value(sec, t);
        return intervalLatency(n ?? 0, (s ?? 0) * 1e6, binsAt(buckets, t));
      };
      const queue = v.queue?.samples.find((_, i, all) => all[i - 1]?.t === t);
      byStart.set(t, {
        read: latency('readOps', 'readSec', readBuckets),
        write: latency('writeOps', 'writeSec', writeBuckets),
        exceededSec: [
          value('volumeIops', t),
          value('volumeThroughput', t),
          value('instanceIops', t),
          value('instanceThroughput', t),
        ],
        queueLength: queue?.v ?? null,
      });
    }
    evidence.set(volumeId, byStart);
  }
  if (resets.length > 0) {
    warnings.push({
      code: 'counter_reset',
      message: `${resets.length} counter${resets.length === 1 ? '' : 's'} went down (first ${resets[0]}): the volume was attached again or the node plugin restarted; those intervals are left out.`,
      subject: 'time',
    });
  }
  if (rates.length === 0) {
    return importFailure(
      'no_io_columns',
      'no aws_ebs_csi_{read,write}_{ops,bytes}_total series in the answer: query the raw counters (see blockwise metrics --help)',
      'data.result',
    );
  }
  // One interval has no spacing to read the period from: its own length is the period (as nvme-amzn.ts).
  const onlySec = intervalSeconds.size === 1 ? [...intervalSeconds.values()][0] : undefined;
  const built = seriesFromDeviceMetrics('prometheus-query-range', rates, warnings, {
    ...options,
    periodSec: options.periodSec ?? onlySec,
  });
  if (!built.ok) return built;
  const byStart = evidence.get(built.value.device!.name)!;
  const at = <T>(pick: (e: Evidence) => T | null) =>
    built.value.timeMs.map((t) => {
      const e = byStart.get(t);
      return e === undefined ? null : pick(e);
    });
  const ebsNvme: EbsNvmeStats = {
    readLatencyUs: {
      avg: at((e) => e.read[0]),
      p50: at((e) => e.read[1]),
      p99: at((e) => e.read[2]),
      p999: at((e) => e.read[3]),
    },
    writeLatencyUs: {
      avg: at((e) => e.write[0]),
      p50: at((e) => e.write[1]),
      p99: at((e) => e.write[2]),
      p999: at((e) => e.write[3]),
    },
    exceededSec: {
      volumeIops: at((e) => e.exceededSec[0]),
      volumeThroughput: at((e) => e.exceededSec[1]),
      instanceIops: at((e) => e.exceededSec[2]),
      instanceThroughput: at((e) => e.exceededSec[3]),
    },
    queueLength: at((e) => e.queueLength),
  };
  return {
    ok: true,
    value: {
      ...built.value,
      conversion: {
        ...built.value.conversion,
        explanation:
          'The EBS CSI driver’s cumulative counters: the increase between consecutive samples ÷ the seconds between them, placed at the first sample; latency percentiles from the increase of each histogram bucket (the upper bound of the bucket where the rank is reached).',
      },
      ebsNvme,
    },
  };
}

const labelOf = (s: CsiSeries) => `${s.labels.__name__}{volume_id="${s.labels.volume_id}"}`;
