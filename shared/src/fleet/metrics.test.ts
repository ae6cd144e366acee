import { describe, expect, it } from 'vitest';
import {
  addMetricDataText,
  addPoint,
  createFleetMetrics,
  mergeFleetMetrics,
  parseMetricData,
  statisticOf,
  summarizeMetricDataText,
} from './metrics.ts';
import { buildMetricQueries, parseLabel } from './queries.ts';
import { parseFleetInstances, parseFleetVolumes } from './parse.ts';
import { type FleetSeriesSummary } from './schema.ts';
import { newSeries } from './metrics.ts';

const summary = (values: number[]): FleetSeriesSummary => {
  const s = newSeries();
  for (const v of values) addPoint(s, v);
  return s;
};
const oneToN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('statisticOf: nearest rank over the points, keeping only the top 5 % + 1', () => {
  it.each([
    // 1..1,000 in order: p99 is the 990th smallest, p95 the 950th
    { name: '1..1000 ascending', values: oneToN(1000), max: 1000, p99: 990, p95: 950, exact: true },
    // shuffled the same (a fixed permutation: i × 7919 mod 1000)
    {
      name: '1..1000 permuted',
      values: oneToN(1000).map((i) => ((i * 7919) % 1000) + 1),
      max: 1000,
      p99: 990,
      p95: 950,
      exact: true,
    },
    // 4,032 points (14 days of 5 minutes): p99 = ⌈0.99 × 4032⌉ = 3,992nd smallest
    {
      name: '14 days of 5-minute points',
      values: oneToN(4032),
      max: 4032,
      p99: 3992,
      p95: 3831,
      exact: true,
    },
    { name: 'one point', values: [7], max: 7, p99: 7, p95: 7, exact: true },
  ])('$name', ({ values, max, p99, p95, exact }) => {
    const s = summary(values);
    expect(statisticOf(s, 'max')).toEqual({ value: max, exact: true });
    expect(statisticOf(s, 'p99')).toEqual({ value: p99, exact });
    expect(statisticOf(s, 'p95')).toEqual({ value: p95, exact });
    expect(s.top.length).toBeLessThanOrEqual(Math.ceil(values.length * 0.05) + 1);
  });

  it('large values first, then many small ones: the percentile is bounded from above, and says so', () => {
    // 10 points of 100, then 990 of 1: p95 is the 950th smallest = 1, but the summary dropped values
    const s = summary([...Array(10).fill(100), ...Array(990).fill(1)]);
    // while it was small; it answers the largest dropped value (100), an upper bound, with exact false
    expect(statisticOf(s, 'p95')).toEqual({ value: 100, exact: false });
    expect(statisticOf(s, 'max')).toEqual({ value: 100, exact: true });
  });
});

describe('buildMetricQueries', () => {
  const volumes = Array.from({ length: 126 }, (_, i) => ({ volumeId: `vol-${String(i).padStart(4, '0')}` }));
  const batches = buildMetricQueries({
    volumes,
    days: 14,
    periodSeconds: 300,
    end: new Date('2026-11-24T00:03:00Z'),
  });

  it('6 queries per volume (4 Sums, the busiest minute of IOPS and throughput), at most 500 per batch, ids [a-z][A-Za-z0-9_]*, labels naming volume and metric', () => {
    expect(batches.map((b) => b.queries.length)).toEqual([500, 256]);
    const all = batches.flatMap((b) => b.queries);
    expect(all.every((q) => /^[a-z][A-Za-z0-9_]*$/.test(q.Id))).toBe(true);
    expect(new Set(all.map((q) => q.Id)).size).toBe(756);
    expect(all[4]).toEqual({
      Id: 'v0_m_iops',
      Label: 'vol-0000 VolumeAvgIOPS',
      MetricStat: {
        Metric: {
          Namespace: 'AWS/EBS',
          MetricName: 'VolumeAvgIOPS',
          Dimensions: [{ Name: 'VolumeId', Value: 'vol-0000' }],
        },
        Period: 300,
        Stat: 'Maximum',
        Unit: 'Count/Second',
      },
      ReturnData: true,
    });
    expect(all[5]!.MetricStat).toMatchObject({
      Metric: { MetricName: 'VolumeAvgThroughput' },
      Stat: 'Maximum',
      Unit: 'Bytes/Second',
    });
    expect(all[7]).toEqual({
      Id: 'v1_w_ops',
      Label: 'vol-0001 VolumeWriteOps',
      MetricStat: {
        Metric: {
          Namespace: 'AWS/EBS',
          MetricName: 'VolumeWriteOps',
          Dimensions: [{ Name: 'VolumeId', Value: 'vol-0001' }],
        },
        Period: 300,
        Stat: 'Sum',
      },
      ReturnData: true,
    });
    expect(parseLabel(all[7]!.Label)).toEqual({ volumeId: 'vol-0001', metric: 'VolumeWriteOps' });
  });

  it('the exact command per batch: the window ends on a period boundary', () => {
    expect(batches[1]!.command).toBe(
      'aws cloudwatch get-metric-data --start-time 2026-11-10T00:00:00Z --end-time 2026-11-24T00:00:00Z --metric-data-queries file://batch-2.json --output json > metrics-2.json',
    );
  });
});

