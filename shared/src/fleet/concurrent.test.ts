import { describe, expect, it } from 'vitest';
import {
  addToInstances,
  contiguousTimes,
  createConcurrencyStore,
  MAX_TOTAL_CELLS,
  mergeConcurrency,
} from './concurrent.ts';

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

  it('grid memory is bounded by the points, not by their stamps: a stamp 1 ms off, points decades apart', () => {
    // 14 days of 1-minute points (20,160) whose 10th stamp is 1 ms late: before, the grid refined to
    // 1 ms cells (1.2e9); now the volume is unaligned and no grid grows.
    const s = createConcurrencyStore();
    const n = 14 * 1440;
    const stamps = Array.from({ length: n }, (_, i) => T0 + i * 60_000 + (i === 10 ? 1 : 0));
    const values = new Float64Array(n).fill(5);
    addToInstances(s, ['i-1'], 'vol-a', 'VolumeReadOps', values, { timeOf: (i) => stamps[i]! }, 60_000);
    expect(s.grids.get('i-1')?.length ?? 0).toBe(0);
    expect(s.cells).toBe(0);
    expect([...s.unaligned]).toEqual(['vol-a']);

    // Two aligned 1-minute points 30 years apart: 15.8 M cells before; now the instance overflows.
    const far = createConcurrencyStore();
    const thirtyYears = 30 * 365 * 86_400_000;
    addToInstances(
      far,
      ['i-2'],
      'vol-b',
      'VolumeReadOps',
      [1, 2],
      { timeOf: (i) => T0 - i * thirtyYears },
      60_000,
    );
    expect(far.grids.has('i-2')).toBe(false);
    expect(far.cells).toBe(0);
    expect([...far.overflow]).toEqual(['i-2']);

    // 5,000 instances of 14 days at 1 minute (100 M cells): the total stays under the cap.
    const many = createConcurrencyStore();
    const week2 = new Float64Array(n).fill(1);
    for (let k = 0; k < 5_000; k++)
      addToInstances(
        many,
        [`i-${k}`],
        `vol-${k}`,
        'VolumeReadOps',
        week2,
        { firstMs: T0, stepMs: 60_000 },
        60_000,
      );
    let total = 0;
    for (const g of many.grids.values()) total += g.length;
    expect(total).toBe(many.cells);
    expect(total).toBeLessThanOrEqual(MAX_TOTAL_CELLS);
    expect(many.overflow.size).toBe(5_000 - Math.floor(MAX_TOTAL_CELLS / n));
  });
});
