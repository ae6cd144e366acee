import type { Problem } from '../problem.ts';
import { PROMQL_COUNTERS, PROMQL_EBS_CSI, PROMQL_RATES } from './promql.ts';

/**
 * The metrics formats' ids: the stored series' format (series.schema.ts SeriesFormatSchema), the
 * order `blockwise metrics --help` lists them in, and the tie-break between sniffers.
 */
export const SERIES_FORMATS = [
  'cloudwatch-console-csv',
  'cloudwatch-get-metric-data',
  'grafana-csv',
  'iostat',
  'sar',
  'sadf',
  'prometheus-query-range',
  'datadog-csv',
  'datadog-query-json',
  'nvme-amzn-stats',
] as const;
type SeriesFormat = (typeof SERIES_FORMATS)[number];

/**
 * The one registry of metrics formats: what each is called, how its content is recognized, how
 * to collect it and which flags apply. The import dispatch (import-metrics.ts, which holds each
 * format's parser in METRICS_PARSERS), the CLI help (`blockwise metrics --help`), the web app's
 * drop zone and its labels all read it. `Record<SeriesFormat, …>` makes a format without an
 * entry a compile error. Adding a format: docs/architecture.md, "Adding a metrics format".
 *
 * This file stays light (no importer, no Zod): the web app's main bundle reads it for the labels
 * and the drop zone's sniffing, while the importers load lazily in a worker.
 */

/** The `blockwise` flags that resolve an ambiguous export (server/src/cli/metrics-input.ts IMPORT_FLAGS). */
export type ImportFlag =
  'stat' | 'period' | 'timezone' | 'source-interval' | 'throughput-unit' | 'match' | 'device' | 'values';

/**
 * How sure a sniffer is, 0–1: 0 not this format; below SNIFF_CLAIM a fallback (any JSON, any
 * text), taken only when nothing names the content; at or above, the content names the format
 * (a header, a key). The highest wins; the values order the formats the way they shadow each other.
 */
export const SNIFF_CLAIM = 0.5;

/** A format as the UI, the help and the sniffing see it (its parser: import-metrics.ts METRICS_PARSERS). */
export type MetricsFormat = {
  id: SeriesFormat;
  /** What the CLI and the series panel show: the tool or export that writes it. */
  label: string;
  /** The short name an imported input's label starts with on the planning page. */
  name: string;
  /** Pure: decoded text (or its first 64 KiB) → confidence (SNIFF_CLAIM). */
  sniff: (text: string) => number;
  /** The flags that settle what it leaves open (--match and --timezone, about labels and times in general, are not listed). */
  flags: readonly ImportFlag[];
  /** `blockwise metrics --help`: what the file is and the command that collects it (indented lines). */
  help: string;
};

const isJson = (text: string) => {
  const start = text.trimStart().charAt(0);
  return start === '{' || start === '[';
};
const ifText = (text: string, score: number) => (isJson(text) ? 0 : score);

/** `sadf -d` disk output: a `# hostname;interval;timestamp;DEV;…` header. */
const looksLikeSadf = (text: string) => /^#\s*hostname;interval;timestamp;/m.test(text.slice(0, 20_000));

/** iostat: a `Device` header line; `iostat -h` puts the device last (`r/s … %util Device`). */
function looksLikeIostat(text: string): boolean {
  const head = text.slice(0, 20_000);
  return /^Device:?[ \t]+\S/m.test(head) || /^.*[ \t](r\/s|tps|%util)[ \t].*[ \t]Device[ \t]*$/m.test(head);
}

/** `sar -d`: a header line with a clock, DEV and tps. */
const looksLikeSar = (text: string) =>
  /^\d{1,2}:\d{2}:\d{2}(?:\s+[AaPp][Mm])?\s+DEV\s+tps\s/m.test(text.slice(0, 20_000));

/** A query_range (or query) answer: `{"status": …, "data": {"resultType": …}}`. */
function looksLikePrometheus(text: string): boolean {
  const head = text.slice(0, 200_000);
  // get-metric-data has no "status"; Datadog's query API answers "status": "ok".
  return /"resultType"\s*:/.test(head) || /"status"\s*:\s*"(success|error)"/.test(head);
}

/** A Datadog system.io metric name (the four datadog.ts reads), in a CSV header or a query's JSON. */
export const DATADOG_IO_METRIC = /system\.io\.(r_s|w_s|rkb_s|wkb_s)(?![a-z_])/;

/** The sysstat banner: `Linux 6.8.0-45-generic (db-1) 	11/24/26 	_x86_64_	(8 CPU)`. */
const BANNER = /^(\S+)\s+(\S+)\s+\(([^)]*)\)\s+(\S+)\s+_(\S+)_\s+\((\d+)\s+CPU\)\s*$/;

export type Banner = { system: string; host: string; date: string };

/** The first line of iostat and sar text (sysstat.ts reads the rest). */
export function parseBanner(line: string): Banner | null {
  const m = BANNER.exec(line.trim());
  return m ? { system: `${m[1]} ${m[2]}`, host: m[3]!, date: m[4]! } : null;
}

