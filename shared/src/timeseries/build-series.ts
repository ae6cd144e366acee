import { settingHint } from '../audience.ts';
import type { Warning } from '../problem.ts';
import type { ColumnRole } from './columns.ts';
import {
  DEFAULT_MAX_POINTS,
  type CloudWatchStatistic,
  type IoMetric,
  type IoSeries,
  type SeriesChoice,
  type SeriesDevice,
  type SeriesFormat,
  type SeriesImportOptions,
  type SeriesImportResult,
} from './series.schema.ts';
import {
  parseTimeZone,
  wallTimeInstants,
  zoneOffsetMin,
  type ParsedTime,
  type TimeZoneSpec,
} from './timestamps.ts';
import { formatInt } from '../units.ts';
import { impossibleValue } from './values.ts';

/**
 * From what an importer read (columns with their roles, rows with times and values in the file's
 * order) to an `IoSeries` of per-second rates. This is where the semantics live:
 *
 * CloudWatch values → per-second rates (AWS, "Amazon EBS metrics" and "Amazon EC2 metrics" in the
 * CloudWatch docs):
 * - **Sum**: VolumeReadOps is "the total number of read operations in a specified period of time. To
 *   calculate the average read operations per second (read IOPS) for the period, divide the total
 *   read operations in the period by the number of seconds in that period." Likewise the Bytes
 *   metrics and the instance-level EBSReadOps/EBSReadBytes. So rate = Sum ÷ period_s.
 * - **Average / Maximum / Minimum** are taken over the metric's own raw data points, each of which is
 *   itself a total over the data-point interval — NOT over the graph's period. EBS sends volume
 *   metrics as 1-minute data points, so Average(VolumeReadOps) over a 5-minute period is the mean
 *   operations *per minute*: rate = Average ÷ 60 (and Maximum ÷ 60 is the busiest minute's rate).
 *   For the EC2 instance metrics (EBS*, Disk*) the interval is 300 s with basic monitoring and 60 s
 *   with detailed monitoring: the file does not say which, so the caller must (`sourceIntervalSec`).
 *   Assumption, stated in a warning: the volumes are attached to Nitro-based instances (every
 *   current generation). On the old Xen instances Average(VolumeReadBytes) is the average size of
 *   one operation instead, and no conversion here is right.
 * - SampleCount and percentile statistics (p99) cannot become rates: refused.
 * Per-second metrics (Grafana's rate() panels, Compute Optimizer's *PerSecond) are used as they are.
 *
 * Time (see also timestamps.ts): values with an offset are exact. Values without one are read in
 * `options.timeZone`, else in a zone the time column's header names ("Timestamp (UTC+01:00)"),
 * else as UTC — and then, because a local-time export would repeat an hour when daylight saving
 * time ends (01:00–01:59 twice, e.g. America/New_York on 2 Nov 2025), one backward step of 30–60
 * minutes landing between 00:00 and 03:59 in an otherwise ordered file is read as that repeat: the
 * later hour is placed after the earlier one (with a `dst_fall_back_repaired` warning), instead of
 * colliding with it as duplicates and losing an hour of data. The skipped hour when DST starts is
 * left as the gap it looks like (with a `possible_dst_gap` warning): collapsing it could hide a
 * real outage. Pass the zone for exact UTC times and calendar days.
 *
 * Never interpolated: missing periods stay missing and are counted (`quality.gaps`,
 * `missingPoints`). Duplicated timestamps keep their first occurrence.
 */

export type RawColumn = ColumnRole & { label: string; source: string };
export type RawRow = {
  where: string;
  time: ParsedTime;
  values: (number | null)[];
  /** Per-device exports with a queue: [queueDepth, awaitMs, requestsPerSec] at this row. */
  queue?: [number | null, number | null, number | null];
};
export type RawSeries = {
  format: SeriesFormat;
  columns: RawColumn[];
  rows: RawRow[];
  /** A zone the time column's header names ("Timestamp (UTC)", "Time (UTC+01:00)"). */
  headerZone: TimeZoneSpec | null;
  warnings: Warning[];
  /** Per-device exports: the device read and how (its `queue` arrays are filled from the rows). */
  device?: Omit<SeriesDevice, 'queue'> & { hasQueue: boolean };
};

