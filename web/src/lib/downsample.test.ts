import { describe, expect, it } from 'vitest';
import { MAX_CHART_POINTS, downsampleRows, lttb } from './downsample.ts';

const series = (n: number, f: (i: number) => number) =>
  Array.from({ length: n }, (_, i) => ({ x: i, y: f(i) }));

describe('lttb', () => {
  it('returns small series unchanged (a copy)', () => {
    const s = series(10, (i) => i * i);
    const out = lttb(s, 2000);
    expect(out).toEqual(s);
    expect(out).not.toBe(s);
  });

  it.each([
    [10_000, 2000],
    [100_000, 2000],
    [2001, 2000],
    [50, 3],
  ])('cuts %i points to %i, keeping the first and last', (n, threshold) => {
    const s = series(n, (i) => Math.sin(i / 50) * 100);
    const out = lttb(s, threshold);
    expect(out).toHaveLength(threshold);
    expect(out[0]).toBe(s[0]);
    expect(out.at(-1)).toBe(s.at(-1));
    // x stays strictly increasing: points are picked, never reordered.
    for (let i = 1; i < out.length; i += 1) expect(out[i]!.x).toBeGreaterThan(out[i - 1]!.x);
  });

  it('keeps a single spike (a latency cliff must survive)', () => {
    const s = series(20_000, () => 1);
    s[12_345] = { x: 12_345, y: 900 };
    const out = lttb(s, MAX_CHART_POINTS);
    expect(out.some((p) => p.y === 900)).toBe(true);
  });
});

describe('downsampleRows', () => {
  it('keeps at most max rows with every series extreme', () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => ({
      t: i,
      read: i === 31_337 ? 10_000 : 100 + (i % 7),
      write: i === 777 ? -5 : 200 + (i % 11),
    }));
    const out = downsampleRows(rows, ['read', 'write'], 2000);
    expect(out.length).toBeLessThanOrEqual(2000);
    expect(out[0]).toBe(rows[0]);
    expect(out.at(-1)).toBe(rows.at(-1));
    expect(out.some((r) => r.read === 10_000)).toBe(true);
    expect(out.some((r) => r.write === -5)).toBe(true);
    for (let i = 1; i < out.length; i += 1) expect(out[i]!.t).toBeGreaterThan(out[i - 1]!.t);
  });

  it('ignores missing and non-finite values', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({ t: i, v: i % 2 === 0 ? null : i }));
    const out = downsampleRows(rows, ['v'], 100);
    expect(out.length).toBeLessThanOrEqual(100);
  });

  it('returns small inputs unchanged', () => {
    const rows = [{ a: 1 }, { a: 2 }];
    expect(downsampleRows(rows, ['a'])).toEqual(rows);
  });
});
