import type { ComparisonResult } from '@blockwise/shared/records';
import { buildComparison, summarizeRun } from '@blockwise/shared/analysis';
import { describe, expect, it } from 'vitest';
import { downsampleRows } from '../../lib/downsample.ts';
import { fixtureReport } from '../../test/fixtures.ts';
import {
  cliffLegend,
  cliffPoints,
  comparePair,
  latencyRows,
  latencyVerdict,
  pickPair,
  promiseListsOf,
  rateRows,
  runViews,
  seriesOf,
  type RunView,
} from './compare-rows.ts';

const MiB = 1024 * 1024;

/** The seed's r6id.4xlarge numbers as two stored runs (EBS gp3 vs NVMe). */
function seedRuns(): RunView[] {
  const headline = (r: number, w: number, ri: number, wi: number, read?: Record<string, number>) => ({
    readIops: ri,
    writeIops: wi,
    readBytesPerSec: r * MiB,
    writeBytesPerSec: w * MiB,
    readBlockSizeBytes: null,
    writeBlockSizeBytes: null,
    readClatMs: read ?? null,
    writeClatMs: null,
    clatApproximate: false,
    runtimeSec: 900,
  });
  return [
    {
      id: 'n',
      title: 'nvme',
      kind: 'nvme',
      instanceType: 'r6id.4xlarge',
      plan: null,
      headline: headline(286, 581, 4601, 9233, { '50': 61, '90': 92, '99': 120, '99.9': 134, '99.99': 180 }),
    },
    {
      id: 'e',
      title: 'ebs',
      kind: 'ebs',
      instanceType: 'r6id.4xlarge',
      plan: null,
      headline: headline(333, 675, 5477, 10_800, {
        '50': 57,
        '90': 97,
        '99': 133,
        '99.9': 159,
        '99.99': 900,
      }),
    },
  ];
}