const MINUTE = 60_000;
const HOUR = 3_600_000;

const plural = (n: number, word: string) => `${formatInt(n)} ${word}${n === 1 ? '' : 's'}`;
const iso = (ms: number) => new Date(ms).toISOString().replace(':00.000Z', 'Z').replace('.000Z', 'Z');

export function choiceRequired(choices: SeriesChoice[]): SeriesImportResult {
  return {
    ok: false,
    error: {
      code: 'choice_required',
      message: `the file leaves a choice to you — ${choices.map((c) => `${c.flag} ${c.candidates.join(' or ')}: ${c.why}`).join('; ')}`,
      path: choices.map((c) => c.flag).join(','),
    },
    choices,
  };
}

const failure = (code: string, message: string, path?: string): Failure => ({
  ok: false,
  error: path === undefined ? { code, message } : { code, message, path },
});

type ResolvedTimes = {
  utc: number[];
  dstRepairs: number;
  naiveAs: string | null;
  warnings: Warning[];
  mixedOrder: boolean;
};

function directionOf(t: readonly number[]): { ascending: boolean; up: number; down: number } {
  let up = 0;
  let down = 0;
  for (let i = 1; i < t.length; i++) {
    const d = t[i]! - t[i - 1]!;
    if (d > 0) up += 1;
    else if (d < 0) down += 1;
  }
  return { ascending: up >= down, up, down };
}

/** Naive wall times read as UTC, with one repeated local hour (DST fall-back) placed after the first. */
function resolveNaiveAsUtc(rows: readonly RawRow[]): ResolvedTimes {
  const t = rows.map((r) => r.time.wallMs);
  const warnings: Warning[] = [];
  const { ascending, up, down } = directionOf(t);
  const jumps: number[] = [];
  let others = 0;
  for (let i = 1; i < t.length; i++) {
    const d = t[i]! - t[i - 1]!;
    if (ascending ? d >= 0 : d <= 0) continue;
    const hour = new Date(t[i]!).getUTCHours();
    if (Math.abs(d) >= 30 * MINUTE && Math.abs(d) <= HOUR && hour <= 3) jumps.push(i);
    else others += 1;
  }
  let utc = t;
  let dstRepairs = 0;
  if (jumps.length > 0 && others === 0) {
    const shifted = t.slice();
    for (const j of jumps) {
      if (ascending) for (let k = j; k < shifted.length; k++) shifted[k]! += HOUR;
      else for (let k = 0; k < j; k++) shifted[k]! += HOUR;
    }
    if (directionOf(shifted)[ascending ? 'down' : 'up'] === 0) {
      utc = shifted;
      dstRepairs = jumps.length;
      const first = jumps[0]!;
      warnings.push({
        code: 'dst_fall_back_repaired',
        message: `The timestamps step back from ${iso(t[first - 1]!)
          .slice(0, 16)
          .replace(
            'T',
            ' ',
          )} to ${iso(t[first]!).slice(11, 16)} at ${rows[first]!.where}, without a UTC offset: read as the hour repeated when daylight saving time ends, and placed after the first one. Pass the time zone (e.g. --timezone America/New_York) for exact UTC times; times are read as UTC otherwise.`,
        subject: 'time',
      });
    }
  }
  const mixedOrder = dstRepairs === 0 ? up > 0 && down > 0 : others > 0;
  return { utc, dstRepairs, naiveAs: 'UTC', warnings, mixedOrder };
}

