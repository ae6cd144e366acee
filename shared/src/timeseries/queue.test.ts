import { describe, expect, it } from 'vitest';
import { iopsFromQueue, queueDepthFromIops } from './queue.ts';

describe("Little's law: IOPS = queue depth ÷ latency", () => {
  it.each([
    { queueDepth: 4, latencyMs: 0.1, iops: 40_000, what: '4 in flight on local NVMe' },
    { queueDepth: 4, latencyMs: 1, iops: 4_000, what: 'the same queue on EBS' },
    { queueDepth: 1, latencyMs: 0.5, iops: 2_000, what: 'a single-threaded writer at 0.5 ms' },
    { queueDepth: 32, latencyMs: 2, iops: 16_000, what: 'a deep queue at 2 ms' },
  ])('$what: $queueDepth ÷ $latencyMs ms = $iops IOPS, and back', ({ queueDepth, latencyMs, iops }) => {
    expect(iopsFromQueue(queueDepth, latencyMs)).toBeCloseTo(iops, 9);
    expect(queueDepthFromIops(iops, latencyMs)).toBeCloseTo(queueDepth, 9);
  });

  it('no latency, no rate (never a division by zero)', () => {
    expect(iopsFromQueue(3, 0)).toBeNull();
  });
});
