import { z } from 'zod';
import type { IoSeries } from './series.schema.ts';

/**
 * Statistics of an I/O series, per direction and combined (read + write): mean, p50, p95, p99,
 * max and when the max happened; block size (bytes ÷ operations) over time.
 *
 * Percentiles are nearest-rank (the ⌈p/100 × n⌉-th smallest point, no interpolation): every figure
 * is a value the series actually had, and "p99 of 4,032 five-minute points" means exactly 40
 * points were higher. Missing points are skipped (never counted as zero).
 */

export const RateSummarySchema = z.object({
  /** Points with a value. */
  points: z.number().int().nonnegative(),
  mean: z.number().nullable(),
  p50: z.number().nullable(),
  p95: z.number().nullable(),
  p99: z.number().nullable(),
  max: z.number().nullable(),
  /** Start of the period with the maximum (UTC ms): the peak window. */
  maxAtMs: z.number().nullable(),
});
export type RateSummary = z.infer<typeof RateSummarySchema>;

export const BlockSizeSummarySchema = z.object({
  /** Σ bytes ÷ Σ operations over the points with both: the workload's true average I/O size. */
  meanBytes: z.number().nullable(),
  p50Bytes: z.number().nullable(),
  minBytes: z.number().nullable(),
  maxBytes: z.number().nullable(),
  /** bytes/s ÷ IOPS in the period of the IOPS peak. */
  atIopsPeakBytes: z.number().nullable(),
});
export type BlockSizeSummary = z.infer<typeof BlockSizeSummarySchema>;

const DirectionSummarySchema = z.object({
  iops: RateSummarySchema,
  bytesPerSec: RateSummarySchema,
  blockSize: BlockSizeSummarySchema,
});

export const SeriesSummarySchema = z.object({
  periodSec: z.number(),
  points: z.number().int(),
  startMs: z.number(),
  /** End of the last period (start of the last point + period). */
  endMs: z.number(),
  read: DirectionSummarySchema,
  write: DirectionSummarySchema,
  /** read + write at each point (only where both directions have a value). */
  combined: z.object({ iops: RateSummarySchema, bytesPerSec: RateSummarySchema }),
});
export type SeriesSummary = z.infer<typeof SeriesSummarySchema>;

/** Nearest-rank percentile of ascending-sorted values. */
export function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function summarizeRates(values: readonly (number | null)[], timeMs: readonly number[]): RateSummary {
  const present: number[] = [];
  let max: number | null = null;
  let maxAtMs: number | null = null;
  let sum = 0;
  values.forEach((v, i) => {
    if (v === null) return;
    present.push(v);
    sum += v;
    if (max === null || v > max) {
      max = v;
      maxAtMs = timeMs[i]!;
    }
  });
  present.sort((a, b) => a - b);
  return {
    points: present.length,
    mean: present.length > 0 ? sum / present.length : null,
    p50: nearestRank(present, 50),
    p95: nearestRank(present, 95),
    p99: nearestRank(present, 99),
    max,
    maxAtMs,
  };
}

/** Average I/O size at each point: bytes/s ÷ IOPS (null without operations or without both values). */
export function blockSizeOverTime(series: IoSeries): {
  timeMs: number[];
  readBytes: (number | null)[];
  writeBytes: (number | null)[];
} {
  const at = (ops: readonly (number | null)[], bytes: readonly (number | null)[], i: number) => {
    const o = ops[i];
    const b = bytes[i];
    return o === null || o === undefined || b === null || b === undefined || !(o > 0) ? null : b / o;
  };
  return {
    timeMs: series.timeMs,
    readBytes: series.timeMs.map((_, i) => at(series.readIops, series.readBytesPerSec, i)),
    writeBytes: series.timeMs.map((_, i) => at(series.writeIops, series.writeBytesPerSec, i)),
  };
}

function blockSummary(
  ops: readonly (number | null)[],
  bytes: readonly (number | null)[],
  sizes: readonly (number | null)[],
  iopsPeakAt: number | null,
  timeMs: readonly number[],
): BlockSizeSummary {
  let opsSum = 0;
  let bytesSum = 0;
  const present: number[] = [];
  sizes.forEach((s, i) => {
    if (s === null) return;
    present.push(s);
    opsSum += ops[i]!;
    bytesSum += bytes[i]!;
  });
  present.sort((a, b) => a - b);
  const peakIndex = iopsPeakAt === null ? -1 : timeMs.indexOf(iopsPeakAt);
  return {
    meanBytes: opsSum > 0 ? bytesSum / opsSum : null,
    p50Bytes: nearestRank(present, 50),
    minBytes: present[0] ?? null,
    maxBytes: present[present.length - 1] ?? null,
    atIopsPeakBytes: peakIndex >= 0 ? (sizes[peakIndex] ?? null) : null,
  };
}

const addSeries = (a: readonly (number | null)[], b: readonly (number | null)[]) =>
  a.map((v, i) => (v === null || b[i] === null || b[i] === undefined ? null : v + b[i]!));

export function summarizeSeries(series: IoSeries): SeriesSummary {
  const t = series.timeMs;
  const sizes = blockSizeOverTime(series);
  const direction = (ops: (number | null)[], bytes: (number | null)[], blockSizes: (number | null)[]) => {
    const iops = summarizeRates(ops, t);
    return {
      iops,
      bytesPerSec: summarizeRates(bytes, t),
      blockSize: blockSummary(ops, bytes, blockSizes, iops.maxAtMs, t),
    };
  };
  return {
    periodSec: series.periodSec,
    points: t.length,
    startMs: t[0] ?? 0,
    endMs: (t[t.length - 1] ?? 0) + series.periodSec * 1000,
    read: direction(series.readIops, series.readBytesPerSec, sizes.readBytes),
    write: direction(series.writeIops, series.writeBytesPerSec, sizes.writeBytes),
    combined: {
      iops: summarizeRates(addSeries(series.readIops, series.writeIops), t),
      bytesPerSec: summarizeRates(addSeries(series.readBytesPerSec, series.writeBytesPerSec), t),
    },
  };
}