function resolveTimes(rows: readonly RawRow[], zone: TimeZoneSpec | null): ResolvedTimes {
  const allOffsets = rows.every((r) => r.time.offsetMin !== null);
  const exact = (r: RawRow) => r.time.wallMs - r.time.offsetMin! * MINUTE;
  if (allOffsets) {
    const utc = rows.map(exact);
    const { up, down } = directionOf(utc);
    return { utc, dstRepairs: 0, naiveAs: null, warnings: [], mixedOrder: up > 0 && down > 0 };
  }
  if (zone === null) {
    if (rows.some((r) => r.time.offsetMin !== null)) {
      const utc = rows.map((r) => (r.time.offsetMin === null ? r.time.wallMs : exact(r)));
      const { up, down } = directionOf(utc);
      return { utc, dstRepairs: 0, naiveAs: 'UTC', warnings: [], mixedOrder: up > 0 && down > 0 };
    }
    return resolveNaiveAsUtc(rows);
  }
  if (zone.kind === 'fixed') {
    const utc = rows.map((r) =>
      r.time.offsetMin === null ? r.time.wallMs - zone.offsetMin * MINUTE : exact(r),
    );
    const { up, down } = directionOf(utc);
    return { utc, dstRepairs: 0, naiveAs: zone.name, warnings: [], mixedOrder: up > 0 && down > 0 };
  }
  // An IANA zone: ambiguous wall times (the repeated hour) go to the instant that keeps the file's
  // order — in an ascending file the first 01:30 is the earlier instant, the second the later.
  const { ascending } = directionOf(rows.map((r) => r.time.wallMs));
  const utc: number[] = [];
  let prev: number | null = null;
  let nonexistent = 0;
  let firstNonexistent = '';
  for (const r of rows) {
    if (r.time.offsetMin !== null) {
      prev = exact(r);
      utc.push(prev);
      continue;
    }
    const c = wallTimeInstants(zone.name, r.time.wallMs);
    let chosen: number;
    if (c.length === 0) {
      // A wall time in the skipped hour (DST start): read with the offset in force before it.
      chosen = r.time.wallMs - zoneOffsetMin(zone.name, r.time.wallMs - 86_400_000) * MINUTE;
      nonexistent += 1;
      if (firstNonexistent === '') firstNonexistent = r.where;
    } else if (c.length === 1) {
      chosen = c[0]!;
    } else if (ascending) {
      chosen = prev === null ? c[0]! : (c.find((x) => x >= prev!) ?? c[c.length - 1]!);
    } else {
      chosen = prev === null ? c[c.length - 1]! : ([...c].reverse().find((x) => x <= prev!) ?? c[0]!);
    }
    prev = chosen;
    utc.push(chosen);
  }
  const warnings: Warning[] = [];
  if (nonexistent > 0) {
    warnings.push({
      code: 'nonexistent_local_time',
      message: `${plural(nonexistent, 'timestamp')} (first at ${firstNonexistent}) fall in the hour ${zone.name} skips when daylight saving time starts; read with the offset in force before it.`,
      subject: 'time',
    });
  }
  const { up, down } = directionOf(utc);
  return { utc, dstRepairs: 0, naiveAs: zone.name, warnings, mixedOrder: up > 0 && down > 0 };
}

/** The most common step between consecutive times (ms) and the share of steps that equal it. */
function spacingOf(sorted: readonly number[]): { stepMs: number; share: number } | null {
  if (sorted.length < 2) return null;
  const counts = new Map<number, number>();
  for (let i = 1; i < sorted.length; i++) {
    const d = sorted[i]! - sorted[i - 1]!;
    counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [d, c] of counts) {
    if (c > bestCount || (c === bestCount && d < best)) {
      best = d;
      bestCount = c;
    }
  }
  return { stepMs: best, share: bestCount / (sorted.length - 1) };
}

const secondsText = (s: number) => (s % 60 === 0 ? `${s / 60} min` : `${s} s`);

type Failure = Extract<SeriesImportResult, { ok: false }>;
const failed = (step: object): step is Failure => 'ok' in step;
/** What a step found to say: warnings for the series, choices the caller must make. */
type Notes = { warnings: Warning[]; choices: SeriesChoice[] };
const ALL_METRICS: readonly IoMetric[] = ['readOps', 'writeOps', 'readBytes', 'writeBytes'];

/**
 * Runs steps 1–7 below in order. A refusal stops at once; choices the file leaves open are
 * gathered from steps 1, 4 and 5 and asked together, so the user answers them in one go.
 */
