/**
 * Chart series are cut to at most 2,000 points before they reach Recharts: mount time jumps from
 * ~31 ms at 2k points to ~309 ms at 5k and seconds beyond (docs/performance.md P12). Two reducers:
 *
 * - `lttb`: Largest-Triangle-Three-Buckets (Steinarsson 2013) for one series — keeps the visual
 *   shape, the first and the last point.
 * - `downsampleRows`: min–max decimation for rows carrying several series — per bucket it keeps the
 *   rows that hold each series' minimum and maximum, so spikes (latency cliffs!) survive.
 *
 * Both return the input unchanged when it is already small enough. They pick points; they never
 * invent or average values, so every plotted number is a measured one.
 */

export const MAX_CHART_POINTS = 2000;

export type XY = { x: number; y: number };

export function lttb<T extends XY>(points: readonly T[], threshold: number = MAX_CHART_POINTS): T[] {
  const n = points.length;
  if (threshold >= n || n <= 2) return points.slice();
  if (threshold < 3) return [points[0]!, points[n - 1]!].slice(0, Math.max(threshold, 0));
  const sampled: T[] = [points[0]!];
  const bucketSize = (n - 2) / (threshold - 2);
  let a = 0;
  for (let i = 0; i < threshold - 2; i += 1) {
    // Average of the next bucket (the third point of the triangle).
    const nextStart = Math.floor((i + 1) * bucketSize) + 1;
    const nextEnd = Math.min(Math.floor((i + 2) * bucketSize) + 1, n);
    let avgX = 0;
    let avgY = 0;
    const nextLen = Math.max(nextEnd - nextStart, 1);
    for (let j = nextStart; j < nextEnd; j += 1) {
      avgX += points[j]!.x;
      avgY += points[j]!.y;
    }
    if (nextEnd > nextStart) {
      avgX /= nextLen;
      avgY /= nextLen;
    } else {
      avgX = points[n - 1]!.x;
      avgY = points[n - 1]!.y;
    }
    // The point of this bucket forming the largest triangle with the previous pick and that average.
    const start = Math.floor(i * bucketSize) + 1;
    const end = Math.min(Math.floor((i + 1) * bucketSize) + 1, n - 1);
    const pa = points[a]!;
    let maxArea = -1;
    let pick = start;
    for (let j = start; j < end; j += 1) {
      const p = points[j]!;
      const area = Math.abs((pa.x - avgX) * (p.y - pa.y) - (pa.x - p.x) * (avgY - pa.y));
      if (area > maxArea) {
        maxArea = area;
        pick = j;
      }
    }
    sampled.push(points[pick]!);
    a = pick;
  }
  sampled.push(points[n - 1]!);
  return sampled;
}

/**
 * Min–max decimation over rows with several numeric series (`keys`). Keeps the first and last row
 * and, per bucket, the rows holding each series' min and max, in their original order. The result
 * has at most `max` rows.
 */
export function downsampleRows<T extends Record<string, unknown>>(
  rows: readonly T[],
  keys: readonly (keyof T & string)[],
  max: number = MAX_CHART_POINTS,
): T[] {
  if (rows.length <= max) return rows.slice();
  if (max < 2) return rows.slice(0, Math.max(max, 0));
  const perBucket = Math.max(2 * keys.length, 1);
  const buckets = Math.max(1, Math.floor((max - 2) / perBucket));
  const inner = rows.length - 2;
  const keep = new Set<number>([0, rows.length - 1]);
  for (let b = 0; b < buckets; b += 1) {
    const start = 1 + Math.floor((b * inner) / buckets);
    const end = 1 + Math.floor(((b + 1) * inner) / buckets);
    for (const key of keys) {
      let minI = -1;
      let maxI = -1;
      let minV = Infinity;
      let maxV = -Infinity;
      for (let i = start; i < end; i += 1) {
        const v = rows[i]![key];
        if (typeof v !== 'number' || !Number.isFinite(v)) continue;
        if (v < minV) {
          minV = v;
          minI = i;
        }
        if (v > maxV) {
          maxV = v;
          maxI = i;
        }
      }
      if (minI >= 0) keep.add(minI);
      if (maxI >= 0) keep.add(maxI);
    }
  }
  return [...keep].sort((a, b) => a - b).map((i) => rows[i]!);
}
