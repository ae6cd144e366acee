import type {
  ConcurrencyGrid,
  ConcurrencyGroups,
  ConcurrencyStore,
  FleetVolume,
  MetricName,
} from './schema.ts';
import { gcdMs as gcd } from './gcd.ts';

/**
 * Per-instance concurrency (docs/fleet.md §2, "Instances"): the volumes of one instance share its
 * EBS caps, so their rates are added point by point — at the same timestamps — not peak + peak.
 * The reader never keeps a volume's points (metrics.ts), so the sums are accumulated while reading:
 * one grid of Sums per instance, indexed by time. Only instances with two or more volumes (or a
 * Multi-Attach volume) get one: a lone volume's peak is already the instance's.
 */

/**
 * Which volumes to sum per instance: those in use on an instance with at least two volumes, and
 * every Multi-Attach volume (it counts in full toward each instance it is attached to: CloudWatch's
 * VolumeReadOps/WriteOps report the volume's total, not one attachment's).
 */
export function concurrencyGroupsOf(volumes: readonly FleetVolume[]): ConcurrencyGroups {
  const perInstance = new Map<string, string[]>();
  for (const v of volumes)
    for (const id of attachmentsOf(v)) {
      const list = perInstance.get(id) ?? [];
      list.push(v.volumeId);
      perInstance.set(id, list);
    }
  const groups = new Map<string, string[]>();
  for (const [instanceId, ids] of perInstance) {
    if (ids.length < 2) continue;
    for (const id of ids) groups.set(id, [...(groups.get(id) ?? []), instanceId]);
  }
  for (const v of volumes)
    if (v.alsoAttachedTo.length > 0 && v.state === 'in-use') groups.set(v.volumeId, attachmentsOf(v));
  return groups;
}

/** The instances a volume in use is attached to (the first, then the Multi-Attach others). */
export function attachmentsOf(v: FleetVolume): string[] {
  if (v.instanceId === null || v.state !== 'in-use') return [];
  return [v.instanceId, ...v.alsoAttachedTo];
}

export function createConcurrencyStore(): ConcurrencyStore {
  return { grids: new Map(), unaligned: new Set(), overflow: new Set(), cells: 0 };
}

const MINUTE_MS = 60_000;
/**
 * The longest span a grid covers: CloudWatch keeps 1-hour points for 455 days (15 months, Amazon
 * CloudWatch concepts, "Metrics retention"); longer is not one query's data. At the finest step a
 * stamp may take (one minute: EBS metrics are per minute at best) that is 655,200 cells per grid.
 */
export const MAX_GRID_SPAN_MS = 455 * 86_400_000;
/** Cells over all of one reading's grids (two Float64Arrays each, grown up to 2×): ≤ ~512 MB allocated. */
export const MAX_TOTAL_CELLS = 16_000_000;

const isOps = (metric: MetricName) => metric === 'VolumeReadOps' || metric === 'VolumeWriteOps';

function newGrid(originMs: number, stepMs: number): ConcurrencyGrid {
  return { stepMs, originMs, length: 0, ops: new Float64Array(64), bytes: new Float64Array(64) };
}

/** Re-indexes a grid on a finer step (every old cell lands on a multiple of the new one). */
function refine(g: ConcurrencyGrid, stepMs: number) {
  const factor = g.stepMs / stepMs;
  const length = (g.length - 1) * factor + 1;
  const ops = new Float64Array(Math.max(64, length * 2));
  const bytes = new Float64Array(ops.length);
  for (let i = 0; i < g.length; i++) {
    ops[i * factor] = g.ops[i]!;
    bytes[i * factor] = g.bytes[i]!;
  }
  Object.assign(g, { stepMs, length: g.length === 0 ? 0 : length, ops, bytes });
}

