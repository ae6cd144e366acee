import type { IoSeries } from './series.schema.ts';

/**
 * The whole of an `nvme amzn stats` series (nvme-amzn.ts) in a few numbers: the seconds spent
 * over each limit, how many intervals touched one, and the operation-weighted average and the
 * worst percentiles of the latency. The per-interval values stay in `series.ebsNvme`.
 */
export type EbsNvmeSummary = {
  intervals: number;
  /** Seconds over each limit, summed over the intervals (the EBS counters are µs; ÷ 1e6). */
  exceededSec: {
    volumeIops: number;
    volumeThroughput: number;
    instanceIops: number;
    instanceThroughput: number;
  };
  /** Intervals in which any of the four limits held I/O back for some time. */
  intervalsOverLimit: number;
  read: LatencySummary;
  write: LatencySummary;
};
type LatencySummary = {
  /** Σ(average µs × operations/s) ÷ Σ operations/s: each interval weighted by its operations (same-length intervals). */
  meanUs: number | null;
  /** The highest p99 of any interval (µs, a histogram bin's upper bound) and when. */
  worstP99: { us: number; timeMs: number } | null;
  worstP999: { us: number; timeMs: number } | null;
};

const sum = (values: readonly (number | null)[]) => values.reduce<number>((s, v) => s + (v ?? 0), 0);

function worst(values: readonly (number | null)[], timeMs: readonly number[]) {
  let best: { us: number; timeMs: number } | null = null;
  for (const [i, v] of values.entries())
    if (v !== null && (best === null || v > best.us)) best = { us: v, timeMs: timeMs[i]! };
  return best;
}

function summarizeLatency(
  latency: NonNullable<IoSeries['ebsNvme']>['readLatencyUs'],
  iops: readonly (number | null)[],
  timeMs: readonly number[],
): LatencySummary {
  let weighted = 0;
  let weight = 0;
  for (const [i, avg] of latency.avg.entries()) {
    const ops = iops[i] ?? 0;
    if (avg !== null && ops > 0) {
      weighted += avg * ops;
      weight += ops;
    }
  }
  return {
    meanUs: weight > 0 ? weighted / weight : null,
    worstP99: worst(latency.p99, timeMs),
    worstP999: worst(latency.p999, timeMs),
  };
}

/** Null for a series that is not from `nvme amzn stats`. */
export function summarizeEbsNvme(series: IoSeries): EbsNvmeSummary | null {
  const e = series.ebsNvme;
  if (!e) return null;
  const x = e.exceededSec;
  const overLimit = series.timeMs.filter(
    (_, i) =>
      (x.volumeIops[i] ?? 0) > 0 ||
      (x.volumeThroughput[i] ?? 0) > 0 ||
      (x.instanceIops[i] ?? 0) > 0 ||
      (x.instanceThroughput[i] ?? 0) > 0,
  ).length;
  return {
    intervals: series.timeMs.length,
    exceededSec: {
      volumeIops: sum(x.volumeIops),
      volumeThroughput: sum(x.volumeThroughput),
      instanceIops: sum(x.instanceIops),
      instanceThroughput: sum(x.instanceThroughput),
    },
    intervalsOverLimit: overLimit,
    read: summarizeLatency(e.readLatencyUs, series.readIops, series.timeMs),
    write: summarizeLatency(e.writeLatencyUs, series.writeIops, series.timeMs),
  };
}