export function buildSeries(raw: RawSeries, options: SeriesImportOptions): SeriesImportResult {
  const refused = checkSize(raw, options.maxPoints ?? DEFAULT_MAX_POINTS) ?? checkValues(raw);
  if (refused) return refused;
  const columns = raw.columns;
  const counts = columns.filter((c) => c.kind === 'count');
  const warnings: Warning[] = [...raw.warnings];
  const choices: SeriesChoice[] = [];
  const note = (n: Notes) => {
    warnings.push(...n.warnings);
    choices.push(...n.choices);
  };

  const stat = readStatistic(counts, options);
  if (failed(stat)) return stat;
  note(stat);
  const timed = resolveOrder(raw, options);
  if (failed(timed)) return timed;
  note(timed);
  const deduped = dropDuplicates(raw.rows, timed.resolved.utc, timed.order);
  note(deduped);
  const times = deduped.kept.map((i) => timed.resolved.utc[i]!);
  const period = decidePeriod(times, columns, counts.length, options);
  if (failed(period)) return period;
  note(period);
  const { periodSec } = period;
  const divisor = decideDivisor(counts, stat.statistic, periodSec, options);
  note(divisor);
  if (choices.length > 0) return choiceRequired(choices);
  if (periodSec === null)
    return failure(
      'bad_period',
      'the period could not be determined',
      settingHint('period', options.audience),
    );

  const rates = toRates(raw, deduped.kept, times, divisor.divisorSec);
  if (rates.outTimes.length === 0) {
    return failure('no_data_points', `none of the ${plural(raw.rows.length, 'row')} has a value`);
  }
  const gaps = countGaps(rates.outTimes, rates.emptyTimes, periodSec, {
    naiveAs: timed.resolved.naiveAs,
    zone: timed.zone,
  });
  warnings.push(...gapWarnings(gaps, periodSec, rates.outTimes.length));
  warnings.push(...columnWarnings(columns, rates.byMetric));

  const resources = [...new Set(columns.map((c) => c.resource).filter((r) => r !== null))];
  const value: IoSeries = {
    format: raw.format,
    label: options.label ?? (resources.length > 0 ? resources.join(' + ') : null),
    periodSec,
    conversion: {
      statistic: counts.length > 0 ? stat.statistic : null,
      divisorSec: counts.length > 0 ? divisor.divisorSec : null,
      explanation: divisor.explanation,
    },
    columns: columns.map((c) => ({ metric: c.metric, label: c.label, source: c.source, unit: c.unit })),
    timeMs: rates.outTimes,
    readIops: rates.series.readOps,
    writeIops: rates.series.writeOps,
    readBytesPerSec: rates.series.readBytes,
    writeBytesPerSec: rates.series.writeBytes,
    quality: {
      inputPoints: raw.rows.length,
      gaps: gaps.gaps,
      missingPoints: gaps.missing,
      duplicates: deduped.duplicates,
      conflictingDuplicates: deduped.conflicting,
      partialPoints: rates.partialPoints,
      reordered: timed.reordered,
      dstRepairs: timed.resolved.dstRepairs,
      naiveTimesAs: timed.resolved.naiveAs,
    },
    warnings,
  };
  if (raw.device) {
    const { hasQueue: _, ...device } = raw.device;
    value.device = { ...device, queue: rates.queue };
  }
  return { ok: true, value };
}

/** Refuses what cannot become a series before any work: no columns, no rows, or too many rows. */
function checkSize(raw: RawSeries, maxPoints: number): Failure | null {
  if (raw.columns.length === 0)
    return failure('no_io_columns', 'no read/write operations or bytes columns found');
  if (raw.rows.length === 0) return failure('no_data_points', 'the file has a header but no data rows');
  if (raw.rows.length > maxPoints) {
    return failure(
      'too_many_points',
      `${formatInt(raw.rows.length)} points, more than the ${formatInt(maxPoints)} limit: export a shorter range or a longer period`,
    );
  }
  return null;
}

const QUEUE_LABELS = ['queue depth', 'await (ms)', 'requests/s'] as const;

