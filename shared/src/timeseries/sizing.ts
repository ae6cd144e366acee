import { z } from 'zod';
import { fail, ok, type Result, type Warning } from '../problem.ts';
import type { DirectionLoad, IoProfile } from '../profile/io-profile.schema.ts';
import { averageBlockSize, bytesPerSec as asBytesPerSec, formatInt, iops as asIops, MiB } from '../units.ts';
import type { IoSeries } from './series.schema.ts';
import { summarizeSeries, toSizingResolution, type RateSummary, type SeriesSummary } from './stats.ts';

/**
 * A production series as a planning profile (source `timeseries`).
 *
 * Sizing statistic: by default the MAXIMUM of 5-minute points — AWS Compute Optimizer's
 * convention for EBS (it reports the Maximum statistic of 5-minute data over its lookback period,
 * 14 days by default). Finer data is first averaged to 5-minute windows (stats.ts), so a one-minute
 * spike counts as what it does to a 5-minute average. Alternatives: p99 (ignores the busiest 1% of
 * windows: 40 of 4,032 over 14 days, about 3.4 hours) and p95 (the busiest 5%: about 17 hours) —
 * cheaper, for workloads that can queue through their peaks.
 *
 * Each quantity (read IOPS, write IOPS, read bytes/s, write bytes/s) gets its statistic on its own,
 * as Compute Optimizer does: the peaks of different quantities may come at different times, so the
 * profile can ask for more than any single moment did — the safe side; a warning says by how much
 * when the gap is large. Block size = bytes/s ÷ IOPS of the profile, as everywhere.
 */
export const SIZING_STATISTICS = ['max', 'p99', 'p95'] as const;
export const SizingStatisticSchema = z.enum(SIZING_STATISTICS);
export type SizingStatistic = z.infer<typeof SizingStatisticSchema>;

export const SIZING_STATISTIC_LABELS: Record<SizingStatistic, string> = {
  max: 'maximum of 5-minute points (AWS Compute Optimizer)',
  p99: 'p99 of 5-minute points',
  p95: 'p95 of 5-minute points',
};

/** Compute Optimizer's default lookback for EBS recommendations. */
export const RECOMMENDED_HISTORY_DAYS = 14;

export type SeriesProfileOptions = { statistic?: SizingStatistic; label?: string | null };

const pick = (s: RateSummary, statistic: SizingStatistic) =>
  (statistic === 'max' ? s.max : s[statistic]) ?? 0;
const when = (ms: number | null) =>
  ms === null ? 'n/a' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
const n0 = formatInt;

function load(iops: number, bytesPerSec: number): DirectionLoad {
  return {
    iops,
    bytesPerSec,
    blockSizeBytes: averageBlockSize(asBytesPerSec(bytesPerSec), asIops(iops)),
    latency: null,
  };
}

function build(
  series: IoSeries,
  summary: SeriesSummary,
  meta: SizingMeta,
  statistic: SizingStatistic,
  label: string | null,
): IoProfile {
  const warnings: Warning[] = [...series.warnings, ...meta.warnings];
  const read = load(pick(summary.read.iops, statistic), pick(summary.read.bytesPerSec, statistic));
  const write = load(pick(summary.write.iops, statistic), pick(summary.write.bytesPerSec, statistic));
  const demandedIops = read.iops + write.iops;
  const busiestIops = pick(summary.combined.iops, statistic);
  const demandedBytes = read.bytesPerSec + write.bytesPerSec;
  const busiestBytes = pick(summary.combined.bytesPerSec, statistic);
  const statText = SIZING_STATISTIC_LABELS[statistic];
  warnings.push({
    code: 'timeseries_sizing',
    message: `Sized on the ${statText}, each quantity on its own: read ${n0(read.iops)} IOPS, write ${n0(write.iops)} IOPS. The busiest 5-minute windows: reads ${when(summary.read.iops.maxAtMs)}, writes ${when(summary.write.iops.maxAtMs)}.`,
    subject: 'statistic',
  });
  if (busiestIops > 0 && demandedIops > busiestIops * 1.2) {
    warnings.push({
      code: 'peaks_not_simultaneous',
      message: `Read and write peaks come at different times: together they ask for ${n0(demandedIops)} IOPS, but the busiest 5-minute window for both was ${n0(busiestIops)} IOPS (${when(summary.combined.iops.maxAtMs)}). Sizing on the sum is the safe side.`,
      subject: 'iops',
    });
  } else if (busiestBytes > 0 && demandedBytes > busiestBytes * 1.2) {
    warnings.push({
      code: 'peaks_not_simultaneous',
      message: `Read and write throughput peak at different times: together ${(demandedBytes / MiB).toFixed(1)} MiB/s, but the busiest window for both was ${(busiestBytes / MiB).toFixed(1)} MiB/s (${when(summary.combined.bytesPerSec.maxAtMs)}).`,
      subject: 'bytesPerSec',
    });
  }
  return {
    source: 'timeseries',
    label,
    read,
    write,
    durationSec: (summary.endMs - summary.startMs) / 1000,
    benchmark: null,
    warnings,
  };
}