describe('parsing the AWS CLI outputs', () => {
  it.each([
    {
      input: { Volumes: [{ VolumeId: 'vol-1', Size: '8', VolumeType: 'gp3', State: 'in-use' }] },
      path: 'Volumes.0.Size',
    },
    { input: { volumes: [] }, path: 'Volumes' },
    { input: { Volumes: [{ Size: 8, VolumeType: 'gp3', State: 'in-use' }] }, path: 'Volumes.0.VolumeId' },
    // a control sequence in an id would reach the terminal; a space would break the query Label
    {
      input: { Volumes: [{ VolumeId: 'vol-1\u001b[2J', Size: 8, VolumeType: 'gp3', State: 'in-use' }] },
      path: 'Volumes.0.VolumeId',
    },
    {
      input: { Volumes: [{ VolumeId: 'vol 1', Size: 8, VolumeType: 'gp3', State: 'in-use' }] },
      path: 'Volumes.0.VolumeId',
    },
  ])('describe-volumes refusal names $path', ({ input, path }) => {
    const r = parseFleetVolumes(input);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.path).toBe(path);
      expect(r.error.message).toContain(path);
    }
  });

  it('an unattached volume has no instance; the Name tag is kept', () => {
    const r = parseFleetVolumes({
      Volumes: [
        {
          VolumeId: 'vol-1',
          Size: 8,
          VolumeType: 'gp2',
          State: 'available',
          Attachments: [],
          Tags: [{ Key: 'Name', Value: 'db' }],
          Extra: 1,
        },
      ],
    });
    expect(r.ok && r.value[0]).toMatchObject({ instanceId: null, name: 'db', iops: null });
  });

  it('describe-instances: the type and state, not the hypervisor', () => {
    const r = parseFleetInstances({
      Reservations: [
        {
          Instances: [
            {
              InstanceId: 'i-1',
              InstanceType: 'm5.large',
              Hypervisor: 'xen',
              State: { Code: 16, Name: 'running' },
            },
          ],
        },
      ],
    });
    expect(r).toEqual({
      ok: true,
      value: [{ instanceId: 'i-1', instanceType: 'm5.large', state: 'running' }],
    });
  });

  it('get-metric-data: a series split over NextToken pages merges by Label; ids map back when labels were changed', () => {
    const page = (values: number[], ts: string[], label?: string, token?: string) => ({
      MetricDataResults: [
        {
          Id: 'v0_r_ops',
          ...(label ? { Label: label } : {}),
          Timestamps: ts,
          Values: values,
          StatusCode: 'Complete',
        },
      ],
      ...(token ? { NextToken: token } : {}),
    });
    const r = parseMetricData(
      [
        page(
          [600, 300],
          ['2026-11-24T00:00:00+00:00', '2026-11-23T23:55:00+00:00'],
          'vol-a VolumeReadOps',
          't1',
        ),
        page([900], ['2026-11-23T23:50:00+00:00'], 'renamed by someone'),
      ],
      { volumeIds: ['vol-a'] },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.value.series.get('vol-a')!.VolumeReadOps!;
    expect([s.count, s.max, s.lastMs - s.firstMs]).toEqual([3, 900, 600_000]);
  });

  it.each([
    {
      file: {
        MetricDataResults: [
          { Id: 'x', Label: 'vol-a VolumeReadOps', Timestamps: ['2026-11-24T00:00:00Z'], Values: [] },
        ],
      },
      code: 'metrics_invalid',
      text: '1 Timestamps but 0 Values',
    },
    {
      file: { MetricDataResults: [{ Id: 'x', Label: 'cpu', Timestamps: [], Values: [] }] },
      code: 'metrics_invalid',
      text: 'MetricDataResults.0.Label',
    },
    {
      file: {
        MetricDataResults: [
          { Id: 'x', Label: 'vol-a VolumeReadOps', Timestamps: ['2026-11-24T00:00:00Z'], Values: ['1'] },
        ],
      },
      code: 'metrics_invalid',
      text: 'MetricDataResults.0.Values.0',
    },
  ])('get-metric-data refusal: $text', ({ file, code, text }) => {
    const r = parseMetricData([file], { fileNames: ['m.json'] });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe(code);
      expect(r.error.message).toContain('m.json');
      expect(r.error.message).toContain(text);
    }
  });
});

