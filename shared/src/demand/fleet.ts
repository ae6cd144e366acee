import { settingHint, type Audience } from '../audience.ts';
import { statisticOf } from '../fleet/metrics.ts';
import type { FleetObserved, FleetSeriesSummary, FleetStatistic, MetricName } from '../fleet/schema.ts';
import { formatInt, MiB } from '../units.ts';
import { AT_LIMIT_FRACTION, isCensored, type Censoring } from './censoring.ts';
import { describeRecurrence, FINE_RESOLUTION_SEC } from './demand.ts';
import { formatRate } from './format.ts';
import { findRecurringPeaks, PEAK_OVER_STATISTIC, type RecurringPeak } from './recurrence.ts';

/**
 * The demand model on the fleet's summaries (fleet/metrics.ts keeps per series the count, the
 * maximum and the largest 5 % of the points with their times, never all the points): the same
 * rules as demandFromSeries, so `fleet plan` gives the target `metrics` gives for the same data.
 *
 * - Resolution: VolumeAvgIOPS / VolumeAvgThroughput with Stat Maximum are the busiest minute of
 *   each period; where a volume has them the peak is the larger of them and the Sums' rates. Else
 *   the Sums (÷ period) are sized on and a note says what a coarse period can hide.
 * - Recurrence: under p99/p95, peaks above 1.2 × the statistic that recur (recurrence.ts) are
 *   kept unless `ignoreRecurring`; their times come with the kept values.
 * - Censoring: points within 5 % of the volume's limits (IOPS and throughput alike). With
 *   VolumeAvgIOPS / VolumeAvgThroughput (read + write) the share is counted among the kept values
 *   (a lower bound past 5 %); with the Sums only, a direction at the limit on its own is counted
 *   (a lower bound: read + write per point is not kept).
 */

export type VolumeSeries = Partial<Record<MetricName, FleetSeriesSummary>>;

export type FleetDemandOptions = {
  statistic: FleetStatistic;
  /** The Period of the volume's points, seconds (plan.ts decides it). */
  periodSeconds: number;
  ignoreRecurring?: boolean;
  /** Who reads the notes: the web names its option, the CLI its flag (audience.ts). */
  audience?: Audience;
  /** The volume's provisioned limits as delivered (IOPS, MiB/s): for censoring. */
  limits?: { iops: number | null; mibps: number | null };
};

export type FleetDemand = {
  observed: FleetObserved;
  censoring: Censoring[];
  /** Recurring peaks kept (or ignored) per metric, for the notes. */
  recurring: { metric: MetricName; peak: RecurringPeak; kept: boolean }[];
  /** Sentences for the volume's notes: what was sized on and why. */
  notes: string[];
};

const round2 = (n: number) => Math.round(n * 100) / 100;
const n0 = formatInt;
const SUMS = ['VolumeReadOps', 'VolumeWriteOps', 'VolumeReadBytes', 'VolumeWriteBytes'] as const;

type Rate = {
  value: number;
  exact: boolean;
  recurring: RecurringPeak | null;
  kept: boolean;
  unchecked: boolean;
};

/** One series' sizing value per second: the statistic, or the recurring peak it would drop. */
function rateOf(s: FleetSeriesSummary | undefined, divisor: number, o: FleetDemandOptions): Rate {
  if (!s || s.count === 0) return { value: 0, exact: true, recurring: null, kept: false, unchecked: false };
  const stat = statisticOf(s, o.statistic);
  let value = stat.value;
  let recurring: RecurringPeak | null = null;
  let unchecked = false;
  if (o.statistic !== 'max' && s.max > stat.value * PEAK_OVER_STATISTIC) {
    const known = s.top.map((v, i) => ({ v, t: s.topAt[i]! })).filter((p) => !Number.isNaN(p.t));
    unchecked = known.length < s.top.length;
    recurring =
      findRecurringPeaks(
        known.map((p) => p.t),
        known.map((p) => p.v),
        o.periodSeconds,
        stat.value,
        { firstMs: s.firstMs, lastMs: s.lastMs },
      )[0] ?? null;
  }
  let level = recurring?.value ?? 0;
  // As demandFromSeries: p95 keeps a recurring peak up to what p99 keeps, never more.
  if (o.statistic === 'p95' && level > value)
    level = Math.min(level, rateOf(s, 1, { ...o, statistic: 'p99' }).value);
  const kept = recurring !== null && !o.ignoreRecurring && level > value;
  if (kept) value = level;
  return {
    value: value / divisor,
    exact: stat.exact,
    recurring: recurring
      ? {
          ...recurring,
          value: recurring.value / divisor,
          max: recurring.max / divisor,
          leastValue: recurring.leastValue / divisor,
        }
      : null,
    kept,
    unchecked,
  };
}

