import { z } from 'zod';
import type { IoSeries } from './series.schema.ts';

/**
 * Little's law for a disk: the average number of requests in flight L equals the rate at which
 * they complete λ times the time each spends W — L = λ·W, so **IOPS ≈ queue depth ÷ latency**.
 * iostat's `aqu-sz` is L, its `await` is W (issue to completion, queueing included) and its
 * requests per second are λ; sysstat computes aqu-sz from the kernel's weighted time in queue
 * (the sum of every request's time) and await from the same times ÷ the requests, so the law
 * holds point by point up to rounding.
 *
 * What it explains: at a given queue depth, IOPS falls as latency rises — 4 requests in flight
 * at 0.1 ms (local NVMe) is 40,000 IOPS, at 1 ms (EBS) 4,000. An application that keeps few I/Os
 * in flight (a database's single-threaded WAL writer, queue depth 1) is bounded by latency, not
 * by the volume's provisioned IOPS.
 */

/** λ = L ÷ W: the requests per second a queue depth sustains at a latency (ms); null without latency. */
export function iopsFromQueue(queueDepth: number, latencyMs: number): number | null {
  return latencyMs > 0 ? queueDepth / (latencyMs / 1000) : null;
}

/** L = λ·W: the requests in flight that a rate (per second) needs at a latency (ms). */
export function queueDepthFromIops(iops: number, latencyMs: number): number {
  return iops * (latencyMs / 1000);
}

export const QueueSummarySchema = z.object({
  /** Points with a queue depth, a latency and requests. */
  points: z.number().int().nonnegative(),
  meanQueueDepth: z.number(),
  /** Request-weighted mean latency (ms): Σ(requests × await) ÷ Σ requests. */
  meanAwaitMs: z.number().nullable(),
  /** Measured requests per second, mean over the points. */
  meanRequestsPerSec: z.number(),
  /** Little's law on the means: meanQueueDepth ÷ meanAwaitMs — equal to the measured mean when the law holds. */
  littleRequestsPerSec: z.number().nullable(),
  /** The point with the most requests per second, with its queue depth, latency and what the law gives. */
  busiest: z
    .object({
      timeMs: z.number(),
      requestsPerSec: z.number(),
      queueDepth: z.number(),
      awaitMs: z.number(),
      littleRequestsPerSec: z.number().nullable(),
    })
    .nullable(),
});
export type QueueSummary = z.infer<typeof QueueSummarySchema>;

/**
 * The device queue of a series that has one (iostat, sar): means over the points with all three
 * numbers, Little's law on them, and the busiest point. Null when the tool reported no queue.
 */
export function summarizeQueue(series: IoSeries): QueueSummary | null {
  const q = series.device?.queue;
  if (!q) return null;
  let n = 0;
  let depthSum = 0;
  let requestsSum = 0;
  let weightedAwait = 0;
  let busiest: QueueSummary['busiest'] = null;
  for (let i = 0; i < series.timeMs.length; i++) {
    const depth = q.queueDepth[i];
    const requests = q.requestsPerSec[i];
    if (depth === null || depth === undefined || requests === null || requests === undefined) continue;
    const awaitMs = q.awaitMs[i] ?? null;
    n += 1;
    depthSum += depth;
    requestsSum += requests;
    if (awaitMs !== null) weightedAwait += requests * awaitMs;
    if (awaitMs !== null && (busiest === null || requests > busiest.requestsPerSec)) {
      busiest = {
        timeMs: series.timeMs[i]!,
        requestsPerSec: requests,
        queueDepth: depth,
        awaitMs,
        littleRequestsPerSec: iopsFromQueue(depth, awaitMs),
      };
    }
  }
  if (n === 0) return null;
  const meanQueueDepth = depthSum / n;
  const meanAwaitMs = requestsSum > 0 ? weightedAwait / requestsSum : null;
  return {
    points: n,
    meanQueueDepth,
    meanAwaitMs,
    meanRequestsPerSec: requestsSum / n,
    littleRequestsPerSec: meanAwaitMs === null ? null : iopsFromQueue(meanQueueDepth, meanAwaitMs),
    busiest,
  };
}
