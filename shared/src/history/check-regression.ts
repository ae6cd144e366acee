import type { RunHeadline, RunLabels } from '../records/run.ts';
import { formatDeltaPct, formatMetricValue } from './format-value.ts';
import { METRICS, readMetric, type AbsentReason, type MetricDefinition } from './metrics.ts';
import type { BaselineStats, MetricCheck, RegressionReport } from './regression-report.schema.ts';
import type { SeriesConfig } from './series-config.ts';

/**
 * The storage regression gate: one run against the latest runs of its base branch.
 *
 * It compares with the base branch (where the change will land), never with "the previous
 * commit" of the same branch: a feature branch that made storage 8 % slower per push for four
 * pushes is 30 % slower than main, and a per-commit diff would have passed every push. It never
 * raises an alarm it cannot stand behind: too little history, a direction that did no I/O, a
 * percentile fio did not report, or percentiles measured differently all skip, with the reason.
 */

/** What the gate needs of a run: its id, its CI labels and the headline stored with it. */
export type RegressionRun = {
  id: string;
  labels: Pick<RunLabels, 'series' | 'branch' | 'baseBranch' | 'commit'>;
  headline: RunHeadline;
};

export type BaseBranchPick = { ok: true; baseBranch: string } | { ok: false; reason: string };

/**
 * The branch to compare a run with: its own `baseBranch` label, else the series' setting. A run
 * with neither a branch nor an explicit base gets none: it may be a main build or a feature
 * build, and comparing it with main on a guess would let a broken branch through or fail main.
 */
export function pickBaseBranch(
  labels: Pick<RunLabels, 'branch' | 'baseBranch'>,
  config: Pick<SeriesConfig, 'baseBranch'>,
): BaseBranchPick {
  if (labels.baseBranch) return { ok: true, baseBranch: labels.baseBranch };
  if (!labels.branch)
    return {
      ok: false,
      reason: `the run has no branch label, so it is unknown which branch it belongs to: upload with --branch (and --base-branch when the base is not "${config.baseBranch}")`,
    };
  return { ok: true, baseBranch: config.baseBranch };
}

/** Relative slack for floating-point noise: a run identical to its baseline is never flagged. */
const EPSILON = 1e-9;

export function baselineStats(values: readonly number[]): BaselineStats {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const squares = values.reduce((s, v) => s + (v - mean) ** 2, 0);
  return {
    mean,
    min: Math.min(...values),
    max: Math.max(...values),
    stddev: n > 1 ? Math.sqrt(squares / (n - 1)) : 0,
    n,
  };
}

/** The values past which a metric is a regression / an improvement, under the series' method. */
export function metricLimits(
  metric: Pick<MetricDefinition, 'direction'>,
  stats: BaselineStats,
  thresholdPct: number,
  config: Pick<SeriesConfig, 'method' | 'sigmaK'>,
): { regression: number; improvement: number } {
  const f = thresholdPct / 100;
  const { mean, min, max, stddev } = stats;
  const spread = config.sigmaK * stddev;
  const higherIsBetter = metric.direction === 'higher-is-better';
  switch (config.method) {
    case 'percent':
      return higherIsBetter
        ? { regression: mean * (1 - f), improvement: mean * (1 + f) }
        : { regression: mean * (1 + f), improvement: mean * (1 - f) };
    case 'minmax':
      return higherIsBetter
        ? { regression: min * (1 - f), improvement: max * (1 + f) }
        : { regression: max * (1 + f), improvement: min * (1 - f) };
    case 'sigma':
      // Both conditions must hold, so the limit is whichever of the two lies further out.
      return higherIsBetter
        ? {
            regression: Math.min(mean - spread, mean * (1 - f)),
            improvement: Math.max(mean + spread, mean * (1 + f)),
          }
        : {
            regression: Math.max(mean + spread, mean * (1 + f)),
            improvement: Math.min(mean - spread, mean * (1 - f)),
          };
  }
}