/**
 * A CloudWatch metric name (Volume/EBS/Disk + Read/Write + Ops/Bytes, columns.ts) in the first
 * line: the header of a console export. Only a claim: the parser reads the whole header.
 */
const looksLikeCloudWatchCsv = (text: string) =>
  /(Volume|EBS|Disk)(Read|Write)(Ops|Bytes)|diskio_ebs_total_(read|write)_(ops|bytes)/i.test(
    // Two lines: Excel may write a `sep=;` line first.
    text.slice(0, 8192).trimStart().split(/\r?\n/, 2).join('\n'),
  );

/**
 * `nvme amzn stats` (nvme-cli plugins/amzn/amzn-nvme.c): its JSON's first key and a volume
 * counter, or the normal text's first section and its exceeded-limit section.
 */
function looksLikeNvmeAmznStats(text: string): boolean {
  const head = text.slice(0, 20_000);
  return (
    (/"total_read_ops"\s*:/.test(head) && /"ebs_volume_performance_exceeded_iops"\s*:/.test(head)) ||
    (/^Total Ops:\s*$/m.test(head) &&
      /^(EBS Volume|EC2 Instance \w+( \w+)?) Performance Exceeded \(us\):/m.test(head))
  );
}

export const METRICS_FORMATS: Record<SeriesFormat, MetricsFormat> = {
  'nvme-amzn-stats': {
    id: 'nvme-amzn-stats',
    label: 'nvme amzn stats',
    name: 'nvme amzn stats',
    sniff: (text) => (looksLikeNvmeAmznStats(text) ? 1 : 0),
    flags: ['period'],
    help: `    - EBS NVMe statistics (nvme-cli ≥ 2.12), snapshots appended each after its time:
        while sleep 60; do date -u +%FT%TZ; nvme amzn stats -o json /dev/nvme1n1; done >> stats.txt
      (also the text output without -o json; latency percentiles and seconds over the volume's and
      the instance's IOPS and throughput limits come with the rates)`,
  },
  'prometheus-query-range': {
    id: 'prometheus-query-range',
    label: 'Prometheus query_range JSON',
    name: 'Prometheus JSON',
    sniff: (text) => (isJson(text) && looksLikePrometheus(text) ? 1 : 0),
    flags: ['device', 'values'],
    help: `    - Prometheus /api/v1/query_range JSON of node_exporter's disk counters (rated here):
        curl -G http://prometheus:9090/api/v1/query_range --data-urlencode 'query=${PROMQL_COUNTERS}' \\
          --data-urlencode start=2026-11-10T00:00:00Z --data-urlencode end=2026-11-24T00:00:00Z \\
          --data-urlencode step=60 > prom.json
      or already rate()d, each series named in a "metric" label:
        ${PROMQL_RATES}
      or the EBS CSI driver node plugin's NVMe metrics (port 3302; raw, one volume_id per file or
      --device vol-…), which add latency percentiles and seconds over the volume's and instance's limits:
        ${PROMQL_EBS_CSI}`,
  },
  'datadog-query-json': {
    id: 'datadog-query-json',
    label: 'Datadog query JSON',
    name: 'Datadog JSON',
    // get-metric-data names MetricDataResults first; Datadog's answer never does.
    sniff: (text) =>
      isJson(text) &&
      /"pointlist"\s*:/.test(text.slice(0, 200_000)) &&
      !/"MetricDataResults"/.test(text.slice(0, 2000))
        ? 0.9
        : 0,
    flags: ['device'],
    help: `    - a Datadog /api/v1/query JSON answer for system.io.r_s, system.io.w_s, system.io.rkb_s and
      system.io.wkb_s by {device}`,
  },
  'cloudwatch-get-metric-data': {
    id: 'cloudwatch-get-metric-data',
    label: 'aws cloudwatch get-metric-data JSON',
    name: 'CloudWatch get-metric-data JSON',
    // Any other JSON is read as get-metric-data, whose errors then name the missing field.
    sniff: (text) =>
      isJson(text) ? (/"MetricDataResults"\s*:/.test(text.slice(0, 200_000)) ? 0.7 : 0.1) : 0,
    flags: ['stat', 'period', 'source-interval'],
    help: `    - the JSON of \`aws cloudwatch get-metric-data\`: AWS/EBS Volume{Read,Write}{Ops,Bytes}, or the
      CloudWatch agent's diskio_ebs_total_{read,write}_{ops,bytes} (namespace CWAgent), Stat Sum`,
  },
  sadf: {
    id: 'sadf',
    label: 'sadf -d',
    name: 'sadf -d',
    sniff: (text) => ifText(text, looksLikeSadf(text) ? 1 : 0),
    flags: ['device'],
    help: `    - sadf -d output of a sadc file:                   sadf -d /var/log/sysstat/sa24 -- -d > sar.csv`,
  },
  iostat: {
    id: 'iostat',
    label: 'iostat -x',
    name: 'iostat -x',
    sniff: (text) => ifText(text, looksLikeIostat(text) ? 0.95 : 0),
    flags: ['device', 'period'],
    help: `    - iostat -x text, any sysstat version or locale:   iostat -x -t 60 1440 > iostat.txt
      (the first report, since boot, is left out; without -t give --period INTERVAL)`,
  },
  sar: {
    id: 'sar',
    label: 'sar -d',
    name: 'sar -d',
    sniff: (text) => ifText(text, looksLikeSar(text) ? 0.9 : 0),
    flags: ['device'],
    help: `    - sar -d text of a sadc file:                      sar -d -f /var/log/sysstat/sa24 > sar.txt
      (sar counts reads and writes together: the split of operations is estimated from bytes)`,
  },
  'datadog-csv': {
    id: 'datadog-csv',
    label: 'Datadog CSV',
    name: 'Datadog CSV',
    sniff: (text) => ifText(text, DATADOG_IO_METRIC.test(text.slice(0, 20_000)) ? 0.7 : 0),
    flags: ['device'],
    help: `    - a Datadog timeseries CSV of system.io.r_s, system.io.w_s, system.io.rkb_s and
      system.io.wkb_s by {device}`,
  },
  'cloudwatch-console-csv': {
    id: 'cloudwatch-console-csv',
    label: 'CloudWatch console CSV',
    name: 'CloudWatch CSV',
    sniff: (text) => ifText(text, looksLikeCloudWatchCsv(text) ? 0.6 : 0),
    flags: ['stat', 'period', 'source-interval'],
    help: `    - a CloudWatch console graph download (CSV: VolumeReadOps/…/VolumeWriteBytes or EBSReadOps/…)`,
  },
  'grafana-csv': {
    id: 'grafana-csv',
    label: 'dashboard (Grafana) CSV',
    name: 'Grafana CSV',
    // Any other text is read as a dashboard CSV. Its parser (parseMetricsCsv), like the console
    // CSV's, tells the two apart by the whole header (classifyCloudWatchLabel), not this sniff.
    sniff: (text) => ifText(text, 0.1),
    flags: ['period', 'throughput-unit'],
    help: `    - a Grafana "Download CSV" of read/write IOPS and throughput (units in the headers or cells)`,
  },
};

