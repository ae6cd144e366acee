import * as catalog from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { MAX_CHART_POINTS } from '../../lib/downsample.ts';
import { metricsFixture } from './metrics-fixtures.ts';
import { readMetrics, type ImportedSeries } from './metrics-reader.ts';
import { censoringWarningsOf } from '@blockwise/shared/demand';
import {
  candidateLimits,
  chartData,
  comparisonRows,
  demandRows,
  limitLines,
  minutesAboveTable,
  peakWindows,
  statisticOptions,
  statsRows,
  volumeToDraw,
  type PlanContext,
} from './series-view.ts';

function imported(name: string, options = {}): ImportedSeries {
  const r = readMetrics(metricsFixture(name), options);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.imported;
}

function context(over: Partial<PlanContext> = {}): PlanContext {
  const instance = catalog.findInstanceType('r6i.4xlarge') ?? null;
  return {
    instance,
    instanceCandidates: instance ? catalog.upgradePool(instance) : [],
    rateCard: catalog.rateCardFor('us-east-1') ?? catalog.defaultRateCard(),
    headroom: 0.25,
    gp3Generation: 'current',
    nodes: 1,
    syncCommits: false,
    residency: 'unknown',
    datasetGiB: null,
    candidate: null,
    ...over,
  };
}

describe('statistics of console_volume_sum_5min.csv (the planted 12,000 read IOPS)', () => {
  const s = imported('console_volume_sum_5min.csv');

  it('per direction: average, p50, p95, p99, max and when, in IOPS and MiB/s', () => {
    const rows = statsRows(s.summary);
    expect(rows.map((r) => `${r.direction} ${r.quantity}`)).toEqual([
      'Read IOPS',
      'Write IOPS',
      'Read + write IOPS',
      'Read Throughput',
      'Write Throughput',
      'Read + write Throughput',
    ]);
    const read = rows[0]!;
    expect(read.cells.slice(2)).toEqual(['2,000', '6,300', '12,000']);
    expect(read.peakAt).toBe('2026-11-19 02:15 UTC');
    expect(rows[3]!.unit).toBe('MiB/s');
  });

  it('the peak windows name the busiest periods', () => {
    expect(peakWindows(s.summary)[2]).toEqual({
      what: 'read IOPS',
      value: '12,000 IOPS',
      at: '2026-11-19 02:15 UTC',
    });
  });

  it('max, p99 and p95 side by side: what each asks for, buys and costs (r6i.4xlarge, us-east-1)', () => {
    const options = statisticOptions(s.profiles!, context());
    expect(options.map((o) => [o.statistic, Math.round(o.profile.read.iops)])).toEqual([
      ['max', 12000],
      ['p99', 6300],
      // p95 would drop the nightly batch (02:00–02:30 on 3 of 3 days): it keeps it, to p99's level.
      ['p95', 6300],
    ]);
    // The maximum asks for 21,250 IOPS / 1,133 MiB/s: above what r6i.4xlarge sustains (20,000 IOPS,
    // 596 MiB/s). Every type is capped by the instance, so nothing "fits": the capped gp3 is
    // named as such, never as the cheapest volume that fits.
    expect(options[0]!.plan!.rightSizing.target).toMatchObject({ iops: 21_250, throughputMiBps: 1133 });
    expect(options[0]!.recommendation).toBeNull();
    expect(options[0]!.capped).toMatchObject({ type: 'gp3', status: 'capped-by-instance', iops: 20_000 });
    expect(options.slice(1).map((o) => o.recommendation?.status)).toEqual(['meets', 'meets']);
    expect(options.slice(1).map((o) => o.capped)).toEqual([null, null]);
    // Cheaper as the statistic ignores more of the busiest windows.
    const costs = options.map((o) => (o.recommendation ?? o.capped)!.monthlyUsd.total);
    expect(costs[0]).toBeGreaterThan(costs[1]!);
    expect(costs[1]).toBeGreaterThanOrEqual(costs[2]!);
    const rows = comparisonRows(options, 1);
    expect(rows.find((r) => r.label === 'Read IOPS')!.cells).toEqual(['12,000', '6,300', '6,300']);
    const fits = rows.find((r) => r.label === 'Cheapest volume that fits')!.cells;
    expect(fits[0]).toMatch(/^none fits; capped by the instance: gp3 \d+ GiB, 20,000 IOPS, 596 MiB\/s$/);
    expect(fits[1]).toMatch(/^gp3 \d+ GiB, 8,903 IOPS, 518 MiB\/s$/);
    const monthly = rows.find((r) => r.label === 'Monthly cost (USD)')!.cells;
    expect(monthly.every((c) => c.startsWith('$'))).toBe(true);
    expect(monthly[0]).toMatch(/\(capped by the instance\)$/);
    expect(monthly[1]).not.toMatch(/capped/);
    // Without a candidate the chart draws that capped configuration, as the domain sized it.
    expect(volumeToDraw(context(), options[0])).toEqual({
      source: 'recommended',
      volume: { type: 'gp3', sizeGiB: options[0]!.capped!.sizeGiB, iops: 20_000, throughputMiBps: 596 },
    });
    // Without the catalog (still loading): the demand rows only.
    expect(comparisonRows(statisticOptions(s.profiles!, null), 1).map((r) => r.label)).toHaveLength(5);
  });

  it('minutes per UTC day above a 6,000 IOPS volume: 30 / 35 / 30 (the nightly batch)', () => {
    const ctx = context({ candidate: { type: 'io2', sizeGiB: 500, iops: 6000, count: 1 } });
    const options = statisticOptions(s.profiles!, ctx);
    const lines = limitLines(options[0]!.profile, volumeToDraw(ctx, options[0]), ctx.instance);
    expect(lines.map((l) => [l.id, l.kind])).toEqual([
      ['volume-iops', 'volume'],
      ['volume-throughput', 'volume'],
      ['instance-iops', 'instance-baseline'],
      ['instance-bandwidth', 'instance-baseline'],
      ['instance-iops-burst', 'instance-burst'],
      ['instance-bandwidth-burst', 'instance-burst'],
    ]);
    expect(lines[0]!.text).toBe('Volume IOPS (io2): 6,000 IOPS');
    // The instance bandwidth is counted against bytes/s from its Mbps, as AWS quotes it.
    expect(lines[3]!.text).toMatch(/Instance EBS bandwidth \(r6i\.4xlarge\): [\d.,]+ MiB\/s = 5,000 Mbps/);
    const table = minutesAboveTable(s.series, lines.slice(0, 1));
    expect(table.rows.map((r) => [r.day, r.cells[0]!.minutes, r.cells[0]!.flag])).toEqual([
      ['2026-11-17', 30, 'above'],
      ['2026-11-18', 35, 'above'],
      ['2026-11-19', 30, 'above'],
    ]);
  });

  it('censoring is checked against the candidate volume the user names, never a recommended one', () => {
    const none = context();
    const noneOptions = statisticOptions(s.profiles!, none);
    const drawn = limitLines(noneOptions[0]!.profile, volumeToDraw(none, noneOptions[0]), none.instance);
    expect(candidateLimits(none, drawn)).toBeNull();

    // The io2 the nightly batch exceeds 30–35 minutes a day (above): its points there sit at the
    // limit if the series was measured on it — demand at least 6,000, not 6,000.
    const ctx = context({ candidate: { type: 'io2', sizeGiB: 500, iops: 6000, count: 1 } });
    const options = statisticOptions(s.profiles!, ctx);
    const lines = limitLines(options[0]!.profile, volumeToDraw(ctx, options[0]), ctx.instance);
    const limits = candidateLimits(ctx, lines);
    expect(limits?.iops).toBe(6000);
    const notes = censoringWarningsOf(s.series, limits!);
    const combined = s.series.readIops.map((r, i) => (r ?? 0) + (s.series.writeIops[i] ?? 0));
    const pinned = combined.filter((v) => v >= 6000 * 0.95).length;
    expect(pinned / combined.length).toBeGreaterThan(0.01);
    expect(notes).toEqual([
      {
        code: 'demand_censored',
        subject: 'iops',
        message: expect.stringMatching(
          new RegExp(
            `^Pinned at the limit ${((pinned / combined.length) * 100).toFixed(1)} % of the time \\(${pinned} of ${combined.length} points within 5 % of 6,000 IOPS\\): demand unknown above 6,000 IOPS\\.`,
          ),
        ),
      },
    ]);
  });
});