const beyond = (value: number, limit: number, side: 'below' | 'above') =>
  side === 'below' ? value < limit - Math.abs(limit) * EPSILON : value > limit + Math.abs(limit) * EPSILON;

function absentReason(
  metric: MetricDefinition,
  absent: AbsentReason,
  subject: 'this run' | 'baseline',
): string {
  const io = metric.io;
  if (subject === 'this run') {
    if (absent === 'no-io') return `this run did no ${io}s (the baseline did: did the fio job change?)`;
    if (absent === 'no-percentiles')
      return `this run reports no ${io} clat percentiles (clat_percentiles=0?)`;
    return `this run's fio did not report p${metric.percentile} (percentile_list?)`;
  }
  if (absent === 'no-io') return `no baseline run did ${io}s`;
  return `no baseline run reports ${io} clat p${metric.percentile}`;
}

function okReason(
  metric: MetricDefinition,
  stats: BaselineStats,
  thresholdPct: number,
  config: SeriesConfig,
): string {
  switch (config.method) {
    case 'percent':
      return `within ${thresholdPct}% of the baseline mean`;
    case 'minmax':
      return `within the baseline range ${formatMetricValue(stats.min, metric.unit)} – ${formatMetricValue(stats.max, metric.unit)} ± ${thresholdPct}%`;
    case 'sigma':
      return `within the wider of ${config.sigmaK}σ (${formatMetricValue(config.sigmaK * stats.stddev, metric.unit)}) and ${thresholdPct}% of the baseline mean`;
  }
}

function flaggedReason(
  metric: MetricDefinition,
  stats: BaselineStats,
  value: number,
  deltaPct: number,
  limit: number,
  thresholdPct: number,
  config: SeriesConfig,
  kind: 'regression' | 'improvement',
): string {
  const worseWord = metric.direction === 'higher-is-better' ? 'below' : 'above';
  const betterWord = metric.direction === 'higher-is-better' ? 'above' : 'below';
  const side = kind === 'regression' ? worseWord : betterWord;
  const vsMean = `${formatDeltaPct(deltaPct)} vs the mean of ${stats.n} baseline runs`;
  const limitText = `${side} ${formatMetricValue(limit, metric.unit)}`;
  switch (config.method) {
    case 'percent':
      return `${vsMean}: ${limitText} (${thresholdPct}% from the mean)`;
    case 'minmax': {
      // A regression of a higher-is-better metric falls below the minimum; of latency, above the maximum.
      const lowEdge = (metric.direction === 'higher-is-better') === (kind === 'regression');
      const edge = lowEdge ? stats.min : stats.max;
      const edgeName = lowEdge ? 'minimum' : 'maximum';
      return `${formatMetricValue(value, metric.unit)} is ${side} the baseline ${edgeName} ${formatMetricValue(edge, metric.unit)} by more than ${thresholdPct}% (${vsMean})`;
    }
    case 'sigma':
      return `${vsMean}: ${limitText}, beyond both ${config.sigmaK}σ (${formatMetricValue(config.sigmaK * stats.stddev, metric.unit)}) and ${thresholdPct}%`;
  }
}

