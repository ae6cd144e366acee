import type {
  ConcurrencyGrid,
  ConcurrencyGroups,
  ConcurrencyStore,
  FleetVolume,
  MetricName,
} from './schema.ts';

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
  return { grids: new Map(), unaligned: new Set() };
}

/** gcd of two whole numbers of milliseconds (metrics.ts has the same; importing it would make a cycle). */
function gcd(a: number, b: number): number {
  while (b > 0) [a, b] = [b, a % b];
  return a;
}

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
 * Adds one result's points to the grids of the instances the volume counts toward; `times` null
 * when the points cannot be placed in time (the volume is then `unaligned`).
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
  const timeOf = 'timeOf' in times ? times.timeOf : (i: number) => times.firstMs + i * times.stepMs;
  const oldest = Math.min(timeOf(0), timeOf(n - 1));
  for (const instanceId of instanceIds) {
    let g = store.grids.get(instanceId);
    if (g === undefined) store.grids.set(instanceId, (g = newGrid(oldest, stepMs > 0 ? stepMs : 60_000)));
    if (!('timeOf' in times)) {
      addLinear(g, which, values, times.firstMs, times.stepMs);
      continue;
    }
    cellOf(g, oldest); // grow at the front once, then in time order
    for (let i = 0; i < n; i++) g[which][cellOf(g, timeOf(i))]! += values[i]!;
  }
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
  for (const [instanceId, g] of part.grids) {
    const target = into.grids.get(instanceId);
    if (target === undefined) {
      into.grids.set(instanceId, g);
      continue;
    }
    if (g.length === 0) continue;
    addLinear(target, 'ops', g.ops.subarray(0, g.length), g.originMs, g.stepMs);
    addLinear(target, 'bytes', g.bytes.subarray(0, g.length), g.originMs, g.stepMs);
  }
}
