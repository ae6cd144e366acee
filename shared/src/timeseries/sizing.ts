import { stepText, utcMinute as when } from '../demand/format.ts';
import {
  demandBySummary,
  demandFromSeries,
  type DemandEvidence,
  type DemandOptions,
} from '../demand/demand.ts';
import { SIZING_STATISTIC_LABELS, SIZING_STATISTICS, type SizingStatistic } from '../demand/statistic.ts';
import { fail, ok, type Result, type Warning } from '../problem.ts';
import type { DirectionLoad, IoProfile } from '../profile/io-profile.schema.ts';
import { averageBlockSize, bytesPerSec as asBytesPerSec, formatInt, iops as asIops, MiB } from '../units.ts';
import type { IoSeries } from './series.schema.ts';
import { summarizeSeries, type SeriesSummary } from './stats.ts';

export { SIZING_STATISTICS, SIZING_STATISTIC_LABELS, type SizingStatistic } from '../demand/statistic.ts';

/**
 * A production series as a planning profile (source `timeseries`), from the demand model
 * (demand/demand.ts): each quantity's statistic over the points AT THEIR OWN STEP — a 10-second
 * iostat interval stays 10 seconds, because EBS enforces its limits per second and a 5-minute
 * average of a 40-second burst is not what the volume must serve. By default the MAXIMUM (AWS
 * Compute Optimizer's convention); p99 and p95 keep recurring peaks unless `ignoreRecurring`.
 *
 * Each quantity (read IOPS, write IOPS, read bytes/s, write bytes/s) gets its statistic on its own,
 * as Compute Optimizer does: the peaks of different quantities may come at different times, so the
 * profile can ask for more than any single moment did — the safe side; a warning says by how much
 * when the gap is large. Block size = bytes/s ÷ IOPS of the profile, as everywhere.
 */

/** Compute Optimizer's default lookback for EBS recommendations. */
export const RECOMMENDED_HISTORY_DAYS = 14;

export type SeriesProfileOptions = DemandOptions & { label?: string | null };

const n0 = formatInt;

function load(iops: number, bytesPerSec: number): DirectionLoad {
  return {
    iops,
    bytesPerSec,
    blockSizeBytes: averageBlockSize(asBytesPerSec(bytesPerSec), asIops(iops)),
    latency: null,
  };
}

/** The profile the planner takes, from the demand evidence (its warnings travel with it). */
export function profileFromDemand(series: IoSeries, d: DemandEvidence, label: string | null): IoProfile {
  const warnings: Warning[] = [...series.warnings];
  const read = load(d.read.iops.value, d.read.bytesPerSec.value);
  const write = load(d.write.iops.value, d.write.bytesPerSec.value);
  const demandedIops = read.iops + write.iops;
  const busiestIops = d.combined.iops.value;
  const demandedBytes = read.bytesPerSec + write.bytesPerSec;
  const busiestBytes = d.combined.bytesPerSec.value;
  const step = stepText(d.resolutionSec);
  warnings.push({
    code: 'timeseries_sizing',
    message: `Sized on the ${SIZING_STATISTIC_LABELS[d.statistic]} (${step} points, never averaged up), each quantity on its own: read ${n0(read.iops)} IOPS, write ${n0(write.iops)} IOPS. The busiest ${step} points: reads ${when(d.read.iops.maxAtMs)}, writes ${when(d.write.iops.maxAtMs)}.`,
    subject: 'statistic',
  });
  if (busiestIops > 0 && demandedIops > busiestIops * 1.2) {
    warnings.push({
      code: 'peaks_not_simultaneous',
      message: `Read and write peaks come at different times: together they ask for ${n0(demandedIops)} IOPS, but the busiest ${step} point for both was ${n0(busiestIops)} IOPS (${when(d.combined.iops.maxAtMs)}). Sizing on the sum is the safe side.`,
      subject: 'iops',
    });
  } else if (busiestBytes > 0 && demandedBytes > busiestBytes * 1.2) {
    warnings.push({
      code: 'peaks_not_simultaneous',
      message: `Read and write throughput peak at different times: together ${(demandedBytes / MiB).toFixed(1)} MiB/s, but the busiest point for both was ${(busiestBytes / MiB).toFixed(1)} MiB/s (${when(d.combined.bytesPerSec.maxAtMs)}).`,
      subject: 'bytesPerSec',
    });
  }
  warnings.push(...d.warnings);
  const days = (d.endMs - d.startMs) / 86_400_000;
  if (days < RECOMMENDED_HISTORY_DAYS) {
    warnings.push({
      code: 'short_history',
      message: `The series covers ${days.toFixed(1)} days; Compute Optimizer looks at ${RECOMMENDED_HISTORY_DAYS}. Weekly peaks (batch jobs, backups, month-end) may be missing.`,
      subject: 'time',
    });
  }
  return {
    source: 'timeseries',
    label,
    read,
    write,
    durationSec: (d.endMs - d.startMs) / 1000,
    benchmark: null,
    warnings,
  };
}

export function profileFromSeries(series: IoSeries, options: SeriesProfileOptions = {}): Result<IoProfile> {
  const d = demandFromSeries(series, options);
  if (!d.ok) return d;
  return ok(profileFromDemand(series, d.value, options.label !== undefined ? options.label : series.label));
}

/** The profile for each sizing statistic, so callers can show how the choice moves the plan and its cost. */
export function profilesByStatistic(
  series: IoSeries,
  options: Omit<SeriesProfileOptions, 'statistic'> = {},
): Result<Record<SizingStatistic, IoProfile>> {
  const out: Partial<Record<SizingStatistic, IoProfile>> = {};
  // One summary (the sorts) for the three statistics.
  const summary = series.timeMs.length === 0 ? null : summarizeSeries(series);
  const label = options.label !== undefined ? options.label : series.label;
  for (const statistic of SIZING_STATISTICS) {
    const d = demandBySummary(series, summary, { ...options, statistic });
    if (!d.ok) return d;
    out[statistic] = profileFromDemand(series, d.value, label);
  }
  return ok(out as Record<SizingStatistic, IoProfile>);
}

/** The summary the sizing profiles are computed from: the points at their own step (for tables and charts). */
export function sizingSummary(series: IoSeries): Result<SeriesSummary> {
  if (series.timeMs.length === 0) return fail('no_data_points', 'the series has no points to size with');
  const summary = summarizeSeries(series);
  // demandBySummary's own check, without building the demand (two full-series sums) to discard it.
  if (summary.read.iops.points === 0 && summary.write.iops.points === 0)
    return fail('no_operations', 'the series has no read or write operation counts to size with');
  return ok(summary);
}
