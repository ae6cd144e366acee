import { settingHint, type Audience } from '../audience.ts';
import { z } from 'zod';
import { fail, ok, WarningSchema, type Result, type Warning } from '../problem.ts';
import { METRICS_FORMATS } from '../timeseries/formats.ts';
import type { IoSeries } from '../timeseries/series.schema.ts';
import { summarizeSeries, type RateSummary, type SeriesSummary } from '../timeseries/stats.ts';
import { formatInt, MiB } from '../units.ts';
import { formatRate as fmt, stepText, utcMinute as iso } from './format.ts';
import { headroomTarget } from '../plan/headroom.ts';
import { CensoringSchema, censoringOf, type Censoring } from './censoring.ts';
import {
  clockOf,
  findRecurringPeaks,
  PEAK_OVER_STATISTIC,
  RecurringPeakSchema,
  weekdayName,
  type RecurringPeak,
} from './recurrence.ts';
import { SizingStatisticSchema, type SizingStatistic } from './statistic.ts';

/**
 * The demand model: what a workload asked of its storage, from production evidence, with the
 * evidence kept beside every number — the statistic, the resolution (the points' own step), the
 * source, what a percentile would have dropped, whether the delivered rate was pinned at a limit,
 * and whether the data is complete. `plan`, `metrics`, `check-iac --metrics`, `fleet plan` and the
 * web app size on it (timeseries/sizing.ts turns it into a profile; fleet/plan.ts reads
 * `demandFromFleetSeries`), so the same data gives the same target everywhere.
 *
 * Rules (docs/domain.md "Demand"):
 * 1. Resolution: the statistic is taken over the points at their native step (iostat/sar
 *    interval, CloudWatch period, Prometheus step). Finer data is never averaged up: a 40-second
 *    burst of 10,500 IOPS is 10,500 IOPS, because EBS enforces its limit per second, not per
 *    5 minutes. Coarse points (over 60 s) get a note of what they can hide and what reveals it.
 * 2. Recurrence: under p99/p95, a peak that recurs (recurrence.ts) is sized on unless
 *    `ignoreRecurring`; either way a warning says what the percentile would ignore.
 * 3. Censoring: with the limits the series was delivered under, points within 5 % of a limit
 *    for ≥ 1 % of the time make the demand "at least the limit" (censoring.ts).
 * 4. Completeness: pages left out (NextToken, PartialData) and missing spans are named; the
 *    evidence is `complete: false`.
 */

/** A note is worth making when a step is coarser than this: EBS publishes 1-minute data. */
export const FINE_RESOLUTION_SEC = 60;

export const QuantityDemandSchema = z.object({
  /** What sizing uses (IOPS or bytes/s, per second). */
  value: z.number().nonnegative(),
  /** The statistic over the points. */
  statisticValue: z.number().nonnegative(),
  /** `statistic`, or `recurring-peak` when a recurring peak above the statistic was kept. */
  basis: z.enum(['statistic', 'recurring-peak']),
  /** Start of the point with the maximum (UTC ms). */
  maxAtMs: z.number().nullable(),
  max: z.number().nonnegative(),
  recurring: z.array(RecurringPeakSchema),
});
export type QuantityDemand = z.infer<typeof QuantityDemandSchema>;

export const CompletenessIssueSchema = z.object({
  kind: z.enum(['more-pages', 'partial-data', 'missing-span', 'missing-metric']),
  /** The volume or series it concerns. */
  subject: z.string(),
  /** The span (UTC ISO), when it is one. */
  fromMs: z.number().nullable(),
  toMs: z.number().nullable(),
  message: z.string(),
});
export type CompletenessIssue = z.infer<typeof CompletenessIssueSchema>;

export const CompletenessSchema = z.object({
  complete: z.boolean(),
  issues: z.array(CompletenessIssueSchema),
});
export type Completeness = z.infer<typeof CompletenessSchema>;

