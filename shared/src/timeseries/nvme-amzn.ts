import { z } from 'zod';
import type { Problem, Warning } from '../problem.ts';
import { buildSeries, type RawColumn, type RawRow } from './build-series.ts';
import { rateRole } from './columns.ts';
import { intervalLatency, type IntervalLatency, type LatencyBin } from './latency-bins.ts';
import type { EbsNvmeStats, IoMetric, SeriesImportOptions, SeriesImportResult } from './series.schema.ts';

/**
 * `nvme amzn stats` (nvme-cli's amzn plugin, plugins/amzn/amzn-nvme.c: log page 0xD0 of an EBS
 * volume's NVMe controller) as a file of appended snapshots, each after a timestamp line:
 *
 *     while sleep 60; do date -u +%FT%TZ; nvme amzn stats -o json /dev/nvme1n1; done >> stats.txt
 *
 * nvme-cli prints no time of its own (neither v2.16 nor v3.0-rc1), so the timestamp line is
 * required. Both outputs are read: `-o json` (amzn_json_add_io_stats, amzn_json_add_histogram)
 * and the normal text (amzn_print_io_stats, amzn_print_latency_histogram). The counters are
 * cumulative since the volume was attached; two snapshots make one point: the differences over
 * the seconds between them, placed at the start of the interval (like Prometheus counters,
 * prometheus.ts). The polling mode of v3.0 (`--interval`) prints differences without times and
 * is refused. Names and units, with the commits they were read from: docs/metrics-inputs.md.
 */

/** A timestamp line: `date -u +%FT%TZ` (2026-11-24T10:00:00Z) or `date -Is` (…+00:00). */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})$/;

type Bin = LatencyBin;

/** One snapshot's cumulative counters (µs where the name says so) and its two histograms. */
type Snapshot = {
  where: string;
  timeMs: number;
  readOps: number;
  writeOps: number;
  readBytes: number;
  writeBytes: number;
  readTimeUs: number;
  writeTimeUs: number;
  volumeIopsExceededUs: number;
  volumeThroughputExceededUs: number;
  instanceIopsExceededUs: number;
  instanceThroughputExceededUs: number;
  queueLength: number;
  readBins: Bin[];
  writeBins: Bin[];
};
type Counters = Omit<Snapshot, 'where' | 'timeMs' | 'readBins' | 'writeBins'>;
type Parsed<T> = { ok: true; value: T } | { ok: false; error: Problem };

const problem = (code: string, message: string, path: string): { ok: false; error: Problem } => ({
  ok: false,
  error: { code, message, path },
});

/** The file's snapshots: each timestamp line starts one; its text (JSON or normal) follows. */
function splitSnapshots(text: string): Parsed<{ where: string; timeMs: number; body: string[] }[]> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const chunks: { where: string; timeMs: number; body: string[] }[] = [];
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (/^Polling NVMe stats every/.test(line)) {
      return problem(
        'unsupported_interval_mode',
        `line ${i + 1}: this is \`nvme amzn stats --interval\`, which prints differences without times; collect snapshots instead: while sleep 60; do date -u +%FT%TZ; nvme amzn stats -o json DEVICE; done >> stats.txt`,
        `line ${i + 1}`,
      );
    }
    if (TIMESTAMP.test(line)) {
      const timeMs = Date.parse(line.replace(',', '.'));
      if (Number.isNaN(timeMs))
        return problem('bad_timestamp', `line ${i + 1}: "${line}" is not a valid time`, `line ${i + 1}`);
      chunks.push({ where: `snapshot ${chunks.length + 1} (line ${i + 1})`, timeMs, body: [] });
    } else if (chunks.length > 0) chunks.at(-1)!.body.push(raw);
    else if (line !== '') {
      return problem(
        'missing_timestamp',
        `line ${i + 1}: a snapshot without a timestamp line before it — nvme amzn stats prints no time: run \`date -u +%FT%TZ\` before each \`nvme amzn stats\``,
        `line ${i + 1}`,
      );
    }
  }
  return { ok: true, value: chunks };
}