describe('summarizeMetricDataText + mergeFleetMetrics: files summarized apart, merged in order', () => {
  const stamps = (n: number, fromMinute: number) =>
    Array.from({ length: n }, (_, i) =>
      new Date(Date.UTC(2026, 10, 20, 0, fromMinute + 5 * i)).toISOString(),
    );
  const result = (label: string, values: number[], fromMinute = 0, status = 'Complete') => ({
    Id: 'x',
    Label: label,
    Timestamps: stamps(values.length, fromMinute),
    Values: values,
    StatusCode: status,
  });
  // vol-a's read ops are cut across the two pages: large values first, then many small ones, so
  // which values the heap drops depends on every point before; merging the two files' heaps
  // instead of replaying the second file's points would keep a different top.
  const files = [
    {
      MetricDataResults: [
        result('vol-a VolumeReadOps', [900, 800, 700, ...oneToN(60)], 0, 'PartialData'),
        result('vol-b VolumeWriteOps', oneToN(300)),
      ],
      NextToken: 't1',
    },
    {
      MetricDataResults: [
        result('vol-a VolumeReadOps', [...oneToN(400), 850], 1000),
        result('vol-c VolumeReadBytes', [5, 4, 3]),
        result('vol-b VolumeReadOps', [7], 0, 'Forbidden'),
      ],
    },
  ].map((f) => JSON.stringify(f));

  it('gives the summaries, counts and warnings of addMetricDataText over the files in order', () => {
    const sequential = createFleetMetrics();
    for (const [i, text] of files.entries())
      expect(addMetricDataText(sequential, text, { fileName: `m${i}.json` }).ok).toBe(true);
    const merged = createFleetMetrics();
    for (const [i, text] of files.entries()) {
      const part = summarizeMetricDataText(text, { fileName: `m${i}.json` });
      if (!part.ok) throw new Error(part.error.message);
      mergeFleetMetrics(merged, part.value);
    }
    expect(merged).toEqual(sequential);
    const a = merged.series.get('vol-a')!.VolumeReadOps!;
    expect(a.count).toBe(464);
    expect(statisticOf(a, 'p99')).toEqual(statisticOf(sequential.series.get('vol-a')!.VolumeReadOps!, 'p99'));
    expect(merged.warnings).toEqual(['vol-b VolumeReadOps: StatusCode Forbidden']);
  });

  it('refuses a file as addMetricDataText does, naming the file and field', () => {
    const bad = JSON.stringify({ MetricDataResults: [result('not a label', [1])] });
    const r = summarizeMetricDataText(bad, { fileName: 'm9.json' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('m9.json: MetricDataResults.0.Label');
  });
});

describe('impossible CloudWatch values are refused, through the schema and through the text scanner', () => {
  const file = (values: number[], metric = 'VolumeReadOps') => ({
    MetricDataResults: [
      {
        Id: 'v0_r_ops',
        Label: `vol-a ${metric}`,
        Timestamps: values.map((_, i) => new Date(Date.UTC(2026, 10, 24) - i * 300_000).toISOString()),
        Values: values,
        StatusCode: 'Complete',
      },
    ],
  });
  it.each([
    {
      values: [1200, -5],
      metric: 'VolumeReadOps',
      text: 'expected a Sum of operations, a finite number ≥ 0, got -5',
    },
    {
      values: [1200, 1e308],
      metric: 'VolumeReadOps',
      text: 'more than 2.56 M IOPS (10 × the largest io2 Block Express volume)',
    },
    // 2,560,000 IOPS × 300 s is the ceiling: one more operation is refused
    { values: [0, 768_000_001], metric: 'VolumeWriteOps', text: 'not a possible VolumeWriteOps Sum' },
    // 100 GiB/s × 300 s = 32,212,254,720,000 bytes
    { values: [5, 32_212_254_720_001], metric: 'VolumeReadBytes', text: 'in 300 s is more than 100 GiB/s' },
  ])(
    '$metric $values.1: refused at MetricDataResults.0.Values.1, naming the file',
    ({ values, metric, text }) => {
      const json = file(values, metric);
      const viaSchema = parseMetricData([json], { fileNames: ['m.json'] });
      const viaScanner = addMetricDataText(createFleetMetrics(), JSON.stringify(json), {
        fileName: 'm.json',
      });
      for (const r of [viaSchema, viaScanner]) {
        expect(r.ok).toBe(false);
        if (r.ok) continue;
        expect(r.error).toMatchObject({ code: 'metrics_invalid', path: 'MetricDataResults.0.Values.1' });
        expect(r.error.message).toMatch(/^m\.json: MetricDataResults\.0\.Values\.1: /);
        expect(r.error.message).toContain(text);
      }
    },
  );

  it('the ceilings themselves pass', () => {
    expect(parseMetricData([file([768_000_000, 0])]).ok).toBe(true);
    expect(parseMetricData([file([32_212_254_720_000], 'VolumeReadBytes')]).ok).toBe(true);
  });
});
