import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from '../timeseries/import-metrics.ts';
import { summarizeQueue } from '../timeseries/queue.ts';
import type { IoSeries } from '../timeseries/series.schema.ts';
import { judgeLatencyPromise, measuredLatencyOf, type MeasuredLatency } from './measured-latency.ts';

const load = (path: string, options = {}): IoSeries => {
  const result = importMetrics(readFileSync(new URL(`../../../fixtures/${path}`, import.meta.url)), options);
  if (!result.ok) throw new Error(`${path}: ${result.error.message}`);
  return result.value;
};

describe('measuredLatencyOf', () => {
  it('nvme amzn stats: the worse direction’s worst p99, from the histogram (fixtures/nvme-amzn)', () => {
    // Hand-computed in nvme-amzn.test.ts: read p99 2,048 µs, write p99 4,096 µs; p50 1,024 / 2,048; p99.9 4,096 / 8,192.
    const m = measuredLatencyOf(load('nvme-amzn/stats_v3.0-rc1_json.txt'))!;
    expect(m.statistic).toBe('p99');
    expect(m.ms).toBe(4.096);
    expect(m.direction).toBe('write');
    expect(m.percentilesMs).toEqual({ '50': 2.048, '99': 4.096, '99.9': 8.192 });
    // Light load (production, not a saturation test): p50 against 10 ms.
    expect(m.verdicts.map((v) => [v.percentile, v.verdict])).toEqual([['50', 'ok']]);
  });

  it('the EBS CSI driver’s histograms give the same figure as nvme amzn stats of the same log page', () => {
    const m = measuredLatencyOf(load('ebs-csi/query_range_counters.json'))!;
    expect([m.statistic, m.ms, m.direction]).toEqual(['p99', 4.096, 'write']);
    expect(m.source).toContain('Prometheus');
  });

  it('iostat: the request-weighted mean await', () => {
    const series = load('metrics/iostat_12.6.1_x_t_C.txt');
    const m = measuredLatencyOf(series)!;
    expect(m.statistic).toBe('average');
    expect(m.ms).toBe(summarizeQueue(series)!.meanAwaitMs);
    expect(m.ms).toBeGreaterThan(0);
  });

  it('a source without latency (Prometheus node_exporter) gives none', () => {
    expect(measuredLatencyOf(load('metrics/prometheus_query_range_counters.json'))).toBeNull();
  });
});

describe('judgeLatencyPromise: measured latency against a type’s promised average latency', () => {
  const measured = (ms: number): MeasuredLatency => ({
    source: 'test',
    statistic: 'p99',
    ms,
    direction: 'read',
    percentilesMs: { '99': ms },
    verdicts: [],
  });
  it.each([
    // measured p99 ms, type, verdict
    [0.6, 'gp3', 'slower-than-today'], // the example: io2 at 0.6 ms → gp3 is single-digit ms
    [0.6, 'io2', 'as-today'],
    [0.85, 'gp3', 'as-today'], // 0.85 × 1.2 = 1.02 ≥ 1 ms: within the 20 % the fio rule allows
    [0.8, 'gp2', 'slower-than-today'], // 0.8 × 1.2 = 0.96 < 1 ms
    [4, 'gp3', 'as-today'],
    [4, 'io2', 'faster-than-today'],
    [12, 'gp3', 'as-today'], // 12 ≤ 10 × 1.2
    [13, 'io1', 'faster-than-today'],
    [0.6, 'st1', 'no-promise'],
  ] as const)('%s ms on %s → %s', (ms, type, verdict) => {
    const v = judgeLatencyPromise(measured(ms), type);
    expect(v.verdict).toBe(verdict);
    expect(v.message).toContain(type);
  });

  it('says so in words', () => {
    expect(judgeLatencyPromise(measured(0.6), 'gp3').message).toBe(
      'gp3 promises single-digit millisecond (1–10 ms average); measured p99 0.60 ms: slower than today',
    );
  });
});
