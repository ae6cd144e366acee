import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from './import-metrics.ts';
import { MAX_METRIC_VALUE, impossibleValue } from './values.ts';

/**
 * Every importer refuses a value that cannot be a disk measurement — NaN, an infinity, 1e308,
 * a negative rate — naming where it is, instead of turning it into a series (issue 24). Each
 * case is one value changed in a real export of fixtures/.
 */
const read = (path: string) => readFileSync(new URL(`../../../fixtures/${path}`, import.meta.url), 'utf8');
const HUGE = '9'.repeat(400); // Number() of it is Infinity

/** The n-th (0-based) line matching `re`, with its first match of `cell` replaced by `value`. */
function replaceInLine(text: string, re: RegExp, n: number, cell: RegExp, value: string): string {
  const lines = text.split('\n');
  const index = lines.map((l, i) => (re.test(l) ? i : -1)).filter((i) => i >= 0)[n]!;
  lines[index] = lines[index]!.replace(cell, value);
  return lines.join('\n');
}

function prometheus(value: string): string {
  const doc = JSON.parse(read('metrics/prometheus_query_range_counters.json'));
  doc.data.result[0].values[3][1] = value;
  return JSON.stringify(doc);
}
function getMetricData(value: number): string {
  const doc = JSON.parse(read('cloudwatch/get_metric_data_volume_5min.json'));
  doc.MetricDataResults[0].Values[0] = value;
  return JSON.stringify(doc);
}
function datadogJson(value: number): string {
  const doc = JSON.parse(read('metrics/datadog/datadog_query_10s.json'));
  doc.series[0].pointlist[2][1] = value;
  return JSON.stringify(doc);
}

describe('values that cannot be measurements are refused, naming the point', () => {
  it.each([
    ['Prometheus "NaN"', prometheus('NaN'), 'data.result.0.values.3', 'NaN is not a measurement'],
    ['Prometheus "1e308"', prometheus('1e308'), 'data.result.0.values.3', 'over 2^64'],
    ['Prometheus "+Inf"', prometheus('+Inf'), 'data.result.0.values.3', 'Infinity is not a measurement'],
    [
      'CloudWatch console CSV 1e308',
      replaceInLine(read('cloudwatch/console_volume_sum_5min.csv'), /^2026-/, 0, /,\d+,/, ',1e308,'),
      'line 2, column 2 (VolumeReadOps vol-0a1b2c3d4e5f60718 (Sum, 5 Minutes))',
      'over 2^64',
    ],
    [
      'Grafana CSV 1e308 B/s',
      replaceInLine(read('cloudwatch/grafana_node_exporter_1min.csv'), /^"2026-/, 4, /,[\d.]+,/, ',1e308,'),
      'line 6, column 2 (nvme1n1 reads/s)',
      'over 2^64',
    ],
    [
      'CloudWatch get-metric-data 1e308',
      getMetricData(1e308),
      'MetricDataResults.0.Timestamps.0',
      'over 2^64',
    ],
    ['Datadog query JSON 1e308', datadogJson(1e308), 'series.0.pointlist.2', 'over 2^64'],
    [
      'Datadog CSV 1e308',
      replaceInLine(read('metrics/datadog/datadog_timeseries_10s.csv'), /^2026-/, 1, /,[\d.]+,/, ',1e308,'),
      'line 3',
      'over 2^64',
    ],
    [
      'iostat -x r/s of 400 digits',
      replaceInLine(read('metrics/iostat_12.6.1_x_t_C.txt'), /^vda /, 2, /^(vda\s+)\S+/, `$1${HUGE}`),
      undefined,
      'Infinity is not a measurement',
    ],
    [
      'sar -d tps of 400 digits',
      replaceInLine(read('metrics/sar_12.6.1_d_C.txt'), /\svda\s/, 2, /(vda\s+)\S+/, `$1${HUGE}`),
      undefined,
      'Infinity is not a measurement',
    ],
  ])('%s → bad_value', (_, text, path, message) => {
    const r = importMetrics(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad_value');
    if (path !== undefined) expect(r.error.path).toBe(path);
    expect(r.error.message).toContain(message);
  });

  it('the check itself: finite, non-negative, at most 2^64', () => {
    expect(impossibleValue(0)).toBeNull();
    expect(impossibleValue(3e9)).toBeNull();
    expect(impossibleValue(MAX_METRIC_VALUE)).toBeNull();
    expect(impossibleValue(MAX_METRIC_VALUE * 2)).toMatch(/over 2\^64/);
    expect(impossibleValue(-1)).toMatch(/never negative/);
    expect(impossibleValue(Number.NaN)).toMatch(/NaN/);
    expect(impossibleValue(Number.NEGATIVE_INFINITY)).toMatch(/-Infinity/);
  });
});
