import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from '../timeseries/import-metrics.ts';
import type { IoSeries, SeriesImportOptions } from '../timeseries/series.schema.ts';
import { profileFromSeries } from '../timeseries/sizing.ts';
import { censoringOf } from './censoring.ts';
import {
  censoringOfSeries,
  censoringWarningsOf,
  demandFromSeries,
  demandTarget,
  peaksOf,
  type DemandEvidence,
} from './demand.ts';
import { findRecurringPeaks } from './recurrence.ts';

const DIR = new URL('../../../fixtures/demand/', import.meta.url);
const load = (name: string, options: SeriesImportOptions = {}): IoSeries => {
  const r = importMetrics(readFileSync(new URL(name, DIR)), options);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const value = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const codes = (d: DemandEvidence) => d.warnings.map((w) => w.code);

describe('resolution: peaks at the native step, never averaged up', () => {
  const series = load('iostat_10s_checkpoint_burst.txt');

  it('iostat every 10 s, ~1,200 IOPS with a 40-second burst of 10,500 every 15 min → 10,500, target ≥ 13,125', () => {
    expect(series.periodSec).toBe(10);
    const d = value(demandFromSeries(series));
    expect(d.resolutionSec).toBe(10);
    expect(d.combined.iops.value).toBeCloseTo(10_500, 6);
    expect(d.read.iops.value + d.write.iops.value).toBeCloseTo(10_500, 6);
    const target = demandTarget(peaksOf(d), 0.25);
    expect(target.iops).toBeGreaterThanOrEqual(10_500 * 1.25);
    expect(target.iops).toBe(13_125);
    // A 5-minute average would have said (40 × 10,500 + 260 × ~1,200) ÷ 300 ≈ 2,440.
    expect(codes(d)).not.toContain('coarse_resolution');
    const p = value(profileFromSeries(series));
    expect(p.read.iops + p.write.iops).toBeCloseTo(10_500, 6);
  });

  it('p95 of the same file leaves the 15-minute burst out (4 % of the points) and says so, naming max and when', () => {
    const d = value(demandFromSeries(series, { statistic: 'p95' }));
    expect(d.combined.iops.recurring).toEqual([]);
    expect(d.combined.iops.value).toBeLessThan(1_300);
    const left = d.warnings.find((w) => w.code === 'peak_left_out' && w.subject === 'iops');
    expect(left?.message).toMatch(
      /^Peak left out: max 10,500 IOPS at 2026-11-24 10:04 UTC; p95 = 1,2\d\d IOPS/,
    );
    // Sized on max, nothing is left out, so nothing is said.
    expect(codes(value(demandFromSeries(series)))).not.toContain('peak_left_out');
  });

  it('5-minute CloudWatch Sums: says what they can hide (5× in 60 s) and asks for 1-minute or VolumeAvgIOPS Maximum', () => {
    const d = value(demandFromSeries(load('gmd_nightly_batch_14d.json')));
    expect(d.resolutionSec).toBe(300);
    const note = d.warnings.find((w) => w.code === 'coarse_resolution');
    expect(note?.message).toMatch(
      /5-minute averages: a point of 8,200 IOPS can hold a 60-second burst of up to 41,000 IOPS \(5×\)/,
    );
    expect(note?.message).toMatch(/VolumeAvgIOPS and VolumeAvgThroughput with Stat Maximum/);
  });
});

describe('recurrence: percentiles never silently drop a recurring peak', () => {
  const series = load('gmd_nightly_batch_14d.json');

  it('14 days at ~1,300 IOPS, 01:30–01:40 daily at 8,200: p99 keeps 8,200 (target ≥ 10,250) and says so', () => {
    const d = value(demandFromSeries(series, { statistic: 'p99' }));
    expect(d.combined.iops.statisticValue).toBeLessThan(1_400);
    expect(d.combined.iops.basis).toBe('recurring-peak');
    expect(d.combined.iops.value).toBe(8_200);
    expect(demandTarget(peaksOf(d), 0.25).iops).toBeGreaterThanOrEqual(8_200 * 1.25);
    const r = d.combined.iops.recurring[0]!;
    expect(r).toMatchObject({ cadence: 'daily', fromMinute: 90, toMinute: 100, occurrences: 14, outOf: 14 });
    const w = d.warnings.find((x) => x.code === 'recurring_peak')!;
    expect(w.message).toMatch(
      /^Recurring peak: max 8,200 IOPS at 01:30–01:40 UTC on 14 of 14 days; p99 = 1,3\d\d IOPS ignores it, so it is sized on 8,200 IOPS/,
    );
  });

  it('--ignore-recurring sizes on p99 and puts the risk next to it', () => {
    const d = value(demandFromSeries(series, { statistic: 'p99', ignoreRecurring: true }));
    expect(d.combined.iops.value).toBeLessThan(1_400);
    expect(codes(d)).toContain('recurring_peak_ignored');
    expect(d.warnings.find((w) => w.code === 'recurring_peak_ignored')!.message).toMatch(/will be throttled/);
  });

  it('epoch-second timestamps (AWS CLI v1, v2 wire format) read the same as ISO 8601', () => {
    const a = value(demandFromSeries(load('gmd_nightly_batch_14d_epoch.json'), { statistic: 'p99' }));
    const b = value(demandFromSeries(series, { statistic: 'p99' }));
    expect(a.combined).toEqual(b.combined);
  });

  it('noise above p95 scattered over the day is not a recurrence; a weekly job on 2 of 2 weeks is', () => {
    const day = 86_400_000;
    const t0 = Date.parse('2026-11-02T00:00:00Z'); // a Monday
    const t: number[] = [];
    const v: number[] = [];
    let seed = 7;
    for (let i = 0; i < 14 * 288; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      t.push(t0 + i * 300_000);
      v.push(1_000 + (seed / 2147483648) * 1_000);
    }
    expect(findRecurringPeaks(t, v, 300, 1_500)).toEqual([]);
    // Sundays 03:00–03:20: 9,000 IOPS.
    const weekly = v.map((x, i) => {
      const at = t[i]!;
      const sunday = new Date(at).getUTCDay() === 0;
      const minute = ((at % day) / 60_000) | 0;
      return sunday && minute >= 180 && minute < 200 ? 9_000 : x;
    });
    const found = findRecurringPeaks(t, weekly, 300, 2_000);
    expect(found[0]).toMatchObject({
      cadence: 'weekly',
      weekday: 0,
      value: 9_000,
      occurrences: 2,
      outOf: 2,
      fromMinute: 180,
      toMinute: 200,
    });
  });
});

describe('censoring: delivered at the limit means demand at least the limit', () => {
  it('a gp3 flat at its 3,000 IOPS: pinned 100 % of the time, demand unknown above 3,000', () => {
    const flat = Array.from({ length: 288 }, (_, i) => 2_950 + (i % 5) * 12);
    const c = censoringOf(flat, 3_000, 'iops');
    expect(c).toMatchObject({ evidence: 'delivered-at-limit', limit: 3_000, pointsAtLimit: 288, share: 1 });
    // Below 95 % of the limit (2,849) nothing is pinned; a few points are not a meaningful share.
    expect(
      censoringOf(
        flat.map((x) => x - 200),
        3_000,
        'iops',
      ),
    ).toBeNull();
    expect(censoringOf([...Array(400).fill(1_000), 3_000, 3_000], 3_000, 'iops')).toBeNull();
  });

  it('the demand model names it: "pinned at the limit X % of the time; demand unknown above 1,300 IOPS"', () => {
    const series = load('gmd_nightly_batch_14d.json');
    const d = value(demandFromSeries(series, { limits: { iops: 1_300 } }));
    expect(d.censoring[0]).toMatchObject({ quantity: 'iops', limit: 1_300 });
    expect(d.warnings.find((w) => w.code === 'demand_censored')!.message).toMatch(
      /^Pinned at the limit \d+\.\d % of the time .*: demand unknown above 1,300 IOPS\. Raise the limit and measure again; this volume is not right-sized/,
    );
  });

  it('censoringWarningsOf gives the same note as the whole demand, alone (the planning page asks it per named volume)', () => {
    const series = load('gmd_nightly_batch_14d.json');
    const whole = value(demandFromSeries(series, { limits: { iops: 1_300 } }));
    expect(censoringWarningsOf(series, { iops: 1_300 })).toEqual(
      whole.warnings.filter((w) => w.code === 'demand_censored'),
    );
    // The scenario's gp3 at 12,000 IOPS and 500 MiB/s is never near its limits.
    expect(censoringWarningsOf(series, { iops: 12_000, bytesPerSec: 500 * 1024 * 1024 })).toEqual([]);
  });
});

describe('censoring of one series under several volumes (check-iac judges each against its own limits)', () => {
  // iostat every 10 s for 2 h, every point at 2,950–3,000 IOPS of 16 KiB (~47 MiB/s).
  const pinned = load('iostat_10s_pinned_3000.txt');

  it.each([
    // volume limits (IOPS, MiB/s)         → censored quantities
    { volume: 'gp3 3,000 IOPS / 125 MiB/s', iops: 3_000, mibps: 125, censored: ['iops'] },
    { volume: 'gp3 3,100 IOPS / 125 MiB/s', iops: 3_100, mibps: 125, censored: ['iops'] }, // 95 % = 2,945
    { volume: 'gp3 16,000 IOPS / 250 MiB/s', iops: 16_000, mibps: 250, censored: [] },
    { volume: 'gp3 3,000 IOPS / 48 MiB/s', iops: 3_000, mibps: 48, censored: ['iops', 'throughput'] },
  ])('$volume → $censored', ({ iops, mibps, censored }) => {
    const c = censoringOfSeries(pinned)({ iops, bytesPerSec: mibps * 1024 * 1024 });
    expect(c.map((x) => x.quantity)).toEqual(censored);
    for (const x of c) expect(x).toMatchObject({ pointsAtLimit: 720, points: 720, share: 1 });
  });

  it('is what demandFromSeries finds with the same limits', () => {
    const limits = { iops: 3_000, bytesPerSec: 125 * 1024 * 1024 };
    expect(value(demandFromSeries(pinned, { limits })).censoring).toEqual(censoringOfSeries(pinned)(limits));
  });
});

describe('completeness: incomplete data is never silent', () => {
  it('a first page with a NextToken (PartialData) is marked incomplete, naming the volume', () => {
    const d = value(demandFromSeries(load('gmd_nightly_batch_first_page.json')));
    expect(d.completeness.complete).toBe(false);
    expect(d.completeness.issues[0]).toMatchObject({ subject: 'vol-0e1d2c3b4a5968778' });
    expect(d.completeness.issues.map((i) => i.kind)).toContain('more-pages');
    expect(codes(d)).toContain('incomplete_data');
  });

  it('a missing span is named with its start and end', () => {
    const series = load('gmd_nightly_batch_14d.json');
    const keep = series.timeMs.map(
      (t) => t < Date.parse('2026-11-12T06:00:00Z') || t >= Date.parse('2026-11-12T09:00:00Z'),
    );
    const cut = <T>(a: T[]) => a.filter((_, i) => keep[i]);
    const gappy = {
      ...series,
      timeMs: cut(series.timeMs),
      readIops: cut(series.readIops),
      writeIops: cut(series.writeIops),
      readBytesPerSec: cut(series.readBytesPerSec),
      writeBytesPerSec: cut(series.writeBytesPerSec),
    };
    const d = value(demandFromSeries(gappy));
    expect(d.completeness).toEqual({
      complete: false,
      issues: [
        {
          kind: 'missing-span',
          subject: 'vol-0e1d2c3b4a5968778',
          fromMs: Date.parse('2026-11-12T06:00:00Z'),
          toMs: Date.parse('2026-11-12T09:00:00Z'),
          message:
            'vol-0e1d2c3b4a5968778: no data from 2026-11-12 06:00 UTC to 2026-11-12 09:00 UTC (36 points of 300 s): a peak there is not in the demand.',
        },
      ],
    });
    expect(value(demandFromSeries(series)).completeness).toEqual({ complete: true, issues: [] });
  });
});

describe('the recurring-peak note names the number the profile is sized on', () => {
  const series = load('gmd_nightly_batch_14d.json');
  const sizedOn = (d: DemandEvidence) =>
    /so it is sized on ([\d,]+) IOPS/.exec(d.warnings.find((w) => w.code === 'recurring_peak')!.message)![1]!;

  it('nightly batch, p99: the note says 8,200 IOPS = read + write of the profile', () => {
    const d = value(demandFromSeries(series, { statistic: 'p99' }));
    const p = value(profileFromSeries(series, { statistic: 'p99' }));
    expect(sizedOn(d)).toBe('8,200');
    expect(p.read.iops + p.write.iops).toBe(8_200);
  });

  it('reads recur at 01:00 (5,000), writes at 03:00 (4,000): sized on 9,000, the note says 9,000 (not the combined 5,600)', () => {
    const minute = (t: number) => Math.floor((t % 86_400_000) / 60_000);
    const shifted: IoSeries = {
      ...series,
      readIops: series.timeMs.map((t) => (minute(t) === 60 ? 5_000 : 700)),
      writeIops: series.timeMs.map((t) => (minute(t) === 180 ? 4_000 : 600)),
    };
    const d = value(demandFromSeries(shifted, { statistic: 'p99' }));
    expect(d.combined.iops.recurring[0]).toMatchObject({ fromMinute: 60, value: 5_600 });
    const p = value(profileFromSeries(shifted, { statistic: 'p99' }));
    expect(p.read.iops + p.write.iops).toBe(9_000);
    expect(sizedOn(d)).toBe('9,000');
  });
});

describe('recurrence across midnight', () => {
  const t0 = Date.parse('2026-11-02T12:00:00Z');
  const t = Array.from({ length: 14 * 288 }, (_, i) => t0 + i * 300_000);
  const nightOf = (at: number) => Math.floor((at - 12 * 3_600_000) / 86_400_000); // the evening a run starts
  const minute = (at: number) => Math.floor((at % 86_400_000) / 60_000);
  const job = (runs: (night: number) => boolean) =>
    t.map((at) => {
      const m = minute(at);
      return (m === 1435 || m === 0) && runs(nightOf(at - (m === 0 ? 300_000 : 0))) ? 9_000 : 1_000;
    });
  const night0 = nightOf(t0);

  it('a 23:55–00:05 job every other night over 14 days is not daily (7 runs, not 14 calendar days)', () => {
    expect(
      findRecurringPeaks(
        t,
        job((n) => (n - night0) % 2 === 0),
        300,
        1_000,
      ),
    ).toEqual([]);
  });

  it('the same job on 14 of 14 nights is daily, 14 occurrences (one per run, not 15 calendar days)', () => {
    const [r] = findRecurringPeaks(
      t,
      job(() => true),
      300,
      1_000,
    );
    // outOf: the calendar days the series touches (12:00 on day 0 to 11:55 on day 14).
    expect(r).toMatchObject({ cadence: 'daily', occurrences: 14, outOf: 15, fromMinute: 1435, toMinute: 5 });
  });

  it('weekly: 23:50 and 00:10 of the same Sunday are 23 hours apart, two windows, not one', () => {
    const sundays = Array.from(
      { length: 14 * 288 },
      (_, i) => Date.parse('2026-11-02T00:00:00Z') + i * 300_000,
    );
    const v = sundays.map((at) => {
      const sunday = new Date(at).getUTCDay() === 0;
      const m = minute(at);
      return sunday && (m === 10 || m === 1430) ? 9_000 : 1_000;
    });
    const found = findRecurringPeaks(sundays, v, 300, 1_000);
    expect(found.map((r) => [r.cadence, r.fromMinute, r.peakPoints])).toEqual(
      expect.arrayContaining([
        ['weekly', 10, 2],
        ['weekly', 1430, 2],
      ]),
    );
  });
});
