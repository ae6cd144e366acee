import { z } from 'zod';

/**
 * Peaks that come back: the same time of day on most days (a nightly batch, a checkpoint
 * schedule), or the same weekday and time on most weeks (a weekly backup). A percentile of the
 * points ignores its busiest 1 % (p99) or 5 % (p95): 10 minutes a night is 0.7 % of 14 days of
 * 5-minute points, so p99 deletes a nightly job. A peak that recurs is demand the workload will
 * have again, so the demand model (demand.ts) sizes on it unless the user says otherwise.
 *
 * The rule (docs/domain.md "Demand"), on the points above 1.2 × the statistic (the "peaks"):
 * - daily: a window of the day (`RECURRENCE_WINDOW_MINUTES` wide, UTC) holds a peak on more than
 *   half of the days the series covers, and on at least 3 days; weekly: a weekday's window holds
 *   a peak on at least 2 weeks and more than half of the weeks covering that weekday;
 * - and that window holds at least half of all the peaks: noise above p95 scattered over the day
 *   puts ~4 % of its peaks in any one hour, a scheduled job nearly all of them.
 * A daily window may cross midnight and counts a run once, on the day it starts; a weekday's
 * window ends at midnight.
 * Up to 3 recurrences are reported, the largest first (each found after removing the previous).
 */

export const RECURRENCE_WINDOW_MINUTES = 60;
/** A point is a peak when above this × the statistic: 20 % above it, not a rounding wobble. */
export const PEAK_OVER_STATISTIC = 1.2;
const MIN_DAYS = 3;
const MIN_WEEKS = 2;
const MAX_RECURRENCES = 3;

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const MINUTE_MS = 60_000;

export const RecurringPeakSchema = z.object({
  /** `daily`: same time of day on most days; `weekly`: same weekday and time on most weeks. */
  cadence: z.enum(['daily', 'weekly']),
  /**
   * What recurs: the median (upper) of the per-occurrence maxima — the level most occurrences
   * reach, so a one-off spike inside the window does not pass for the schedule (unit of the
   * series: IOPS or bytes/s). Sizing keeps this.
   */
  value: z.number(),
  /** The largest of the per-occurrence maxima. */
  max: z.number(),
  /** The smallest of the per-occurrence maxima: every occurrence reached at least this. */
  leastValue: z.number(),
  /** Time of day (UTC) the recurring peaks start and end: minutes after 00:00. */
  fromMinute: z.number().int(),
  toMinute: z.number().int(),
  /** Weekly only: 0 = Sunday … 6 = Saturday (UTC). */
  weekday: z.number().int().min(0).max(6).nullable(),
  /** Days (daily) or weeks (weekly) with a peak in the window, of those the series covers. */
  occurrences: z.number().int(),
  outOf: z.number().int(),
  /** Points in the window above the threshold, of all points above it. */
  peakPoints: z.number().int(),
  allPeakPoints: z.number().int(),
});
export type RecurringPeak = z.infer<typeof RecurringPeakSchema>;

type Peak = { t: number; v: number };

