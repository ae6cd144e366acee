import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from './import-metrics.ts';
import { parsePrometheusQueryRange } from './prometheus.ts';
import { IoSeriesSchema, type IoSeries, type SeriesImportResult } from './series.schema.ts';
import { profilesByStatistic } from './sizing.ts';
import { summarizeSeries } from './stats.ts';

/**
 * The real query_range answers of fixtures/metrics (node_exporter 1.5.0 + Prometheus 2.42.0 during
 * the fio load), against rates computed here from the raw samples.
 */

const DIR = new URL('../../../fixtures/metrics/', import.meta.url);
const COUNTERS = readFileSync(new URL('prometheus_query_range_counters.json', DIR), 'utf8');
const RATES = readFileSync(new URL('prometheus_query_range_rate.json', DIR), 'utf8');

type Answer = { data: { result: { metric: Record<string, string>; values: [number, string][] }[] } };
const answer = (text: string) => JSON.parse(text) as Answer;

function ok(r: SeriesImportResult): IoSeries {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return IoSeriesSchema.parse(r.value);
}
const errorOf = (r: SeriesImportResult) => {
  if (r.ok) throw new Error('expected a failure');
  return r.error;
};

/** The oracle: (v[i+1] − v[i]) ÷ (t[i+1] − t[i]) of one counter of vda, keyed by t[i] (ms). */
function oracleRates(name: string): Map<number, number> {
  const s = answer(COUNTERS).data.result.find(
    (r) => r.metric.__name__ === name && r.metric.device === 'vda',
  )!;
  const out = new Map<number, number>();
  for (let i = 1; i < s.values.length; i++) {
    const [t0, v0] = s.values[i - 1]!;
    const [t1, v1] = s.values[i]!;
    out.set(t0 * 1000, (Number(v1) - Number(v0)) / (t1 - t0));
  }
  return out;
}
const rank = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.ceil((p / 100) * values.length) - 1]!;

