import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FioReportSchema } from './fio-report.schema.ts';
import { PARSE_FIO_ERROR_CODES, parseFio, type ParseFioResult } from './parse-fio.ts';

/**
 * Properties over MUTATED REAL FIXTURES: whatever is done to a real fio file — cut, bit-flipped,
 * keys deleted or retyped, nested deep, numbers blown up, `__proto__` injected, NULs inserted,
 * re-encoded as UTF-16, text put around it — parseFio returns a value (never throws): a report
 * that satisfies its own schema with finite numbers, or a failure with a code from the fixed set
 * and a sentence. Object.prototype is never touched. Fixed seed and bounded runs keep it fast.
 */

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');
const fixtures = ['generated', 'public'].flatMap((dir) =>
  readdirSync(join(FIXTURES, dir))
    .filter((f) => /\.(json|txt)$/.test(f) && !f.endsWith('.oracle.json'))
    .map((f) => {
      const bytes = new Uint8Array(readFileSync(join(FIXTURES, dir, f)));
      return { name: `${dir}/${f}`, bytes, text: new TextDecoder().decode(bytes) };
    }),
);
/** The fixtures that are one plain JSON document, for mutations of the parsed structure. */
const jsonFixtures = fixtures.flatMap((f) => {
  try {
    return [{ ...f, doc: JSON.parse(f.text) as unknown }];
  } catch {
    return [];
  }
});

const SETTINGS = { seed: 20261122, numRuns: 120 } as const;
const CODES: readonly string[] = PARSE_FIO_ERROR_CODES;

let prototypeBefore: string[] = [];
beforeAll(() => {
  prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
});
afterAll(() => {
  // Nothing any mutation did reached Object.prototype.
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(Object.getPrototypeOf(Object.prototype)).toBeNull();
});

function firstNonFinite(value: unknown, path = ''): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (typeof value !== 'object' || value === null) return null;
  for (const [k, v] of Object.entries(value)) {
    const found = firstNonFinite(v, `${path}.${k}`);
    if (found !== null) return found;
  }
  return null;
}

/** The contract every input must meet. Returns the result for stronger, case-specific checks. */
function expectWellBehaved(input: string | Uint8Array): ParseFioResult {
  let result: ParseFioResult;
  try {
    result = parseFio(input);
  } catch (error) {
    throw new Error(`parseFio threw: ${String(error)}`, { cause: error });
  }
  if (result.ok) {
    const check = FioReportSchema.safeParse(result.report);
    if (!check.success) throw new Error(`report breaks its schema: ${check.error.message}`);
    const bad = firstNonFinite(result.report);
    if (bad !== null) throw new Error(`non-finite number at ${bad}`);
  } else {
    if (!CODES.includes(result.error.code)) throw new Error(`unexpected code ${result.error.code}`);
    if (result.error.message.trim().length < 10) throw new Error(`empty message for ${result.error.code}`);
  }
  if (({} as Record<string, unknown>).polluted !== undefined) throw new Error('Object.prototype polluted');
  return result;
}

const fixture = fc.constantFrom(...fixtures);
/**
 * A position in [0, 1): unbiased, because fast-check's own doubles and integers lean towards 0 and
 * the bounds (which would put most cuts and flips at the first byte).
 */
const fraction = fc.noBias(fc.integer({ min: 0, max: 2 ** 30 - 1 })).map((n) => n / 2 ** 30);
const jsonFixture = fc.constantFrom(...jsonFixtures);

/** Every [container, key] in a parsed document, so mutations can reach any depth. */
function slots(doc: unknown): [Record<string | number, unknown>, string | number][] {
  const out: [Record<string | number, unknown>, string | number][] = [];
  const walk = (v: unknown) => {
    if (typeof v !== 'object' || v === null) return;
    for (const key of Object.keys(v)) {
      const k = Array.isArray(v) ? Number(key) : key;
      out.push([v as Record<string | number, unknown>, k]);
      walk((v as Record<string, unknown>)[key]);
    }
  };
  walk(doc);
  return out;
}

/** Values of the wrong type (or a surprising one of the right type). */
const oddValue = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, false, -1, 0, 1e308, -1e308, 2 ** 70, 1e-320, '', '4k', 'nan'),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'read', 'N', '99.000000'),
    fc.integer(),
    {
      maxKeys: 3,
    },
  ),
);

