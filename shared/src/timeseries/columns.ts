import { parseThroughput } from '../units.ts';
import type { CloudWatchStatistic, IoMetric } from './series.schema.ts';

/**
 * What a column header (or a get-metric-data Id/Label) says about its values: which quantity,
 * whether they are counts per period (CloudWatch) or per-second rates (Grafana, Compute
 * Optimizer's *PerSecond metrics), in what unit, and — when the label says — the statistic and
 * period. Everything here is keyword detection on text people and consoles write; anything it
 * cannot tell is left null for the importer to ask about.
 */
export type ColumnRole = {
  metric: IoMetric;
  /** `count`: CloudWatch values (operations or bytes per period / per data point); `rate`: per second already. */
  kind: 'count' | 'rate';
  /** Rates: multiply by this to get bytes/s (1 for IOPS); null = the unit is not named. Counts: 1. */
  factor: number | null;
  unit: string;
  /**
   * CloudWatch namespace family: EBS volume metrics (AWS/EBS), EC2 instance EBS* or instance-store
   * Disk* metrics, or the CloudWatch agent's `diskio_ebs_*` (its namespace, CWAgent by default).
   */
  family: 'volume' | 'instance-ebs' | 'instance-store' | 'cloudwatch-agent' | null;
  statistic: CloudWatchStatistic | null;
  /** A statistic the label names that cannot become a rate (SampleCount, p99, …). */
  unsupportedStatistic: string | null;
  periodSec: number | null;
  /** vol-… or i-… when the label names one. */
  resource: string | null;
};

/** A column of a device's per-second rates in a known unit (iostat, sar, Prometheus, Datadog). */
export function rateRole(metric: IoMetric, unit: string, resource: string): ColumnRole {
  return {
    metric,
    kind: 'rate',
    factor: 1,
    unit,
    family: null,
    statistic: null,
    unsupportedStatistic: null,
    periodSec: null,
    resource,
  };
}

const CLOUDWATCH_METRIC = /(Volume|EBS|Disk)(Read|Write)(Ops|Bytes)(PerSecond)?/i;
const RESOURCE = /\b(vol-[0-9a-f]{8,17}|i-[0-9a-f]{8,17})\b/i;

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** "5 Minutes", "1 minute", "300s", "5m", "1h", "Period: 300", "PT5M" → seconds; with the text matched. */
export function findPeriod(text: string): { periodSec: number; match: string } | null {
  const iso = /\bPT(\d+)([SMH])\b/i.exec(text);
  if (iso) return { periodSec: Number(iso[1]) * UNIT_SECONDS[iso[2]!.toLowerCase()]!, match: iso[0] };
  const named = /\bperiod\s*[:=]?\s*(\d+)\s*(?:s|sec|secs|seconds)?\b/i.exec(text);
  if (named) return { periodSec: Number(named[1]), match: named[0] };
  const m =
    /(?<![\w.-])(\d+(?:\.\d+)?)\s*(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d)(?![\w/])/i.exec(
      text,
    );
  if (!m) return null;
  const unit = m[2]!.toLowerCase().charAt(0);
  const seconds = Number(m[1]) * UNIT_SECONDS[unit]!;
  return seconds > 0 ? { periodSec: seconds, match: m[0] } : null;
}

const STATISTIC_WORDS: Record<string, CloudWatchStatistic> = {
  sum: 'Sum',
  average: 'Average',
  avg: 'Average',
  mean: 'Average',
  maximum: 'Maximum',
  max: 'Maximum',
  minimum: 'Minimum',
  min: 'Minimum',
};

/** The statistic a label names ("Sum", "avg", "Maximum"), or one that cannot become a rate ("p99", "SampleCount"). */
export function findStatistic(text: string): {
  statistic: CloudWatchStatistic | null;
  unsupported: string | null;
} {
  const unsupported =
    /\b(samplecount|p\d+(?:\.\d+)?|tm\d+(?:\.\d+)?|tc\d+|ts\d+|wm\d+|iqm|pr\([^)]*\))\b/i.exec(text);
  const words = text.toLowerCase().split(/[^a-z]+/);
  let statistic: CloudWatchStatistic | null = null;
  for (const w of words) {
    const s = STATISTIC_WORDS[w];
    if (s) {
      statistic = s;
      break;
    }
  }
  return { statistic, unsupported: statistic === null && unsupported ? unsupported[1]! : null };
}

/** A CloudWatch metric label: "vol-0a… VolumeReadOps (Sum, 5 Minutes)", "EBSWriteBytes", "VolumeReadOpsPerSecond". */
export function classifyCloudWatchLabel(label: string): ColumnRole | null {
  const agent = AGENT_METRIC.exec(label);
  if (agent) return agentRole(label, agent);
  const m = CLOUDWATCH_METRIC.exec(label);
  if (!m) return null;
  const [family, dir, what, perSecond] = [
    m[1]!.toLowerCase(),
    m[2]!.toLowerCase(),
    m[3]!.toLowerCase(),
    m[4],
  ];
  const metric: IoMetric = `${dir as 'read' | 'write'}${what === 'ops' ? 'Ops' : 'Bytes'}`;
  const resource = RESOURCE.exec(label);
  // Scan for period and statistic with the metric name and resource id removed ("vol-…d" is not "d"ays).
  let rest = label.replace(m[0], ' ').replace(RESOURCE, ' ');
  const period = findPeriod(rest);
  if (period) rest = rest.replace(period.match, ' ');
  const stat = findStatistic(rest);
  return {
    metric,
    kind: perSecond ? 'rate' : 'count',
    factor: 1,
    unit: perSecond ? (what === 'ops' ? 'IOPS' : 'B/s') : what === 'ops' ? 'operations' : 'bytes',
    family: family === 'volume' ? 'volume' : family === 'ebs' ? 'instance-ebs' : 'instance-store',
    statistic: stat.statistic,
    unsupportedStatistic: stat.unsupported,
    periodSec: period?.periodSec ?? null,
    resource: resource ? resource[1]! : null,
  };
}