/** The cell of `t`, growing the grid (before its origin, or after its end) as needed. */
function cellOf(g: ConcurrencyGrid, t: number): number {
  const offset = t - g.originMs;
  if (offset % g.stepMs !== 0) refine(g, gcd(g.stepMs, Math.abs(offset)));
  let index = (t - g.originMs) / g.stepMs;
  if (index < 0) {
    const shift = -index;
    const size = Math.max(g.ops.length, g.length + shift) * 2;
    const ops = new Float64Array(size);
    const bytes = new Float64Array(size);
    ops.set(g.ops.subarray(0, g.length), shift);
    bytes.set(g.bytes.subarray(0, g.length), shift);
    Object.assign(g, { ops, bytes, originMs: t, length: g.length + shift });
    index = 0;
  }
  if (index >= g.ops.length) {
    const size = Math.max(index + 1, g.ops.length * 2);
    const ops = new Float64Array(size);
    const bytes = new Float64Array(size);
    ops.set(g.ops.subarray(0, g.length));
    bytes.set(g.bytes.subarray(0, g.length));
    Object.assign(g, { ops, bytes });
  }
  if (index >= g.length) g.length = index + 1;
  return index;
}

/**
 * When a result's points are: evenly spaced from `firstMs` by `stepMs` (negative: newest first,
 * as get-metric-data answers by default), or listed one by one.
 */
export type PointTimes = { firstMs: number; stepMs: number } | { timeOf: (i: number) => number };

/**
 * Adds evenly spaced values to one of a grid's arrays: the grid is grown and refined once for the
 * range, then each value goes to its cell by index (the hot path: ~16 M points per 1,000 volumes).
 */
function addLinear(
  g: ConcurrencyGrid,
  which: 'ops' | 'bytes',
  values: ArrayLike<number>,
  firstMs: number,
  stepMs: number,
) {
  const n = values.length;
  const abs = Math.abs(stepMs);
  const lo = stepMs >= 0 ? firstMs : firstMs + (n - 1) * stepMs;
  cellOf(g, lo);
  if (n > 1) {
    cellOf(g, lo + abs);
    cellOf(g, lo + (n - 1) * abs);
  }
  const c0 = (lo - g.originMs) / g.stepMs;
  const stride = n > 1 ? abs / g.stepMs : 0;
  const arr = g[which];
  if (stepMs >= 0) for (let i = 0; i < n; i++) arr[c0 + i * stride]! += values[i]!;
  else for (let i = 0; i < n; i++) arr[c0 + (n - 1 - i) * stride]! += values[i]!;
}

/**
 * The length `g` would have once it holds points from loMs to hiMs whose offsets from loMs share
 * the divisor divMs (0: a single point): the grid's step becomes the gcd of all offsets.
 */
function lengthAfter(g: ConcurrencyGrid, loMs: number, hiMs: number, divMs: number) {
  const end = g.length === 0 ? hiMs : Math.max(g.originMs + (g.length - 1) * g.stepMs, hiMs);
  const origin = g.length === 0 ? loMs : Math.min(g.originMs, loMs);
  const step = gcd(gcd(g.stepMs, divMs), Math.abs(loMs - g.originMs));
  return { span: end - origin, length: (end - origin) / step + 1 };
}

/**
 * Whether instance `id` may take the points (its grid's span ≤ MAX_GRID_SPAN_MS, all grids' cells
 * ≤ MAX_TOTAL_CELLS); when not, its grid is dropped and the instance marked `overflow` (its rows
 * fall back to the volumes' peaks added, an upper bound) — memory stays bounded whatever the stamps.
 */
function admits(
  store: ConcurrencyStore,
  id: string,
  g: ConcurrencyGrid,
  lo: number,
  hi: number,
  div: number,
) {
  const next = lengthAfter(g, lo, hi, div);
  if (next.span <= MAX_GRID_SPAN_MS && store.cells - g.length + next.length <= MAX_TOTAL_CELLS) return true;
  store.overflow.add(id);
  if (store.grids.get(id) === g) {
    store.cells -= g.length;
    store.grids.delete(id);
  }
  return false;
}

/** Adds to the store's cell count what `g` grew by since it held `before` cells. */
function counted(store: ConcurrencyStore, g: ConcurrencyGrid, before: number) {
  store.cells += g.length - before;
}

/**
 * Adds one result's points to the grids of the instances the volume counts toward; `times` null
 * when the points cannot be placed in time (the volume is then `unaligned`). A stamp that is not a
 * whole minute (CloudWatch's points are at multiples of the Period, itself whole minutes) makes the
 * volume `unaligned` too: one stamp 1 ms off would otherwise refine the grid to 1 ms cells.
 */