/**
 * Files that look like a metrics export but that no format reads: refused with what to run
 * instead. Scored like the sniffers, so each shadows exactly the formats it did before.
 */
const REFUSALS: readonly { sniff: (text: string) => number; problem: (text: string) => Problem }[] = [
  {
    sniff: (text) => (/^\s*\{\s*"sysstat"\s*:/.test(text) ? 0.8 : 0),
    problem: () => ({
      code: 'unsupported_format',
      message:
        'this is sysstat JSON (iostat -o JSON or sadf -j): give the text output instead — iostat -x -t INTERVAL COUNT, or sadf -d FILE -- -d',
    }),
  },
  {
    sniff: (text) => ifText(text, parseBanner(firstLine(text)) ? 0.8 : 0),
    problem: (text) => ({
      code: 'unsupported_sysstat_report',
      message: `line 1: a sysstat report ("${firstLine(text).slice(0, 50).trim()}…") but neither iostat -x (a "Device" header with r/s and w/s) nor sar -d (a "DEV tps …" header): run iostat -x -t INTERVAL COUNT, or sar -d -f FILE`,
      path: 'line 1',
    }),
  },
];

const firstLine = (text: string) => text.trimStart().split(/\r?\n/, 1)[0] ?? '';

export type SniffResult =
  | { kind: 'format'; format: MetricsFormat; confidence: number }
  | { kind: 'refused'; problem: Problem; confidence: number };

/** The format (or refusal) whose sniffer is surest of this decoded text; null when none is at all. */
export function sniffMetrics(text: string): SniffResult | null {
  let best: SniffResult | null = null;
  for (const id of SERIES_FORMATS) {
    const format = METRICS_FORMATS[id];
    const confidence = format.sniff(text);
    if (confidence > 0 && (best === null || confidence > best.confidence))
      best = { kind: 'format', format, confidence };
  }
  for (const refusal of REFUSALS) {
    const confidence = refusal.sniff(text);
    if (confidence > 0 && (best === null || confidence > best.confidence))
      best = { kind: 'refused', problem: refusal.problem(text), confidence };
  }
  return best;
}

/**
 * Whether a file dropped on the fio drop zone is a metrics export instead (the user chose the
 * wrong door), from its name and first bytes: a `.csv` file, or content some format (or a
 * refusal: a sysstat report) claims — not a fallback, since fio's own text output is text too.
 */
export function looksLikeMetricsExport(head: string, fileName: string): boolean {
  if (/\.csv$/i.test(fileName.trim())) return true;
  const sniffed = sniffMetrics(head.replace(/^\uFEFF/, ''));
  return sniffed !== null && sniffed.confidence >= SNIFF_CLAIM;
}