describe('parseFio on mutated real fixtures never throws and fails only with stable codes', () => {
  it('every unmutated fixture parses (except the one with no JSON)', () => {
    for (const f of fixtures) {
      const result = expectWellBehaved(f.bytes);
      expect(result.ok, f.name).toBe(f.name !== 'public/cyberhuey_windows_fio_error_only.json');
    }
  });

  it('truncated at any point: a report of an earlier complete document, or a failure (never a crash)', () => {
    fc.assert(
      fc.property(fixture, fraction, (f, at) => {
        const cut = f.text.slice(0, Math.floor(f.text.length * at));
        const result = expectWellBehaved(cut);
        // A single-document file cut before its end has nothing complete left.
        if (!result.ok || cut.trimEnd().length >= f.text.trimEnd().length) return;
        expect(f.name).toMatch(/q_randread|h2_randread/);
      }),
      SETTINGS,
    );
  });

  it('random byte flips', () => {
    fc.assert(
      fc.property(
        fixture,
        fc.array(fc.tuple(fraction, fc.integer({ min: 1, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (f, flips) => {
          const bytes = f.bytes.slice();
          for (const [at, mask] of flips) {
            const i = Math.min(bytes.length - 1, Math.floor(at * bytes.length));
            bytes[i] = bytes[i]! ^ mask;
          }
          expectWellBehaved(bytes);
        },
      ),
      SETTINGS,
    );
  });

  it('a key deleted or its value replaced by one of another type, anywhere in the document', () => {
    fc.assert(
      fc.property(jsonFixture, fc.nat(), fc.boolean(), oddValue, (f, pick, remove, value) => {
        const doc = structuredClone(f.doc);
        const all = slots(doc);
        const [container, key] = all[pick % all.length]!;
        if (remove && !Array.isArray(container)) delete container[key];
        else container[key] = value;
        expectWellBehaved(JSON.stringify(doc));
      }),
      SETTINGS,
    );
  });

  it('__proto__ / constructor / prototype keys injected into any object', () => {
    const injection = fc.constantFrom(
      '"__proto__": {"polluted": "yes"},',
      '"__proto__": "polluted",',
      '"constructor": {"prototype": {"polluted": "yes"}},',
      '"prototype": {"polluted": "yes"},',
      '"job options": {"__proto__": "x", "constructor": "y", "bs": "4k"},',
    );
    fc.assert(
      fc.property(fixture, fraction, injection, (f, at, inject) => {
        const opens = [...f.text.matchAll(/\{/g)].map((m) => m.index);
        if (opens.length === 0) return;
        const i = opens[Math.floor(at * (opens.length - 1))]! + 1;
        const result = expectWellBehaved(`${f.text.slice(0, i)}${inject}${f.text.slice(i)}`);
        if (result.ok) {
          for (const job of result.report.jobs)
            expect(Object.getPrototypeOf(job.options)).toBe(Object.prototype);
        }
      }),
      SETTINGS,
    );
  });

  it('deep nesting and huge or negative numbers in place of any number', () => {
    const replacement = fc.oneof(
      fc.integer({ min: 1, max: 400 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
      fc.integer({ min: 1, max: 400 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
      fc.constantFrom(
        '1e308',
        '1e999',
        '-1e999',
        '-1',
        '18446744073709551616',
        '1e19',
        '-0',
        'nan',
        '-nan',
        'inf',
      ),
    );
    fc.assert(
      fc.property(fixture, fraction, replacement, (f, at, value) => {
        const numbers = [...f.text.matchAll(/: (\d+(?:\.\d+)?)/g)];
        if (numbers.length === 0) return;
        const m = numbers[Math.floor(at * (numbers.length - 1))]!;
        const i = m.index + 2;
        expectWellBehaved(`${f.text.slice(0, i)}${value}${f.text.slice(i + m[1]!.length)}`);
      }),
      SETTINGS,
    );
  });

  it('NUL and other binary bytes inserted', () => {
    fc.assert(
      fc.property(fixture, fraction, fc.uint8Array({ minLength: 1, maxLength: 64 }), (f, at, junk) => {
        const i = Math.floor(at * f.bytes.length);
        const bytes = new Uint8Array(f.bytes.length + junk.length);
        bytes.set(f.bytes.subarray(0, i));
        bytes.set(junk, i);
        bytes.set(f.bytes.subarray(i), i + junk.length);
        expectWellBehaved(bytes);
      }),
      SETTINGS,
    );
  });
});

describe('parseFio is unmoved by what does not change the results', () => {
  const line = fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 :=,.-_/()%[]'.split('')),
    maxLength: 60,
  });

  it('text before and after the document (warnings, Ctrl-C, normal output) leaves the jobs as they were', () => {
    fc.assert(
      fc.property(
        jsonFixture,
        fc.array(line, { maxLength: 4 }),
        fc.array(line, { maxLength: 4 }),
        (f, before, after) => {
          const original = parseFio(f.text);
          const wrapped = expectWellBehaved([...before, f.text, ...after].join('\n'));
          expect(wrapped.ok).toBe(original.ok);
          if (wrapped.ok && original.ok) {
            expect(wrapped.report.jobs).toEqual(original.report.jobs);
            expect(wrapped.report.total).toEqual(original.report.total);
          }
        },
      ),
      { ...SETTINGS, numRuns: 60 },
    );
  });

  it('UTF-16 re-encoding (LE/BE, with or without a BOM) gives the same report', () => {
    fc.assert(
      fc.property(fixture, fc.boolean(), fc.boolean(), (f, littleEndian, bom) => {
        const units = (bom ? '\ufeff' : '') + f.text;
        const bytes = new Uint8Array(units.length * 2);
        for (let i = 0; i < units.length; i++) {
          const c = units.charCodeAt(i);
          bytes[2 * i + (littleEndian ? 0 : 1)] = c & 0xff;
          bytes[2 * i + (littleEndian ? 1 : 0)] = c >> 8;
        }
        const original = parseFio(f.bytes);
        const utf16 = expectWellBehaved(bytes);
        expect(utf16.ok).toBe(original.ok);
        if (utf16.ok && original.ok) {
          expect(utf16.report.encoding).toBe(littleEndian ? 'utf-16le' : 'utf-16be');
          expect({ ...utf16.report, encoding: 'utf-8' }).toEqual(original.report);
        }
      }),
      { ...SETTINGS, numRuns: 40 },
    );
  });
});
