import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { addMetricDataText, createFleetMetrics, summarizeMetricDataBytes } from './metrics.ts';
import { STAMP_SAMPLE, scanMetricData, type SameBytes, type ScannedMetricData } from './scan.ts';

// The byte scanner (scan.ts) against JSON.parse of the same document: what it keeps of each result
// (Id, Label, StatusCode, every value, the timestamps' count, ends and sample) and NextToken, field
// by field and value by value, on every fixture response and on the edge cases, with the
// pure-JavaScript compare of repeated Timestamps arrays, with Node's memcmp and with none.

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures');
/** fixtures/fleet/generate.mjs: the bench's fleet (untyped JavaScript, imported as plan.test.ts does). */
type Generator = {
  syntheticFleet: (n: number) => unknown;
  metricPages: (fleet: unknown, options: { days: number; maxPoints: number }) => Iterable<unknown>;
};
const generator = import(pathToFileURL(resolve(FIXTURES, 'fleet/generate.mjs')).href) as Promise<Generator>;
const FILES = ['fleet/metrics-1.json', 'fleet/metrics-2.json', 'fleet-evidence/metrics.json'];
const bufferCompare: SameBytes = (bytes, a, b, length) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).compare(
    bytes,
    a,
    a + length,
    b,
    b + length,
  ) === 0;
/** A compare that never finds an array repeated: every array scanned stamp by stamp. */
const neverSame: SameBytes = () => false;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringIfPresent = (o: Record<string, unknown>, key: string) =>
  !(key in o) || typeof o[key] === 'string';
const isArrayOfIfPresent = (o: Record<string, unknown>, key: string, type: 'string' | 'number') =>
  !(key in o) || (Array.isArray(o[key]) && o[key].every((x) => typeof x === type));

/**
 * What scanMetricData must answer for `text`, read from JSON.parse of it. null where JSON.parse
 * throws, and where it parses but a field has a type the scanner does not read (a value that is not
 * a number, epoch-second timestamps, an Id that is not a string): the scanner refuses those on
 * purpose and the caller falls back to JSON.parse and the schema, which read or name them.
 */
function fromJsonParse(text: string): ScannedMetricData | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(json) || !Array.isArray(json.MetricDataResults)) return null;
  const results: ScannedMetricData['results'] = [];
  for (const r of json.MetricDataResults as unknown[]) {
    if (
      !isObject(r) ||
      !['Id', 'Label', 'StatusCode'].every((key) => isStringIfPresent(r, key)) ||
      !isArrayOfIfPresent(r, 'Timestamps', 'string') ||
      !isArrayOfIfPresent(r, 'Values', 'number')
    )
      return null;
    const stamps = (r.Timestamps ?? []) as string[];
    const values = (r.Values ?? []) as number[];
    results.push({
      Id: r.Id as string | undefined,
      Label: r.Label as string | undefined,
      StatusCode: r.StatusCode as string | undefined,
      stampCount: stamps.length,
      firstStamp: stamps[0],
      lastStamp: stamps.at(-1),
      valueCount: values.length,
      stampSample: stamps.slice(0, STAMP_SAMPLE),
      values: Float64Array.from(values),
    });
  }
  return { results, nextToken: typeof json.NextToken === 'string' && json.NextToken !== '' };
}

/** The scanner's answer for `text`, with each way of comparing repeated Timestamps arrays, is JSON.parse's. */
function expectAsJsonParse(text: string): void {
  const expected = fromJsonParse(text);
  const bytes = Buffer.from(text, 'utf8');
  for (const compare of [undefined, bufferCompare, neverSame]) {
    const now = scanMetricData(bytes, compare);
    if (expected === null) {
      expect(now).toBeNull();
      continue;
    }
    expect(now).not.toBeNull();
    expect(now!.nextToken).toBe(expected.nextToken);
    expect(now!.results.length).toBe(expected.results.length);
    for (let r = 0; r < expected.results.length; r++) {
      const { values, ...fields } = now!.results[r]!;
      const { values: expectedValues, ...expectedFields } = expected.results[r]!;
      expect(fields).toStrictEqual(expectedFields);
      // toEqual tells -0 from 0.
      expect([...values]).toEqual([...expectedValues]);
    }
  }
}

const result = (stamps: string[], values: string, extra = '') =>
  `{"Id":"a","Label":"vol-1 VolumeReadOps"${extra},"Timestamps":[${stamps.map((s) => `"${s}"`).join(',')}],"Values":[${values}]}`;
const stamps = (n: number, minutes = 5) =>
  Array.from({ length: n }, (_, i) => new Date(Date.UTC(2026, 10, 24) - i * minutes * 60_000).toISOString());