export function addToInstances(
  store: ConcurrencyStore,
  instanceIds: readonly string[],
  volumeId: string,
  metric: MetricName,
  values: ArrayLike<number>,
  times: PointTimes | null,
  stepMs: number,
): void {
  const n = values.length;
  if (n === 0) return;
  if (times === null) {
    store.unaligned.add(volumeId);
    return;
  }
  const which = isOps(metric) ? 'ops' : 'bytes';
  const range = rangeOf(times, n);
  if (range === null) {
    store.unaligned.add(volumeId);
    return;
  }
  const { lo, hi, div } = range;
  for (const instanceId of instanceIds) {
    if (store.overflow.has(instanceId)) continue;
    const fresh = store.grids.get(instanceId);
    const g = fresh ?? newGrid(lo, stepMs > 0 && stepMs % MINUTE_MS === 0 ? stepMs : MINUTE_MS);
    if (!admits(store, instanceId, g, lo, hi, div)) continue;
    if (fresh === undefined) store.grids.set(instanceId, g);
    const before = g.length;
    if (!('timeOf' in times)) addLinear(g, which, values, times.firstMs, times.stepMs);
    else {
      cellOf(g, lo); // grow at both ends once, then place each point
      cellOf(g, hi);
      for (let i = 0; i < n; i++) g[which][cellOf(g, times.timeOf(i))]! += values[i]!;
    }
    counted(store, g, before);
  }
}

/**
 * The oldest and newest of n points' times and the gcd of their offsets from the oldest; null when
 * a time is not a whole minute (or not a time).
 */
function rangeOf(times: PointTimes, n: number): { lo: number; hi: number; div: number } | null {
  if (!('timeOf' in times)) {
    const abs = Math.abs(times.stepMs);
    if (times.firstMs % MINUTE_MS !== 0 || abs % MINUTE_MS !== 0) return null;
    const lo = times.stepMs >= 0 ? times.firstMs : times.firstMs + (n - 1) * times.stepMs;
    return { lo, hi: lo + (n - 1) * abs, div: n > 1 ? abs : 0 };
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = times.timeOf(i);
    if (!Number.isFinite(t) || t % MINUTE_MS !== 0) return null;
    if (t < lo) lo = t;
    if (t > hi) hi = t;
  }
  let div = 0;
  for (let i = 0; i < n && div !== MINUTE_MS; i++) div = gcd(div, times.timeOf(i) - lo);
  return { lo, hi, div };
}

/**
 * The times of a result whose only the ends (and spacing) are known: exact when its points are
 * contiguous — (count − 1) × spacing equals the span, so point i is at first ± i × spacing, in the
 * direction the result runs — else null.
 */
export function contiguousTimes(
  firstMs: number,
  lastMs: number,
  count: number,
  spacingMs: number,
): PointTimes | null {
  if (count === 1) return { firstMs, stepMs: 0 };
  if (spacingMs <= 0 || Math.abs(lastMs - firstMs) !== (count - 1) * spacingMs) return null;
  return { firstMs, stepMs: lastMs >= firstMs ? spacingMs : -spacingMs };
}

/** Adds a part's store (read in another thread) to `into`: sums are order-free. */
export function mergeConcurrency(into: ConcurrencyStore, part: ConcurrencyStore): void {
  for (const v of part.unaligned) into.unaligned.add(v);
  for (const id of part.overflow) {
    into.overflow.add(id);
    const dropped = into.grids.get(id);
    if (dropped !== undefined) into.cells -= dropped.length;
    into.grids.delete(id);
  }
  for (const [instanceId, g] of part.grids) {
    if (into.overflow.has(instanceId) || g.length === 0) continue;
    const hi = g.originMs + (g.length - 1) * g.stepMs;
    const target = into.grids.get(instanceId) ?? newGrid(g.originMs, g.stepMs);
    if (!admits(into, instanceId, target, g.originMs, hi, g.length > 1 ? g.stepMs : 0)) continue;
    if (!into.grids.has(instanceId)) {
      into.grids.set(instanceId, g);
      into.cells += g.length;
      continue;
    }
    const before = target.length;
    addLinear(target, 'ops', g.ops.subarray(0, g.length), g.originMs, g.stepMs);
    addLinear(target, 'bytes', g.bytes.subarray(0, g.length), g.originMs, g.stepMs);
    counted(into, target, before);
  }
}
