import { type Gp3Generation, type InstanceSpec, type RateCard } from '@blockwise/shared/aws';
import {
  computeLimits,
  planStorage,
  type DatasetGrowth,
  type Limit,
  type PlanResult,
  type Recommendation,
  type Residency,
  type VolumeConfig,
  volumeOfRecommendation,
} from '@blockwise/shared/plan';
import { type IoProfile } from '@blockwise/shared/profile';
import {
  SIZING_STATISTICS,
  SIZING_STATISTIC_LABELS,
  iopsFromQueue,
  minutesAbovePerDay,
  type Capacity,
  type IoSeries,
  type QueueSummary,
  type RateSummary,
  type SeriesSummary,
  type SizingStatistic,
} from '@blockwise/shared/timeseries';
import { THROUGHPUT_UNITS, mbps, mbpsToBytesPerSec, toBytesPerSec } from '@blockwise/shared/units';
import { downsampleRows, MAX_CHART_POINTS } from '../../lib/downsample.ts';
import { fmtInt, fmtNum, fmtRateValue, fmtSize, fmtUsd } from '../../lib/format.ts';
import { bottleneckText, describeRecommendation } from '../../lib/plan-text.ts';
import type { ImportedSeries } from './metrics-reader.ts';

export { periodText } from './labels.ts';

/**
 * An imported metrics series shaped for its tables and charts. Every statistic, profile, plan,
 * limit and minute count is the domain's (summarizeSeries, profilesByStatistic, planStorage,
 * computeLimits, minutesAbovePerDay); this module picks, labels, converts units for display
 * (bytes/s → MiB/s by the THROUGHPUT_UNITS constant) and cuts chart series to ≤ 2,000 points.
 */

export const STATISTIC_SHORT: Record<SizingStatistic, string> = {
  max: 'Maximum',
  p99: 'p99',
  p95: 'p95',
};

