import { describe, expect, it } from 'vitest';
import { intervalLatency, percentileUpperUs } from './latency-bins.ts';

describe('percentiles from histogram bins', () => {
  const bins = (counts: number[]) =>
    counts.map((count, i) => ({ lowerUs: i * 100, upperUs: (i + 1) * 100, count }));
  it.each([
    // counts, numerator/denominator, expected upper bound (µs)
    [[0, 0, 0], 99, 100, null], // no operation
    [[100], 99, 100, 100], // a single bin: its upper bound
    [[99, 1], 99, 100, 100], // rank ⌈100 × 0.99⌉ = 99: reached in bin 1
    [[98, 2], 99, 100, 200], // rank 99 > 98: bin 2
    [[1, 0, 0, 1], 1, 2, 100], // rank 1 of 2
  ])('%j at %i/%i → %s', (counts, numerator, denominator, expected) => {
    expect(percentileUpperUs(bins(counts), numerator, denominator)).toBe(expected);
  });

  it('a rank in the unbounded bin (Prometheus le="+Inf") has no upper bound to give', () => {
    const open = [
      { lowerUs: 0, upperUs: 100, count: 90 },
      { lowerUs: 100, upperUs: Infinity, count: 10 },
    ];
    expect(percentileUpperUs(open, 1, 2)).toBe(100);
    expect(percentileUpperUs(open, 99, 100)).toBeNull();
  });
});

describe("one interval's latency", () => {
  it('averages the total time over the operations and reads p50, p99, p99.9 from the bins', () => {
    // 1,000 operations: 500 ≤ 100 µs, 490 ≤ 200 µs, 9 ≤ 400 µs, 1 ≤ 800 µs; 150,000 µs in all.
    const bins = [500, 490, 9, 1].map((count, i) => ({ lowerUs: 0, upperUs: 100 * 2 ** i, count }));
    expect(intervalLatency(1000, 150_000, bins)).toEqual([150, 100, 200, 400]);
    expect(intervalLatency(0, 0, null)).toEqual([null, null, null, null]);
  });
});
