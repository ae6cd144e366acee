/**
 * Latency histograms as both EBS sources give them: `nvme amzn stats` (bins with a lower and an
 * upper bound in µs, nvme-amzn.ts) and the EBS CSI driver's Prometheus histograms (cumulative
 * `le` buckets in seconds, ebs-csi.ts, turned into the same bins). One reading of a percentile
 * serves both, so the two sources' p99 of the same operations are the same number.
 */

/** One bin of operations: the latency bounds (µs) and how many completed within them. */
export type LatencyBin = { lowerUs: number; upperUs: number; count: number };

/**
 * A percentile from histogram bins, conservatively: the upper bound (µs) of the bin in which the
 * cumulative count first reaches the rank ⌈N × numerator ÷ denominator⌉ (nearest rank). Integer
 * arithmetic, so p99 of 180,000 operations is rank 178,200 exactly. Null without operations, and
 * null when the rank falls in an unbounded bin (Prometheus's `le="+Inf"`): no upper bound to give.
 */
export function percentileUpperUs(
  bins: readonly LatencyBin[],
  numerator: number,
  denominator: number,
): number | null {
  const total = bins.reduce((sum, b) => sum + b.count, 0);
  if (total === 0) return null;
  const rank = Math.ceil((total * numerator) / denominator);
  let cumulative = 0;
  for (const b of bins) {
    cumulative += b.count;
    if (cumulative >= rank) return Number.isFinite(b.upperUs) ? b.upperUs : null;
  }
  return bins.at(-1)!.upperUs;
}

/** One interval's latency, µs: [average from the total time, p50, p99, p99.9 from the bins]. */
export type IntervalLatency = [number | null, number | null, number | null, number | null];

/** Operations, their summed time (µs) and the interval's bins (null: unknown) → IntervalLatency. */
export function intervalLatency(
  ops: number,
  timeUs: number,
  bins: readonly LatencyBin[] | null,
): IntervalLatency {
  return [
    ops > 0 ? timeUs / ops : null,
    bins ? percentileUpperUs(bins, 1, 2) : null,
    bins ? percentileUpperUs(bins, 99, 100) : null,
    bins ? percentileUpperUs(bins, 999, 1000) : null,
  ];
}