const minuteOfDay = (t: number) => Math.floor((((t % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);
const dayOf = (t: number) => Math.floor(t / DAY_MS);
/** 1970-01-01 was a Thursday (4). */
const weekdayOf = (t: number) => (dayOf(t) + 4) % 7;
const weekOf = (t: number) => Math.floor((t + 4 * DAY_MS) / WEEK_MS);

/** "01:30" */
export const clockOf = (minute: number) =>
  `${String(Math.floor(minute / 60) % 24).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

const upperMedian = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const weekdayName = (d: number) => WEEKDAYS[d]!;

/**
 * The best window of `peaks` (time of day) by the number of distinct groups (days or weeks) it
 * holds a peak in. Windows start at each peak's minute, so the answer is exact; a two-pointer
 * sweep over the peaks sorted by minute keeps it O(n log n) — a million-point series can have
 * tens of thousands of points above p95.
 *
 * `wrap` (daily): a window may cross midnight (the list is doubled), and a point after midnight
 * then belongs to the run that started the day before — a 23:55–00:05 job is one occurrence a
 * night, not two calendar days, so a job every other night never passes for "most days".
 * Without `wrap` (weekly, one weekday's points) a window ends at midnight: 23:50 and 00:10 of the
 * same weekday are 23 hours apart.
 */
function bestWindow(peaks: readonly Peak[], groupOf: (t: number) => number, wrap: boolean) {
  const n = peaks.length;
  if (n === 0) return null;
  const sorted = [...peaks].sort((a, b) => minuteOfDay(a.t) - minuteOfDay(b.t));
  const minute = (k: number) => minuteOfDay(sorted[k % n]!.t) + (k >= n ? 1440 : 0);
  const group = (k: number) => groupOf(sorted[k % n]!.t - (k >= n ? DAY_MS : 0));
  const stop = wrap ? 2 * n : n;
  const counts = new Map<number, number>();
  let best: { from: number; to: number; groups: number } | null = null;
  let end = 0;
  for (let start = 0; start < n; start++) {
    while (end < start + n && end < stop && minute(end) - minute(start) < RECURRENCE_WINDOW_MINUTES) {
      const g = group(end);
      counts.set(g, (counts.get(g) ?? 0) + 1);
      end++;
    }
    const size = end - start;
    if (
      best === null ||
      counts.size > best.groups ||
      (counts.size === best.groups && size > best.to - best.from)
    )
      best = { from: start, to: end, groups: counts.size };
    const g = group(start);
    const c = counts.get(g)! - 1;
    if (c === 0) counts.delete(g);
    else counts.set(g, c);
  }
  const inside: Peak[] = [];
  const groups: number[] = [];
  for (let k = best!.from; k < best!.to; k++) {
    inside.push(sorted[k % n]!);
    groups.push(group(k));
  }
  return {
    start: minuteOfDay(sorted[best!.from % n]!.t),
    inside,
    insideGroups: groups,
    groups: best!.groups,
  };
}

function describeWindow(inside: readonly Peak[], periodSec: number, start: number) {
  // Minutes after the window's start, so a window across midnight stays in order.
  const offsets = inside.map((p) => (minuteOfDay(p.t) - start + 1440) % 1440);
  const first = Math.min(...offsets);
  const last = Math.max(...offsets) + Math.max(1, Math.round(periodSec / 60));
  return { fromMinute: (start + first) % 1440, toMinute: (start + last) % 1440 };
}

/** The largest peak of each occurrence (groups as bestWindow counted them). */
function perGroupMaxima(w: { inside: readonly Peak[]; insideGroups: readonly number[] }): number[] {
  const byGroup = new Map<number, number>();
  w.inside.forEach((p, i) => {
    const g = w.insideGroups[i]!;
    byGroup.set(g, Math.max(byGroup.get(g) ?? -Infinity, p.v));
  });
  return [...byGroup.values()];
}

function findOne(
  peaks: readonly Peak[],
  allPeaks: number,
  coveredDays: ReadonlySet<number>,
  coveredWeeksByWeekday: ReadonlyMap<number, Set<number>>,
  periodSec: number,
): { peak: RecurringPeak; used: Set<Peak> } | null {
  if (peaks.length === 0) return null;
  const daily = bestWindow(peaks, dayOf, true);
  if (
    daily &&
    daily.groups >= MIN_DAYS &&
    daily.groups * 2 > coveredDays.size &&
    daily.inside.length * 2 >= allPeaks
  ) {
    const maxima = perGroupMaxima(daily);
    return {
      peak: {
        cadence: 'daily',
        value: upperMedian(maxima),
        max: Math.max(...maxima),
        leastValue: Math.min(...maxima),
        ...describeWindow(daily.inside, periodSec, daily.start),
        weekday: null,
        occurrences: daily.groups,
        outOf: coveredDays.size,
        peakPoints: daily.inside.length,
        allPeakPoints: allPeaks,
      },
      used: new Set(daily.inside),
    };
  }
  let weekly: { peak: RecurringPeak; used: Set<Peak> } | null = null;
  for (let wd = 0; wd < 7; wd++) {
    const onDay = peaks.filter((p) => weekdayOf(p.t) === wd);
    const weeks = coveredWeeksByWeekday.get(wd)?.size ?? 0;
    const w = bestWindow(onDay, weekOf, false);
    if (!w || w.groups < MIN_WEEKS || w.groups * 2 <= weeks || w.inside.length * 2 < allPeaks) continue;
    const maxima = perGroupMaxima(w);
    if (weekly && weekly.peak.occurrences >= w.groups) continue;
    weekly = {
      peak: {
        cadence: 'weekly',
        value: upperMedian(maxima),
        max: Math.max(...maxima),
        leastValue: Math.min(...maxima),
        ...describeWindow(w.inside, periodSec, w.start),
        weekday: wd,
        occurrences: w.groups,
        outOf: weeks,
        peakPoints: w.inside.length,
        allPeakPoints: allPeaks,
      },
      used: new Set(w.inside),
    };
  }
  return weekly;
}

/**
 * Recurring peaks of one quantity above `PEAK_OVER_STATISTIC` × `statisticValue`. `timeMs` are
 * the points' starts (UTC ms), `values` the quantity (null = no point), `periodSec` their step.
 */
export function findRecurringPeaks(
  timeMs: readonly number[],
  values: readonly (number | null)[],
  periodSec: number,
  statisticValue: number,
  /**
   * The span the series covers (UTC ms, first and last point), when `timeMs` holds only some of
   * its points (the fleet keeps the largest 5 %): every day and week in it counts as covered.
   */
  span?: { firstMs: number; lastMs: number },
): RecurringPeak[] {
  const threshold = statisticValue * PEAK_OVER_STATISTIC;
  const coveredDays = new Set<number>();
  const coveredWeeksByWeekday = new Map<number, Set<number>>();
  const cover = (t: number) => {
    coveredDays.add(dayOf(t));
    const wd = weekdayOf(t);
    if (!coveredWeeksByWeekday.has(wd)) coveredWeeksByWeekday.set(wd, new Set());
    coveredWeeksByWeekday.get(wd)!.add(weekOf(t));
  };
  if (span) {
    for (let t = span.firstMs; t <= span.lastMs; t += DAY_MS) cover(t);
    cover(span.lastMs);
  }
  let peaks: Peak[] = [];
  let lastDay = NaN;
  for (let i = 0; i < timeMs.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    const t = timeMs[i]!;
    // Points come in time order: each day is covered once (a million points, a few hundred days).
    if (!span && dayOf(t) !== lastDay) {
      lastDay = dayOf(t);
      cover(t);
    }
    if (v > threshold && v > 0) peaks.push({ t, v });
  }
  const found: RecurringPeak[] = [];
  const allPeaks = peaks.length;
  while (found.length < MAX_RECURRENCES) {
    const one = findOne(
      peaks,
      allPeaks - found.reduce((s, f) => s + f.peakPoints, 0),
      coveredDays,
      coveredWeeksByWeekday,
      periodSec,
    );
    if (one === null) break;
    found.push(one.peak);
    peaks = peaks.filter((p) => !one.used.has(p));
  }
  return found.sort((a, b) => b.value - a.value);
}