/** Refuses the first value that cannot be a measurement (values.ts), naming its row and column. */
function checkValues(raw: RawSeries): Failure | null {
  for (const row of raw.rows) {
    for (const [k, v] of row.values.entries()) {
      const why = v === null ? null : impossibleValue(v);
      if (why) {
        const column = raw.columns[k];
        const name = !column
          ? `value ${k + 1}`
          : column.source.includes(column.label)
            ? column.source
            : `${column.source} (${column.label})`;
        const at = `${row.where}, ${name}`;
        return failure('bad_value', `${at}: ${why}`, row.where);
      }
    }
    for (const [k, v] of (row.queue ?? []).entries()) {
      const why = v === null ? null : impossibleValue(v);
      if (why) return failure('bad_value', `${row.where}, ${QUEUE_LABELS[k]}: ${why}`, row.where);
    }
  }
  return null;
}

/** 1. The statistic of CloudWatch counts: Sum and Average differ by a factor of the period. */
function readStatistic(
  counts: readonly RawColumn[],
  options: SeriesImportOptions,
): Failure | (Notes & { statistic: CloudWatchStatistic | null }) {
  const notes: Notes = { warnings: [], choices: [] };
  const unsupported = counts.find((c) => c.unsupportedStatistic !== null);
  if (unsupported) {
    return failure(
      'unsupported_statistic',
      `${unsupported.source} ("${unsupported.label}") holds the ${unsupported.unsupportedStatistic} statistic, which cannot be turned into a per-second rate; export Sum (or Average)`,
      unsupported.source,
    );
  }
  if (counts.length === 0) return { ...notes, statistic: null };
  const named = [...new Set(counts.map((c) => c.statistic).filter((s) => s !== null))];
  if (options.statistic !== undefined) {
    const statistic = options.statistic;
    if (named.length > 0 && (named.length > 1 || named[0] !== statistic)) {
      notes.warnings.push({
        code: 'statistic_overridden',
        message: `The labels say ${named.join(', ')}; the values are read as ${statistic}, as asked.`,
        subject: 'statistic',
      });
    }
    return { ...notes, statistic };
  }
  if (named.length === 1) return { ...notes, statistic: named[0]! };
  if (named.length > 1) {
    return failure(
      'mixed_statistics',
      `the columns mix statistics (${named.join(', ')}); export one statistic (Sum) for all of them`,
    );
  }
  notes.choices.push({
    option: 'statistic',
    flag: '--stat',
    why: 'the labels do not name the CloudWatch statistic, and Sum and Average differ by a factor of the period',
    candidates: ['Sum', 'Average'],
  });
  return { ...notes, statistic: null };
}

/** 2. Time zone and UTC instants, and the rows in time order (files come oldest- or newest-first). */
function resolveOrder(
  raw: RawSeries,
  options: SeriesImportOptions,
):
  | Failure
  | (Notes & { zone: TimeZoneSpec | null; resolved: ResolvedTimes; order: number[]; reordered: boolean }) {
  let zone: TimeZoneSpec | null = raw.headerZone;
  if (options.timeZone !== undefined) {
    zone = parseTimeZone(options.timeZone);
    if (zone === null) {
      return failure(
        'bad_time_zone',
        `unknown time zone "${options.timeZone}": expected UTC, an offset such as +01:00, or a zone name such as America/New_York`,
        '--timezone',
      );
    }
  }
  const resolved = resolveTimes(raw.rows, zone);
  const warnings = [...resolved.warnings];
  const order = raw.rows.map((_, i) => i).sort((a, b) => resolved.utc[a]! - resolved.utc[b]! || a - b);
  if (resolved.mixedOrder) {
    warnings.push({
      code: 'unsorted_input',
      message:
        'The rows are not in time order (neither oldest-first nor newest-first): they were sorted by time.',
      subject: 'time',
    });
  }
  return { warnings, choices: [], zone, resolved, order, reordered: order.some((v, i) => v !== i) };
}

