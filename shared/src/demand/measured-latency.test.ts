import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from '../timeseries/import-metrics.ts';
import { summarizeQueue } from '../timeseries/queue.ts';
import type { IoSeries } from '../timeseries/series.schema.ts';
import { headlineOf } from '../analysis/summarize-run.ts';
import { profileFromFio } from '../profile/from-fio.ts';
import { fixtureReport, NVME_RANDWRITE_4K } from '../test-support/fio-fixtures.ts';
import {
  judgeLatencyPromise,
  measuredLatencyOf,
  measuredLatencyOfFio,
  type MeasuredLatency,
} from './measured-latency.ts';

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
  });

  it('a source without latency (Prometheus node_exporter) gives none', () => {
    expect(measuredLatencyOf(load('metrics/prometheus_query_range_counters.json'))).toBeNull();
  });
});

describe('measuredLatencyOfFio: a fio run’s clat p99 (the worse direction’s)', () => {
  /** The p99 recomputed from the file itself: fio's clat_ns percentile "99.000000" (ns), worst job. */
  const rawP99Ms = (name: string, dir: 'read' | 'write') => {
    const doc = JSON.parse(
      readFileSync(new URL(`../../../fixtures/fio/${name}`, import.meta.url), 'utf8'),
    ) as {
      jobs: { [d in 'read' | 'write']: { clat_ns: { percentile: Record<string, number> } } }[];
    };
    return Math.max(...doc.jobs.map((j) => j[dir].clat_ns.percentile['99.000000']!)) / 1e6;
  };
  const of = (name: string, load: 'light' | 'saturated' = 'saturated', measuredOn: string | null = null) => {
    const p = profileFromFio(fixtureReport(name));
    if (!p.ok) throw new Error(p.error.message);
    return measuredLatencyOfFio(p.value, { load, syncCommits: false, measuredOn });
  };

  it.each([
    // fixture, direction, p99 by hand (ms), approximate (several jobs without json+ bins), gp3 verdict, io2 verdict
    // NVMe randwrite, 16 jobs: clat_ns p99 536,576 ns in 13 jobs (509,952–528,384 in the rest) → upper bound 0.537 ms.
    [NVME_RANDWRITE_4K, 'write', 0.536576, true, 'slower-than-today', 'as-today'],
    // One randread job (libaio QD32): p99 468,992 ns.
    [
      'generated/c_randread_4k_libaio_qd32_timebased5s.json',
      'read',
      0.468992,
      false,
      'slower-than-today',
      'as-today',
    ],
    // randrw 70/30, json+: read p99 173,056 ns, write p99 432,128 ns → the writes' figure.
    ['generated/g_randrw_4k_mix70_jsonplus.json', 'write', 0.432128, false, 'slower-than-today', 'as-today'],
  ] as const)('%s: %s p99 %s ms', (name, direction, handMs, approximate, gp3, io2) => {
    expect(handMs).toBe(rawP99Ms(name, direction));
    const m = of(name)!;
    expect([m.statistic, m.ms, m.direction]).toEqual(['p99', handMs, direction]);
    expect(m.source.includes('upper bound')).toBe(approximate);
    expect(judgeLatencyPromise(m, 'gp3').verdict).toBe(gp3);
    expect(judgeLatencyPromise(m, 'io2').verdict).toBe(io2);
  });

  it('names the storage the run was on and judges with the plan’s load', () => {
    const m = of(NVME_RANDWRITE_4K, 'light', 'local NVMe instance store')!;
    expect(m.source).toBe(
      'fio completion latency (clat) percentiles on local NVMe instance store, the upper bound over the jobs (no json+ bins to merge)',
    );
    expect([m.span, m.load]).toEqual(['whole run', 'light']);
    expect(m.verdicts.map((v) => [v.percentile, v.verdict])).toEqual([['50', 'ok']]);
    // Only the percentiles the verdict rules know, not fio's 17.
    expect(Object.keys(m.percentilesMs)).toEqual(['50', '99', '99.9', '99.99']);
    expect(judgeLatencyPromise(m, 'gp3').message).toBe(
      'gp3 promises single-digit millisecond (1–10 ms average); measured p99 0.54 ms: slower than today',
    );
  });

  it.each([NVME_RANDWRITE_4K, 'generated/g_randrw_4k_mix70_jsonplus.json'])(
    '%s: a stored run’s headline gives the same as its profile',
    (name) => {
      const report = fixtureReport(name);
      const p = profileFromFio(report);
      if (!p.ok) throw new Error(p.error.message);
      const judged = { load: 'saturated', syncCommits: false } as const;
      expect(measuredLatencyOfFio(headlineOf(report, p.value), judged)).toEqual(
        measuredLatencyOfFio(p.value, judged),
      );
    },
  );

  it('a run without clat percentiles (clat_percentiles=0) gives none', () => {
    expect(of('generated/i2_randwrite_4k_clat_percentiles_off.json')).toBeNull();
  });
});

describe('judgeLatencyPromise: measured latency against a type’s promised average latency', () => {
  const measured = (ms: number): MeasuredLatency => ({
    source: 'test',
    statistic: 'p99',
    ms,
    direction: 'read',
    percentilesMs: { '99': ms },
    span: 'worst interval',
    load: 'light',
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