/**
 * The CloudWatch agent's EBS NVMe counters (amazon-cloudwatch-agent receiver/awsnvmereceiver,
 * metadata.yaml): `diskio_ebs_total_{read,write}_{ops,bytes}`. The agent turns the log page's
 * cumulative counters into deltas (its cumulativetodelta processor) and publishes one per
 * metrics_collection_interval, so a Sum over a period is the operations or bytes in that period,
 * as with AWS/EBS VolumeReadOps. The latency and exceeded-time counters (ns) are not read here.
 */
const AGENT_METRIC = /diskio_ebs_total_(read|write)_(ops|bytes)(?![a-z_])/i;

function agentRole(label: string, m: RegExpExecArray): ColumnRole {
  const what = m[2]!.toLowerCase();
  const resource = RESOURCE.exec(label);
  let rest = label.replace(m[0], ' ').replace(RESOURCE, ' ');
  const period = findPeriod(rest);
  if (period) rest = rest.replace(period.match, ' ');
  const stat = findStatistic(rest);
  return {
    metric: `${m[1]!.toLowerCase() as 'read' | 'write'}${what === 'ops' ? 'Ops' : 'Bytes'}`,
    kind: 'count',
    factor: 1,
    unit: what === 'ops' ? 'operations' : 'bytes',
    family: 'cloudwatch-agent',
    statistic: stat.statistic,
    unsupportedStatistic: stat.unsupported,
    periodSec: period?.periodSec ?? null,
    resource: resource ? resource[1]! : null,
  };
}

const THROUGHPUT_TOKEN =
  /(?<![A-Za-z])(B\/s|Bps|bytes\/s(?:ec)?|[KMGT]i?B\/s|kB\/s|[kmg]ib\/s|[km]b\/s|MBps|GBps|KBps|[kMG]bps|[MG]b\/s|[MG]bit\/s)(?![A-Za-z])/;

/** A throughput unit named in text ("(B/s)", "MiB/s", "Mbps", "bytes/sec"): its factor to bytes/s. */
export function findThroughputUnit(text: string): { unit: string; factor: number } | null {
  const m = THROUGHPUT_TOKEN.exec(text);
  if (!m) return null;
  const unit = m[1]!.replace(/^bytes\/s(ec)?$/, 'B/s');
  const parsed = parseThroughput(`1${unit}`);
  return parsed.ok ? { unit, factor: parsed.value } : null;
}

/** An iostat-style header: r/s, w/s (operations), rkB/s, wMB/s (throughput). */
const IOSTAT = /(?<![A-Za-z])([rw])(?:([kKM])B)?\/s(?![A-Za-z])/;

/**
 * A Grafana (or any dashboard) column header: "nvme1n1 read IOPS", "Write throughput (MiB/s)",
 * "read (B/s)", "node_disk_written_bytes_total", "r/s", "wkB/s". Returns the role, or why the
 * column is not used.
 */
export function classifyDashboardHeader(header: string): ColumnRole | { ignored: string } {
  const iostat = IOSTAT.exec(header);
  const words = header
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const has = (...w: string[]) => w.some((x) => words.includes(x));
  let read = has('read', 'reads', 'rd', 'reading');
  let write = has('write', 'writes', 'written', 'wr', 'writing');
  if (iostat) {
    read = iostat[1] === 'r';
    write = iostat[1] === 'w';
  }
  if (read && write)
    return { ignored: 'names both reads and writes (a total cannot be split per direction)' };
  if (!read && !write) return { ignored: 'names neither reads nor writes' };
  const dir = read ? 'read' : 'write';
  const unit = findThroughputUnit(header);
  const iostatBytes = iostat?.[2];
  const base = {
    kind: 'rate' as const,
    family: null,
    statistic: null,
    unsupportedStatistic: null,
    periodSec: null,
    resource: null,
  };
  if (iostatBytes) {
    const factor = iostatBytes === 'M' ? 1024 * 1024 : 1024; // iostat's kB/MB are KiB/MiB
    return {
      ...base,
      metric: `${dir}Bytes`,
      factor,
      unit: `${iostatBytes === 'M' ? 'MiB' : 'KiB'}/s (iostat)`,
    };
  }
  if (unit) return { ...base, metric: `${dir}Bytes`, factor: unit.factor, unit: unit.unit };
  if (has('bytes', 'byte', 'octets')) return { ...base, metric: `${dir}Bytes`, factor: 1, unit: 'B/s' };
  if (has('throughput', 'bandwidth', 'bw', 'transfer', 'transferred')) {
    return { ...base, metric: `${dir}Bytes`, factor: null, unit: 'unknown' };
  }
  if (
    has('latency', 'time', 'await', 'wait', 'queue', 'util', 'utilization', 'merged', 'size', 'svctm', 'ms')
  ) {
    return { ignored: 'is not an operation count or a throughput' };
  }
  const opsWords = has('iops', 'ops', 'operations', 'io', 'ios', 'requests', 'req', 'completed', 'count');
  if (iostat || opsWords || /reads\/s|writes\/s/i.test(header)) {
    return { ...base, metric: `${dir}Ops`, factor: 1, unit: 'IOPS' };
  }
  return { ignored: 'says neither operations (IOPS) nor throughput (bytes, B/s, MiB/s…)' };
}