export const DemandEvidenceSchema = z.object({
  label: z.string().nullable(),
  /** Where the numbers came from, in words: the tool or export and the conversion. */
  source: z.string(),
  statistic: SizingStatisticSchema,
  /** Seconds each point covers: the finest step of the evidence, never averaged up. */
  resolutionSec: z.number().positive(),
  points: z.number().int().nonnegative(),
  startMs: z.number(),
  endMs: z.number(),
  ignoreRecurring: z.boolean(),
  read: z.object({ iops: QuantityDemandSchema, bytesPerSec: QuantityDemandSchema }),
  write: z.object({ iops: QuantityDemandSchema, bytesPerSec: QuantityDemandSchema }),
  /** read + write at each point. */
  combined: z.object({ iops: QuantityDemandSchema, bytesPerSec: QuantityDemandSchema }),
  censoring: z.array(CensoringSchema),
  completeness: CompletenessSchema,
  warnings: z.array(WarningSchema),
});
export type DemandEvidence = z.infer<typeof DemandEvidenceSchema>;

export type DemandOptions = {
  statistic?: SizingStatistic;
  /** Size on the statistic even where a recurring peak exceeds it (the risk is then stated). */
  ignoreRecurring?: boolean;
  /** The limits the series was delivered under (the volume's provisioned IOPS, bytes/s): for censoring. */
  limits?: { iops?: number | null; bytesPerSec?: number | null };
  /** Who reads the warnings: the web names its option, the CLI its flag (audience.ts). */
  audience?: Audience;
};

const n0 = formatInt;

/** The statistic's value of a summary (0 without points). */
export function statisticValueOf(s: RateSummary, statistic: SizingStatistic): number {
  return (statistic === 'max' ? s.max : s[statistic]) ?? 0;
}

function quantityDemand(
  timeMs: readonly number[],
  values: readonly (number | null)[],
  summary: RateSummary,
  periodSec: number,
  statistic: SizingStatistic,
  ignoreRecurring: boolean,
): QuantityDemand {
  const statisticValue = statisticValueOf(summary, statistic);
  const max = summary.max ?? 0;
  // No point can be a peak (above 1.2 × the statistic): nothing to look for.
  const recurring =
    statistic === 'max' || max <= statisticValue * PEAK_OVER_STATISTIC
      ? []
      : findRecurringPeaks(timeMs, values, periodSec, statisticValue);
  let top = recurring.reduce((m, r) => Math.max(m, r.value), 0);
  // A wider percentile never asks for more than a narrower one would: p95 keeps a recurring peak
  // up to what p99 keeps (p99 itself may hold most of it below its 1.2 × threshold).
  if (statistic === 'p95' && top > statisticValue)
    top = Math.min(top, quantityDemand(timeMs, values, summary, periodSec, 'p99', ignoreRecurring).value);
  const keep = !ignoreRecurring && top > statisticValue;
  return {
    value: keep ? top : statisticValue,
    statisticValue,
    basis: keep ? 'recurring-peak' : 'statistic',
    maxAtMs: summary.maxAtMs,
    max,
    recurring,
  };
}

/** "max 8,200 IOPS at 01:30–01:40 UTC on 14 of 14 days" */
export function describeRecurrence(r: RecurringPeak, unit: 'IOPS' | 'MiB/s'): string {
  const v =
    r.max > r.value ? `${fmt(r.max, unit)} (${fmt(r.value, unit)} on most occurrences)` : fmt(r.value, unit);
  const when = `${clockOf(r.fromMinute)}–${clockOf(r.toMinute)} UTC`;
  return r.cadence === 'daily'
    ? `max ${v} at ${when} on ${r.occurrences} of ${r.outOf} days`
    : `max ${v} on ${weekdayName(r.weekday!)}s at ${when}, ${r.occurrences} of ${r.outOf} weeks`;
}

/**
 * A percentile that leaves out a peak well above it (1.2 × the statistic) found on no daily or
 * weekly schedule is still said, never silent: a burst that comes back every few minutes (a
 * checkpoint every 15 minutes is 4 % of the points) is below p95's cut, and what is provisioned
 * for the percentile throttles it each time.
 */
