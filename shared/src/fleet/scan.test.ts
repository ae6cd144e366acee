import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addMetricData, addMetricDataText, createFleetMetrics } from './metrics.ts';
import { scanMetricDataText } from './scan.ts';

const DIR = resolve(import.meta.dirname, '../../../fixtures/fleet');

describe('scanMetricDataText: the same numbers as JSON.parse, without building the points', () => {
  it('the fixture responses summarize identically through both paths', () => {
    const viaText = createFleetMetrics();
    const viaJson = createFleetMetrics();
    for (const name of ['metrics-1.json', 'metrics-2.json']) {
      const text = readFileSync(resolve(DIR, name), 'utf8');
      expect(addMetricDataText(viaText, text).ok).toBe(true);
      expect(addMetricData(viaJson, JSON.parse(text)).ok).toBe(true);
    }
    expect(viaText.series).toEqual(viaJson.series);
    expect(viaText.results).toBe(33);
  });

  it.each([
    ['12345.0', 12345],
    ['-0.5', -0.5],
    ['1.25e3', 1250],
    ['0', 0],
    ['0.1', 0.1],
    ['123456789012345680', 123456789012345680],
    ['7.000001', 7.000001],
  ])('reads the number %s as JSON.parse does', (literal, value) => {
    const text = `{"MetricDataResults":[{"Id":"a","Label":"vol-1 VolumeReadOps","Timestamps":["2026-11-24T00:00:00Z"],"Values":[${literal}]}]}`;
    expect(scanMetricDataText(text)?.[0]?.values[0]).toBe(value);
    expect(JSON.parse(text).MetricDataResults[0].Values[0]).toBe(value);
  });

  it('pretty-printed text, escapes in strings, extra fields and Messages', () => {
    const text = JSON.stringify(
      {
        Messages: [{ Code: 'x', Value: 'y' }],
        MetricDataResults: [
          {
            Id: 'v0_r_ops',
            Label: 'vol-\u0031 VolumeReadOps',
            Extra: { a: [1, null, true] },
            Timestamps: ['2026-11-24T00:05:00+00:00', '2026-11-24T00:00:00+00:00'],
            Values: [3, 4.5],
            StatusCode: 'Complete',
          },
        ],
        NextToken: 'a"b',
      },
      null,
      2,
    ).replace('vol-1', 'vol-\\u0031');
    const r = scanMetricDataText(text);
    expect(r?.[0]).toMatchObject({
      Label: 'vol-1 VolumeReadOps',
      stampCount: 2,
      firstStamp: '2026-11-24T00:05:00+00:00',
      lastStamp: '2026-11-24T00:00:00+00:00',
    });
    expect([...r![0]!.values]).toEqual([3, 4.5]);
  });

  it.each([
    [
      'a value that is a string',
      '{"MetricDataResults":[{"Id":"a","Label":"vol-1 VolumeReadOps","Timestamps":["2026-11-24T00:00:00Z"],"Values":["1"]}]}',
      'MetricDataResults.0.Values.0',
    ],
    ['no MetricDataResults', '{"Volumes":[]}', 'MetricDataResults'],
    ['truncated text', '{"MetricDataResults":[{"Id":"a"', 'not JSON'],
  ])('%s: falls back to JSON.parse and the schema, which name the field', (_name, text, where) => {
    expect(scanMetricDataText(text)).toBeNull();
    const r = addMetricDataText(createFleetMetrics(), text, { fileName: 'm.json' });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toContain('m.json: ');
      expect(r.error.message).toContain(where);
    }
  });
});
