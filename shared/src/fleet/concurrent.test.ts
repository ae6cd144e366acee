import { describe, expect, it } from 'vitest';
import { addToInstances, contiguousTimes, createConcurrencyStore, mergeConcurrency } from './concurrent.ts';

const T0 = Date.UTC(2026, 10, 1);
const cells = (store: ReturnType<typeof createConcurrencyStore>, id: string) => {
  const g = store.grids.get(id)!;
  return Array.from({ length: g.length }, (_, i) => [(g.originMs + i * g.stepMs - T0) / 60_000, g.ops[i]]);
};

describe('per-instance grids of summed Sums', () => {
  it('contiguous points are placed by their ends, either direction; gaps make the result unplaceable', () => {
    expect(contiguousTimes(T0, T0 + 2 * 300_000, 3, 300_000)).toEqual({ firstMs: T0, stepMs: 300_000 });
    expect(contiguousTimes(T0 + 600_000, T0, 3, 300_000)).toEqual({
      firstMs: T0 + 600_000,
      stepMs: -300_000,
    });
    // 3 points over 15 minutes at 300 s: one period is missing, which one is unknown
    expect(contiguousTimes(T0, T0 + 900_000, 3, 300_000)).toBeNull();
  });

  it('an hourly-spaced volume and a 5-minute one on one instance: the grid refines to 5 minutes, sums at equal times', () => {
    const s = createConcurrencyStore();
    // Hourly points (an hourly job whose other periods had no I/O), then 5-minute points over the first hour.
    addToInstances(
      s,
      ['i-1'],
      'vol-h',
      'VolumeReadOps',
      [600, 1200],
      { firstMs: T0, stepMs: 3_600_000 },
      3_600_000,
    );
    addToInstances(
      s,
      ['i-1'],
      'vol-m',
      'VolumeWriteOps',
      [10, 20, 30],
      { firstMs: T0 + 600_000, stepMs: -300_000 },
      300_000,
    );
    const c = cells(s, 'i-1');
    expect(c[0]).toEqual([0, 630]); // 600 (vol-h) + 30 (vol-m, newest-first: its last value is the oldest)
    expect(c[1]).toEqual([5, 20]);
    expect(c[2]).toEqual([10, 10]);
    expect(c[12]).toEqual([60, 1200]);
  });

  it('a Multi-Attach volume is added to each instance; merging parts read apart adds them', () => {
    const a = createConcurrencyStore();
    const b = createConcurrencyStore();
    addToInstances(
      a,
      ['i-1', 'i-2'],
      'vol-s',
      'VolumeReadOps',
      [100, 100],
      { firstMs: T0, stepMs: 300_000 },
      300_000,
    );
    addToInstances(
      b,
      ['i-1'],
      'vol-x',
      'VolumeReadOps',
      [5, 5, 5],
      { firstMs: T0 - 300_000, stepMs: 300_000 },
      300_000,
    );
    addToInstances(b, ['i-1'], 'vol-gap', 'VolumeReadOps', [1], null, 300_000);
    mergeConcurrency(a, b);
    expect(cells(a, 'i-1')).toEqual([
      [-5, 5],
      [0, 105],
      [5, 105],
    ]);
    expect(cells(a, 'i-2')).toEqual([
      [0, 100],
      [5, 100],
    ]);
    expect([...a.unaligned]).toEqual(['vol-gap']);
  });
});
