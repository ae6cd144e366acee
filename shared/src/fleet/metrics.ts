import { fail, ok, type Result } from '../problem.ts';
import { z } from 'zod';
import { GetMetricDataOutputSchema, MetricDataResultSchema } from './aws-outputs.ts';
import {
  addToInstances,
  contiguousTimes,
  createConcurrencyStore,
  mergeConcurrency,
  type PointTimes,
} from './concurrent.ts';
import { IMPLAUSIBLE_BYTES_PER_SEC, IMPLAUSIBLE_IOPS, LONGEST_PERIOD_SECONDS } from './limits.ts';
import { gcdMs } from './gcd.ts';
import { checkEvidenceValues, evidenceTargetOf, foldEvidence, mergeEvidence } from './evidence.ts';
import { problemOf } from './parse.ts';
import { parseLabel } from './queries.ts';
import { STAMP_SAMPLE, scanMetricData, type SameBytes, type ScannedMetricData } from './scan.ts';
import type {
  ConcurrencyGroups,
  EvidenceMetricName,
  FleetMetrics,
  FleetStatistic,
  MetricName,
  FleetSeriesSummary,
} from './schema.ts';

/**
 * Merging GetMetricData responses without keeping the points: per volume and metric only the count,
 * the maximum, the first and last timestamps, and a min-heap of the largest values — at least 5 %
 * of the points seen + 1, so the 95th and 99th percentiles can be read at the end. 5,000 volumes ×
 * 4 metrics × 14 days of 5-minute points keep ~200 numbers per series instead of 4,032.
 */

/** Share of the points kept (the largest): enough for p95, which needs the top 5 %. */
const KEEP_SHARE = 0.05;

export function createFleetMetrics(): FleetMetrics {
  return { series: new Map(), files: 0, results: 0, warnings: [], pages: [] };
}

/** An empty series summary (no points yet). */
export function newSeries(): FleetSeriesSummary {
  return {
    count: 0,
    max: -Infinity,
    top: [],
    topAt: [],
    droppedMax: -Infinity,
    firstMs: Infinity,
    lastMs: -Infinity,
    spacingMs: 0,
  };
}

/** Options of the readers: the file name for messages, the volume order of the queries, the Period given. */
export type MetricDataOptions = {
  fileName?: string;
  volumeIds?: readonly string[];
  /**
   * The Period the queries were made with, seconds, when the user gives it (`--period`): a file
   * whose points are spaced otherwise is refused. Without it the spacing is taken from the data.
   */
  periodSeconds?: number;
  /**
   * Volumes to sum per instance, point by point (concurrent.ts `concurrencyGroupsOf`): their
   * points are added to their instances' grids while reading.
   */
  concurrency?: ConcurrencyGroups;
};

// A plain binary min-heap on number[] (no dependency; hot path: ~80 M pushes in the bench), with
// each value's time moved alongside in `at` (recurring peaks are found among the kept values).
function siftUp(h: number[], at: number[], i: number) {
  const v = h[i]!;
  const t = at[i]!;
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (h[p]! <= v) break;
    h[i] = h[p]!;
    at[i] = at[p]!;
    i = p;
  }
  h[i] = v;
  at[i] = t;
}
function siftDown(h: number[], at: number[], i: number) {
  const n = h.length;
  const v = h[i]!;
  const t = at[i]!;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h[c + 1]! < h[c]!) c++;
    if (h[c]! >= v) break;
    h[i] = h[c]!;
    at[i] = at[c]!;
    i = c;
  }
  h[i] = v;
  at[i] = t;
}

/** Adds one point to a series summary; `atMs` is when it was (NaN when not known). */
export function addPoint(s: FleetSeriesSummary, value: number, atMs = NaN): void {
  s.count++;
  if (value > s.max) s.max = value;
  const h = s.top;
  const keep = Math.ceil(s.count * KEEP_SHARE) + 1;
  if (h.length < keep) {
    h.push(value);
    s.topAt.push(atMs);
    siftUp(h, s.topAt, h.length - 1);
  } else if (value > h[0]!) {
    if (h[0]! > s.droppedMax) s.droppedMax = h[0]!;
    h[0] = value;
    s.topAt[0] = atMs;
    siftDown(h, s.topAt, 0);
  } else if (value > s.droppedMax) s.droppedMax = value;
}