/** 3. Duplicates: keep the first occurrence of each instant (two exports concatenated overlap). */
function dropDuplicates(
  rows: readonly RawRow[],
  utc: readonly number[],
  order: readonly number[],
): Notes & { kept: number[]; duplicates: number; conflicting: number } {
  const kept: number[] = [];
  let duplicates = 0;
  let conflicting = 0;
  let firstConflict = '';
  for (const idx of order) {
    const last = kept[kept.length - 1];
    if (last !== undefined && utc[last] === utc[idx]) {
      duplicates += 1;
      const a = rows[last]!.values;
      const b = rows[idx]!.values;
      if (a.some((v, k) => v !== b[k])) {
        conflicting += 1;
        if (firstConflict === '') firstConflict = rows[idx]!.where;
      }
      continue;
    }
    kept.push(idx);
  }
  const warnings: Warning[] = [];
  if (duplicates > 0) {
    warnings.push(
      conflicting > 0
        ? {
            code: 'conflicting_duplicates',
            message: `${plural(duplicates, 'timestamp')} appear twice, ${conflicting} with different values (first at ${firstConflict}): the first occurrence is kept. Two exports concatenated, or local times without a zone?`,
            subject: 'time',
          }
        : {
            code: 'duplicate_timestamps',
            message: `${plural(duplicates, 'repeated row')} with identical values dropped.`,
            subject: 'time',
          },
    );
  }
  return { warnings, choices: [], kept, duplicates, conflicting };
}

/** 4. The period: asked for, named in the labels, or the spacing of the points (a Sum needs it). */
function decidePeriod(
  times: readonly number[],
  columns: readonly RawColumn[],
  countColumns: number,
  options: SeriesImportOptions,
): Failure | (Notes & { periodSec: number | null }) {
  const notes: Notes = { warnings: [], choices: [] };
  const spacing = spacingOf(times);
  const spacingSec = spacing ? spacing.stepMs / 1000 : null;
  const labelPeriods = [...new Set(columns.map((c) => c.periodSec).filter((p) => p !== null))];
  let periodSec: number | null = null;
  if (options.periodSec !== undefined) {
    periodSec = options.periodSec;
    if (spacingSec !== null && spacing!.share >= 0.5 && spacingSec !== periodSec) {
      notes.warnings.push({
        code: 'period_mismatch',
        message: `The points are ${secondsText(spacingSec)} apart but the period was given as ${secondsText(periodSec)}; the values are read as totals per ${secondsText(periodSec)}, as asked.`,
        subject: 'period',
      });
    }
  } else if (labelPeriods.length > 1) {
    notes.choices.push({
      option: 'periodSec',
      flag: '--period',
      why: `the labels name different periods (${labelPeriods.map(secondsText).join(', ')})`,
      candidates: labelPeriods.map(String),
    });
  } else if (labelPeriods.length === 1) {
    const lp = labelPeriods[0]!;
    if (spacingSec !== null && spacing!.share >= 0.5 && spacingSec !== lp) {
      notes.choices.push({
        option: 'periodSec',
        flag: '--period',
        why: `the labels say ${secondsText(lp)} but the points are ${secondsText(spacingSec)} apart`,
        candidates: [String(lp), String(spacingSec)],
      });
    } else periodSec = lp;
  } else if (spacing && spacing.share >= 0.5) {
    periodSec = spacingSec;
  } else if (spacing && countColumns === 0) {
    // Rates do not depend on the period; only gap counting and 5-minute sizing do.
    periodSec = spacingSec;
    notes.warnings.push({
      code: 'irregular_spacing',
      message: `The points are irregularly spaced (the most common step, ${secondsText(spacingSec!)}, covers ${Math.round(spacing.share * 100)}% of them).`,
      subject: 'period',
    });
  } else {
    notes.choices.push({
      option: 'periodSec',
      flag: '--period',
      why: spacing
        ? `the labels do not name the period and the points are irregularly spaced (most common step ${secondsText(spacingSec!)})`
        : 'the labels do not name the period and one point has no spacing to tell it',
      candidates: spacing ? [String(spacingSec)] : ['60', '300'],
    });
  }
  if (periodSec !== null && !(periodSec > 0))
    return failure(
      'bad_period',
      `period must be above 0 s, got ${periodSec}`,
      settingHint('period', options.audience),
    );
  return { ...notes, periodSec };
}

/**
 * 5. The seconds one value of a count covers: the period for a Sum; for Average/Maximum/Minimum the
 * raw CloudWatch data point's interval (60 s for EBS volumes, 60 or 300 s for EC2 instances).
 */