function peakLeftOut(q: QuantityDemand, statistic: SizingStatistic, unit: 'IOPS' | 'MiB/s'): string | null {
  if (statistic === 'max' || q.max <= q.statisticValue * PEAK_OVER_STATISTIC) return null;
  const at = q.maxAtMs === null ? '' : ` at ${iso(q.maxAtMs)}`;
  return `Peak left out: max ${fmt(q.max, unit)}${at}; ${statistic} = ${fmt(q.statisticValue, unit)} leaves out the points above it (no daily or weekly schedule found among them, so none is kept). What is provisioned for the ${statistic} throttles those peaks whenever they come back: size on max unless they are known to be one-offs.`;
}

/**
 * The recurring-peak notes. A recurrence is looked for in read + write at each point (`combined`):
 * EBS applies its IOPS and throughput limits to reads and writes together, so a nightly job is
 * one peak however it splits. But the profile — and every target — is sized on read + write of
 * each direction's own demand (`sized`: read.value + write.value, each with its own recurrence
 * search; timeseries/sizing.ts), which is never less than the combined one and is the safe side
 * when the directions peak at different times. The note names that sized number, so what it says
 * is sized on is what is provisioned.
 */
function recurrenceWarnings(
  combined: DemandEvidence['combined'],
  sized: { iops: number; bytesPerSec: number },
  statistic: SizingStatistic,
  ignoreRecurring: boolean,
  audience: Audience | undefined,
): Warning[] {
  const out: Warning[] = [];
  const option = settingHint('ignoreRecurring', audience);
  const pairs = [
    ['iops', 'IOPS', combined.iops, sized.iops],
    ['bytesPerSec', 'MiB/s', combined.bytesPerSec, sized.bytesPerSec],
  ] as const;
  for (const [subject, unit, q, sizedOn] of pairs) {
    const r = q.recurring[0];
    if (!r || r.value <= q.statisticValue) {
      const left = peakLeftOut(q, statistic, unit);
      if (left) out.push({ code: 'peak_left_out', message: left, subject });
      continue;
    }
    const stat = fmt(q.statisticValue, unit);
    const peak = fmt(sizedOn, unit);
    out.push(
      ignoreRecurring
        ? {
            code: 'recurring_peak_ignored',
            message: `Recurring peak: ${describeRecurrence(r, unit)}; ${statistic} = ${stat} ignores it, as asked (${option}). The risk: those peaks will be throttled to what is provisioned for ${peak}, every time they recur.`,
            subject,
          }
        : {
            code: 'recurring_peak',
            message: `Recurring peak: ${describeRecurrence(r, unit)}; ${statistic} = ${stat} ignores it, so it is sized on ${peak} (${option} sizes on the ${statistic} and accepts the throttling).`,
            subject,
          },
    );
  }
  return out;
}

/** What coarse points can hide, and what reveals it. */
function resolutionWarnings(series: IoSeries, combinedIops: QuantityDemand): Warning[] {
  const step = series.periodSec;
  if (step <= FINE_RESOLUTION_SEC) return [];
  const factor = step / FINE_RESOLUTION_SEC;
  const typical = combinedIops.statisticValue;
  const cloudwatch = series.format.startsWith('cloudwatch');
  const ask = cloudwatch
    ? 'Query Period 60 (EBS publishes 1-minute data; kept 15 days), or VolumeAvgIOPS and VolumeAvgThroughput with Stat Maximum (`blockwise fleet query` asks for them)'
    : 'Export the data at 60-second steps or finer (iostat -x -t 10, a Prometheus step of 60 s)';
  return [
    {
      code: 'coarse_resolution',
      message: `The points are ${stepText(step)} averages: a point of ${n0(typical)} IOPS can hold a 60-second burst of up to ${n0(typical * factor)} IOPS (${factor}×) that EBS throttles at the volume's limit every second. ${ask}.`,
      subject: 'period',
    },
  ];
}