const count = z.number().int().nonnegative();
const HistogramSchema = z.object({
  num_bins: count,
  bins: z.array(z.object({ lower: count, upper: count, count })),
});
/**
 * `-o json` (amzn_json_add_io_stats): the instance counters are `ec2_instance_ebs_performance_
 * exceeded_{iops,tp}` up to v2.16 and `ec2_instance_performance_exceeded_{iops,tp}` from v3.0-rc1.
 */
const JsonSnapshotSchema = z.object({
  total_read_ops: count,
  total_write_ops: count,
  total_read_bytes: count,
  total_write_bytes: count,
  total_read_time: count,
  total_write_time: count,
  ebs_volume_performance_exceeded_iops: count,
  ebs_volume_performance_exceeded_tp: count,
  ec2_instance_performance_exceeded_iops: count.optional(),
  ec2_instance_performance_exceeded_tp: count.optional(),
  ec2_instance_ebs_performance_exceeded_iops: count.optional(),
  ec2_instance_ebs_performance_exceeded_tp: count.optional(),
  volume_queue_length: count,
  read_io_latency_histogram: HistogramSchema,
  write_io_latency_histogram: HistogramSchema,
});

function readJsonSnapshot(body: string, where: string): Parsed<Omit<Snapshot, 'where' | 'timeMs'>> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return problem('bad_json', `${where}: not JSON (${(error as Error).message})`, where);
  }
  const parsed = JsonSnapshotSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.');
    return problem('bad_snapshot', `${where}: ${path}: ${issue.message}`, `${where}.${path}`);
  }
  const s = parsed.data;
  const instanceIops =
    s.ec2_instance_performance_exceeded_iops ?? s.ec2_instance_ebs_performance_exceeded_iops;
  const instanceTp = s.ec2_instance_performance_exceeded_tp ?? s.ec2_instance_ebs_performance_exceeded_tp;
  if (instanceIops === undefined || instanceTp === undefined) {
    return problem(
      'bad_snapshot',
      `${where}: expected ec2_instance_performance_exceeded_iops and _tp (nvme-cli ≥ 3.0) or ec2_instance_ebs_performance_exceeded_iops and _tp (up to 2.16)`,
      `${where}.ec2_instance_performance_exceeded_iops`,
    );
  }
  const bins = (h: z.infer<typeof HistogramSchema>) =>
    h.bins.map((b) => ({ lowerUs: b.lower, upperUs: b.upper, count: b.count }));
  return {
    ok: true,
    value: {
      readOps: s.total_read_ops,
      writeOps: s.total_write_ops,
      readBytes: s.total_read_bytes,
      writeBytes: s.total_write_bytes,
      readTimeUs: s.total_read_time,
      writeTimeUs: s.total_write_time,
      volumeIopsExceededUs: s.ebs_volume_performance_exceeded_iops,
      volumeThroughputExceededUs: s.ebs_volume_performance_exceeded_tp,
      instanceIopsExceededUs: instanceIops,
      instanceThroughputExceededUs: instanceTp,
      queueLength: s.volume_queue_length,
      readBins: bins(s.read_io_latency_histogram),
      writeBins: bins(s.write_io_latency_histogram),
    },
  };
}

