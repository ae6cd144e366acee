import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDatadogCsv, parseDatadogJson } from './datadog.ts';
import { importMetrics } from './import-metrics.ts';
import { IoSeriesSchema, type IoSeries, type SeriesImportResult } from './series.schema.ts';
import { profilesByStatistic } from './sizing.ts';

/**
 * The hand-written Datadog fixtures (fixtures/metrics/datadog/, made by make-datadog.mjs from the
 * real iostat capture), against values read here with a plain split of the CSV.
 */

const DIR = new URL('../../../fixtures/metrics/datadog/', import.meta.url);
const CSV = readFileSync(new URL('datadog_timeseries_10s.csv', DIR), 'utf8');
const JSON_TEXT = readFileSync(new URL('datadog_query_10s.json', DIR), 'utf8');

function ok(r: SeriesImportResult): IoSeries {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return IoSeriesSchema.parse(r.value);
}

/** The oracle: split each line on commas outside quotes; the column whose header names metric and device. */
function column(metric: string, device: string): (number | null)[] {
  const split = (line: string) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((c) => c.replace(/"/g, ''));
  const [header, ...rows] = CSV.trim().split('\n');
  const k = split(header!).findIndex(
    (h) => h.includes(`system.io.${metric}{`) && h.includes(`device:${device},`),
  );
  return rows.map((r) => {
    const v = split(r)[k]!;
    return v === '' ? null : Number(v);
  });
}

describe('Datadog timeseries CSV (hand-written, see fixtures/metrics/README.md)', () => {
  const s = ok(importMetrics(CSV));

  it('finds system.io.* columns by metric and device tag; reads vda, the busiest', () => {
    expect(s).toMatchObject({
      format: 'datadog-csv',
      periodSec: 10,
      device: { name: 'vda', chosenBy: 'busiest' },
    });
    expect(s.readIops).toEqual(column('r_s', 'vda'));
    expect(s.writeIops).toEqual(column('w_s', 'vda'));
    expect(s.readBytesPerSec).toEqual(column('rkb_s', 'vda').map((v) => (v === null ? null : v * 1024)));
    expect(s.writeBytesPerSec).toEqual(column('wkb_s', 'vda').map((v) => (v === null ? null : v * 1024)));
  });

  it('an empty cell is a missing point, not zero', () => {
    expect(s.writeIops[3]).toBeNull();
    expect(s.quality.partialPoints).toBe(1);
  });

  it('the sizing profile is the maximum of the points present, at their own step (never averaged up)', () => {
    const profiles = profilesByStatistic(s);
    if (!profiles.ok) throw new Error(profiles.error.message);
    const max = (v: (number | null)[]) => Math.max(...v.filter((x): x is number => x !== null));
    expect(profiles.value.max.read.iops).toBeCloseTo(max(column('r_s', 'vda')), 9);
    expect(profiles.value.max.write.iops).toBeCloseTo(max(column('w_s', 'vda')), 9);
  });

  it('--device loop1; the long layout (time, query, value) reads the same', () => {
    expect(ok(parseDatadogCsv(CSV, { device: 'loop1' })).readIops).toEqual(column('r_s', 'loop1'));
    const [header, ...rows] = CSV.trim().split('\n');
    const names = header!.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((h) => h.replace(/"/g, ''));
    const long = ['timestamp,query,value'];
    for (const r of rows) {
      const cells = r.split(',');
      names.slice(1).forEach((n, k) => long.push(`${cells[0]},"${n}",${cells[k + 1]}`));
    }
    const l = ok(parseDatadogCsv(long.join('\n')));
    expect(l.timeMs).toEqual(s.timeMs);
    expect(l.readIops).toEqual(s.readIops);
    expect(l.writeIops).toEqual(s.writeIops);
  });

  it('bad input names the line and column', () => {
    const bad = CSV.replace(/\n(2026-11-24T13:46:10\.000Z,)[\d.]+/, '\n$1lots');
    expect(parseDatadogCsv(bad)).toMatchObject({
      ok: false,
      error: {
        code: 'bad_value',
        path: 'line 3',
        message: expect.stringContaining('line 3, column 2 (avg:system.io.r_s{device:vda,host:vm})'),
      },
    });
    expect(parseDatadogCsv(CSV.replace('timestamp', 'when'))).toMatchObject({
      ok: false,
      error: { code: 'bad_datadog_csv', path: 'line 1' },
    });
  });
});

describe('Datadog metrics query API JSON (hand-written)', () => {
  it('reads the same series as the CSV', () => {
    const j = ok(importMetrics(JSON_TEXT));
    const c = ok(importMetrics(CSV));
    expect(j.format).toBe('datadog-query-json');
    expect(j.timeMs).toEqual(c.timeMs);
    expect(j.readIops).toEqual(c.readIops);
    expect(j.writeBytesPerSec).toEqual(c.writeBytesPerSec);
  });

  it('an error answer and a query without system.io metrics are refused', () => {
    expect(
      parseDatadogJson(JSON.stringify({ status: 'error', error: 'Rate limit', series: [] })),
    ).toMatchObject({
      ok: false,
      error: { code: 'datadog_error' },
    });
    const cpu = JSON.stringify({
      status: 'ok',
      series: [{ metric: 'system.cpu.user', scope: 'host:db', pointlist: [[1, 2]] }],
    });
    expect(parseDatadogJson(cpu)).toMatchObject({ ok: false, error: { code: 'no_io_columns' } });
  });
});
