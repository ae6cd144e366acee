import { compareRunPair, type RunJobSettings, type RunPairComparison } from '@blockwise/shared/compare';
import {
  CLIFF_RATIO,
  sortedPercentiles,
  type Cliff,
  type LatencyComparison,
  type LatencyVerdict,
  type PlanResult,
} from '@blockwise/shared/plan';
import { type ComparisonResult, type RunHeadline, type RunLabels } from '@blockwise/shared/records';
import { VOLUME_TYPES } from '@blockwise/shared/aws';
import { judgeLatencyPromise, measuredLatencyOfFio, type PromiseVerdict } from '@blockwise/shared/demand';
import { downsampleRows } from '../../lib/downsample.ts';
import { fmtDelta, fmtMs, fmtPercentile } from '../../lib/format.ts';
import { COLORS } from '../../lib/palette.ts';
import type { LegendEntry } from '../../lib/png-export.ts';

/**
 * NVMe vs EBS: chart rows from stored run summaries (the same in the planning page and a share
 * view). Whether both ran the same fio job, the deltas and the EBS-vs-NVMe latency verdicts come
 * from the domain's `compareRunPair` (frozen in a stored comparison); per-run latency verdicts and
 * cliffs are the ones each run's plan stored (`judgeLatency`, `detectCliffs`).
 */

export type RunView = {
  id: string;
  title: string;
  kind: RunLabels['kind'] | null;
  instanceType: string | null;
  headline: RunHeadline;
  plan: PlanResult | null;
  /** The run's fio job settings; absent when not known (a comparison stored before they were recorded). */
  jobSettings?: RunJobSettings;
};

export function runViews(result: ComparisonResult, names: Record<string, string> = {}): RunView[] {
  return result.runs.map((r, i) => ({
    id: r.id,
    title: r.labels.name ?? names[r.id] ?? `run ${i + 1}`,
    kind: r.labels.kind ?? null,
    instanceType: r.labels.instanceType ?? null,
    headline: r.summary.headline,
    plan: r.summary.plan,
    ...(r.jobSettings ? { jobSettings: r.jobSettings } : {}),
  }));
}

export type Pair = { ebs: RunView; nvme: RunView };

/** The runs to compare: the chosen ids, else the first EBS and the first NVMe run. */
export function pickPair(runs: readonly RunView[], chosen?: { ebs?: string; nvme?: string }): Pair | null {
  const ebsRuns = runs.filter((r) => r.kind === 'ebs');
  const nvmeRuns = runs.filter((r) => r.kind === 'nvme');
  const ebs = ebsRuns.find((r) => r.id === chosen?.ebs) ?? ebsRuns[0];
  const nvme = nvmeRuns.find((r) => r.id === chosen?.nvme) ?? nvmeRuns[0];
  return ebs && nvme ? { ebs, nvme } : null;
}

/**
 * The pair's comparison (NVMe the reference, EBS the candidate): the stored one when it is about
 * this pair (a share link shows what was frozen), else computed by the domain from the runs.
 */
export function comparePair(pair: Pair, stored: RunPairComparison | null | undefined): RunPairComparison {
  if (stored && stored.reference.id === pair.nvme.id && stored.candidate.id === pair.ebs.id) return stored;
  const side = (run: RunView, kind: 'NVMe' | 'EBS') => ({
    id: run.id,
    name: `${kind} run "${run.title}"`,
    headline: run.headline,
    jobSettings: run.jobSettings ?? null,
  });
  return compareRunPair(side(pair.nvme, 'NVMe'), side(pair.ebs, 'EBS'));
}

/** The EBS-vs-NVMe latency verdict for a direction; null when withheld or without percentiles. */
export function latencyVerdict(
  comparison: RunPairComparison,
  direction: 'read' | 'write',
): LatencyComparison | null {
  return comparison.verdict.status === 'given' ? comparison.verdict.latency[direction] : null;
}

export type RateRow = {
  metric: string;
  unit: 'MiB/s' | 'IOPS';
  ebs: number;
  nvme: number;
  /** null when NVMe measured nothing, or when the verdict is withheld (different fio jobs). */
  delta: number | null;
  deltaText: string;
  /** "EBS +16%" / "NVMe ahead by 24%" / "equal" / "withheld: different fio jobs": the sentence a reviewer reads. */
  verdict: string;
};

const METRIC_TEXT = {
  'read-throughput': 'Read',
  'write-throughput': 'Write',
  'read-iops': 'Read',
  'write-iops': 'Write',
} as const;

export function rateRows(comparison: RunPairComparison): { throughput: RateRow[]; iops: RateRow[] } {
  const given = comparison.verdict.status === 'given' ? comparison.verdict : null;
  const rows = comparison.rates.map((r): RateRow => {
    const v = given?.rates.find((x) => x.metric === r.metric) ?? null;
    const delta = v?.delta ?? null;
    const deltaText = v ? fmtDelta(delta) : '';
    const verdict = !v
      ? 'withheld: different fio jobs'
      : v.delta === null
        ? 'no NVMe I/O to compare'
        : v.faster === 'equal'
          ? 'equal'
          : v.faster === 'candidate'
            ? `EBS ${deltaText}`
            : `NVMe ahead (EBS ${deltaText})`;
    return {
      metric: METRIC_TEXT[r.metric],
      unit: r.unit,
      ebs: r.candidate,
      nvme: r.reference,
      delta,
      deltaText,
      verdict,
    };
  });
  return { throughput: rows.filter((r) => r.unit === 'MiB/s'), iops: rows.filter((r) => r.unit === 'IOPS') };
}