function checkMetric(
  metric: MetricDefinition,
  run: RegressionRun,
  baseline: readonly RegressionRun[],
  config: SeriesConfig,
  enoughHistory: boolean,
): MetricCheck | null {
  const reading = readMetric(run.headline, metric);
  const latency = metric.family === 'latency';
  const baselineReadings = baseline.map((r) => ({ run: r, reading: readMetric(r.headline, metric) }));
  const anyBaselineValue = baselineReadings.some((b) => b.reading.ok);
  // The metric does not apply to this workload at all (a read-only job's write IOPS).
  if (!reading.ok && !anyBaselineValue) return null;

  // Approximate percentiles are per-job upper bounds: comparing them with exact ones would
  // report the method change as a latency regression. Only like is compared with like.
  const comparable = baselineReadings.filter(
    (b) => !latency || b.run.headline.clatApproximate === run.headline.clatApproximate,
  );
  const values = comparable.flatMap((b) => (b.reading.ok ? [b.reading.value] : []));
  const stats = values.length > 0 ? baselineStats(values) : null;
  const value = reading.ok ? reading.value : null;
  const deltaPct =
    value !== null && stats && stats.mean > 0 ? ((value - stats.mean) / stats.mean) * 100 : null;
  const threshold = config.thresholds[metric.family];
  const check = {
    metric: metric.id,
    label: metric.label,
    io: metric.io,
    family: metric.family,
    direction: metric.direction,
    unit: metric.unit,
    baseline: stats,
    value,
    deltaPct,
    threshold,
    limit: null,
    approximate: latency && run.headline.clatApproximate,
  };
  const skipped = (reason: string): MetricCheck => ({ ...check, verdict: 'skipped', reason });

  if (!reading.ok) return skipped(absentReason(metric, reading.absent, 'this run'));
  if (!enoughHistory)
    return skipped(`insufficient history: ${baseline.length} of ${config.minBaselineRuns} baseline runs`);
  if (values.length < config.minBaselineRuns) {
    const mismatch = latency && comparable.length < baseline.length;
    if (values.length === 0 && !mismatch) {
      const firstAbsent = baselineReadings.find((b) => !b.reading.ok)?.reading;
      return skipped(
        absentReason(metric, firstAbsent && !firstAbsent.ok ? firstAbsent.absent : 'no-io', 'baseline'),
      );
    }
    return skipped(
      mismatch
        ? `only ${values.length} baseline runs measured ${metric.io} percentiles the same way (${run.headline.clatApproximate ? 'per-job upper bounds' : 'exact'}); ${config.minBaselineRuns} needed`
        : `only ${values.length} of ${baseline.length} baseline runs report it; ${config.minBaselineRuns} needed`,
    );
  }
  if (!stats || deltaPct === null) return skipped('the baseline mean is zero');

  const limits = metricLimits(metric, stats, threshold, config);
  const worse = metric.direction === 'higher-is-better' ? 'below' : 'above';
  const better = worse === 'below' ? 'above' : 'below';
  if (beyond(reading.value, limits.regression, worse)) {
    return {
      ...check,
      limit: limits.regression,
      verdict: 'regression',
      reason: flaggedReason(
        metric,
        stats,
        reading.value,
        deltaPct,
        limits.regression,
        threshold,
        config,
        'regression',
      ),
    };
  }
  if (beyond(reading.value, limits.improvement, better)) {
    return {
      ...check,
      limit: limits.regression,
      verdict: 'improvement',
      reason: flaggedReason(
        metric,
        stats,
        reading.value,
        deltaPct,
        limits.improvement,
        threshold,
        config,
        'improvement',
      ),
    };
  }
  return {
    ...check,
    limit: limits.regression,
    verdict: 'ok',
    reason: okReason(metric, stats, threshold, config),
  };
}

const KiB = 1024;
const formatBlockSize = (bytes: number) =>
  bytes >= KiB * KiB
    ? `${(bytes / KiB / KiB).toFixed(1)} MiB`
    : bytes >= KiB
      ? `${(bytes / KiB).toFixed(1)} KiB`
      : `${Math.round(bytes)} B`;

/** A block size more than 10 % away from the baseline's means another fio job, not slower storage. */
const BLOCK_SIZE_TOLERANCE = 0.1;

