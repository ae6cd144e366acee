import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  FioRawDirectionSchema,
  FioRawDocumentSchema,
  FioRawJobSchema,
  FioRawLatencySchema,
  MAX_BINS,
  readBins,
  validateFioDocument,
} from './fio-raw.schema.ts';
import { parseFio } from './parse-fio.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');
const docOf = (name: string) => JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('validateFioDocument: every fixture version validates', () => {
  it.each([
    ['generated/c_randread_4k_libaio_qd32_timebased5s.json'],
    ['generated/g_randrw_4k_mix70_jsonplus.json'],
    ['generated/k_randrw_4k_unified_rw_reporting_both.json'],
    ['public/pkb_fio-2.1.4_four_stonewall_groups.json'],
    ['public/fioplot_fio-3.1_randrw_qd16_nj4_gr.json'],
    ['public/arau_fio-3.12_randrw50_32k.json'],
    ['public/brahiam_fio-3.36_randrw_128k.json'],
  ])('%s', (name) => {
    expect(validateFioDocument(docOf(name)).ok).toBe(true);
  });
});

describe('validateFioDocument checks without Zod only what FioRawDocumentSchema accepts', () => {
  const names = ['generated', 'public', 'derived', 'settings'].flatMap((dir) =>
    readdirSync(join(FIXTURES, dir))
      .filter((f) => f.endsWith('.json') && !f.endsWith('.oracle.json'))
      .map((f) => `${dir}/${f}`)
      .filter((name) => {
        try {
          docOf(name);
          return true;
        } catch {
          return false;
        }
      }),
  );

  it('every fixture that is one JSON document passes without the schema being asked', () => {
    const safeParse = vi.spyOn(FioRawDocumentSchema, 'safeParse');
    try {
      for (const name of names) expect(validateFioDocument(docOf(name)).ok, name).toBe(true);
      expect(safeParse).not.toHaveBeenCalled();
    } finally {
      safeParse.mockRestore();
    }
  });

  /* eslint-disable @typescript-eslint/no-explicit-any */
  /** Every object the schema describes in a document, with the keys it names there. */
  function described(doc: any): [any, string[]][] {
    const latency = Object.keys(FioRawLatencySchema.shape);
    const direction = Object.keys(FioRawDirectionSchema.shape);
    const job = Object.keys(FioRawJobSchema.shape);
    const out: [any, string[]][] = [[doc, Object.keys(FioRawDocumentSchema.shape)]];
    const globals = doc['global options'];
    for (const g of Array.isArray(globals) ? globals : globals ? [globals] : [])
      out.push([g, Object.keys(g).slice(0, 2)]);
    for (const j of [...(doc.jobs ?? []), ...(doc.client_stats ?? [])].slice(0, 2)) {
      out.push([j, job]);
      if (j['job options']) out.push([j['job options'], Object.keys(j['job options']).slice(0, 2)]);
      if (j.sync) out.push([j.sync, ['total_ios', 'lat_ns']]);
      for (const d of ['read', 'write', 'trim', 'mixed'].filter((k) => j[k])) {
        out.push([j[d], direction]);
        for (const l of ['clat_ns', 'lat_ns', 'clat', 'lat'].filter((k) => j[d][k]))
          out.push([j[d][l], latency]);
      }
    }
    return out;
  }
  const BAD = [undefined, '5', null, [], {}, [{}], -1, -0, 1.5, 2 ** 60, Infinity, -Infinity, true];

  it('on every value at every key it names, in every fixture, it agrees with the schema', () => {
    let refused = 0;
    for (const name of names) {
      const doc = docOf(name);
      for (const [object, keys] of described(doc)) {
        for (const key of keys) {
          const had = Object.hasOwn(object, key);
          const kept = object[key];
          for (const bad of BAD) {
            if (bad === undefined) delete object[key];
            else object[key] = bad;
            const expected = FioRawDocumentSchema.safeParse(doc).success;
            expect(validateFioDocument(doc).ok, `${name} ${key}=${JSON.stringify(bad)}`).toBe(expected);
            if (!expected) refused += 1;
          }
          if (had) object[key] = kept;
          else delete object[key];
        }
      }
    }
    expect(refused).toBeGreaterThan(1000);
  });
  /* eslint-enable @typescript-eslint/no-explicit-any */
});