export type LatencySeries = {
  key: string;
  name: string;
  color: string;
  percentiles: Record<string, number> | null;
  cliffs: readonly Cliff[];
  verdicts: readonly LatencyVerdict[];
  approximate: boolean;
};

export type LatencyRow = { percentile: string; label: string } & Record<string, number | string | null>;

/** Percentiles from p50 up: the tail is what separates storage options. */
export const MIN_PERCENTILE = 50;

/**
 * One row per percentile (p50 … p99.99) with a column per series, in ms. Values ≤ 0 cannot sit
 * on a log axis and are left out (a gap, not a made-up number). At most 2,000 rows.
 */
export function latencyRows(series: readonly LatencySeries[]): {
  rows: LatencyRow[];
  keys: string[];
  ticks: number[];
  domain: [number, number] | null;
} {
  const keys = series.filter((s) => s.percentiles).map((s) => s.key);
  const byPercentile = new Map<string, LatencyRow>();
  let min = Infinity;
  let max = 0;
  for (const s of series) {
    if (!s.percentiles) continue;
    for (const [p, ms] of sortedPercentiles(s.percentiles)) {
      if (Number(p) < MIN_PERCENTILE) continue;
      const row = byPercentile.get(p) ?? { percentile: p, label: fmtPercentile(p) };
      if (ms > 0) {
        row[s.key] = ms;
        min = Math.min(min, ms);
        max = Math.max(max, ms);
      } else row[s.key] = null;
      byPercentile.set(p, row);
    }
  }
  const rows = [...byPercentile.values()].sort((a, b) => Number(a.percentile) - Number(b.percentile));
  for (const row of rows) for (const k of keys) if (!(k in row)) row[k] = null;
  if (!(max > 0)) return { rows, keys, ticks: [], domain: null };
  // Log axis: whole decades around the data, a tick per decade.
  const lo = 10 ** Math.floor(Math.log10(min));
  const hi = 10 ** Math.ceil(Math.log10(max));
  const ticks: number[] = [];
  for (let t = lo; t <= hi * 1.0001; t *= 10) ticks.push(Number(t.toPrecision(1)));
  return { rows: downsampleRows(rows, keys), keys, ticks, domain: [lo, hi === lo ? hi * 10 : hi] };
}

/** Cliff markers for the chart: the upper end of each jump, on its series. */
export function cliffPoints(
  series: readonly LatencySeries[],
): { key: string; label: string; ms: number; text: string }[] {
  return series.flatMap((s) =>
    s.cliffs
      .filter((c) => Number(c.to) >= MIN_PERCENTILE)
      .map((c) => ({
        key: s.key,
        label: fmtPercentile(c.to),
        ms: c.toMs,
        text: `${s.name}: ${fmtPercentile(c.from)} → ${fmtPercentile(c.to)} jumps ×${c.ratio.toFixed(1)}`,
      })),
  );
}

/**
 * The exported PNG's entry for the red rings (Recharts' legend lists only the runs): present when
 * the chart rings at least one cliff.
 */
export function cliffLegend(cliffs: readonly unknown[]): LegendEntry[] {
  return cliffs.length === 0
    ? []
    : [
        {
          label: `cliff: a jump ≥ ${CLIFF_RATIO}× between successive percentiles`,
          color: COLORS.concern,
          ring: true,
        },
      ];
}

/** The series of a run's direction, from its headline percentiles and its plan's verdicts. */
export function seriesOf(
  run: RunView,
  direction: 'read' | 'write',
  key: string,
  color: string,
  name?: string,
): LatencySeries {
  const judged = run.plan?.latency[direction] ?? null;
  const percentiles = direction === 'read' ? run.headline.readClatMs : run.headline.writeClatMs;
  return {
    key,
    name: name ?? run.title,
    color,
    percentiles,
    cliffs: judged?.cliffs ?? [],
    verdicts: judged?.verdicts ?? [],
    approximate: judged?.approximate ?? run.headline.clatApproximate,
  };
}

export type PromiseList = {
  key: string;
  /** "nvme run: measured p99 0.537 ms (writes), from fio completion latency (clat) percentiles on …" */
  headline: string;
  /** Each EBS type's promise against it, the sentence shared wrote ("gp3 promises …: slower than today"). */
  promises: PromiseVerdict[];
};

/**
 * Each run's fio clat p99 against every type's latency promise (shared measuredLatencyOfFio on the
 * stored headline's clat percentiles, judged at the stored plan's load; judgeLatencyPromise): latency is what the storage delivered, so a type that
 * promises slower than that is named. Runs without a stored plan or a p99 are left out.
 */
export function promiseListsOf(runs: readonly RunView[]): PromiseList[] {
  return runs.flatMap((run) => {
    const plan = run.plan;
    if (!plan) return [];
    const measured = measuredLatencyOfFio(run.headline, {
      ...plan.latency,
      measuredOn: plan.target?.description ?? null,
    });
    if (!measured) return [];
    const direction = measured.direction === 'both' ? '' : ` (${measured.direction}s)`;
    return [
      {
        key: run.id,
        headline: `${run.title}: measured p99 ${fmtMs(measured.ms)}${direction}, from ${measured.source}`,
        promises: VOLUME_TYPES.map((t) => judgeLatencyPromise(measured, t)),
      },
    ];
  });
}