function notesFor(run: RegressionRun, baseline: readonly RegressionRun[], config: SeriesConfig): string[] {
  const notes: string[] = [];
  for (const io of ['read', 'write'] as const) {
    const bs = (h: RunHeadline) =>
      (io === 'read' ? h.readIops : h.writeIops) > 0
        ? io === 'read'
          ? h.readBlockSizeBytes
          : h.writeBlockSizeBytes
        : null;
    const mine = bs(run.headline);
    const theirs = baseline.flatMap((r) => {
      const v = bs(r.headline);
      return v !== null && v > 0 ? [v] : [];
    });
    if (mine === null || mine <= 0 || theirs.length === 0) continue;
    const mean = theirs.reduce((s, v) => s + v, 0) / theirs.length;
    if (Math.abs(mine - mean) / mean > BLOCK_SIZE_TOLERANCE) {
      notes.push(
        `${io} block size ${formatBlockSize(mine)} vs ${formatBlockSize(mean)} in the baseline: the fio job changed, so IOPS and throughput are not like for like`,
      );
    }
  }
  if (run.headline.clatApproximate && (run.headline.readClatMs || run.headline.writeClatMs)) {
    notes.push(
      'latency percentiles are per-job upper bounds (several jobs without group_reporting or json+): compared only with runs measured the same way',
    );
  }
  if (config.ignoreMetrics.length > 0)
    notes.push(`not judged (series settings): ${config.ignoreMetrics.join(', ')}`);
  return notes;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Checks `run` against `baselineRuns` (the base branch's latest runs, older than `run`, newest
 * first — the caller picks them with `pickBaseBranch` and the store). Pure; `config` is a parsed
 * SeriesConfig. The run itself is never part of its own baseline, even if the caller passes it.
 */
export function checkRegression(
  run: RegressionRun,
  baselineRuns: readonly RegressionRun[],
  config: SeriesConfig,
): RegressionReport {
  const base = pickBaseBranch(run.labels, config);
  const baseline = base.ok ? baselineRuns.filter((r) => r.id !== run.id) : [];
  const common = {
    runId: run.id,
    series: run.labels.series ?? null,
    branch: run.labels.branch ?? null,
    commit: run.labels.commit ?? null,
    baselineRunIds: baseline.map((r) => r.id),
    method: config.method,
    sigmaK: config.sigmaK,
    thresholds: { ...config.thresholds },
    baselineRuns: config.baselineRuns,
    minBaselineRuns: config.minBaselineRuns,
  };
  if (!base.ok) {
    return {
      ...common,
      verdict: 'no-base',
      baseBranch: null,
      metrics: [],
      notes: [],
      message: `cannot pick a base branch: ${base.reason}. Nothing was compared.`,
    };
  }
  const enough = baseline.length >= config.minBaselineRuns;
  const ignored = new Set<string>(config.ignoreMetrics);
  const metrics = METRICS.filter((m) => !ignored.has(m.id)).flatMap((m) => {
    const check = checkMetric(m, run, baseline, config, enough);
    return check ? [check] : [];
  });
  const notes = notesFor(run, baseline, config);
  const on = `on ${base.baseBranch}`;
  if (!enough) {
    return {
      ...common,
      verdict: 'insufficient-history',
      baseBranch: base.baseBranch,
      metrics,
      notes,
      message: `insufficient history: ${plural(baseline.length, 'earlier run')} ${on}, ${config.minBaselineRuns} needed. Nothing is judged until then; the gate passes.`,
    };
  }
  const judged = metrics.filter((m) => m.verdict !== 'skipped');
  const regressions = metrics.filter((m) => m.verdict === 'regression');
  const improvements = metrics.filter((m) => m.verdict === 'improvement');
  const list = (ms: MetricCheck[]) =>
    ms
      .slice(0, 4)
      .map((m) => `${m.label} ${formatDeltaPct(m.deltaPct ?? 0)}`)
      .join(', ') + (ms.length > 4 ? `, +${ms.length - 4} more` : '');
  const against = `the last ${plural(baseline.length, 'run')} ${on}`;
  if (regressions.length > 0) {
    return {
      ...common,
      verdict: 'regression',
      baseBranch: base.baseBranch,
      metrics,
      notes,
      message: `regression: ${list(regressions)} (${regressions.length} of ${judged.length} metrics) vs ${against}.`,
    };
  }
  return {
    ...common,
    verdict: 'pass',
    baseBranch: base.baseBranch,
    metrics,
    notes,
    message:
      judged.length === 0
        ? `pass: no metric could be compared with ${against} (see the skipped metrics).`
        : `pass: ${plural(judged.length, 'metric')} within the thresholds of ${against}${improvements.length > 0 ? `; better: ${list(improvements)}` : ''}.`,
  };
}