/** The normal text's sections (amzn_print_io_stats) → the counter each "  Read:"-style line fills. */
const TEXT_SECTIONS: Record<string, Record<string, keyof Counters>> = {
  'Total Ops:': { Read: 'readOps', Write: 'writeOps' },
  'Total Bytes:': { Read: 'readBytes', Write: 'writeBytes' },
  'Total Time (us):': { Read: 'readTimeUs', Write: 'writeTimeUs' },
  'EBS Volume Performance Exceeded (us):': {
    IOPS: 'volumeIopsExceededUs',
    Throughput: 'volumeThroughputExceededUs',
  },
  'EC2 Instance EBS Performance Exceeded (us):': {
    IOPS: 'instanceIopsExceededUs',
    Throughput: 'instanceThroughputExceededUs',
  },
};
const COUNTER_NAMES: Record<keyof Counters, string> = {
  readOps: 'Total Ops: Read',
  writeOps: 'Total Ops: Write',
  readBytes: 'Total Bytes: Read',
  writeBytes: 'Total Bytes: Write',
  readTimeUs: 'Total Time (us): Read',
  writeTimeUs: 'Total Time (us): Write',
  volumeIopsExceededUs: 'EBS Volume Performance Exceeded (us): IOPS',
  volumeThroughputExceededUs: 'EBS Volume Performance Exceeded (us): Throughput',
  instanceIopsExceededUs: 'EC2 Instance EBS Performance Exceeded (us): IOPS',
  instanceThroughputExceededUs: 'EC2 Instance EBS Performance Exceeded (us): Throughput',
  queueLength: 'Queue Length (point in time)',
};
/** amzn_print_latency_histogram: `[%-8lu - %-8lu] => %-8u`. */
const BIN_LINE = /^\[\s*(\d+)\s*-\s*(\d+)\s*\]\s*=>\s*(\d+)\s*$/;

function readTextSnapshot(
  body: string[],
  where: string,
  firstLine: number,
): Parsed<Omit<Snapshot, 'where' | 'timeMs'>> {
  const counters: Partial<Counters> = {};
  const bins: { read: Bin[]; write: Bin[] } = { read: [], write: [] };
  let section: Record<string, keyof Counters> | null = null;
  let histogram: 'read' | 'write' | null = null;
  for (const [i, raw] of body.entries()) {
    const line = raw.trim();
    const at = `line ${firstLine + i}`;
    // `-d` adds per-I/O-size histograms after the two totals: not read.
    if (line === 'IO Size Range:') break;
    if (line === '' || /^=+$/.test(line) || /^Lower\s+Upper\s+IO Count$/.test(line)) continue;
    if (line.startsWith('EC2 Instance Local Storage')) {
      return problem(
        'not_an_ebs_volume',
        `${at}: these are the stats of an instance store volume, not of an EBS volume`,
        at,
      );
    }
    const queue = /^Queue Length \(point in time\):\s*(\d+)$/.exec(line);
    const item = /^(\w+):\s*(\d+)$/.exec(line);
    const bin = BIN_LINE.exec(line);
    if (TEXT_SECTIONS[line]) {
      section = TEXT_SECTIONS[line];
      histogram = null;
    } else if (line === 'Read IO Latency Histogram' || line === 'Write IO Latency Histogram') {
      histogram = line.startsWith('Read') ? 'read' : 'write';
      section = null;
    } else if (queue) counters.queueLength = Number(queue[1]);
    else if (item && section?.[item[1]!]) counters[section[item[1]!]!] = Number(item[2]);
    else if (bin && histogram) {
      bins[histogram].push({ lowerUs: Number(bin[1]), upperUs: Number(bin[2]), count: Number(bin[3]) });
    } else {
      return problem(
        'bad_snapshot',
        `${at}: "${line.slice(0, 60)}" is not a line of nvme amzn stats (${where})`,
        at,
      );
    }
  }
  for (const key of Object.keys(COUNTER_NAMES) as (keyof Counters)[]) {
    if (counters[key] === undefined)
      return problem('bad_snapshot', `${where}: no "${COUNTER_NAMES[key]}" line`, where);
  }
  return { ok: true, value: { ...(counters as Counters), readBins: bins.read, writeBins: bins.write } };
}