describe('NVMe vs EBS rows', () => {
  it('the seed table: EBS +16% bandwidth, +19% / +17% IOPS', () => {
    const pair = pickPair(seedRuns())!;
    expect(pair.ebs.id).toBe('e');
    // Published numbers carry no fio job settings: sameness unknown, the deltas given.
    const comparison = comparePair(pair, null);
    expect(comparison.jobsDiffer).toBeNull();
    const { throughput, iops } = rateRows(comparison);
    expect(throughput.map((r) => [r.metric, r.nvme, r.ebs, r.deltaText, r.verdict])).toEqual([
      ['Read', 286, 333, '+16%', 'EBS +16%'],
      ['Write', 581, 675, '+16%', 'EBS +16%'],
    ]);
    expect(iops.map((r) => r.deltaText)).toEqual(['+19%', '+17%']);
  });

  it('needs one run of each kind', () => {
    expect(pickPair(seedRuns().filter((r) => r.kind === 'ebs'))).toBeNull();
  });

  it('latency rows from p50 up, log ticks by decade, a cliff marked', () => {
    const runs = seedRuns();
    const series = [
      { ...seriesOf(runs[0]!, 'read', 'nvme', '#000'), cliffs: [] },
      {
        ...seriesOf(runs[1]!, 'read', 'ebs', '#111'),
        cliffs: [{ from: '99.9', to: '99.99', fromMs: 159, toMs: 900, ratio: 5.66 }],
      },
    ];
    const { rows, keys, ticks, domain } = latencyRows(series);
    expect(rows.map((r) => r.label)).toEqual(['p50', 'p90', 'p99', 'p99.9', 'p99.99']);
    expect(keys).toEqual(['nvme', 'ebs']);
    expect(rows[4]).toMatchObject({ ebs: 900, nvme: 180 });
    expect(ticks).toEqual([10, 100, 1000]);
    expect(domain).toEqual([10, 1000]);
    expect(cliffPoints(series)).toEqual([
      { key: 'ebs', label: 'p99.99', ms: 900, text: 'ebs: p99.9 → p99.99 jumps ×5.7' },
    ]);
    // The exported PNG names the red ring; without cliffs it lists the runs only.
    expect(cliffLegend(cliffPoints(series))).toEqual([
      { label: 'cliff: a jump ≥ 3× between successive percentiles', color: '#cf222e', ring: true },
    ]);
    expect(cliffLegend(cliffPoints(series.map((s) => ({ ...s, cliffs: [] }))))).toEqual([]);
  });

  it('a stored comparison of real fio files: runs, verdicts and cliffs come from the stored plans', () => {
    // Different jobs: the bsrange 33 % mix at 4 × iodepth 16 vs 4k randrw at 16 × iodepth 8.
    const ebs = fixtureReport('grouped');
    const nvme = fixtureReport('raid5');
    const labelsE = {
      name: 'ebs run',
      kind: 'ebs' as const,
      instanceType: 'r6id.4xlarge',
      volumeType: 'gp3' as const,
      volumeSizeGiB: 1000,
    };
    const labelsN = { name: 'nvme run', kind: 'nvme' as const, instanceType: 'r6id.4xlarge' };
    const result = buildComparison(
      [
        { id: 'AAAAAAAAAAAAAAAAAAAAAA', labels: labelsE, report: ebs, summary: summarizeRun(ebs, labelsE) },
        { id: 'BBBBBBBBBBBBBBBBBBBBBB', labels: labelsN, report: nvme, summary: summarizeRun(nvme, labelsN) },
      ],
      null,
    );
    if (!result.ok) throw new Error(result.error.message);
    const views = runViews(result.value as ComparisonResult);
    expect(views.map((v) => [v.title, v.kind])).toEqual([
      ['ebs run', 'ebs'],
      ['nvme run', 'nvme'],
    ]);
    const s = seriesOf(views[0]!, 'read', 'ebs', '#000');
    expect(s.verdicts.map((v) => v.percentile)).toEqual(['50', '99', '99.9', '99.99']);
    expect(s.cliffs).toEqual(views[0]!.plan!.latency.read!.cliffs);
    // Each run's own verdicts stay; the EBS-vs-NVMe verdict is withheld.
    expect(result.value.latency).toBeNull();
    const comparison = comparePair(pickPair(views)!, result.value.nvmeVsEbs);
    expect(comparison).toBe(result.value.nvmeVsEbs);
    expect(comparison.warnings.map((w) => w.code)).toEqual(['jobs_differ']);
    const { throughput, iops } = rateRows(comparison);
    expect([...throughput, ...iops].map((r) => [r.verdict, r.delta, r.deltaText])).toEqual(
      Array(4).fill(['withheld: different fio jobs', null, '']),
    );
    expect(throughput[0]!.ebs).toBe(views[0]!.headline.readBytesPerSec / MiB);
    expect(latencyVerdict(comparison, 'read')).toBeNull();
  });

  it.each([
    ['a stored comparison (frozen)', true],
    ['a pair picked in the page, computed from the runs’ settings', false],
  ])('the same fio job: %s → deltas and latency verdicts for reads and writes', (_, useStored) => {
    const nvme = fixtureReport('grouped');
    const ebs = fixtureReport('perJob');
    const labelsN = { name: 'nvme', kind: 'nvme' as const, instanceType: 'r5d.4xlarge' };
    const labelsE = { name: 'ebs', kind: 'ebs' as const, instanceType: 'r5d.4xlarge' };
    const result = buildComparison(
      [
        { id: 'AAAAAAAAAAAAAAAAAAAAAA', labels: labelsN, report: nvme, summary: summarizeRun(nvme, labelsN) },
        { id: 'BBBBBBBBBBBBBBBBBBBBBB', labels: labelsE, report: ebs, summary: summarizeRun(ebs, labelsE) },
      ],
      null,
    );
    if (!result.ok) throw new Error(result.error.message);
    const views = runViews(result.value as ComparisonResult);
    const comparison = comparePair(pickPair(views)!, useStored ? result.value.nvmeVsEbs : null);
    expect(comparison).toEqual(result.value.nvmeVsEbs);
    expect(comparison.jobsDiffer).toBe(false);
    const { iops } = rateRows(comparison);
    expect(iops.every((r) => r.delta !== null && r.verdict !== 'withheld: different fio jobs')).toBe(true);
    expect(latencyVerdict(comparison, 'read')?.rows.length).toBeGreaterThan(0);
    expect(latencyVerdict(comparison, 'write')?.rows.length).toBeGreaterThan(0);
  });

  it('each run’s fio clat p99 against every type’s promise, the sentences shared wrote', () => {
    // One 4k randread job (libaio QD32): fio's clat_ns p99 is 468,992 ns = 0.469 ms.
    const report = fixtureReport('randread4k');
    const labels = {
      name: 'gp3 run',
      kind: 'ebs' as const,
      instanceType: 'r6id.4xlarge',
      volumeType: 'gp3' as const,
      volumeSizeGiB: 1000,
    };
    const result = buildComparison(
      [{ id: 'AAAAAAAAAAAAAAAAAAAAAA', labels, report, summary: summarizeRun(report, labels) }],
      null,
    );
    if (!result.ok) throw new Error(result.error.message);
    const views = runViews(result.value as ComparisonResult);
    const [list] = promiseListsOf([...views, ...seedRuns()]); // the seed runs carry no plan: left out
    expect(list!.headline).toBe(
      'gp3 run: measured p99 0.469 ms (reads), from fio completion latency (clat) percentiles on gp3 1000 GiB, 3,000 IOPS, 125 MiB/s',
    );
    expect(list!.promises.map((p) => [p.type, p.verdict])).toEqual([
      ['gp3', 'slower-than-today'],
      ['gp2', 'slower-than-today'],
      ['io2', 'as-today'],
      ['io1', 'slower-than-today'],
      ['st1', 'no-promise'],
      ['sc1', 'no-promise'],
    ]);
    expect(list!.promises[0]!.message).toBe(
      'gp3 promises single-digit millisecond (1–10 ms average); measured p99 0.47 ms: slower than today',
    );
    expect(promiseListsOf(seedRuns())).toEqual([]);
  });

  it('never more than 2,000 rows reach the chart', () => {
    const many: Record<string, number> = {};
    for (let i = 0; i < 5000; i += 1) many[String(50 + (i * 49.99) / 5000)] = 1 + i;
    const { rows } = latencyRows([
      { key: 'a', name: 'a', color: '#000', percentiles: many, cliffs: [], verdicts: [], approximate: false },
    ]);
    expect(rows.length).toBeLessThanOrEqual(2000);
    expect(downsampleRows(rows, ['a']).length).toBe(rows.length);
  });
});