/** Spans with no point (gaps over 1.5 steps), all of them (completenessOf names the first 5). */
export function missingSpans(
  timeMs: readonly number[],
  periodSec: number,
): { fromMs: number; toMs: number; points: number }[] {
  const step = periodSec * 1000;
  const spans: { fromMs: number; toMs: number; points: number }[] = [];
  for (let i = 1; i < timeMs.length; i++) {
    const d = timeMs[i]! - timeMs[i - 1]!;
    if (d > 1.5 * step)
      spans.push({ fromMs: timeMs[i - 1]! + step, toMs: timeMs[i]!, points: Math.round(d / step) - 1 });
  }
  return spans;
}

function completenessOf(series: IoSeries): Completeness {
  const subject = series.label ?? 'the series';
  const issues: CompletenessIssue[] = [];
  for (const w of series.warnings) {
    if (w.code !== 'partial_data') continue;
    issues.push({
      kind: /NextToken/.test(w.message) ? 'more-pages' : 'partial-data',
      subject,
      fromMs: null,
      toMs: null,
      message: `${subject}: ${w.message} The demand is from part of the data: fetch every page (the AWS CLI does unless --max-items or --no-paginate was used) and plan again.`,
    });
  }
  const spans = missingSpans(series.timeMs, series.periodSec);
  for (const s of spans.slice(0, 5)) {
    issues.push({
      kind: 'missing-span',
      subject,
      fromMs: s.fromMs,
      toMs: s.toMs,
      message: `${subject}: no data from ${iso(s.fromMs)} to ${iso(s.toMs)} (${n0(s.points)} point${s.points === 1 ? '' : 's'} of ${series.periodSec} s): a peak there is not in the demand.`,
    });
  }
  if (spans.length > 5)
    issues.push({
      kind: 'missing-span',
      subject,
      fromMs: null,
      toMs: null,
      message: `${subject}: ${spans.length - 5} more span(s) without data.`,
    });
  return { complete: issues.length === 0, issues };
}

function censoringWarnings(censoring: readonly Censoring[]): Warning[] {
  return censoring.map((c) => {
    const limit = fmt(c.limit, c.quantity === 'iops' ? 'IOPS' : 'MiB/s');
    return {
      code: 'demand_censored',
      message: `Pinned at the limit ${(c.share * 100).toFixed(1)} % of the time (${n0(c.pointsAtLimit)} of ${n0(c.points)} points within 5 % of ${limit}): demand unknown above ${limit}. Raise the limit and measure again; this volume is not right-sized on this evidence.`,
      subject: c.quantity,
    };
  });
}

const addSeries = (a: readonly (number | null)[], b: readonly (number | null)[]) =>
  a.map((v, i) => (v === null || b[i] === null || b[i] === undefined ? null : v + b[i]!));

function censoringOfCombined(
  combinedIops: readonly (number | null)[],
  combinedBytes: readonly (number | null)[],
  limits: DemandOptions['limits'],
): Censoring[] {
  return [
    censoringOf(combinedIops, limits?.iops, 'iops'),
    censoringOf(combinedBytes, limits?.bytesPerSec, 'throughput'),
  ].filter((c) => c !== null);
}

/**
 * Censoring of a series against limits it was delivered under (rule 3), without the rest of the
 * demand: `check-iac` judges one metrics series against each volume of the code, each under its
 * own provisioned IOPS and throughput (a 3,000-IOPS gp3 flat at 2,950–3,000 is pinned; the same
 * points under a 16,000-IOPS gp3 are not). read + write is summed once; the function it returns
 * checks any number of volumes' limits against those sums.
 */
export function censoringOfSeries(
  series: IoSeries,
): (limits: NonNullable<DemandOptions['limits']>) => Censoring[] {
  const iops = addSeries(series.readIops, series.writeIops);
  const bytes = addSeries(series.readBytesPerSec, series.writeBytesPerSec);
  return (limits) => censoringOfCombined(iops, bytes, limits);
}

/**
 * The censoring notes of a series against the limits it was served under (a volume's provisioned
 * IOPS and throughput, bytes/s), without the rest of the demand: the planning page asks again
 * whenever the volume the user names changes.
 */