/** "2026-11-19 02:15 UTC". */
export function fmtUtc(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

// ── statistics table ─────────────────────────────────────────────────────────────────────────

export type StatsRow = {
  key: string;
  direction: 'Read' | 'Write' | 'Read + write';
  quantity: 'IOPS' | 'Throughput';
  /** IOPS, or MiB/s for throughput (display unit). */
  unit: 'IOPS' | 'MiB/s';
  /** average, p50, p95, p99, max — formatted in `unit`. */
  cells: [string, string, string, string, string];
  peakAt: string;
};

const rateCells = (s: RateSummary, fmt: (v: number) => string): StatsRow['cells'] => {
  const f = (v: number | null) => (v === null ? '—' : fmt(v));
  return [f(s.mean), f(s.p50), f(s.p95), f(s.p99), f(s.max)];
};

const iopsText = (v: number) => (v < 100 ? fmtNum(v, 1) : fmtInt(v));
const mibText = (bytesPerSec: number) => fmtRateValue(bytesPerSec, 'MiB/s', bytesPerSec < 1048576 ? 2 : 1);

/** Per direction and combined: average/p50/p95/p99/max of IOPS and throughput, and when the max was. */
export function statsRows(summary: SeriesSummary): StatsRow[] {
  const rows: StatsRow[] = [];
  const dirs = [
    ['read', 'Read', summary.read],
    ['write', 'Write', summary.write],
    ['combined', 'Read + write', summary.combined],
  ] as const;
  for (const [key, direction, d] of dirs)
    rows.push({
      key: `${key}.iops`,
      direction,
      quantity: 'IOPS',
      unit: 'IOPS',
      cells: rateCells(d.iops, iopsText),
      peakAt: fmtUtc(d.iops.maxAtMs),
    });
  for (const [key, direction, d] of dirs)
    rows.push({
      key: `${key}.bytesPerSec`,
      direction,
      quantity: 'Throughput',
      unit: 'MiB/s',
      cells: rateCells(d.bytesPerSec, mibText),
      peakAt: fmtUtc(d.bytesPerSec.maxAtMs),
    });
  return rows;
}

export type PeakWindow = { what: string; value: string; at: string };

/** The busiest windows: read + write IOPS and throughput, and each direction's IOPS peak. */
export function peakWindows(summary: SeriesSummary): PeakWindow[] {
  const out: PeakWindow[] = [];
  const add = (what: string, s: RateSummary, fmt: (v: number) => string) => {
    if (s.max !== null) out.push({ what, value: fmt(s.max), at: fmtUtc(s.maxAtMs) });
  };
  add('read + write IOPS', summary.combined.iops, (v) => `${iopsText(v)} IOPS`);
  add('read + write throughput', summary.combined.bytesPerSec, (v) => `${mibText(v)} MiB/s`);
  add('read IOPS', summary.read.iops, (v) => `${iopsText(v)} IOPS`);
  add('write IOPS', summary.write.iops, (v) => `${iopsText(v)} IOPS`);
  return out;
}

// ── sizing statistic → plan ──────────────────────────────────────────────────────────────────

/** The session's planning settings the per-statistic plans use (the same as the session's plan). */
export type PlanContext = {
  instance: InstanceSpec | null;
  instanceCandidates: readonly InstanceSpec[];
  rateCard: RateCard;
  headroom: number;
  gp3Generation: Gp3Generation;
  nodes: number;
  syncCommits: boolean;
  residency: Residency;
  datasetGiB: number | null;
  /** How the dataset grows (absent or null: planned for today's size). */
  datasetGrowth?: DatasetGrowth | null;
  /** The session's first (valid) candidate volume: its limits are drawn on the chart. */
  candidate: VolumeConfig | null;
};

export type StatisticOption = {
  statistic: SizingStatistic;
  name: string;
  description: string;
  profile: IoProfile;
  plan: PlanResult | null;
  /** The cheapest configuration that meets peak × (1 + headroom) (status `meets`), if any. */
  recommendation: Recommendation | null;
  /**
   * When none meets it: the best the instance allows (status `capped-by-instance`: sized up to
   * what the instance sustains, short of the target) — never called a fit.
   */
  capped: Recommendation | null;
};

/** One plan per sizing statistic, with the session's instance, region rates and candidate. */
export function statisticOptions(
  profiles: Record<SizingStatistic, IoProfile>,
  ctx: PlanContext | null,
): StatisticOption[] {
  return SIZING_STATISTICS.map((statistic) => {
    const profile = profiles[statistic];
    const plan = ctx
      ? planStorage({
          profile,
          target: ctx.candidate ? { kind: 'ebs', volume: ctx.candidate } : null,
          instance: ctx.instance,
          rateCard: ctx.rateCard,
          headroom: ctx.headroom,
          gp3Generation: ctx.gp3Generation,
          nodes: ctx.nodes,
          syncCommits: ctx.syncCommits,
          residency: ctx.residency,
          datasetGiB: ctx.datasetGiB,
          datasetGrowth: ctx.datasetGrowth ?? null,
          instanceCandidates: ctx.instanceCandidates,
        })
      : null;
    // The domain ranks meets (cheapest first), then capped, unpriced, not viable.
    const recs = plan?.rightSizing.recommendations ?? [];
    const recommendation = recs.find((r) => r.status === 'meets') ?? null;
    return {
      statistic,
      name: STATISTIC_SHORT[statistic],
      description: SIZING_STATISTIC_LABELS[statistic],
      profile,
      plan,
      recommendation,
      capped: recommendation ? null : (recs.find((r) => r.status === 'capped-by-instance') ?? null),
    };
  });
}

export type ComparisonRow = { label: string; cells: string[] };

const unmergedText = (plan: PlanResult) => {
  const u = plan.rightSizing.target.iopsUnmerged;
  return u === undefined ? '' : ` (${fmtInt(u)} if sequential I/O is not merged)`;
};

/** What one option buys: the fitting configuration, else the capped one said to be capped. */
function boughtText(o: StatisticOption): string {
  if (o.recommendation) return describeRecommendation(o.recommendation) ?? '—';
  if (o.capped) return `none fits; capped by the instance: ${describeRecommendation(o.capped) ?? '—'}`;
  return o.plan?.rightSizing.recommendations.some((r) => r.status === 'unpriced')
    ? 'none priced in this region'
    : 'none viable';
}

/** The monthly cost of what `boughtText` names (a capped configuration's cost says so). */
function costText(o: StatisticOption, cost: (r: Recommendation) => number): string {
  if (o.recommendation) return fmtUsd(cost(o.recommendation));
  if (o.capped) return `${fmtUsd(cost(o.capped))} (capped by the instance)`;
  return '—';
}

/** The statistics side by side: the demand each asks for, what it buys and what that costs. */
export function comparisonRows(options: readonly StatisticOption[], nodes: number): ComparisonRow[] {
  const cell = (f: (o: StatisticOption) => string) => options.map(f);
  const rows: ComparisonRow[] = [
    { label: 'Read IOPS', cells: cell((o) => fmtInt(o.profile.read.iops)) },
    { label: 'Write IOPS', cells: cell((o) => fmtInt(o.profile.write.iops)) },
    { label: 'Read throughput (MiB/s)', cells: cell((o) => mibText(o.profile.read.bytesPerSec)) },
    { label: 'Write throughput (MiB/s)', cells: cell((o) => mibText(o.profile.write.bytesPerSec)) },
    {
      label: 'Average I/O size (read / write)',
      cells: cell(
        (o) => `${fmtSize(o.profile.read.blockSizeBytes)} / ${fmtSize(o.profile.write.blockSizeBytes)}`,
      ),
    },
  ];
  if (options.every((o) => o.plan === null)) return rows;
  rows.push(
    {
      label: 'Provision (with headroom)',
      cells: cell((o) =>
        o.plan
          ? `${fmtInt(o.plan.rightSizing.target.iops)} IOPS${unmergedText(o.plan)}, ${fmtNum(o.plan.rightSizing.target.throughputMiBps, 0)} MiB/s`
          : '—',
      ),
    },
    { label: 'Cheapest volume that fits', cells: cell(boughtText) },
    {
      label: nodes > 1 ? 'Monthly cost per node (USD)' : 'Monthly cost (USD)',
      cells: cell((o) => costText(o, (r) => r.monthlyUsd.total)),
    },
  );
  if (nodes > 1)
    rows.push({
      label: `Monthly cost, ${fmtInt(nodes)} nodes (USD)`,
      cells: cell((o) => costText(o, (r) => r.clusterMonthlyUsd.total)),
    });
  if (options.some((o) => o.plan?.target))
    rows.push({
      label: `On ${options[0]?.plan?.target?.description ?? 'the candidate'}`,
      cells: cell((o) => (o.plan ? (bottleneckText(o.plan) ?? '—') : '—')),
    });
  return rows;
}

// ── limits across the demand chart, minutes above them ───────────────────────────────────────

export type LimitLine = {
  id: Limit['id'];
  label: string;
  unit: 'IOPS' | 'MiB/s';
  /** In the chart's unit (IOPS or MiB/s), as the domain computed the capacity. */
  value: number;
  kind: 'volume' | 'instance-baseline' | 'instance-burst' | 'volume-burst';
  /** The capacity as minutesAbovePerDay takes it (IOPS, or bytes/s). */
  capacity: Capacity;
  text: string;
};

const LINE_KIND: Partial<Record<Limit['id'], LimitLine['kind']>> = {
  'volume-iops': 'volume',
  'volume-throughput': 'volume',
  'volume-iops-burst': 'volume-burst',
  'volume-throughput-burst': 'volume-burst',
  'instance-iops': 'instance-baseline',
  'instance-bandwidth': 'instance-baseline',
  'instance-iops-burst': 'instance-burst',
  'instance-bandwidth-burst': 'instance-burst',
};

/**
 * The volume to draw: the session's candidate, or else the recommendation for the chosen
 * statistic (the capped one when none fits) — per volume × count, as the domain configures it.
 */
export function volumeToDraw(
  ctx: PlanContext | null,
  chosen: StatisticOption | undefined,
): { volume: VolumeConfig; source: 'candidate' | 'recommended' } | null {
  if (ctx?.candidate) return { volume: ctx.candidate, source: 'candidate' };
  const r = chosen?.recommendation ?? chosen?.capped;
  if (!r) return null;
  return { volume: volumeOfRecommendation(r), source: 'recommended' };
}

/**
 * The limits the series may have been served under, for the demand model's censoring note
 * (censoringWarningsOf): the session's candidate volume's own IOPS and throughput lines — the one
 * the user names, most often the volume in use today. Never a recommended volume: the series was
 * not measured on it.
 */
export function candidateLimits(
  ctx: PlanContext | null,
  lines: readonly LimitLine[],
): { iops: number | null; bytesPerSec: number | null } | null {
  if (!ctx?.candidate) return null;
  let iops: number | null = null;
  let bytesPerSec: number | null = null;
  for (const l of lines) {
    if (l.kind !== 'volume') continue;
    if ('iops' in l.capacity) iops = l.capacity.iops;
    else bytesPerSec = l.capacity.bytesPerSec;
  }
  return iops === null && bytesPerSec === null ? null : { iops, bytesPerSec };
}

/** The volume's and the instance's IOPS and throughput ceilings (computeLimits) as chart lines. */
export function limitLines(
  profile: IoProfile,
  drawn: ReturnType<typeof volumeToDraw>,
  instance: InstanceSpec | null,
): LimitLine[] {
  const limits = computeLimits(profile, drawn ? { kind: 'ebs', volume: drawn.volume } : null, instance);
  const lines: LimitLine[] = [];
  for (const l of limits) {
    const kind = LINE_KIND[l.id];
    if (!kind || !(l.capacity > 0)) continue;
    const capacity: Capacity =
      l.unit === 'IOPS'
        ? { iops: l.capacity }
        : {
            bytesPerSec:
              l.native?.unit === 'Mbps'
                ? mbpsToBytesPerSec(mbps(l.native.capacity))
                : toBytesPerSec(l.capacity, 'MiB/s'),
          };
    const who =
      l.scope === 'volume'
        ? drawn
          ? ` (${drawn.source === 'recommended' ? 'recommended ' : ''}${(drawn.volume.count ?? 1) > 1 ? `${drawn.volume.count} × ` : ''}${drawn.volume.type})`
          : ' (volume)'
        : instance
          ? ` (${instance.instanceType})`
          : '';
    const amount =
      l.unit === 'IOPS'
        ? `${fmtInt(l.capacity)} IOPS`
        : `${fmtNum(l.capacity, 1)} MiB/s${l.native?.unit === 'Mbps' ? ` = ${fmtInt(l.native.capacity)} Mbps` : ''}`;
    lines.push({
      id: l.id,
      label: `${l.label}${who}`,
      unit: l.unit,
      value: l.capacity,
      kind,
      capacity,
      text: `${l.label}${who}: ${amount}`,
    });
  }
  return lines;
}

export type MinutesColumn = { id: string; label: string; budgeted: boolean };
export type MinutesCell = { minutes: number; text: string; flag: 'over-budget' | 'above' | null };
export type MinutesRow = { day: string; covered: string; partial: boolean; cells: MinutesCell[] };

/**
 * Minutes per UTC day the series spent above each ceiling (minutesAbovePerDay). The instance's
 * sustained (baseline) ceilings may be exceeded for 30 minutes at least once every 24 hours:
 * more is flagged "over budget". Time above a volume's or a burst ceiling is throttled time.
 */
export function minutesAboveTable(
  series: IoSeries,
  lines: readonly LimitLine[],
): { columns: MinutesColumn[]; rows: MinutesRow[]; daysOverBudget: number; budgetMinutes: number } {
  const results = lines.map((l) => ({ line: l, r: minutesAbovePerDay(series, l.capacity) }));
  const columns = results.map(({ line }) => ({
    id: line.id,
    label: line.text,
    budgeted: line.kind === 'instance-baseline',
  }));
  const days = results[0]?.r.days ?? [];
  const rows: MinutesRow[] = days.map((d, i) => ({
    day: d.day,
    covered: fmtInt(d.minutesCovered),
    partial: d.minutesCovered < 1440,
    cells: results.map(({ line, r }) => {
      const cell = r.days[i];
      const minutes = cell?.minutesAbove ?? 0;
      const budgeted = line.kind === 'instance-baseline';
      return {
        minutes,
        text: fmtNum(minutes, 1),
        flag: budgeted && cell?.overBudget ? 'over-budget' : !budgeted && minutes > 0 ? 'above' : null,
      };
    }),
  }));
  const budgeted = results.filter(({ line }) => line.kind === 'instance-baseline');
  const over = new Set(budgeted.flatMap(({ r }) => r.days.filter((d) => d.overBudget).map((d) => d.day)));
  return {
    columns,
    rows,
    daysOverBudget: over.size,
    budgetMinutes: results[0]?.r.budgetMinutes ?? 30,
  };
}

// ── demand chart rows ────────────────────────────────────────────────────────────────────────

export type DemandRow = { t: number; read: number | null; write: number | null };

/**
 * Read and write demand per point (IOPS, or MiB/s) for a stacked chart whose top edge is the
 * read + write demand the limits count. Cut to ≤ 2,000 rows by min–max decimation (spikes
 * survive), always keeping the busiest read + write point (`keepAtMs`).
 */
export function demandRows(
  series: IoSeries,
  kind: 'iops' | 'throughput',
  keepAtMs: readonly (number | null)[] = [],
  max: number = MAX_CHART_POINTS,
): DemandRow[] {
  const [r, w] =
    kind === 'iops' ? [series.readIops, series.writeIops] : [series.readBytesPerSec, series.writeBytesPerSec];
  const scale = kind === 'iops' ? 1 : THROUGHPUT_UNITS['MiB/s'];
  const rows: DemandRow[] = series.timeMs.map((t, i) => {
    const a = r[i] ?? null;
    const b = w[i] ?? null;
    return { t, read: a === null ? null : a / scale, write: b === null ? null : b / scale };
  });
  const keep = keepAtMs.filter((t): t is number => t !== null);
  if (rows.length <= max) return rows;
  const sampled = downsampleRows(rows, ['read', 'write'], max - keep.length);
  const have = new Set(sampled.map((row) => row.t));
  const extra = rows.filter((row) => keep.includes(row.t) && !have.has(row.t));
  return extra.length === 0 ? sampled : [...sampled, ...extra].sort((a, b) => a.t - b.t);
}

/** What a series needs to draw: both charts' rows with the sizing peaks kept. */
export function chartData(imported: ImportedSeries) {
  const s = imported.summary;
  return {
    iops: demandRows(imported.series, 'iops', [
      s.combined.iops.maxAtMs,
      s.read.iops.maxAtMs,
      s.write.iops.maxAtMs,
    ]),
    throughput: demandRows(imported.series, 'throughput', [
      s.combined.bytesPerSec.maxAtMs,
      s.read.bytesPerSec.maxAtMs,
      s.write.bytesPerSec.maxAtMs,
    ]),
  };
}

// ── the device and its queue (iostat, sar, Prometheus, Datadog) ──────────────────────────────

/** Which device a per-device export was read for, and why that one; null for the other formats. */
export function deviceText(series: IoSeries): string | null {
  const d = series.device;
  if (!d) return null;
  if (d.chosenBy === 'only') return `${d.name} (the only device in the file)`;
  if (d.chosenBy === 'asked') return `${d.name} (as chosen; the file has ${d.devices.length})`;
  return `${d.name}, the busiest of ${d.devices.length} devices (${d.devices.map((x) => x.name).join(', ')})`;
}

/** The tool's average request size against bytes ÷ operations, in words; null when it prints none. */
export function requestSizeText(series: IoSeries): string | null {
  const c = series.device?.requestSizeCheck;
  if (!c || c.checked === 0) return null;
  return c.mismatched === 0
    ? `The tool’s own average request size matches bytes ÷ operations at all ${fmtInt(c.checked)} points checked (within rounding).`
    : `The tool’s average request size disagrees with bytes ÷ operations at ${fmtInt(c.mismatched)} of ${fmtInt(c.checked)} points: see the warnings.`;
}

export type QueueView = {
  /** "0.26 requests in flight ÷ 0.20 ms = 1,275 requests/s" */
  mean: string;
  measured: string;
  busiest: string | null;
  /** The same queue depth at 1 ms (a typical EBS latency). */
  atEbsLatency: string;
};

/**
 * Little's law on the device queue (summarizeQueue, queue.ts): requests per second = requests in
 * flight ÷ the seconds each takes. Null when the tool reported no queue or no latency.
 */
export function queueView(queue: QueueSummary | null): QueueView | null {
  if (!queue || queue.meanAwaitMs === null || queue.littleRequestsPerSec === null) return null;
  const b = queue.busiest;
  return {
    mean: `${fmtNum(queue.meanQueueDepth, 2)} requests in flight ÷ ${fmtNum(queue.meanAwaitMs, 2)} ms = ${fmtInt(queue.littleRequestsPerSec)} requests/s`,
    measured: `${fmtInt(queue.meanRequestsPerSec)} requests/s measured (reads, writes, and the discards and flushes the tool counts)`,
    busiest:
      b && b.littleRequestsPerSec !== null
        ? `${fmtNum(b.queueDepth, 2)} in flight ÷ ${fmtNum(b.awaitMs, 2)} ms = ${fmtInt(b.littleRequestsPerSec)}/s (measured ${fmtInt(b.requestsPerSec)}/s at ${fmtUtc(b.timeMs)})`
        : null,
    atEbsLatency: `${fmtInt(iopsFromQueue(queue.meanQueueDepth, 1) ?? 0)} requests/s`,
  };
}