describe('wrong types become fio_invalid with the JSON path and what was expected', () => {
  const C = 'generated/c_randread_4k_libaio_qd32_timebased5s.json';
  /* eslint-disable @typescript-eslint/no-explicit-any */
  it.each([
    [
      'iops as a string',
      (d: any): unknown => (d.jobs[0].read.iops = '77896'),
      'jobs.0.read.iops: expected a number, got string "77896"',
    ],
    [
      'a missing io_bytes',
      (d: any): unknown => delete d.jobs[0].write.io_bytes,
      'jobs.0.write.io_bytes: expected a number, got nothing (the key is missing)',
    ],
    [
      'jobs as an object',
      (d: any): unknown => (d.jobs = { 0: d.jobs[0] }),
      'jobs: expected an array, got an object',
    ],
    [
      'a job that is a number',
      (d: any): unknown => (d.jobs[0] = 5),
      'jobs.0: expected an object, got number 5',
    ],
    [
      'jobname as null',
      (d: any): unknown => (d.jobs[0].jobname = null),
      'jobs.0.jobname: expected a string, got null',
    ],
    [
      'an option that is a number',
      (d: any): unknown => (d.jobs[0]['job options'].iodepth = 32),
      'jobs.0.job options.iodepth: expected a string, got number 32',
    ],
    [
      'groupid as a float',
      (d: any): unknown => (d.jobs[0].groupid = 0.5),
      'jobs.0.groupid: expected an integer, got number 0.5',
    ],
    [
      'the clat object as an array',
      (d: any): unknown => (d.jobs[0].read.clat_ns = []),
      'jobs.0.read.clat_ns: expected an object, got an array',
    ],
  ] as const)('%s', (_, mutate, message) => {
    const doc = docOf(C);
    mutate(doc);
    const result = validateFioDocument(doc);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('fio_invalid');
    expect(result.error.message).toBe(message);
    expect(message.startsWith(result.error.path!)).toBe(true);
  });
  /* eslint-enable @typescript-eslint/no-explicit-any */

  it.each([
    [
      'a negative count',
      '"runtime" : 5001',
      '"runtime" : -5001',
      'jobs.0.read.runtime: expected a number from 0 to 2^64',
    ],
    [
      'a number beyond 64 bits',
      '"io_bytes" : 1595633664',
      '"io_bytes" : 1e30',
      'jobs.0.read.io_bytes: expected a number from 0 to 2^64',
    ],
    [
      'a number beyond doubles (JSON.parse gives Infinity)',
      '"bw" : 311584',
      '"bw" : 1e999',
      'jobs.0.read.bw: expected a number, got Infinity',
    ],
    [
      'a percentile key that is not one',
      '"99.000000" : 468992',
      '"p99" : 468992',
      'jobs.0.read.clat_ns.percentile: expected percentile keys',
    ],
    [
      'a percentile value that is a string',
      '"99.000000" : 468992',
      '"99.000000" : "468992"',
      'jobs.0.read.clat_ns.percentile.99.000000: expected a latency',
    ],
  ])('%s (through parseFio, checked where the normalizer reads it)', (_, from, to, message) => {
    const text = readFileSync(join(FIXTURES, C), 'utf8');
    expect(text).toContain(from);
    const result = parseFio(text.replace(from, to));
    expect(result).toMatchObject({ ok: false, error: { code: 'fio_invalid' } });
    if (!result.ok) expect(result.error.message.startsWith(message)).toBe(true);
  });
});

describe('readBins: the json+ histogram, checked in one loop', () => {
  const g = docOf('generated/g_randrw_4k_mix70_jsonplus.json');
  const bins = g.jobs[0].read.clat_ns.bins as Record<string, number>;

  it('reads the real bins of fixture g in bucket order, counts summing to N', () => {
    const result = readBins(bins, 'jobs.0.read.clat_ns.bins');
    if (!result.ok) throw new Error(result.error.message);
    const keys = Object.keys(bins);
    expect(result.value.values.length).toBe(keys.length);
    expect(Array.from(result.value.values)).toEqual(keys.map(Number).sort((a, b) => a - b));
    expect(result.value.total).toBe(g.jobs[0].read.clat_ns.N);
  });

  it.each([
    ['a negative count', { ...bins, '15296': -1 }, 'jobs.0.read.clat_ns.bins.15296: expected a count'],
    ['a string count', { ...bins, '15296': '1' }, 'jobs.0.read.clat_ns.bins.15296: expected a count'],
    [
      'a key that is not a bucket',
      { ...bins, fast: 3 },
      'jobs.0.read.clat_ns.bins: expected a latency bucket value',
    ],
    ['a fractional key', { ...bins, '1.5': 3 }, 'jobs.0.read.clat_ns.bins: expected a latency bucket value'],
    ['an array', [1, 2, 3], 'jobs.0.read.clat_ns.bins: expected an object of latency buckets'],
    [
      'more buckets than fio has',
      Object.fromEntries(Array.from({ length: MAX_BINS + 1 }, (_, i) => [String(i), 1])),
      `jobs.0.read.clat_ns.bins: expected at most ${MAX_BINS} latency buckets`,
    ],
  ])('refuses %s', (_, value, message) => {
    const result = readBins(value, 'jobs.0.read.clat_ns.bins');
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('fio_invalid');
      expect(result.error.message.startsWith(message)).toBe(true);
    }
  });
});