function readSnapshots(text: string): Parsed<Snapshot[]> {
  const split = splitSnapshots(text);
  if (!split.ok) return split;
  const lineOf = (where: string) => Number(/line (\d+)/.exec(where)![1]);
  const snapshots: Snapshot[] = [];
  for (const chunk of split.value) {
    const body = chunk.body.join('\n').trim();
    if (body === '')
      return problem(
        'empty_snapshot',
        `${chunk.where}: a timestamp without nvme output after it`,
        chunk.where,
      );
    const read = body.startsWith('{')
      ? readJsonSnapshot(body, chunk.where)
      : readTextSnapshot(chunk.body, chunk.where, lineOf(chunk.where) + 1);
    if (!read.ok) return read;
    snapshots.push({ where: chunk.where, timeMs: chunk.timeMs, ...read.value });
  }
  return { ok: true, value: snapshots };
}

/** The bins' counts are 32-bit in the log page; nvme-cli 3.0 (amzn_compute_histogram_diff) subtracts them in that width. */
const U32 = 2 ** 32;

/** Per-bin operations between two snapshots; null when the bins' bounds differ. */
export function diffHistogram(prev: readonly Bin[], curr: readonly Bin[]): Bin[] | null {
  if (prev.length !== curr.length) return null;
  const out: Bin[] = [];
  for (const [i, c] of curr.entries()) {
    const p = prev[i]!;
    if (p.lowerUs !== c.lowerUs || p.upperUs !== c.upperUs) return null;
    out.push({ ...c, count: (((c.count - p.count) % U32) + U32) % U32 });
  }
  return out;
}

const CUMULATIVE: readonly (keyof Counters)[] = [
  'readOps',
  'writeOps',
  'readBytes',
  'writeBytes',
  'readTimeUs',
  'writeTimeUs',
  'volumeIopsExceededUs',
  'volumeThroughputExceededUs',
  'instanceIopsExceededUs',
  'instanceThroughputExceededUs',
];

type Interval = {
  startMs: number;
  seconds: number;
  rates: [number, number, number, number];
  readLatency: IntervalLatency;
  writeLatency: IntervalLatency;
  exceededSec: [number, number, number, number];
  queueLength: number;
};

/** Two snapshots → one interval's rates, latencies and seconds over the limits; null on a counter reset. */
function diffSnapshots(prev: Snapshot, curr: Snapshot, warnings: Warning[]): Interval | null {
  const sec = (curr.timeMs - prev.timeMs) / 1000;
  const reset = CUMULATIVE.find((k) => curr[k] < prev[k]);
  if (reset) {
    warnings.push({
      code: 'counter_reset',
      message: `${curr.where}: ${COUNTER_NAMES[reset]} went down since ${prev.where} (the counters restarted, e.g. the volume was attached again): that interval is left out.`,
      subject: curr.where,
    });
    return null;
  }
  const d = (k: keyof Counters) => curr[k] - prev[k];
  const readBins = diffHistogram(prev.readBins, curr.readBins);
  const writeBins = diffHistogram(prev.writeBins, curr.writeBins);
  if (!readBins || !writeBins) {
    warnings.push({
      code: 'histogram_bins_changed',
      message: `${curr.where}: the latency histogram's bins differ from ${prev.where}'s: no percentiles for that interval.`,
      subject: curr.where,
    });
  }
  return {
    startMs: prev.timeMs,
    seconds: sec,
    rates: [d('readOps') / sec, d('writeOps') / sec, d('readBytes') / sec, d('writeBytes') / sec],
    readLatency: intervalLatency(d('readOps'), d('readTimeUs'), readBins),
    writeLatency: intervalLatency(d('writeOps'), d('writeTimeUs'), writeBins),
    exceededSec: [
      d('volumeIopsExceededUs') / 1e6,
      d('volumeThroughputExceededUs') / 1e6,
      d('instanceIopsExceededUs') / 1e6,
      d('instanceThroughputExceededUs') / 1e6,
    ],
    queueLength: curr.queueLength,
  };
}

