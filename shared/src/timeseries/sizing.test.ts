import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IoProfileSchema } from '../profile/io-profile.schema.ts';
import { minutesAbovePerDay } from './burst.ts';
import { importMetrics } from './import-metrics.ts';
import { IoSeriesSchema, type IoSeries, type SeriesImportOptions } from './series.schema.ts';
import { profileFromSeries, profilesByStatistic } from './sizing.ts';
import { blockSizeOverTime, nearestRank, summarizeRates } from './stats.ts';

const FIXTURES = new URL('../../../fixtures/cloudwatch/', import.meta.url);
const load = (name: string, options: SeriesImportOptions = {}): IoSeries => {
  const r = importMetrics(readFileSync(new URL(name, FIXTURES)), options);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const utc = (s: string) => Date.parse(s);
const MiB = 1024 * 1024;
const ok = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

/** A hand-made series: points every `periodSec` from 2026-11-20T00:00Z. */
function handSeries(
  periodSec: number,
  read: (number | null)[],
  write: (number | null)[],
  blockBytes = 4096,
): IoSeries {
  const t0 = utc('2026-11-20T00:00:00Z');
  return IoSeriesSchema.parse({
    format: 'grafana-csv',
    label: null,
    periodSec,
    conversion: { statistic: null, divisorSec: null, explanation: '' },
    columns: [],
    timeMs: read.map((_, i) => t0 + i * periodSec * 1000),
    readIops: read,
    writeIops: write,
    readBytesPerSec: read.map((v) => (v === null ? null : v * blockBytes)),
    writeBytesPerSec: write.map((v) => (v === null ? null : v * blockBytes * 2)),
    quality: {
      inputPoints: read.length,
      gaps: 0,
      missingPoints: 0,
      duplicates: 0,
      conflictingDuplicates: 0,
      partialPoints: 0,
      reordered: false,
      dstRepairs: 0,
      naiveTimesAs: null,
    },
    warnings: [],
  });
}

describe('statistics', () => {
  it('nearest rank: the ⌈p × n⌉-th smallest value, no interpolation', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
    expect(nearestRank(sorted, 50)).toBe(50);
    expect(nearestRank(sorted, 95)).toBe(95);
    expect(nearestRank(sorted, 99)).toBe(99);
    expect(nearestRank(sorted, 99.5)).toBe(100);
    expect(nearestRank([7], 99)).toBe(7);
    expect(nearestRank([], 50)).toBeNull();
  });

  it('missing points are skipped, not zero; the peak window is the first maximum', () => {
    const s = summarizeRates([10, null, 30, 20, 30], [0, 1, 2, 3, 4]);
    expect(s).toEqual({ points: 4, mean: 22.5, p50: 20, p95: 30, p99: 30, max: 30, maxAtMs: 2 });
  });

  it('block size over time = bytes/s ÷ IOPS per point (null without operations)', () => {
    const s = handSeries(60, [100, 0, null], [50, 50, 50]);
    expect(blockSizeOverTime(s)).toEqual({
      timeMs: s.timeMs,
      readBytes: [4096, null, null],
      writeBytes: [8192, 8192, 8192],
    });
  });
});

