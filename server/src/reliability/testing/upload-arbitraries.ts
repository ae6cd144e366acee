/**
 * Hostile uploads for property tests (R3), shared by the Vitest suite (fixed seed, 500 cases) and
 * `pnpm bench` (10,000 cases): real fio files mutated at the JSON level (values replaced at
 * random paths, `__proto__` / `constructor` keys, huge or lone-surrogate strings, extreme
 * numbers) and at the byte level (truncation, flipped and inserted bytes), arbitrary JSON and
 * binary, sometimes gzip-wrapped, with hostile labels in the query. The property: the server
 * answers < 500 and stays up, whatever the input. Built from fast-check's own generators only
 * (no Math.random), so a seed and path replay a failure exactly.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

export type UploadCase = {
  body: Buffer;
  contentType: string;
  /** `gzip`: sent with Content-Encoding: gzip; `identity`: as is (the body may be gzip bytes itself). */
  encoding: 'identity' | 'gzip';
  /** Query string of POST /api/runs, without the `?`. */
  query: string;
};

const EVIL_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  '\u0000',
  'jobs',
  'bins',
  'percentile',
];

const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.jsonValue({ maxDepth: 3 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...EVIL_KEYS)), tie('v'), { maxKeys: 4 }),
    fc.constantFrom(
      1e308,
      -1e308,
      -0,
      2 ** 53 + 1,
      -1,
      Number.MAX_SAFE_INTEGER,
      '<script>alert(1)</script>',
      '\ud800',
      '\u0000',
      'x'.repeat(5000),
      [],
      {},
      null,
      true,
    ),
  ),
})).v;

/** Sets `value` at `path` inside a copy of `doc`, creating objects on the way (own keys, even `__proto__`). */
function setAt(doc: unknown, path: readonly (string | number)[], value: unknown): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const [i, raw] of path.entries()) {
    const key = typeof raw === 'number' && Array.isArray(node) ? raw % Math.max(node.length, 1) : raw;
    if (i === path.length - 1) {
      Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
      break;
    }
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next === null || typeof next !== 'object') {
      Object.defineProperty(node, key, { value: {}, enumerable: true, writable: true, configurable: true });
    }
    node = node[key] as Record<string | number, unknown>;
  }
  return copy;
}

/** Keys that exist in fio documents, so mutations often land on fields the parser reads. */
const FIO_KEYS = [
  'jobs',
  'read',
  'write',
  'trim',
  'clat_ns',
  'lat_ns',
  'percentile',
  'bins',
  'iops',
  'bw',
  'bw_bytes',
  'io_bytes',
  'runtime',
  'job options',
  'global options',
  'fio version',
  'jobname',
  'groupid',
  'error',
  'bs',
  'rw',
  'iodepth',
  'numjobs',
  'N',
  'mean',
  '99.000000',
];

const pathKey = fc.oneof(
  fc.constantFrom(...FIO_KEYS),
  fc.constantFrom(...EVIL_KEYS),
  fc.nat(3),
  fc.string({ maxLength: 8 }),
);

const hostileLabels = fc
  .array(
    fc.constantFrom(
      'name=%F0%9F%92%A5%00',
      'kind=tape',
      'kind=nvme',
      'instanceType=m7i.xlarge',
      'instanceType=%3Cscript%3E',
      'volumeSizeGiB=NaN',
      'volumeSizeGiB=-1',
      'volumeIops=1e400',
      'tag.__proto__=x',
      'tag.constructor=y',
      'tag.env=ci',
      'series=' + 'a'.repeat(300),
      'branch=main',
      'commit=zz',
      'filename=..%2F..%2Fetc%2Fpasswd',
      'name[]=array',
    ),
    { maxLength: 3 },
  )
  .map((parts) => parts.join('&'));

export function uploadCaseArbitrary(bases: readonly Buffer[]): fc.Arbitrary<UploadCase> {
  const docs = bases.map((b) => JSON.parse(b.toString('utf8')) as unknown);
  const base = fc.nat(bases.length - 1);
  const jsonMutation = fc
    .tuple(base, fc.array(pathKey, { minLength: 1, maxLength: 5 }), hostileValue)
    .map(([i, path, value]) => Buffer.from(JSON.stringify(setAt(docs[i], path, value))));
  const byteMutation = fc
    .tuple(
      base,
      fc.nat(),
      fc.constantFrom('truncate', 'flip', 'insert'),
      fc.uint8Array({ minLength: 1, maxLength: 16 }),
    )
    .map(([i, at, op, bytes]) => {
      const b = bases[i]!;
      const pos = at % b.length;
      if (op === 'truncate') return b.subarray(0, pos);
      if (op === 'flip') {
        const copy = Buffer.from(b);
        copy[pos] = (copy[pos]! ^ (bytes[0]! || 0x80)) & 0xff;
        return copy;
      }
      return Buffer.concat([b.subarray(0, pos), Buffer.from(bytes), b.subarray(pos)]);
    });
  const body = fc.oneof(
    { weight: 4, arbitrary: jsonMutation },
    { weight: 2, arbitrary: byteMutation },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary' }).map((s) => Buffer.from(s)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)) },
    { weight: 1, arbitrary: base.map((i) => bases[i]!) },
  );
  return fc
    .record({
      body,
      contentType: fc.constantFrom(
        'application/json',
        'text/plain; charset=utf-8',
        'application/octet-stream',
        'application/gzip',
      ),
      wrap: fc.constantFrom('none', 'none', 'none', 'content-encoding', 'gzip-bytes'),
      // Two thirds without labels, so most cases reach the parser rather than the label check.
      query: fc.oneof(fc.constant(''), fc.constant(''), hostileLabels),
    })
    .map(({ body: bytes, contentType, wrap, query }) => ({
      body: wrap === 'none' ? bytes : gzipSync(bytes),
      contentType,
      encoding: wrap === 'content-encoding' ? 'gzip' : 'identity',
      query,
    }));
}

/** A regression case as stored under fixtures/regressions/ (JSON, the body base64). */
export type RegressionFile = {
  description: string;
  foundBy: string;
  contentType: string;
  encoding: 'identity' | 'gzip';
  query: string;
  bodyBase64: string;
  /** The status the server answered when the case was found (≥ 500 or 0 = no answer). */
  statusWhenFound: number;
};

export function toRegressionFile(c: UploadCase, foundBy: string, status: number): RegressionFile {
  return {
    description: 'an upload that once made the server answer ≥ 500 (or not at all); must now be < 500',
    foundBy,
    contentType: c.contentType,
    encoding: c.encoding,
    query: c.query,
    bodyBase64: c.body.toString('base64'),
    statusWhenFound: status,
  };
}

export function fromRegressionFile(r: RegressionFile): UploadCase {
  return {
    body: Buffer.from(r.bodyBase64, 'base64'),
    contentType: r.contentType,
    encoding: r.encoding,
    query: r.query,
  };
}

/** Real fio outputs the mutations start from (small, so thousands of cases stay fast). */
export const FUZZ_BASE_FIXTURES = [
  'fio/generated/c_randread_4k_libaio_qd32_timebased5s.json',
  'fio/generated/g_randrw_4k_mix70_jsonplus.json',
  'fio/generated/k_randrw_4k_unified_rw_reporting_both.json',
  'fio/public/pkb_fio-2.1.4_four_stonewall_groups.json',
  'fio/public/fioplot_fio-3.1_usb_randwrite_qd1.json',
];
