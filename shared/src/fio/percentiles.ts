import type { Problem } from '../problem.ts';
import type { PercentileRangeMs, PercentilesMs } from './fio-report.schema.ts';
import { describeValue, MAX_FIO_NUMBER, MAX_PERCENTILES, tooManyKeys, type Bins } from './fio-raw.schema.ts';

/**
 * fio's latency percentiles (docs/fio-format.md §3.2): keys printed with C `%f` ("99.500000"),
 * values in the latency object's unit, histogram bucket values rather than samples.
 */

/** The shortest decimal form of a percentile: 99.5 → "99.5", 1 → "1", 99.99 → "99.99". */
export const percentileKey = (p: number): string => String(p);

export type PercentileList = { percentiles: PercentilesMs | null; list: number[] };

type Invalid = { ok: false; error: Problem };

const invalid = (path: string, message: string): Invalid => ({
  ok: false,
  error: { code: 'fio_invalid', message: `${path}: ${message}`, path },
});

/**
 * The keys of a `percentile` object as fio printed them ("99.900000", …), parsed once: the
 * percentile, its short key, and the order to read them in (ascending, the 0th dropped). The
 * same 17 (or `percentile_list`) keys repeat in every direction of every job, so the last shape
 * is remembered and a later object with the very same keys skips the parsing.
 */
type KeyShape = {
  rawKeys: string[];
  order: number[];
  keys: string[];
  list: number[];
  /** The short keys in order, each 0: copied and filled in, so every object of a shape shares one layout. */
  template: PercentilesMs;
};
let lastShape: KeyShape | null = null;

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function readKeyShape(rawKeys: string[], path: string): KeyShape | Invalid {
  if (lastShape !== null && sameKeys(lastShape.rawKeys, rawKeys)) return lastShape;
  const parsed: { index: number; p: number }[] = [];
  for (let i = 0; i < rawKeys.length; i++) {
    const raw = rawKeys[i]!;
    const p = Number(raw);
    if (raw.trim() === '' || !(p >= 0 && p <= 100)) {
      return invalid(
        path,
        `expected percentile keys from 0 to 100 such as "99.900000", got ${JSON.stringify(raw)}`,
      );
    }
    // fio < 3.4 pads the list with "0.00" : 0 (#511); a 0th percentile says nothing anyway.
    if (p !== 0) parsed.push({ index: i, p });
  }
  parsed.sort((a, b) => a.p - b.p);
  const keys = parsed.map((e) => percentileKey(e.p));
  const template: PercentilesMs = {};
  for (const key of keys) template[key] = 0;
  lastShape = { rawKeys, order: parsed.map((e) => e.index), keys, list: parsed.map((e) => e.p), template };
  return lastShape;
}

/**
 * Reads and checks a `percentile` object into ms with short keys, dropping fio < 3.4's
 * `"0.00" : 0` padding. A missing or empty object gives null. `divisor` turns the object's unit
 * into ms: 1e6 for ns, 1e3 for µs.
 */
export function readPercentiles(
  raw: unknown,
  divisor: number,
  path: string,
): { ok: true; value: PercentileList } | Invalid {
  if (raw === undefined) return { ok: true, value: { percentiles: null, list: [] } };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return invalid(path, `expected an object of percentiles, got ${describeValue(raw)}`);
  }
  const map = raw as Record<string, unknown>;
  const rawKeys = Object.keys(map);
  // Counted before any key is parsed or sorted (a 1 MB file holds 56,000 of them).
  if (rawKeys.length > MAX_PERCENTILES) {
    const why = 'fio prints at most 20, FIO_IO_U_LIST_MAX_LEN';
    return { ok: false, error: tooManyKeys(path, rawKeys.length, MAX_PERCENTILES, 'percentiles', why) };
  }
  const shape = readKeyShape(rawKeys, path);
  if ('ok' in shape) return shape;
  if (shape.order.length === 0) return { ok: true, value: { percentiles: null, list: [] } };
  const percentiles: PercentilesMs = { ...shape.template };
  for (let i = 0; i < shape.order.length; i++) {
    const rawKey = shape.rawKeys[shape.order[i]!]!;
    const value = map[rawKey];
    if (typeof value !== 'number' || !(value >= 0 && value <= MAX_FIO_NUMBER)) {
      return invalid(
        `${path}.${rawKey}`,
        `expected a latency (a number from 0 to 2^64), got ${describeValue(value)}`,
      );
    }
    // Keys are short numeric strings, so assigning into a plain object cannot reach a prototype.
    percentiles[shape.keys[i]!] = value / divisor;
  }
  return { ok: true, value: { percentiles, list: shape.list } };
}

