import { describe, expect, it } from 'vitest';
import { classifyBlockSize, crossoverBlockSize } from './size-class.ts';

describe('classifyBlockSize (docs/domain.md §3)', () => {
  it.each([
    [4096, 'small', 'iops'],
    [16 * 1024, 'small', 'iops'],
    [32 * 1024, 'medium', 'either'],
    [64 * 1024, 'medium', 'either'],
    [128 * 1024, 'large', 'throughput'],
    // fio's rounding: bs=128k measured as bytes/s ÷ IOPS
    [131_071.9998, 'large', 'throughput'],
    [32_767.99, 'medium', 'either'],
    [1024 * 1024, 'large', 'throughput'],
    [100 * 1024, 'medium', 'either'],
  ])('%d B → %s, %s-bound', (size, sizeClass, likelyBound) => {
    expect(classifyBlockSize(size)).toEqual({ sizeClass, likelyBound });
  });

  it('gp3 baseline binds IOPS and throughput at the same time at 125 MiB/s ÷ 3,000 ≈ 42.7 KiB', () => {
    expect(crossoverBlockSize(125 * 1048576, 3000) / 1024).toBeCloseTo(42.67, 2);
  });
});
