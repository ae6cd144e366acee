import { describe, expect, it } from 'vitest';
import { metricsFixture } from './metrics-fixtures.ts';
import { readMetrics } from './metrics-reader.ts';
import { ebsEvidenceView, latencyView } from './latency-view.ts';

function series(name: string, options = {}) {
  const r = readMetrics(metricsFixture(name), options);
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  return r.imported.series;
}

describe('the EBS NVMe evidence in the series panel', () => {
  // Hand-computed in shared nvme-amzn.test.ts: read p50/p99/p99.9 1,024/2,048/4,096 µs, write
  // 2,048/4,096/8,192 µs; 12.5 s over the volume's IOPS, 3.25 s over the instance's throughput.
  it.each(['stats_v3.0-rc1_json.txt', 'stats_v2.16_normal.txt', 'query_range_counters.json'])(
    '%s: per-interval percentiles and seconds over each of the four limits',
    (name) => {
      const view = ebsEvidenceView(series(name))!;
      expect(view.intervals).toBe(1);
      expect(view.rows).toEqual([
        {
          timeMs: Date.UTC(2026, 10, 24, 10, 0),
          at: expect.stringContaining('2026-11-24 10:00'),
          read: ['1.02 ms', '2.05 ms', '4.10 ms'],
          write: ['2.05 ms', '4.10 ms', '8.19 ms'],
          exceeded: ['12.50 s', '0.00 s', '0.00 s', '3.25 s'],
          overLimit: true,
        },
      ]);
      expect(view.summary.exceededSec.instanceThroughput).toBeCloseTo(3.25, 9);
    },
  );

  it('a series without them shows none', () => {
    expect(ebsEvidenceView(series('iostat_12.6.1_x_t_C.txt'))).toBeNull();
  });
});

describe('the measured latency against the types’ promises', () => {
  it('the candidate first; a type that promises slower than today is said to', () => {
    const view = latencyView(
      series('query_range_counters.json', { device: 'vol-0fedcba9876543210' }),
      'io2',
    )!;
    expect(view.headline).toBe(
      'Worst p99 0.512 ms, from EBS latency histograms (log page 0xD0) of Prometheus query_range JSON',
    );
    expect(view.promises.map((p) => [p.type, p.verdict])).toEqual([
      ['io2', 'as-today'],
      ['gp3', 'slower-than-today'],
      ['gp2', 'slower-than-today'],
      ['io1', 'slower-than-today'],
      ['st1', 'no-promise'],
      ['sc1', 'no-promise'],
    ]);
  });

  it('iostat: the mean await', () => {
    const view = latencyView(series('iostat_12.6.1_x_t_C.txt'), null)!;
    expect(view.measured.statistic).toBe('average');
    expect(view.headline).toMatch(/^Average 0\.\d{3} ms, from iostat -x await/);
  });

  it('node_exporter measures no latency', () => {
    expect(latencyView(series('prometheus_query_range_counters.json'), 'gp3')).toBeNull();
  });
});