describe('sizing profiles (console_volume_sum_5min.csv)', () => {
  const series = load('console_volume_sum_5min.csv');
  const r = profilesByStatistic(series);
  if (!r.ok) throw new Error(r.error.message);
  const { max, p99, p95 } = r.value;

  it('max (Compute Optimizer): each quantity at its own peak — 12,000 read IOPS of 64 KiB, 5,000 write IOPS of 32 KiB', () => {
    expect(IoProfileSchema.parse(max)).toEqual(max);
    expect(max).toMatchObject({
      source: 'timeseries',
      label: 'vol-0a1b2c3d4e5f60718',
      benchmark: null,
      durationSec: 3 * 86400,
    });
    expect(max.read).toEqual({ iops: 12000, bytesPerSec: 750 * MiB, blockSizeBytes: 65536, latency: null });
    expect(max.write).toEqual({
      iops: 5000,
      bytesPerSec: 5000 * 32768,
      blockSizeBytes: 32768,
      latency: null,
    });
    // The read peak (19 Nov 02:15) and the write peak (18 Nov 14:40) never met.
    expect(max.warnings.map((w) => w.code)).toEqual([
      'timeseries_sizing',
      'peaks_not_simultaneous',
      'coarse_resolution',
      'short_history',
    ]);
  });

  it('p99 keeps the nightly batch (2 % of the points); p95 would drop it, so it keeps it — to the level p99 keeps, 6,300, never the one-off 12,000', () => {
    expect(p99.read.iops).toBe(6300);
    expect(p99.warnings.map((w) => w.code)).not.toContain('recurring_peak');
    expect(p95.read.iops).toBe(6300);
    expect(Math.round(p95.read.iops + p95.write.iops)).toBe(7090);
    const recurring = p95.warnings.find((w) => w.code === 'recurring_peak');
    expect(recurring?.message).toBe(
      // read + write at each point: 12,000 + 294 at 02:15 on 19 Nov.
      // Sized on read + write of the profile (6,300 + 789.7), each with its own recurrence — not the
      // combined series' own level (6,622), which no target provisions.
      'Recurring peak: max 12,294 IOPS (6,819 IOPS on most occurrences) at 02:00–02:30 UTC on 3 of 3 days; p95 = 2,783 IOPS ignores it, so it is sized on 7,090 IOPS (--ignore-recurring sizes on the p95 and accepts the throttling).',
    );
  });

  it('with ignoreRecurring p99 and p95 drop the batch spikes (6,300 and 2,000 read IOPS) and say what is given up', () => {
    const p99 = ok(profileFromSeries(series, { statistic: 'p99', ignoreRecurring: true }));
    const p95 = ok(profileFromSeries(series, { statistic: 'p95', ignoreRecurring: true }));
    expect(p95.warnings.map((w) => w.code)).toContain('recurring_peak_ignored');
    expect(p99.read.iops).toBe(6300);
    // At p99 the read bytes are the 9th-highest bytes point: a 64 KiB batch window too.
    expect(p99.read.blockSizeBytes).toBeCloseTo(65536, 6);
    expect(p95.read.iops).toBe(2000);
    expect(p95.read.iops).toBeLessThan(p99.read.iops);
    expect(p95.write.iops).toBeLessThan(max.write.iops);
    expect(profileFromSeries(series, { statistic: 'p95', ignoreRecurring: true })).toEqual({
      ok: true,
      value: p95,
    });
  });

  it('1-minute data is sized at 1 minute (never averaged up): the 45-minute 300 MB/s burst is 300 MB/s, no coarse note', () => {
    const p = profileFromSeries(load('console_instance_1min_gaps.csv', { statistic: 'Sum' }));
    expect(p.ok && p.value.write.bytesPerSec).toBe(300e6);
    expect(p.ok && p.value.warnings.map((w) => w.code)).not.toContain('coarse_resolution');
  });

  it('a series without operation counts cannot be sized', () => {
    const s = handSeries(60, [null], [null]);
    expect(
      profileFromSeries({
        ...s,
        timeMs: [] as number[],
        readIops: [],
        writeIops: [],
        readBytesPerSec: [],
        writeBytesPerSec: [],
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'no_data_points' },
    });
  });
});

describe('minutes above a capacity per UTC day (the 30-minute instance burst budget)', () => {
  it('6,000 IOPS on console_volume_sum_5min.csv: the nightly batch is 30 minutes; 18 Nov adds the 14:40 write spike', () => {
    const r = minutesAbovePerDay(load('console_volume_sum_5min.csv'), { iops: 6000 });
    expect(r.budgetMinutes).toBe(30);
    // Six batch windows of 5 minutes a night (≥ 6,000 reads + ~300 writes); 14:40 on 18 Nov:
    // 5,000 writes + ~1,680 reads.
    expect(r.days).toEqual([
      { day: '2026-11-17', minutesAbove: 30, minutesCovered: 1440, overBudget: false },
      { day: '2026-11-18', minutesAbove: 35, minutesCovered: 1440, overBudget: true },
      { day: '2026-11-19', minutesAbove: 30, minutesCovered: 1440, overBudget: false },
    ]);
    expect(r.worstDay?.day).toBe('2026-11-18');
    expect(r.daysOverBudget).toBe(1);
  });

  it('1,250 Mbps (156.25 MB/s) on the 1-minute instance export: the 13:00–13:44 burst is 45 minutes', () => {
    const r = minutesAbovePerDay(load('console_instance_1min_gaps.csv', { statistic: 'Sum' }), {
      bytesPerSec: 156.25e6,
    });
    // 1,422 points; 18:00 has no write value and its reads alone are below the line: not covered.
    expect(r.days).toEqual([{ day: '2026-11-20', minutesAbove: 45, minutesCovered: 1421, overBudget: true }]);
  });

  it('a period across midnight is split; a missing direction counts only when the other is already above', () => {
    const t0 = utc('2026-11-20T23:55:00Z');
    const s = {
      ...handSeries(600, [100, 5000, 10], [100, null, null]),
      timeMs: [t0, t0 + 600_000, t0 + 1_200_000],
    };
    // 23:55–00:05: 200 IOPS (below); 00:05–00:15: reads alone 5,000 > 1,000; 00:15–00:25: unknown.
    expect(minutesAbovePerDay(s, { iops: 1000 }).days).toEqual([
      { day: '2026-11-20', minutesAbove: 0, minutesCovered: 5, overBudget: false },
      { day: '2026-11-21', minutesAbove: 10, minutesCovered: 15, overBudget: false },
    ]);
    expect(minutesAbovePerDay(s, { iops: 150 }, { budgetMinutes: 12 }).days[1]).toMatchObject({
      minutesAbove: 15,
      overBudget: true,
    });
  });
});