const COLUMNS: readonly [IoMetric, string, string][] = [
  ['readOps', 'total_read_ops', 'operations/s'],
  ['writeOps', 'total_write_ops', 'operations/s'],
  ['readBytes', 'total_read_bytes', 'bytes/s'],
  ['writeBytes', 'total_write_bytes', 'bytes/s'],
];

/** A file of `nvme amzn stats` snapshots (JSON or text) → IoSeries with its `ebsNvme` latencies and limits. */
export function parseNvmeAmznStats(text: string, options: SeriesImportOptions): SeriesImportResult {
  const read = readSnapshots(text);
  if (!read.ok) return read;
  const snapshots = read.value;
  if (snapshots.length < 2) {
    return {
      ok: false,
      error: {
        code: 'too_few_snapshots',
        message: `${snapshots.length} snapshot(s): the counters are totals since the volume was attached, so it takes two snapshots to make one point`,
      },
    };
  }
  for (let i = 1; i < snapshots.length; i++) {
    if (snapshots[i]!.timeMs <= snapshots[i - 1]!.timeMs) {
      return {
        ok: false,
        error: {
          code: 'snapshots_out_of_order',
          message: `${snapshots[i]!.where} is not later than ${snapshots[i - 1]!.where}: append the snapshots in time order`,
          path: snapshots[i]!.where,
        },
      };
    }
  }
  const warnings: Warning[] = [];
  const intervals: Interval[] = [];
  for (let i = 1; i < snapshots.length; i++) {
    const interval = diffSnapshots(snapshots[i - 1]!, snapshots[i]!, warnings);
    if (interval) intervals.push(interval);
  }
  const resource = options.label ?? 'EBS volume';
  const columns: RawColumn[] = COLUMNS.map(([metric, source, unit]) => ({
    ...rateRole(metric, unit, resource),
    label: `${source} (difference ÷ seconds)`,
    source,
  }));
  const rows: RawRow[] = intervals.map((v) => ({
    where: new Date(v.startMs).toISOString(),
    time: { wallMs: v.startMs, offsetMin: 0 },
    values: [...v.rates],
  }));
  // One interval has no spacing to read the period from: its own length is the period.
  const onlySec = intervals.length === 1 ? intervals[0]!.seconds : undefined;
  const built = buildSeries(
    { format: 'nvme-amzn-stats', columns, rows, headerZone: null, warnings },
    { ...options, periodSec: options.periodSec ?? onlySec, label: resource },
  );
  if (!built.ok) return built;
  const byStart = new Map(intervals.map((v) => [v.startMs, v]));
  const at = <T>(pick: (v: Interval) => T) =>
    built.value.timeMs.map((t) => {
      const v = byStart.get(t);
      return v === undefined ? null : pick(v);
    });
  const ebsNvme: EbsNvmeStats = {
    readLatencyUs: {
      avg: at((v) => v.readLatency[0]),
      p50: at((v) => v.readLatency[1]),
      p99: at((v) => v.readLatency[2]),
      p999: at((v) => v.readLatency[3]),
    },
    writeLatencyUs: {
      avg: at((v) => v.writeLatency[0]),
      p50: at((v) => v.writeLatency[1]),
      p99: at((v) => v.writeLatency[2]),
      p999: at((v) => v.writeLatency[3]),
    },
    exceededSec: {
      volumeIops: at((v) => v.exceededSec[0]),
      volumeThroughput: at((v) => v.exceededSec[1]),
      instanceIops: at((v) => v.exceededSec[2]),
      instanceThroughput: at((v) => v.exceededSec[3]),
    },
    queueLength: at((v) => v.queueLength),
  };
  return {
    ok: true,
    value: {
      ...built.value,
      conversion: {
        statistic: null,
        divisorSec: null,
        explanation:
          'Each point is the difference of the cumulative counters between two snapshots of nvme amzn stats divided by the seconds between their timestamps, placed at the start of the interval.',
      },
      ebsNvme,
    },
  };
}
