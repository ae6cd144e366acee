import { describe, expect, it } from 'vitest';
import { compareLatency, detectCliffs, judgeLatency, sortedPercentiles } from './latency.ts';

const summary = (percentiles: Record<string, number>) => ({ percentiles, approximate: false, meanMs: null });

describe('judgeLatency (saturated thresholds, halved for synchronous commits)', () => {
  it.each([
    ['50', 90, false, 'ok'],
    ['50', 120, false, 'watch'],
    ['50', 160, false, 'concern'],
    ['99', 310, false, 'concern'],
    ['99.9', 260, false, 'watch'],
    ['99.99', 900, false, 'watch'],
    ['99.99', 900, true, 'concern'],
    ['50', 60, true, 'watch'],
  ] as const)('p%s = %d ms (sync %s) → %s', (p, value, syncCommits, verdict) => {
    const [v] = judgeLatency({ [p]: value }, { load: 'saturated', syncCommits });
    expect(v!.verdict).toBe(verdict);
  });

  it('under light load only p50 is judged, and above 10 ms something is wrong', () => {
    const v = judgeLatency({ '50': 12, '99': 40 }, { load: 'light', syncCommits: false });
    expect(v).toHaveLength(1);
    expect(v[0]).toMatchObject({ percentile: '50', verdict: 'concern' });
  });
});

describe('detectCliffs', () => {
  it('finds the stall in 60 → 80 → 130 → 160 → 900 ms', () => {
    const cliffs = detectCliffs({ '50': 60, '90': 80, '99': 130, '99.9': 160, '99.99': 900 });
    expect(cliffs).toEqual([{ from: '99.9', to: '99.99', fromMs: 160, toMs: 900, ratio: 900 / 160 }]);
  });
  it('a smooth but long tail (gp2: 16.8 → 40.2 → 69.1 ms) is not a cliff', () => {
    expect(detectCliffs({ '99': 16.8, '99.9': 40.2, '99.99': 69.1 })).toEqual([]);
  });
  it('ignores µs-scale jumps', () => {
    expect(detectCliffs({ '50': 0.05, '99': 0.3 })).toEqual([]);
  });
});

describe('compareLatency: EBS vs NVMe', () => {
  it('EBS as good: p50 not above NVMe, p99 within 20%, p99.9 within 2×', () => {
    const c = compareLatency(
      summary({ '50': 0.5, '99': 1.1, '99.9': 2 }),
      summary({ '50': 0.6, '99': 1, '99.9': 1.5 }),
    );
    expect(c.findings.map((f) => f.code)).toEqual(['p50_as_good', 'p99_within_20pct', 'p999_ok']);
    expect(c.overall).toBe('ebs-as-good');
  });
  it('investigate jitter when EBS p99.9 is more than twice NVMe', () => {
    const c = compareLatency(
      summary({ '50': 0.8, '99': 1.1, '99.9': 9 }),
      summary({ '50': 0.6, '99': 1, '99.9': 3 }),
    );
    expect(c.findings.map((f) => f.code)).toEqual(['p50_slower', 'p99_within_20pct', 'p999_jitter']);
    expect(c.overall).toBe('investigate');
    expect(c.rows.find((r) => r.percentile === '50')!.delta).toBeCloseTo(1 / 3, 9);
  });
  it('only compares percentiles both runs have', () => {
    const c = compareLatency(summary({ '50': 1, '95': 2 }), summary({ '50': 1, '99': 2 }));
    expect(c.rows.map((r) => r.percentile)).toEqual(['50']);
  });
});

describe('sortedPercentiles', () => {
  it('orders keys by their number, as a stable sort does, whether or not they come in order', () => {
    // Integer-like keys enumerate first, so "100" comes before "99.5" in the object.
    expect(sortedPercentiles({ '99.5': 2, '100': 3, '50': 1 }).map(([k]) => k)).toEqual([
      '50',
      '99.5',
      '100',
    ]);
    // Equal numbers keep their order; in order already, the entries are as they are.
    expect(sortedPercentiles({ '99.90': 1, '99.9': 2, '5': 0 })).toEqual([
      ['5', 0],
      ['99.90', 1],
      ['99.9', 2],
    ]);
    const fio = { '1': 0.1, '50': 0.2, '99': 0.3, '99.5': 0.4, '99.99': 0.5 };
    expect(sortedPercentiles(fio)).toEqual(Object.entries(fio));
  });
});