/** Points at ≥ 95 % of `limit` among the kept values (count exact while under the kept share). */
function atLimit(s: FleetSeriesSummary | undefined, limit: number): { n: number; exact: boolean } {
  if (!s) return { n: 0, exact: true };
  let n = 0;
  for (const v of s.top) if (v >= limit * AT_LIMIT_FRACTION) n++;
  // Every kept value at the limit and some dropped: more points may be at it too.
  return { n, exact: n < s.top.length || s.top.length === s.count };
}

export function demandFromFleetSeries(
  series: VolumeSeries | undefined,
  o: FleetDemandOptions,
): FleetDemand | null {
  if (series === undefined) return null;
  const parts = SUMS.map((m) => series[m]);
  const points = Math.max(0, ...parts.map((s) => s?.count ?? 0));
  if (points === 0) return null;
  const period = o.periodSeconds;
  const rates = {
    VolumeReadOps: rateOf(series.VolumeReadOps, period, o),
    VolumeWriteOps: rateOf(series.VolumeWriteOps, period, o),
    VolumeReadBytes: rateOf(series.VolumeReadBytes, period * MiB, o),
    VolumeWriteBytes: rateOf(series.VolumeWriteBytes, period * MiB, o),
  };
  const minuteIops = series.VolumeAvgIOPS?.count ? rateOf(series.VolumeAvgIOPS, 1, o) : null;
  const minuteTput = series.VolumeAvgThroughput?.count ? rateOf(series.VolumeAvgThroughput, MiB, o) : null;
  const all = [
    ...Object.values(rates),
    ...(minuteIops ? [minuteIops] : []),
    ...(minuteTput ? [minuteTput] : []),
  ];
  const exact = all.every((r) => r.exact);
  const first = Math.min(...parts.map((s) => s?.firstMs ?? Infinity));
  const last = Math.max(...parts.map((s) => s?.lastMs ?? -Infinity));
  const sumIops = rates.VolumeReadOps.value + rates.VolumeWriteOps.value;
  const sumMibps = rates.VolumeReadBytes.value + rates.VolumeWriteBytes.value;
  const fine = minuteIops !== null || minuteTput !== null;
  const notes: string[] = [];
  const stat = o.statistic;
  if (fine)
    notes.push(
      `sized on the busiest minute (VolumeAvgIOPS/VolumeAvgThroughput, Stat Maximum) where it exceeds the ${period}-s Sums: ${n0(Math.max(sumIops, minuteIops?.value ?? 0))} IOPS (Sums: ${n0(sumIops)})`,
    );
  else if (period > FINE_RESOLUTION_SEC)
    notes.push(
      `${period / 60}-minute Sums only: a ${period / 60}-minute average of ${n0(sumIops)} IOPS can hold a 60-second burst of up to ${n0((sumIops * period) / FINE_RESOLUTION_SEC)} IOPS; query again with \`blockwise fleet query\` (it asks for VolumeAvgIOPS and VolumeAvgThroughput, Stat Maximum: the busiest minute) or a 60-s Period`,
    );
  const recurring: FleetDemand['recurring'] = [];
  const rated: [MetricName, Rate, 'IOPS' | 'MiB/s'][] = [
    ['VolumeReadOps', rates.VolumeReadOps, 'IOPS'],
    ['VolumeWriteOps', rates.VolumeWriteOps, 'IOPS'],
    ['VolumeReadBytes', rates.VolumeReadBytes, 'MiB/s'],
    ['VolumeWriteBytes', rates.VolumeWriteBytes, 'MiB/s'],
  ];
  if (minuteIops) rated.push(['VolumeAvgIOPS', minuteIops, 'IOPS']);
  if (minuteTput) rated.push(['VolumeAvgThroughput', minuteTput, 'MiB/s']);
  for (const [metric, r, unit] of rated) {
    if (r.unchecked)
      notes.push(
        `${metric}: the points' times are not regular, so whether its peaks above the ${stat} recur could not be fully checked`,
      );
    if (!r.recurring) continue;
    recurring.push({ metric, peak: r.recurring, kept: r.kept });
    const described = describeRecurrence(
      unit === 'MiB/s'
        ? { ...r.recurring, value: r.recurring.value * MiB, max: r.recurring.max * MiB }
        : r.recurring,
      unit,
    );
    notes.push(
      r.kept
        ? `${metric}: recurring peak, ${described}; the ${stat} ignores it, so it is sized on it (${settingHint('ignoreRecurring', o.audience)} sizes on the ${stat})`
        : `${metric}: recurring peak, ${described}; ignored as asked (${settingHint('ignoreRecurring', o.audience)}): those peaks will be throttled to what the ${stat} provisions, every time they recur`,
    );
  }
  const censoring: Censoring[] = [];
  const limitIops = o.limits?.iops ?? null;
  if (limitIops !== null && limitIops > 0) {
    const from = minuteIops
      ? atLimit(series.VolumeAvgIOPS, limitIops)
      : (() => {
          // Sums only: a direction at the limit on its own is a lower bound of the points at it.
          const r = atLimit(series.VolumeReadOps, limitIops * period);
          const w = atLimit(series.VolumeWriteOps, limitIops * period);
          return { n: Math.max(r.n, w.n), exact: false };
        })();
    const count = minuteIops ? series.VolumeAvgIOPS!.count : points;
    if (isCensored(from.n, count))
      censoring.push({
        quantity: 'iops',
        evidence: 'delivered-at-limit',
        limit: limitIops,
        pointsAtLimit: from.n,
        points: count,
        share: from.n / count,
        exact: from.exact,
      });
  }
  const limitMibps = o.limits?.mibps ?? null;
  if (limitMibps !== null && limitMibps > 0) {
    // As for IOPS: VolumeAvgThroughput (read + write per minute) when present, else a lower bound
    // from each direction's bytes per period alone.
    const from = minuteTput
      ? atLimit(series.VolumeAvgThroughput, limitMibps * MiB)
      : (() => {
          const r = atLimit(series.VolumeReadBytes, limitMibps * MiB * period);
          const w = atLimit(series.VolumeWriteBytes, limitMibps * MiB * period);
          return { n: Math.max(r.n, w.n), exact: false };
        })();
    const count = minuteTput ? series.VolumeAvgThroughput!.count : points;
    if (isCensored(from.n, count))
      censoring.push({
        quantity: 'throughput',
        evidence: 'delivered-at-limit',
        limit: limitMibps * MiB,
        pointsAtLimit: from.n,
        points: count,
        share: from.n / count,
        exact: from.exact,
      });
  }
  return {
    observed: {
      readIops: round2(rates.VolumeReadOps.value),
      writeIops: round2(rates.VolumeWriteOps.value),
      readMibps: round2(rates.VolumeReadBytes.value),
      writeMibps: round2(rates.VolumeWriteBytes.value),
      points,
      periodSeconds: period,
      days: round2((last - first + period * 1000) / 86_400_000),
      exact,
      peakIops: round2(Math.max(sumIops, minuteIops?.value ?? 0)),
      peakMibps: round2(Math.max(sumMibps, minuteTput?.value ?? 0)),
      resolutionSeconds: fine ? FINE_RESOLUTION_SEC : period,
      source: fine
        ? `busiest minute of each ${period}-s period (VolumeAvgIOPS/VolumeAvgThroughput, Stat Maximum) and the Sums per period ÷ ${period}`
        : `Sums per ${period}-s period ÷ ${period}`,
    },
    censoring,
    recurring,
    notes,
  };
}

/** "pinned at the limit 100.0 % of the time; demand unknown above 3,000 IOPS" */
export function describeCensoring(c: Censoring): string {
  const limit = formatRate(c.limit, c.quantity === 'iops' ? 'IOPS' : 'MiB/s');
  // AWS's check measured it (fleet/evidence.ts): minutes the workload asked for more than the limit.
  if (c.evidence === 'exceeded-check')
    return `demand above the limit for ${c.pointsAtLimit.toLocaleString('en-US')} minutes (${c.quantity === 'iops' ? 'VolumeIOPSExceededCheck' : 'VolumeThroughputExceededCheck'}, ${(c.share * 100).toFixed(1)} % of the ${c.points.toLocaleString('en-US')} minutes covered); demand unknown above ${limit}`;
  return `pinned at the limit ${c.exact ? '' : 'at least '}${(c.share * 100).toFixed(1)} % of the time; demand unknown above ${limit}`;
}