describe('instance metrics, 1-minute points with gaps (console_instance_1min_gaps.csv, Sum)', () => {
  const s = imported('console_instance_1min_gaps.csv', { statistic: 'Sum' });

  it('45 minutes above a 1,250 Mbps baseline: over the 30-minute burst budget', () => {
    const instance = catalog.findInstanceType('m5.large') ?? null;
    expect(instance?.ebs?.baselineBandwidthMbps).toBe(650);
    const custom = {
      ...instance!,
      ebs: { ...instance!.ebs!, baselineBandwidthMbps: 1250, maximumBandwidthMbps: 4750 },
    };
    const lines = limitLines(s.profiles!.max, null, custom).filter((l) => l.id === 'instance-bandwidth');
    const table = minutesAboveTable(s.series, lines);
    expect(table.columns[0]).toMatchObject({ budgeted: true });
    expect(table.rows).toHaveLength(1);
    expect(table.rows[0]!.cells[0]).toMatchObject({ minutes: 45, flag: 'over-budget' });
    expect(table.daysOverBudget).toBe(1);
    expect(table.rows[0]!.partial).toBe(true);
  });

  it('chart rows: every point when few, read and write in MiB/s for throughput', () => {
    const data = chartData(s);
    expect(data.iops).toHaveLength(s.series.timeMs.length);
    expect(data.throughput[0]!.read).toBeCloseTo(s.series.readBytesPerSec[0]! / 1048576, 9);
    // Missing points stay missing (never drawn as zero).
    expect(data.iops.some((r) => r.write === null)).toBe(true);
  });
});

describe('demand rows are cut to at most 2,000 points, keeping the peaks', () => {
  it('a week of 1-minute points (10,080) → ≤ 2,000, the busiest point kept', () => {
    const base = imported('grafana_node_exporter_1min.csv');
    const n = 10_080;
    const t0 = base.series.timeMs[0]!;
    const timeMs = Array.from({ length: n }, (_, i) => t0 + i * 60_000);
    const pick = (a: (number | null)[]) => timeMs.map((_, i) => a[i % a.length] ?? null);
    const series = {
      ...base.series,
      timeMs,
      readIops: pick(base.series.readIops),
      writeIops: pick(base.series.writeIops),
      readBytesPerSec: pick(base.series.readBytesPerSec),
      writeBytesPerSec: pick(base.series.writeBytesPerSec),
    };
    const peakAt = timeMs[5000]!;
    series.readIops[5000] = 99_999;
    const rows = demandRows(series, 'iops', [peakAt]);
    expect(rows.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    expect(rows.find((r) => r.t === peakAt)?.read).toBe(99_999);
    expect(rows.every((r, i) => i === 0 || r.t > rows[i - 1]!.t)).toBe(true);
  });
});