describe('Prometheus query_range of the raw counters', () => {
  const s = ok(importMetrics(COUNTERS));
  const reads = oracleRates('node_disk_reads_completed_total');
  const writes = oracleRates('node_disk_writes_completed_total');
  const readBytes = oracleRates('node_disk_read_bytes_total');
  const writeBytes = oracleRates('node_disk_written_bytes_total');

  it('reads vda (the busiest; zram0 is idle), 2-second steps, each rate at the start of its step', () => {
    expect(s).toMatchObject({
      format: 'prometheus-query-range',
      periodSec: 2,
      device: { name: 'vda', chosenBy: 'busiest' },
    });
    expect(s.device!.devices.map((d) => d.name).sort()).toEqual(['vda', 'zram0']);
    expect(s.timeMs).toEqual([...reads.keys()]);
    expect(s.conversion.explanation).toContain('Cumulative counters');
  });

  it('every rate is the increase between two samples ÷ the seconds between them', () => {
    s.timeMs.forEach((t, i) => {
      expect(s.readIops[i]).toBeCloseTo(reads.get(t)!, 9);
      expect(s.writeIops[i]).toBeCloseTo(writes.get(t)!, 9);
      expect(s.readBytesPerSec[i]).toBeCloseTo(readBytes.get(t)!, 6);
      expect(s.writeBytesPerSec[i]).toBeCloseTo(writeBytes.get(t)!, 6);
    });
  });

  it('statistics and the sizing profile match the oracle (the points at their own step, never averaged up)', () => {
    const sum = summarizeSeries(s);
    const r = [...reads.values()];
    expect(sum.read.iops.max).toBeCloseTo(Math.max(...r), 9);
    expect(sum.read.iops.p99).toBeCloseTo(rank(r, 99), 9);
    expect(sum.read.iops.p95).toBeCloseTo(rank(r, 95), 9);
    const profiles = profilesByStatistic(s);
    if (!profiles.ok) throw new Error(profiles.error.message);
    const max = (m: Map<number, number>) => Math.max(...m.values());
    expect(profiles.value.max.read.iops).toBeCloseTo(max(reads), 9);
    expect(profiles.value.max.write.bytesPerSec).toBeCloseTo(max(writeBytes), 6);
    expect(profiles.value.max.read.blockSizeBytes).toBeCloseTo(max(readBytes) / max(reads), 6);
    expect(profiles.value.p95.read.iops).toBeCloseTo(rank(r, 95), 9);
  });

  it('--device zram0 reads the idle device (zeros, not missing)', () => {
    const z = ok(parsePrometheusQueryRange(COUNTERS, { device: 'zram0' }));
    expect(z.device?.chosenBy).toBe('asked');
    expect(new Set(z.readIops)).toEqual(new Set([0]));
  });

  it('a counter reset (reboot) counts the new value as the increase from zero, with a warning', () => {
    const a = answer(COUNTERS);
    const reads = a.data.result.find(
      (r) => r.metric.__name__ === 'node_disk_reads_completed_total' && r.metric.device === 'vda',
    )!;
    const at = 30;
    const base = Number(reads.values[at - 1]![1]);
    // From sample 30 on the counter restarts: 17 operations, then the original increases.
    reads.values = reads.values.map(([t, v], i) => [
      t,
      i < at ? v : String(Number(v) - base + 17 - (Number(reads.values[at]![1]) - base)),
    ]);
    const r = ok(parsePrometheusQueryRange(JSON.stringify(a)));
    const t = reads.values[at - 1]![0] * 1000;
    const i = r.timeMs.indexOf(t);
    expect(r.readIops[i]).toBeCloseTo(17 / (reads.values[at]![0] - reads.values[at - 1]![0]), 9);
    expect(r.warnings.find((w) => w.code === 'counter_resets')?.message).toMatch(
      /^1 counter reset \(first data\.result\.\d+ at /,
    );
  });

  it('a missed scrape: the rate over the gap is its average, placed in the gap’s last step', () => {
    const a = answer(COUNTERS);
    for (const r of a.data.result) r.values.splice(20, 2);
    const s2 = ok(parsePrometheusQueryRange(JSON.stringify(a)));
    expect(s2.quality.gaps).toBe(1);
    expect(s2.warnings.map((w) => w.code)).toContain('rate_over_gap');
  });
});

describe('Prometheus query_range of rate()d series', () => {
  it('used as they are, named by the "metric" label (rate() dropped __name__)', () => {
    const s = ok(importMetrics(RATES));
    const reads = answer(RATES).data.result.find(
      (r) => r.metric.metric === 'node_disk_reads_completed_total' && r.metric.device === 'vda',
    )!;
    expect(s.timeMs).toEqual(reads.values.map(([t]) => t * 1000));
    expect(s.readIops).toEqual(reads.values.map(([, v]) => Number(v)));
    expect(s.conversion.explanation).toContain('rates already');
  });

  it('rates named like counters (a label_replace onto __name__) go down all the time: asked, then read as told', () => {
    const a = answer(RATES);
    for (const r of a.data.result) r.metric = { ...r.metric, __name__: r.metric.metric! };
    const text = JSON.stringify(a);
    expect(parsePrometheusQueryRange(text)).toMatchObject({
      ok: false,
      error: { code: 'choice_required' },
      choices: [{ option: 'valueKind', flag: '--values', candidates: ['rate', 'counter'] }],
    });
    const s = ok(parsePrometheusQueryRange(text, { valueKind: 'rate' }));
    expect(s.readIops).toEqual(ok(importMetrics(RATES)).readIops);
  });
});

describe('Prometheus: bad input', () => {
  it('an instant query, an error answer, no disk series, not JSON of Prometheus', () => {
    const vector = JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [] } });
    expect(errorOf(importMetrics(vector))).toMatchObject({
      code: 'not_a_range_query',
      path: 'data.resultType',
    });
    const error = JSON.stringify({ status: 'error', errorType: 'bad_data', error: 'parse error at char 5' });
    expect(errorOf(importMetrics(error))).toMatchObject({
      code: 'prometheus_error',
      message: 'Prometheus answered status "error" (bad_data): parse error at char 5',
    });
    const cpu = JSON.stringify({
      status: 'success',
      data: {
        resultType: 'matrix',
        result: [{ metric: { __name__: 'node_cpu_seconds_total' }, values: [[1, '2']] }],
      },
    });
    expect(errorOf(importMetrics(cpu)).message).toContain(
      'no node_exporter disk series in the answer (node_cpu_seconds_total{})',
    );
    const bad = answer(COUNTERS);
    bad.data.result[0]!.values[3]![1] = '-5';
    expect(errorOf(parsePrometheusQueryRange(JSON.stringify(bad)))).toMatchObject({
      code: 'bad_value',
      path: 'data.result.0.values.3',
    });
  });
});