const QUANTILE: Record<FleetStatistic, number> = { max: 1, p99: 0.99, p95: 0.95 };

let scratch = new Float64Array(256);

/**
 * The k-th smallest (0-based) of `values`, by quickselect on a reused scratch copy (`values` is
 * left as it is). statisticOf runs 4 times per volume: sorting a copy of the ~200 kept values with
 * a comparator each time was half of planFleet's time at 5,000 volumes; selection is O(n).
 */
function kthSmallest(values: readonly number[], k: number): number {
  const n = values.length;
  if (scratch.length < n) scratch = new Float64Array(n * 2);
  const a = scratch;
  for (let i = 0; i < n; i++) a[i] = values[i]!;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    // Hoare partition around the middle element; equal values may land on either side.
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}

/**
 * The statistic over the points (nearest rank: the ⌈q·n⌉-th smallest). `exact` is false when the
 * value needed was dropped from the heap (the points arrived small-after-large while the heap was
 * still small); the value returned is then an upper bound — the safe side for sizing.
 */
export function statisticOf(
  s: FleetSeriesSummary,
  statistic: FleetStatistic,
): { value: number; exact: boolean } {
  if (s.count === 0) return { value: 0, exact: true };
  if (statistic === 'max') return { value: s.max, exact: true };
  const rankFromTop = s.count - Math.ceil(QUANTILE[statistic] * s.count) + 1;
  const k = s.top.length - rankFromTop;
  const kept = k >= 0 ? kthSmallest(s.top, k) : undefined;
  if (kept !== undefined && kept >= s.droppedMax) return { value: kept, exact: true };
  return { value: Math.max(kept ?? -Infinity, s.droppedMax), exact: false };
}

/**
 * GetMetricDataOutputSchema with the two point arrays checked as arrays only: their elements are
 * checked in the loop that reads them (Zod per element costs ~120 ns a point, 10 s for the 80 M
 * points of 5,000 volumes × 14 days). Same fields, same refusals, same paths in the messages.
 */
const isArray = z.custom<readonly unknown[]>((v) => Array.isArray(v), { message: 'expected an array' });
const FastMetricDataOutputSchema = GetMetricDataOutputSchema.extend({
  MetricDataResults: z.array(
    MetricDataResultSchema.extend({
      Timestamps: isArray,
      Values: isArray,
    }),
  ),
});

/** Volume ids by query Id (`v12_r_ops` → the 13th volume), for responses whose Labels were changed. */
const ID_PATTERN = /^v(\d+)_(r_ops|w_ops|r_bytes|w_bytes|m_iops|m_tput)$/;
const METRIC_OF: Record<string, MetricName> = {
  r_ops: 'VolumeReadOps',
  w_ops: 'VolumeWriteOps',
  r_bytes: 'VolumeReadBytes',
  w_bytes: 'VolumeWriteBytes',
  m_iops: 'VolumeAvgIOPS',
  m_tput: 'VolumeAvgThroughput',
};

/** The per-minute metrics are per-second averages already (queried with Stat Maximum), not Sums. */
export const isMinuteMetric = (m: MetricName) => m === 'VolumeAvgIOPS' || m === 'VolumeAvgThroughput';

/**
 * A timestamp as the AWS CLI writes it: ISO 8601 (v2's default) or epoch seconds (v1 prints what
 * the service sends; v2 with `cli_timestamp_format = wire`); NaN when neither.
 */
export function stampMs(stamp: string | number): number {
  if (typeof stamp === 'number')
    return Number.isFinite(stamp) ? Math.round(stamp > 1e11 ? stamp : stamp * 1000) : NaN;
  return Date.parse(stamp);
}

/**
 * Merges one GetMetricData response (or the aws cli's merged pages) into `into`. `volumeIds`
 * (the describe-volumes order the queries were built from) maps a result back through its Id when
 * its Label is not one this project wrote.
 */
export function addMetricData(
  into: FleetMetrics,
  json: unknown,
  options: MetricDataOptions = {},
): Result<FleetMetrics> {
  return addParsed(into, json, options, undefined);
}

/**
 * Where a file's values go besides the summaries (summarizeMetricDataText keeps them for the
 * merge), with the first point's time and the step between points (NaN when not regular).
 */
type Collect = (
  volumeId: string,
  metric: MetricName,
  values: ArrayLike<number>,
  firstAtMs: number,
  stepMs: number,
) => void;

