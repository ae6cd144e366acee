import { describe, expect, it } from 'vitest';
import { fixtureReport } from '../../test/fixtures.ts';
import { regressionOf, runId, seriesHistory } from './history-fixtures.ts';
import {
  FAMILY_CHARTS,
  appPath,
  branchesOf,
  drawnMetrics,
  familyRows,
  historyPoints,
  regressionMarkers,
  runsToCheck,
} from './history-view.ts';

const items = seriesHistory(fixtureReport('grouped'));
const newestFirst = [...items].reverse();

describe('one series over time (a real fio-3.33 run, re-measured)', () => {
  const points = historyPoints(newestFirst);

  it('oldest first on a numeric time axis, with the gate’s metrics', () => {
    expect(points.map((p) => p.id)).toEqual(items.map((i) => i.id));
    expect(points[0]!.t).toBe(Date.UTC(2026, 10, 10, 8));
    expect(points[0]!.metrics['read.iops']).toBeCloseTo(10267.013091, 4);
    expect(branchesOf(items)).toEqual(['feature/xfs-nobarrier', 'feature/kernel-6.8', 'main']);
  });

  it('one chart per family: IOPS, MiB/s (from bytes/s), clat percentiles in ms', () => {
    expect(FAMILY_CHARTS.map((c) => [c.family, c.unit])).toEqual([
      ['iops', 'IOPS'],
      ['throughput', 'MiB/s'],
      ['latency', 'ms'],
    ]);
    const tp = familyRows(points, FAMILY_CHARTS[1]!);
    expect(tp[0]!['read.bytesPerSec']).toBeCloseTo(items[0]!.headline.readBytesPerSec / 1048576, 9);
    const lat = FAMILY_CHARTS[2]!;
    // The job reports p50, p99 and p99.9 in both directions: six latency lines.
    expect(drawnMetrics(points, lat).map((m) => m.id)).toEqual(lat.metrics.map((m) => m.id));
    expect(familyRows(points, lat)[0]!['read.clat.p99']).toBe(items[0]!.headline.readClatMs!['99']);
  });

  it('at most 2,000 rows per chart, the extremes kept', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({
      ...points[i % points.length]!,
      t: i,
      id: runId(i),
    }));
    many[4321] = { ...many[4321]!, metrics: { ...many[4321]!.metrics, 'read.iops': 1e9 } };
    const rows = familyRows(many, FAMILY_CHARTS[0]!);
    expect(rows.length).toBeLessThanOrEqual(2000);
    expect(rows.some((r) => r['read.iops'] === 1e9)).toBe(true);
  });

  it('regression markers: only the degraded branch, on the metrics that regressed', () => {
    const reports = new Map(items.map((item, i) => [item.id, regressionOf(items, i)]));
    expect([...reports.values()].map((r) => r.verdict)).toEqual([
      'insufficient-history',
      'insufficient-history',
      'insufficient-history',
      'pass',
      'pass',
      'pass',
      'pass',
      'regression',
    ]);
    const iops = regressionMarkers(points, reports, FAMILY_CHARTS[0]!);
    expect(iops.map((m) => [m.id, m.metric])).toEqual([
      [runId(8), 'read.iops'],
      [runId(8), 'write.iops'],
    ]);
    expect(iops[0]!.value).toBeCloseTo(items[7]!.headline.readIops, 6);
    expect(regressionMarkers(points, reports, FAMILY_CHARTS[1]!)[0]!.value).toBeCloseTo(
      items[7]!.headline.readBytesPerSec / 1048576,
      6,
    );
    expect(regressionMarkers(points, reports, FAMILY_CHARTS[2]!).length).toBeGreaterThan(0);
  });

  it('bounded checks: the newest runs shown, plus the selected one', () => {
    expect(runsToCheck(points, 3, null)).toEqual([runId(8), runId(7), runId(6)]);
    expect(runsToCheck(points, 3, runId(1))).toEqual([runId(1), runId(8), runId(7), runId(6)]);
  });

  it('comparison links (frozen, or a pair the server freezes when followed); anything else is refused', () => {
    expect(appPath(`http://example.com/c/${'C'.repeat(22)}`)).toBe(`/c/${'C'.repeat(22)}`);
    expect(appPath(`/c/${'C'.repeat(22)}`)).toBe(`/c/${'C'.repeat(22)}`);
    const pair = `/c/pair/${'B'.repeat(22)}/${'R'.repeat(22)}`;
    expect(appPath(`http://example.com${pair}`)).toBe(pair);
    expect(appPath(`/c/pair/${'B'.repeat(21)}/${'R'.repeat(22)}`)).toBeNull();
    expect(appPath(`/c/other/${'R'.repeat(22)}`)).toBeNull();
    expect(appPath('javascript:alert(1)')).toBeNull();
    expect(appPath(null)).toBeNull();
  });
});