function decideDivisor(
  counts: readonly RawColumn[],
  statistic: CloudWatchStatistic | null,
  periodSec: number | null,
  options: SeriesImportOptions,
): Notes & { divisorSec: number | null; explanation: string } {
  const notes: Notes = { warnings: [], choices: [] };
  let divisorSec: number | null = null;
  let explanation = 'The values are per-second rates already (IOPS, bytes/s).';
  if (counts.length === 0 || statistic === null || periodSec === null)
    return { ...notes, divisorSec, explanation };
  if (statistic === 'Sum') {
    divisorSec = periodSec;
    explanation = `Sum per ${secondsText(periodSec)} period ÷ ${periodSec} s = per-second rate (AWS: divide the total in the period by the seconds in it).`;
  } else if (options.sourceIntervalSec !== undefined) {
    divisorSec = options.sourceIntervalSec;
  } else if (counts.every((c) => c.family === 'volume')) {
    divisorSec = 60;
    notes.warnings.push({
      code: 'average_per_minute_assumed',
      message: `${statistic} of EBS volume metrics is taken over EBS's 1-minute data points, each a per-minute total: values ÷ 60 s. This holds for volumes on Nitro-based instances; on Xen instances ${statistic}(VolumeReadBytes) means bytes per operation instead — export Sum to be sure.`,
      subject: 'statistic',
    });
  } else if (counts.every((c) => c.family === 'cloudwatch-agent')) {
    notes.choices.push({
      option: 'sourceIntervalSec',
      flag: '--source-interval',
      why: `${statistic} of the CloudWatch agent's diskio_ebs_* metrics is per data point: one per the agent's metrics_collection_interval (60 s unless its configuration says otherwise)`,
      candidates: ['60'],
    });
  } else {
    notes.choices.push({
      option: 'sourceIntervalSec',
      flag: '--source-interval',
      why: `${statistic} of EC2 instance metrics is per raw data point: 300 s with basic monitoring, 60 s with detailed monitoring`,
      candidates: ['300', '60'],
    });
  }
  if (statistic !== 'Sum' && divisorSec !== null) {
    explanation = `${statistic} of the ${secondsText(divisorSec)} data points (each a total per ${secondsText(divisorSec)}) ÷ ${divisorSec} s = per-second rate${statistic === 'Maximum' ? ' of the busiest data point in each period' : ''}.`;
  }
  return { ...notes, divisorSec, explanation };
}

type QueueSeries = NonNullable<SeriesDevice['queue']>;

/**
 * 6. Values → per-second rates, one array per quantity; several columns of one metric are added
 * (the instance sees them together). A row without any value is set aside for gap counting.
 */
function toRates(
  raw: RawSeries,
  kept: readonly number[],
  times: readonly number[],
  divisorSec: number | null,
) {
  const columns = raw.columns;
  const byMetric = new Map<IoMetric, number[]>();
  columns.forEach((c, k) => byMetric.set(c.metric, [...(byMetric.get(c.metric) ?? []), k]));
  const present = ALL_METRICS.filter((m) => byMetric.has(m));
  const series: Record<IoMetric, (number | null)[]> = {
    readOps: [],
    writeOps: [],
    readBytes: [],
    writeBytes: [],
  };
  const outTimes: number[] = [];
  const queue: QueueSeries | null = raw.device?.hasQueue
    ? { queueDepth: [], awaitMs: [], requestsPerSec: [] }
    : null;
  const emptyTimes: number[] = [];
  let partialPoints = 0;
  kept.forEach((rowIdx, n) => {
    const row = raw.rows[rowIdx]!;
    const values: Record<IoMetric, number | null> = {
      readOps: null,
      writeOps: null,
      readBytes: null,
      writeBytes: null,
    };
    let have = 0;
    for (const m of present) {
      let sum: number | null = 0;
      for (const k of byMetric.get(m)!) {
        const v = row.values[k];
        if (v === null || v === undefined) {
          sum = null;
          break;
        }
        const c = columns[k]!;
        sum! += c.kind === 'count' ? v / divisorSec! : v;
      }
      values[m] = sum;
      if (sum !== null) have += 1;
    }
    if (have === 0) {
      emptyTimes.push(times[n]!);
      return;
    }
    if (have < present.length) partialPoints += 1;
    outTimes.push(times[n]!);
    for (const m of ALL_METRICS) series[m].push(values[m]);
    if (queue) {
      const [depth, awaitMs, requests] = row.queue ?? [null, null, null];
      queue.queueDepth.push(depth);
      queue.awaitMs.push(awaitMs);
      queue.requestsPerSec.push(requests);
    }
  });
  return { byMetric, series, outTimes, queue, emptyTimes, partialPoints };
}