describe('scanMetricData (bytes): what JSON.parse reads of the same document, field by field', () => {
  it.each(FILES)('fixtures/%s: compact, pretty-printed and with CRLF line ends', (name) => {
    const text = readFileSync(resolve(FIXTURES, name), 'utf8');
    const json: unknown = JSON.parse(text);
    expectAsJsonParse(text);
    expectAsJsonParse(JSON.stringify(json));
    expectAsJsonParse(JSON.stringify(json, null, 2).replaceAll('\n', '\r\n'));
  });

  it('the bench fleet, whose series share their Timestamps arrays, and its pages cut mid-series', async () => {
    const { metricPages, syntheticFleet } = await generator;
    let pages = 0;
    for (const page of metricPages(syntheticFleet(12), { days: 3, maxPoints: 3_000 })) {
      expectAsJsonParse(JSON.stringify(page));
      pages++;
    }
    expect(pages).toBeGreaterThan(3);
  });

  it('a Timestamps array that differs from the previous one in one byte, or extends it, is read in full', () => {
    const base = stamps(40);
    // One byte off in the last stamp, and in a sampled one: equal lengths, equal counts.
    const lastOff = [...base];
    lastOff[39] = lastOff[39]!.replace('2026', '2027');
    const sampledOff = [...base];
    sampledOff[5] = sampledOff[5]!.replace(':00.000Z', ':01.000Z');
    const longer = [...base, '2026-11-20T00:00:00.000Z'];
    const values = base.map((_, i) => String(i)).join(',');
    const text = `{"MetricDataResults":[${[
      result(base, values),
      result(base, values),
      result(lastOff, values),
      result(sampledOff, values),
      result(longer, `${values},1`),
      result(base.slice(0, 39), values.slice(0, values.lastIndexOf(','))),
      result(base, values),
    ].join(',')}]}`;
    expectAsJsonParse(text);
    const r = scanMetricData(Buffer.from(text))!.results;
    expect(r.map((x) => x.stampCount)).toEqual([40, 40, 40, 40, 41, 39, 40]);
    expect(r[2]!.lastStamp).toBe(lastOff[39]);
    expect(r[3]!.stampSample[5]).toBe(sampledOff[5]);
    expect(r[4]!.lastStamp).toBe('2026-11-20T00:00:00.000Z');
    expect(r[5]!.lastStamp).toBe(base[38]);
    expect(r[6]!.stampSample).toEqual(base.slice(0, 16));
  });

  it.each([
    '12345.0',
    '12345.000',
    '-0.5',
    '-0',
    '-0.0',
    '0',
    '0.0',
    '0.1',
    '1.25e3',
    '1E2',
    '1e-7',
    '12345.0e1',
    '7.000001',
    '123456789012345',
    '1234567890123456',
    '123456789012345680',
    '31457280000',
  ])('reads the number %s as JSON.parse does', (literal) => {
    const text = `{"MetricDataResults":[${result(stamps(3), `${literal}, ${literal} ,${literal}`)}]}`;
    expect(scanMetricData(Buffer.from(text))).not.toBeNull();
    expectAsJsonParse(text);
  });

  it.each(['01', '1.', '.5', '-', '+1', '1e', '0x10', '1.5.5', 'NaN', '1 2', '12a'])(
    'refuses the value %s, as JSON.parse does',
    (literal) => {
      const text = `{"MetricDataResults":[${result(stamps(1), literal)}]}`;
      expect(() => JSON.parse(text)).toThrow();
      expect(scanMetricData(Buffer.from(text))).toBeNull();
      expectAsJsonParse(text);
    },
  );

  it('two escaped stamps in one array: the sampled ones are decoded as JSON.parse decodes them', () => {
    const plus = (stamp: string) => JSON.stringify(stamp).replace('+', '\\u002B');
    const all = stamps(4).map((s) => s.replace('.000Z', '+00:00'));
    const text = `{"MetricDataResults":[{"Id":"a","Label":"vol-1 VolumeReadOps","Timestamps":[${plus(all[0]!)},${JSON.stringify(all[1])},${plus(all[2]!)},${JSON.stringify(all[3])}],"Values":[1,2,3,4]}]}`;
    expectAsJsonParse(text);
    expect(scanMetricData(Buffer.from(text))!.results[0]!.stampSample[0]).toBe(all[0]);
  });

  it('escapes in keys, labels and timestamps; non-ASCII text; extra fields skipped', () => {
    const text =
      '{"Messages":[{"Code":"\\"q\\"","Value":-1.5e3}],"MetricDataResults":[' +
      '{"\\u0049d":"a\\u00e9","Label":"vol-\\u0031 VolumeReadOps","Extra":{"x":[true,false,null,{}],"y":[]},' +
      '"Timestamps":["2026-11-24T00:05:00+00:00","2026-11-24T00:00:00\\u002B00:00"],"Values":[3,4.5],"StatusCode":"Complet\\u0065"},' +
      '{"Id":"b","Label":"vol-2 VolumeReadOps élan ✓","Timestamps":["2026-11-24T00:05:00+00:00","2026-11-24T00:00:00\\u002B00:00"],"Values":[1,2]}' +
      '],"NextToken":"t\\"1"}';
    expectAsJsonParse(text);
    const [a, b] = scanMetricData(Buffer.from(text))!.results;
    expect(a).toMatchObject({ Id: 'aé', Label: 'vol-1 VolumeReadOps', StatusCode: 'Complete' });
    expect(a!.lastStamp).toBe('2026-11-24T00:00:00+00:00');
    expect(b!.Label).toBe('vol-2 VolumeReadOps élan ✓');
  });

  it('NextToken: only a non-empty string at the top level says more pages exist', () => {
    const body = `"MetricDataResults":[${result(stamps(2), '1,2')}]`;
    const cases: [string, boolean][] = [
      [`{${body},"NextToken":"x"}`, true],
      [`{"NextToken" : "x",${body}}`, true],
      [`{${body},"NextToken":""}`, false],
      [`{${body},"NextToken":null}`, false],
      [`{${body}}`, false],
    ];
    for (const [text, more] of cases) {
      expect(scanMetricData(Buffer.from(text))!.nextToken).toBe(more);
      expectAsJsonParse(text);
    }
  });

  it.each([
    ['truncated inside a Timestamps array', (t: string) => t.slice(0, t.indexOf('"Timestamps"') + 40)],
    ['truncated inside a number', (t: string) => t.slice(0, t.indexOf('"Values"') + 12)],
    ['a string left open', (t: string) => t.replace('"StatusCode":"Complete"', '"StatusCode":"Complete')],
    ['text after the document', (t: string) => `${t} {}`],
    ['a control byte between values', (t: string) => t.replace('"Values":[', '"Values":[\u0001')],
  ])('%s: refused (null), as JSON.parse refuses it', (_name, cut) => {
    const text = cut(
      `{"MetricDataResults":[${result(
        stamps(30),
        stamps(30)
          .map((_, i) => String(i * 1000))
          .join(','),
        ',"StatusCode":"Complete"',
      )}]}`,
    );
    expect(scanMetricData(Buffer.from(text))).toBeNull();
    expectAsJsonParse(text);
  });
});