function addParsed(
  into: FleetMetrics,
  json: unknown,
  options: MetricDataOptions,
  collect: Collect | undefined,
): Result<FleetMetrics> {
  const what = `${options.fileName ?? `metrics file ${into.files + 1}`}: not get-metric-data output (expected {"MetricDataResults":[...]})`;
  const parsed = FastMetricDataOutputSchema.safeParse(json);
  if (!parsed.success) return problemOf(parsed.error, 'metrics_invalid', what);
  into.files++;
  const results = parsed.data.MetricDataResults;
  const file = options.fileName ?? 'metrics';
  const page = startPage(into, file, Boolean(parsed.data.NextToken));
  const spacings: number[] = [];
  for (let r = 0; r < results.length; r++) {
    const result = results[r]!;
    const where = `MetricDataResults.${r}`;
    const values = result.Values;
    const stamps = result.Timestamps;
    if (stamps.length !== values.length)
      return fail(
        'metrics_invalid',
        `${file}: ${where}: ${stamps.length} Timestamps but ${values.length} Values`,
        where,
      );
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (typeof v !== 'number' || !Number.isFinite(v))
        return fail(
          'metrics_invalid',
          `${file}: ${where}.Values.${i}: expected a number, got ${JSON.stringify(v)}`,
          `${where}.Values.${i}`,
        );
      const stamp = stamps[i];
      if (typeof stamp !== 'string' && (typeof stamp !== 'number' || !Number.isFinite(stamp)))
        return fail(
          'metrics_invalid',
          `${file}: ${where}.Timestamps.${i}: expected an ISO 8601 string or epoch seconds`,
          `${where}.Timestamps.${i}`,
        );
    }
    const added = addResult(
      into,
      where,
      file,
      options,
      {
        Id: result.Id,
        Label: result.Label,
        StatusCode: result.StatusCode,
        values: values as readonly number[],
        firstStamp: stamps[0] as string | number | undefined,
        lastStamp: stamps[values.length - 1] as string | number | undefined,
        stampSample: stamps.slice(0, STAMP_SAMPLE) as (string | number)[],
        stamps: stamps as readonly (string | number)[],
      },
      collect,
      page,
    );
    if (!added.ok) return added;
    spacings.push(added.value);
  }
  const agrees = checkGivenPeriod(file, spacings, options.periodSeconds);
  return agrees.ok ? ok(into) : agrees;
}

type OneResult = {
  Id: string;
  Label: string | undefined;
  StatusCode: string | undefined;
  values: ArrayLike<number>;
  firstStamp: string | number | undefined;
  lastStamp: string | number | undefined;
  /** The first STAMP_SAMPLE timestamps (scan.ts). */
  stampSample: readonly (string | number)[];
  /** Every timestamp, when the result was parsed whole (JSON.parse); the scanner keeps only the ends. */
  stamps?: readonly (string | number)[];
};

/** Each point's time, ms: from every timestamp when parsed whole, else from the ends when the points are contiguous. */
function timesOf(result: OneResult, spacingMs: number): PointTimes | null {
  const all = result.stamps;
  if (all !== undefined) {
    const ms = all.map((t) => stampMs(t));
    return { timeOf: (i) => ms[i]! };
  }
  return contiguousTimes(
    stampMs(result.firstStamp!),
    stampMs(result.lastStamp!),
    result.values.length,
    spacingMs,
  );
}

type Page = FleetMetrics['pages'][number];

/** Records a file read: whether more pages exist (NextToken) and, as its results come, its volumes. */
function startPage(into: FleetMetrics, file: string, nextToken: boolean): Page {
  const page: Page = { file, nextToken, volumeIds: [], partialVolumeIds: [] };
  into.pages.push(page);
  return page;
}

/**
 * The spacing of one result's points, ms: the gcd of the gaps between its first timestamps and of
 * its whole span (CloudWatch returns points at multiples of the Period and leaves out periods
 * without data, so every gap is a multiple of the Period); 0 with fewer than two distinct stamps.
 */