type Gaps = { gaps: number; missing: number; possibleDst: string };

/**
 * 7. Gaps: runs of missing periods between points (not interpolated). A row without any value is
 * missing too: inside the series it shows up as a gap, at either end it is counted on its own.
 * One missing hour early in the morning, in times read as UTC, may be the hour DST skips.
 */
function countGaps(
  outTimes: readonly number[],
  emptyTimes: readonly number[],
  periodSec: number,
  time: { naiveAs: string | null; zone: TimeZoneSpec | null },
): Gaps {
  const periodMs = periodSec * 1000;
  let gaps = 0;
  let missing = emptyTimes.filter((t) => t < outTimes[0]! || t > outTimes[outTimes.length - 1]!).length;
  let possibleDst = '';
  for (let i = 1; i < outTimes.length; i++) {
    const d = outTimes[i]! - outTimes[i - 1]!;
    if (d > 1.5 * periodMs) {
      gaps += 1;
      missing += Math.max(0, Math.round(d / periodMs) - 1);
      const hour = new Date(outTimes[i]!).getUTCHours();
      if (
        time.naiveAs === 'UTC' &&
        time.zone === null &&
        Math.abs(d - periodMs - HOUR) < 1000 &&
        hour >= 2 &&
        hour <= 4
      ) {
        possibleDst = iso(outTimes[i - 1]!);
      }
    }
  }
  return { gaps, missing, possibleDst };
}

/** Says what step 7 found, so a reader knows the statistics skip missing points. */
function gapWarnings({ gaps, missing, possibleDst }: Gaps, periodSec: number, points: number): Warning[] {
  const warnings: Warning[] = [];
  if (gaps > 0) {
    warnings.push({
      code: 'gaps',
      message: `${plural(gaps, 'gap')} in the series: ${plural(missing, 'missing point')} of ${secondsText(periodSec)}. Not interpolated: the statistics use the ${formatInt(points)} points present.`,
      subject: 'time',
    });
  } else if (missing > 0) {
    warnings.push({
      code: 'gaps',
      message: `${plural(missing, 'row')} without any value at the start or end (not interpolated).`,
      subject: 'time',
    });
  }
  if (possibleDst !== '') {
    warnings.push({
      code: 'possible_dst_gap',
      message: `Exactly one hour is missing after ${possibleDst} (times without an offset, read as UTC): this may be the hour skipped when daylight saving time starts rather than missing data. Pass --timezone to read local times exactly.`,
      subject: 'time',
    });
  }
  return warnings;
}

/** Says which metrics were summed from several columns and which are absent (sizing needs both). */
function columnWarnings(columns: readonly RawColumn[], byMetric: ReadonlyMap<IoMetric, number[]>): Warning[] {
  const warnings: Warning[] = [];
  for (const [m, ks] of byMetric) {
    if (ks.length > 1) {
      warnings.push({
        code: 'columns_summed',
        message: `${ks.length} columns hold ${m} (${ks.map((k) => columns[k]!.resource ?? columns[k]!.label).join(', ')}): they are added, as the instance sees them together. Keep one with --match.`,
        subject: m,
      });
    }
  }
  const absent = ALL_METRICS.filter((m) => !byMetric.has(m));
  if (absent.length > 0) {
    warnings.push({
      code: 'metric_missing',
      message: `No ${absent.join(', ')} in the file: ${absent.some((m) => m.endsWith('Bytes')) ? 'throughput (and the block size) cannot be sized from it' : 'one direction has no operation counts'}.`,
      subject: absent[0],
    });
  }
  return warnings;
}