type SizingMeta = { warnings: Warning[] };

function prepare(series: IoSeries): Result<{ summary: SeriesSummary; meta: SizingMeta }> {
  if (series.timeMs.length === 0) return fail('no_data_points', 'the series has no points to size with');
  const { series: sized, aggregatedFromSec, partialWindows } = toSizingResolution(series);
  const summary = summarizeSeries(sized);
  if (summary.read.iops.points === 0 && summary.write.iops.points === 0) {
    return fail('no_operations', 'the series has no read or write operation counts to size with');
  }
  const warnings: Warning[] = [];
  if (aggregatedFromSec !== null) {
    warnings.push({
      code: 'aggregated_to_5_minutes',
      message: `${aggregatedFromSec}-second points averaged to ${formatInt(summary.points)} five-minute windows for sizing${partialWindows > 0 ? ` (${partialWindows} with missing points)` : ''}.`,
      subject: 'period',
    });
  } else if (series.periodSec > 300) {
    warnings.push({
      code: 'coarse_period',
      message: `The points are ${series.periodSec / 60} minutes apart: peaks shorter than that are averaged away and the sizing may be too low. Export 5-minute (or 1-minute) data.`,
      subject: 'period',
    });
  }
  const days = (summary.endMs - summary.startMs) / 86_400_000;
  if (days < RECOMMENDED_HISTORY_DAYS) {
    warnings.push({
      code: 'short_history',
      message: `The series covers ${days.toFixed(1)} days; Compute Optimizer looks at ${RECOMMENDED_HISTORY_DAYS}. Weekly peaks (batch jobs, backups, month-end) may be missing.`,
      subject: 'time',
    });
  }
  return ok({ summary, meta: { warnings } });
}

export function profileFromSeries(series: IoSeries, options: SeriesProfileOptions = {}): Result<IoProfile> {
  const prepared = prepare(series);
  if (!prepared.ok) return prepared;
  const { summary, meta } = prepared.value;
  return ok(
    build(
      series,
      summary,
      meta,
      options.statistic ?? 'max',
      options.label !== undefined ? options.label : series.label,
    ),
  );
}

/** The profile for each sizing statistic, so callers can show how the choice moves the plan and its cost. */
export function profilesByStatistic(
  series: IoSeries,
  options: Omit<SeriesProfileOptions, 'statistic'> = {},
): Result<Record<SizingStatistic, IoProfile>> {
  const prepared = prepare(series);
  if (!prepared.ok) return prepared;
  const { summary, meta } = prepared.value;
  const label = options.label !== undefined ? options.label : series.label;
  return ok({
    max: build(series, summary, meta, 'max', label),
    p99: build(series, summary, meta, 'p99', label),
    p95: build(series, summary, meta, 'p95', label),
  });
}

/** The 5-minute summary the sizing profiles are computed from (for tables and charts). */
export function sizingSummary(series: IoSeries): Result<SeriesSummary> {
  const prepared = prepare(series);
  return prepared.ok ? ok(prepared.value.summary) : prepared;
}