/**
 * Percentiles of one histogram, the way fio computes them (stat.c `calc_clat_percentiles`): walk
 * the buckets in order, and the p-th percentile is the first bucket whose cumulative count
 * reaches p% of all samples. Merging the json+ `bins` of several jobs and applying this
 * reproduces fio's own combined percentiles exactly (docs/fio-format.md §3.2).
 */
export function percentilesFromBins(
  bins: Bins,
  list: readonly number[],
  divisor: number,
): PercentilesMs | null {
  if (bins.total <= 0 || list.length === 0) return null;
  const sorted = [...list].sort((a, b) => a - b);
  const out: PercentilesMs = {};
  let j = 0;
  let cumulative = 0;
  for (let i = 0; i < bins.values.length && j < sorted.length; i++) {
    cumulative += bins.counts[i]!;
    // Same operation order as fio's `(p / 100.0) * nr`, so thresholds round identically.
    while (j < sorted.length && cumulative >= (sorted[j]! / 100) * bins.total) {
      out[percentileKey(sorted[j]!)] = bins.values[i]! / divisor;
      j += 1;
    }
  }
  return j === 0 ? null : out;
}

/**
 * Adds histograms with the same unit: the union of buckets, counts summed, sorted by bucket.
 * Each histogram is already sorted, so they are merged pairwise like the merge phase of a merge
 * sort: O(N log k) for k histograms, however many distinct buckets a (hostile) file invents.
 */
export function mergeBins(all: readonly Bins[]): Bins {
  let level: Bins[] = [...all];
  if (level.length === 0) return { values: new Float64Array(0), counts: new Float64Array(0), total: 0 };
  while (level.length > 1) {
    const next: Bins[] = [];
    for (let i = 0; i < level.length; i += 2) {
      next.push(i + 1 < level.length ? mergeTwo(level[i]!, level[i + 1]!) : level[i]!);
    }
    level = next;
  }
  return level[0]!;
}

function mergeTwo(a: Bins, b: Bins): Bins {
  const values = new Float64Array(a.values.length + b.values.length);
  const counts = new Float64Array(values.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.values.length || j < b.values.length) {
    const va = i < a.values.length ? a.values[i]! : Infinity;
    const vb = j < b.values.length ? b.values[j]! : Infinity;
    if (va <= vb) {
      values[n] = va;
      counts[n] = a.counts[i++]!;
      if (va === vb) counts[n]! += b.counts[j++]!;
    } else {
      values[n] = vb;
      counts[n] = b.counts[j++]!;
    }
    n += 1;
  }
  return { values: values.subarray(0, n), counts: counts.subarray(0, n), total: a.total + b.total };
}

/** Per percentile, the smallest and largest value over several jobs: the combined value lies between. */
export function percentileRange(all: readonly PercentilesMs[]): PercentileRangeMs | null {
  // Keys are our own short numeric strings ("99.9"), so a plain object is a safe map here.
  const range: PercentileRangeMs = {};
  let size = 0;
  for (const percentiles of all) {
    for (const key in percentiles) {
      const value = percentiles[key]!;
      const r = range[key];
      if (r === undefined) {
        range[key] = { min: value, max: value };
        size += 1;
      } else {
        if (value < r.min) r.min = value;
        if (value > r.max) r.max = value;
      }
    }
  }
  if (size === 0) return null;
  // Integer-like keys ("1", "99") enumerate before "99.5" whatever the insertion order; build the
  // result in ascending percentile order so readers see what fio printed.
  const keys = Object.keys(range).sort((a, b) => Number(a) - Number(b));
  const out: PercentileRangeMs = {};
  for (const key of keys) out[key] = range[key]!;
  return out;
}