describe('summarizeMetricDataBytes: junk is refused naming the file and the point', () => {
  it('a value that is not a number falls back to JSON.parse and the schema', () => {
    const text = `{"MetricDataResults":[${result(stamps(3), '1,"2",3')}]}`;
    // JSON, but not the shape the scanner reads: it refuses, and the schema names the point.
    expect(() => JSON.parse(text)).not.toThrow();
    expect(scanMetricData(Buffer.from(text))).toBeNull();
    expectAsJsonParse(text);
    const r = summarizeMetricDataBytes(Buffer.from(text), { fileName: 'm.json' }, () => text, bufferCompare);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('m.json: MetricDataResults.0.Values.1');
  });

  it('two MetricDataResults keys: the scanner refuses, the fallback keeps the last as JSON.parse does', () => {
    const first = result(stamps(3), '1,2,3');
    const last = result(stamps(3), '7,8,9');
    const twice = `{"MetricDataResults":[${first}],"MetricDataResults":[${last}]}`;
    const once = `{"MetricDataResults":[${last}]}`;
    expect(scanMetricData(Buffer.from(twice))).toBeNull();
    const viaTwice = summarizeMetricDataBytes(
      Buffer.from(twice),
      { fileName: 'm.json' },
      () => twice,
      bufferCompare,
    );
    const viaOnce = summarizeMetricDataBytes(
      Buffer.from(once),
      { fileName: 'm.json' },
      () => once,
      bufferCompare,
    );
    expect(viaTwice.ok && viaOnce.ok).toBe(true);
    if (viaTwice.ok && viaOnce.ok) expect(viaTwice.value).toEqual(viaOnce.value);
  });

  it('bytes that are not JSON: the host decodes them for the message', () => {
    const bytes = Buffer.from('{"MetricDataResults":[');
    const r = summarizeMetricDataBytes(bytes, { fileName: 'cut.json' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/^cut\.json: not JSON/);
  });

  it('the same summaries from bytes as from the text, on the fixtures', () => {
    for (const name of FILES) {
      const text = readFileSync(resolve(FIXTURES, name), 'utf8');
      const viaText = addMetricDataText(createFleetMetrics(), text);
      const viaBytes = summarizeMetricDataBytes(Buffer.from(text), {}, undefined, bufferCompare);
      expect(viaText.ok && viaBytes.ok).toBe(true);
      if (viaText.ok && viaBytes.ok) expect(viaBytes.value.metrics).toEqual(viaText.value);
    }
  });
});