export function censoringWarningsOf(
  series: IoSeries,
  limits: { iops?: number | null; bytesPerSec?: number | null },
): Warning[] {
  return censoringWarnings(censoringOfSeries(series)(limits));
}

/** The demand of a production series (see the rules above). */
export function demandFromSeries(series: IoSeries, options: DemandOptions = {}): Result<DemandEvidence> {
  return demandBySummary(series, series.timeMs.length === 0 ? null : summarizeSeries(series), options);
}

/**
 * The same from a summary already computed (summarizeSeries of this series): callers asking for
 * several statistics sort the points once (a million points: six sorts of a million numbers).
 */
export function demandBySummary(
  series: IoSeries,
  summary: SeriesSummary | null,
  options: DemandOptions = {},
): Result<DemandEvidence> {
  if (series.timeMs.length === 0 || summary === null)
    return fail('no_data_points', 'the series has no points to size with');
  const statistic = options.statistic ?? 'max';
  const ignoreRecurring = options.ignoreRecurring === true;
  if (summary.read.iops.points === 0 && summary.write.iops.points === 0)
    return fail('no_operations', 'the series has no read or write operation counts to size with');
  const t = series.timeMs;
  const p = series.periodSec;
  const q = (values: readonly (number | null)[], s: RateSummary) =>
    quantityDemand(t, values, s, p, statistic, ignoreRecurring);
  const combinedIops = addSeries(series.readIops, series.writeIops);
  const combinedBytes = addSeries(series.readBytesPerSec, series.writeBytesPerSec);
  const combined = {
    iops: q(combinedIops, summary.combined.iops),
    bytesPerSec: q(combinedBytes, summary.combined.bytesPerSec),
  };
  const read = {
    iops: q(series.readIops, summary.read.iops),
    bytesPerSec: q(series.readBytesPerSec, summary.read.bytesPerSec),
  };
  const write = {
    iops: q(series.writeIops, summary.write.iops),
    bytesPerSec: q(series.writeBytesPerSec, summary.write.bytesPerSec),
  };
  const sized = {
    iops: read.iops.value + write.iops.value,
    bytesPerSec: read.bytesPerSec.value + write.bytesPerSec.value,
  };
  const censoring = censoringOfCombined(combinedIops, combinedBytes, options.limits);
  const completeness = completenessOf(series);
  const warnings: Warning[] = [
    ...resolutionWarnings(series, combined.iops),
    ...recurrenceWarnings(combined, sized, statistic, ignoreRecurring, options.audience),
    ...censoringWarnings(censoring),
    ...completeness.issues.map((i) => ({ code: 'incomplete_data', message: i.message, subject: 'time' })),
  ];
  return ok({
    label: series.label,
    source: `${METRICS_FORMATS[series.format].label}, ${stepText(p)} points: ${series.conversion.explanation}`,
    statistic,
    resolutionSec: p,
    points: summary.points,
    startMs: summary.startMs,
    endMs: summary.endMs,
    ignoreRecurring,
    read,
    write,
    combined,
    censoring,
    completeness,
    warnings,
  });
}

/**
 * The target a plan provisions for: (read + write) × (1 + headroom), rounded up, in IOPS and
 * MiB/s — the same formula as right-sizing's (plan/right-size.ts) for random I/O, and fleet's.
 */
export function demandTarget(
  peaks: { readIops: number; writeIops: number; readBytesPerSec: number; writeBytesPerSec: number },
  headroom: number,
): { iops: number; throughputMibps: number } {
  const iops = peaks.readIops + peaks.writeIops;
  return headroomTarget({ iops, mibps: (peaks.readBytesPerSec + peaks.writeBytesPerSec) / MiB }, headroom);
}

/** The per-direction values sizing uses. */
export const peaksOf = (d: DemandEvidence) => ({
  readIops: d.read.iops.value,
  writeIops: d.write.iops.value,
  readBytesPerSec: d.read.bytesPerSec.value,
  writeBytesPerSec: d.write.bytesPerSec.value,
});