function spacingOfResult(
  result: OneResult,
  file: string,
  where: string,
): Result<{ firstMs: number; lastMs: number; spacingMs: number }> {
  const a = stampMs(result.firstStamp!);
  const b = stampMs(result.lastStamp!);
  let spacing = b - a;
  let previous = a;
  for (let i = 1; i < result.stampSample.length && !Number.isNaN(spacing); i++) {
    const t = stampMs(result.stampSample[i]!);
    spacing = gcdMs(spacing, t - previous);
    previous = t;
  }
  if (Number.isNaN(spacing))
    return fail(
      'metrics_invalid',
      `${file}: ${where}.Timestamps: expected ISO 8601 dates or epoch seconds`,
      `${where}.Timestamps`,
    );
  spacing = Math.abs(spacing);
  if (spacing % 60_000 !== 0)
    return fail(
      'metrics_invalid',
      `${file}: ${where}.Timestamps: points ${spacing / 1000} s apart; CloudWatch returns points at multiples of the query's Period, a whole number of minutes`,
      `${where}.Timestamps`,
    );
  return ok({ firstMs: Math.min(a, b), lastMs: Math.max(a, b), spacingMs: spacing });
}

/**
 * Each point is a Sum of operations or bytes over one period: a finite number ≥ 0, and below the
 * physical ceiling (IMPLAUSIBLE_IOPS, IMPLAUSIBLE_BYTES_PER_SEC) times the period.
 */
function checkValues(
  values: ArrayLike<number>,
  metric: MetricName,
  periodSeconds: number,
  file: string,
  where: string,
): Result<true> {
  const bytes =
    metric === 'VolumeReadBytes' || metric === 'VolumeWriteBytes' || metric === 'VolumeAvgThroughput';
  const perSecond = bytes ? IMPLAUSIBLE_BYTES_PER_SEC : IMPLAUSIBLE_IOPS;
  // The per-minute metrics are rates already; a Sum is a total over the period.
  const ceiling = isMinuteMetric(metric) ? perSecond : perSecond * periodSeconds;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v >= 0 && v <= ceiling) continue;
    const path = `${where}.Values.${i}`;
    const message =
      v >= 0
        ? `${v} ${bytes ? 'bytes' : 'operations'} in ${periodSeconds} s is more than ${bytes ? '100 GiB/s' : `${(perSecond / 1e6).toFixed(2)} M IOPS (10 × the largest io2 Block Express volume)`}: not a possible ${metric} Sum`
        : `expected a Sum of ${bytes ? 'bytes' : 'operations'}, a finite number ≥ 0, got ${v}`;
    return fail('metrics_invalid', `${file}: ${path}: ${message}`, path);
  }
  return ok(true);
}

/**
 * With a Period given (`--period`), a file whose points are spaced otherwise is refused: points
 * closer than the Period (a result's spacing not a multiple of it) or most results' points
 * farther apart (queried with a longer Period: rates would come out that many times too high).
 */
function checkGivenPeriod(
  file: string,
  spacings: readonly number[],
  periodSeconds: number | undefined,
): Result<true> {
  if (periodSeconds === undefined) return ok(true);
  const periodMs = periodSeconds * 1000;
  const counts = new Map<number, number>();
  for (let r = 0; r < spacings.length; r++) {
    const s = spacings[r]!;
    if (s === 0) continue;
    if (s % periodMs !== 0) return periodProblem(file, r, s, periodSeconds);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  const mode = modeOf(counts);
  if (mode === null || mode === periodMs) return ok(true);
  return periodProblem(file, spacings.indexOf(mode), mode, periodSeconds);
}

function periodProblem(file: string, r: number, spacingMs: number, periodSeconds: number) {
  const where = `MetricDataResults.${r}.Timestamps`;
  return fail(
    'metrics_period_mismatch',
    `${file}: ${where}: points ${spacingMs / 1000} s apart, but --period is ${periodSeconds} s: give the Period the queries were made with, or leave --period out to take it from the timestamps`,
    where,
  );
}

/** The most common key (ties: the smallest); null when empty. */
export function modeOf(counts: ReadonlyMap<number, number>): number | null {
  let best: number | null = null;
  let bestCount = 0;
  for (const [key, count] of counts)
    if (count > bestCount || (count === bestCount && best !== null && key < best)) {
      best = key;
      bestCount = count;
    }
  return best;
}

/**
 * Maps one result back to its volume and metric and folds its points into the summary; answers
 * the spacing of its points (ms, 0 when unknown).
 */
function addResult(
  into: FleetMetrics,
  where: string,
  file: string,
  options: MetricDataOptions,
  result: OneResult,
  collect: Collect | undefined,
  page: Page,
): Result<number> {
  const volumeIds = options.volumeIds;
  let target = result.Label !== undefined ? parseLabel(result.Label) : null;
  if (target === null) {
    const m = ID_PATTERN.exec(result.Id);
    const volumeId = m ? volumeIds?.[Number(m[1])] : undefined;
    if (m && volumeId !== undefined) target = { volumeId, metric: METRIC_OF[m[2]!]! };
  }
  if (target === null) {
    // AWS's evidence metrics (exceeded checks, latency, balances) go beside the Sums (evidence.ts).
    const evidence = evidenceTargetOf(result.Label, result.Id, volumeIds);
    if (evidence !== null) return addEvidenceResult(into, evidence, result, file, where, options);
  }
  if (target === null)
    return fail(
      'metrics_invalid',
      `${file}: ${where}.Label: expected "<volume id> <metric>" as \`blockwise fleet query\` writes it, got ${JSON.stringify(result.Label ?? null)} (Id ${result.Id})`,
      `${where}.Label`,
    );
  let spacing = { firstMs: Infinity, lastMs: -Infinity, spacingMs: 0 };
  if (result.values.length > 0) {
    // CloudWatch returns the timestamps sorted: the two ends are the span (parsing 80 M dates would dominate).
    const found = spacingOfResult(result, file, where);
    if (!found.ok) return found;
    spacing = found.value;
  }
  const periodSeconds =
    options.periodSeconds ?? (spacing.spacingMs > 0 ? spacing.spacingMs / 1000 : LONGEST_PERIOD_SECONDS);
  const valid = checkValues(result.values, target.metric, periodSeconds, file, where);
  if (!valid.ok) return valid;
  into.results++;
  if (!page.volumeIds.includes(target.volumeId)) page.volumeIds.push(target.volumeId);
  if (result.StatusCode === 'PartialData' || (result.StatusCode === undefined && page.nextToken)) {
    if (!page.partialVolumeIds.includes(target.volumeId)) page.partialVolumeIds.push(target.volumeId);
  } else if (result.StatusCode !== undefined && result.StatusCode !== 'Complete')
    into.warnings.push(`${target.volumeId} ${target.metric}: StatusCode ${result.StatusCode}`);
  let perVolume = into.series.get(target.volumeId);
  if (perVolume === undefined) into.series.set(target.volumeId, (perVolume = {}));
  const s = (perVolume[target.metric] ??= newSeries());
  const values = result.values;
  // The points' times without parsing them: CloudWatch returns them sorted, so when the count
  // fills the span at the spacing (no period left out) point i is at first + i × step.
  const n = values.length;
  const first = n > 0 ? stampMs(result.firstStamp!) : NaN;
  const last = n > 0 ? stampMs(result.lastStamp!) : NaN;
  const regular = n > 1 && spacing.spacingMs > 0 && Math.abs(last - first) === (n - 1) * spacing.spacingMs;
  const step = regular ? (last - first) / (n - 1) : n === 1 ? 0 : NaN;
  for (let i = 0; i < n; i++) addPoint(s, values[i]!, first + i * step);
  collect?.(target.volumeId, target.metric, values, first, step);
  // Only the Sums go to the instances' grids: the per-minute metrics are per-second maxima, another unit.
  const instanceIds = isMinuteMetric(target.metric) ? undefined : options.concurrency?.get(target.volumeId);
  if (instanceIds !== undefined && n > 0)
    addToInstances(
      (into.concurrency ??= createConcurrencyStore()),
      instanceIds,
      target.volumeId,
      target.metric,
      values,
      timesOf(result, spacing.spacingMs),
      options.periodSeconds !== undefined ? options.periodSeconds * 1000 : spacing.spacingMs,
    );
  s.firstMs = Math.min(s.firstMs, spacing.firstMs);
  s.lastMs = Math.max(s.lastMs, spacing.lastMs);
  s.spacingMs = gcdMs(s.spacingMs, spacing.spacingMs);
  return ok(spacing.spacingMs);
}

/**
 * One evidence result: its points checked against what the metric can be and folded with their
 * times (every timestamp when parsed whole; else from the ends when contiguous). Answers 0: the
 * evidence's spacing (5-minute balances beside 1-minute checks) does not enter the Period checks.
 */
function addEvidenceResult(
  into: FleetMetrics,
  target: { id: string; metric: EvidenceMetricName },
  result: OneResult,
  file: string,
  where: string,
  options: MetricDataOptions,
): Result<number> {
  const n = result.values.length;
  let spacingMs = 0;
  if (n > 0) {
    const found = spacingOfResult(result, file, where);
    if (!found.ok) return found;
    spacingMs = found.value.spacingMs;
  }
  const periodSeconds = options.periodSeconds ?? (spacingMs > 0 ? spacingMs / 1000 : LONGEST_PERIOD_SECONDS);
  const valid = checkEvidenceValues(result.values, target.metric, periodSeconds, file, where);
  if (!valid.ok) return valid;
  into.results++;
  if (result.StatusCode !== undefined && result.StatusCode !== 'Complete')
    into.warnings.push(`${target.id} ${target.metric}: StatusCode ${result.StatusCode}`);
  const times = n > 0 ? timesOf(result, spacingMs) : null;
  const timeOf =
    times === null
      ? null
      : 'timeOf' in times
        ? times.timeOf
        : (i: number) => times.firstMs + i * times.stepMs;
  foldEvidence(into, target, result.values, timeOf);
  return ok(0);
}

/**
 * The same from the response's TEXT: scanned without building the points when it has the shape
 * the aws cli writes (scan.ts; ~5× faster than JSON.parse on large responses), else JSON.parse and
 * the schema, which name the field that is wrong.
 */
export function addMetricDataText(
  into: FleetMetrics,
  text: string,
  options: MetricDataOptions = {},
): Result<FleetMetrics> {
  return addText(into, text, options, undefined);
}

// A web platform global (browsers, Node ≥ 11); declared because this package compiles without DOM types.
declare const TextEncoder: new () => { encode(input: string): Uint8Array };
declare const TextDecoder: new (
  label?: string,
  options?: { ignoreBOM?: boolean },
) => { decode(input: Uint8Array): string };

function addText(
  into: FleetMetrics,
  text: string,
  options: MetricDataOptions,
  collect: Collect | undefined,
): Result<FleetMetrics> {
  return addBytes(into, new TextEncoder().encode(text), () => text, options, collect);
}

/**
 * A response's bytes (UTF-8, as read from the file): scanned in place, never decoded whole unless
 * the scanner refuses them (then JSON.parse of `text()` and the schema name the field).
 */
function addBytes(
  into: FleetMetrics,
  bytes: Uint8Array,
  text: () => string,
  options: MetricDataOptions,
  collect: Collect | undefined,
  sameBytes?: SameBytes,
): Result<FleetMetrics> {
  const file = options.fileName ?? `metrics file ${into.files + 1}`;
  const scanned: ScannedMetricData | null = scanMetricData(bytes, sameBytes);
  const usable = scanned?.results.every((r) => r.Id !== undefined && r.stampCount === r.valueCount);
  if (scanned === null || !usable) {
    let json: unknown;
    try {
      json = JSON.parse(text());
    } catch (error) {
      return fail(
        'json_invalid',
        `${file}: not JSON (${error instanceof Error ? error.message : String(error)}): expected the output of the aws cli with --output json`,
      );
    }
    return addParsed(into, json, options, collect);
  }
  into.files++;
  // A non-empty top-level NextToken (the AWS CLI writes `"NextToken": "…"` only when more pages exist).
  const page = startPage(into, file, scanned.nextToken);
  const spacings: number[] = [];
  const results = scanned.results;
  for (let r = 0; r < results.length; r++) {
    const s = results[r]!;
    const added = addResult(
      into,
      `MetricDataResults.${r}`,
      file,
      options,
      { ...s, Id: s.Id! },
      collect,
      page,
    );
    if (!added.ok) return added;
    spacings.push(added.value);
  }
  const agrees = checkGivenPeriod(file, spacings, options.periodSeconds);
  return agrees.ok ? ok(into) : agrees;
}

/**
 * One response summarized on its own (in a worker thread, say) so that summaries of several files
 * read at once can be merged in file order with mergeFleetMetrics — giving exactly what
 * addMetricDataText over the files one after another gives. A series seen first in this file is
 * taken as summarized; one an earlier file already started (a series a NextToken page cut) cannot
 * be merged from two heaps without changing which values were dropped, so its points are kept too
 * (`values`, per series in result order; Float64Arrays, transferable between threads).
 */
export type FleetMetricsPart = {
  metrics: FleetMetrics;
  values: Map<string, Partial<Record<MetricName, Float64Array[]>>>;
  /** Per array of `values`: the first point's time and the step (NaN: not regular), for the replay. */
  times: Map<string, Partial<Record<MetricName, [number, number][]>>>;
};

export function summarizeMetricDataText(
  text: string,
  options: MetricDataOptions = {},
): Result<FleetMetricsPart> {
  return summarizeMetricDataBytes(new TextEncoder().encode(text), options, () => text);
}

/**
 * The same from the file's bytes (UTF-8): what the CLI's worker threads read, never decoded whole
 * unless refused (`text`: the host's decoding). `sameBytes`: the host's fast compare (scan.ts).
 */
export function summarizeMetricDataBytes(
  bytes: Uint8Array,
  options: MetricDataOptions = {},
  text: () => string = () => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes),
  sameBytes?: SameBytes,
): Result<FleetMetricsPart> {
  const values: FleetMetricsPart['values'] = new Map();
  const times: FleetMetricsPart['times'] = new Map();
  const collect: Collect = (volumeId, metric, points, firstAtMs, stepMs) => {
    let perVolume = values.get(volumeId);
    if (perVolume === undefined) values.set(volumeId, (perVolume = {}));
    (perVolume[metric] ??= []).push(points instanceof Float64Array ? points : Float64Array.from(points));
    let perVolumeTimes = times.get(volumeId);
    if (perVolumeTimes === undefined) times.set(volumeId, (perVolumeTimes = {}));
    (perVolumeTimes[metric] ??= []).push([firstAtMs, stepMs]);
  };
  const metrics = createFleetMetrics();
  const added = addBytes(metrics, bytes, text, options, collect, sameBytes);
  return added.ok ? ok({ metrics, values, times }) : added;
}

/**
 * Adds a part (summarizeMetricDataText) to `into`. Parts merged in file order give the same
 * summaries, counts and warnings as addMetricDataText over the same files in that order.
 */
export function mergeFleetMetrics(into: FleetMetrics, part: FleetMetricsPart): FleetMetrics {
  into.files += part.metrics.files;
  into.results += part.metrics.results;
  for (const w of part.metrics.warnings) into.warnings.push(w);
  if (part.metrics.concurrency)
    mergeConcurrency((into.concurrency ??= createConcurrencyStore()), part.metrics.concurrency);
  for (const p of part.metrics.pages) into.pages.push(p);
  mergeEvidence(into, part.metrics.evidence);
  for (const [volumeId, perVolume] of part.metrics.series) {
    const target = into.series.get(volumeId);
    if (target === undefined) {
      into.series.set(volumeId, perVolume);
      continue;
    }
    for (const metric of Object.keys(perVolume) as MetricName[]) {
      const s = perVolume[metric]!;
      const t = target[metric];
      if (t === undefined) {
        target[metric] = s;
        continue;
      }
      // Replayed point by point, in order, as addMetricDataText would have added them.
      const arrays = part.values.get(volumeId)?.[metric] ?? [];
      const starts = part.times.get(volumeId)?.[metric] ?? [];
      arrays.forEach((points, k) => {
        const [first, step] = starts[k] ?? [NaN, NaN];
        for (let i = 0; i < points.length; i++) addPoint(t, points[i]!, first + i * step);
      });
      t.firstMs = Math.min(t.firstMs, s.firstMs);
      t.lastMs = Math.max(t.lastMs, s.lastMs);
      t.spacingMs = gcdMs(t.spacingMs, s.spacingMs);
    }
  }
  return into;
}

/** Several GetMetricData responses (NextToken pages, or one per batch), merged. */
export function parseMetricData(
  files: readonly unknown[],
  options: {
    fileNames?: readonly string[];
    volumeIds?: readonly string[];
    periodSeconds?: number;
    concurrency?: ConcurrencyGroups;
  } = {},
): Result<FleetMetrics> {
  const metrics = createFleetMetrics();
  for (let i = 0; i < files.length; i++) {
    const added = addMetricData(metrics, files[i], {
      fileName: options.fileNames?.[i],
      volumeIds: options.volumeIds,
      periodSeconds: options.periodSeconds,
      concurrency: options.concurrency,
    });
    if (!added.ok) return added;
  }
  return ok(metrics);
}
