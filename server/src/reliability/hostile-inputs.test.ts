import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorResponseSchema } from '@blockwise/shared/api';
import { extractFioDocument } from '@blockwise/shared/fio';
import { fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';
import { NO_RATE_LIMITS, listen } from './testing/http-client.ts';

/**
 * R4: a hostile corpus, each with its exact status and error code, and 0 answers ≥ 500.
 * R5: Object.prototype unchanged afterwards. The upload limit is 1 MiB here (2 MiB for the deep
 * nesting cases) so the "over the limit" cases stay small.
 */
const MiB = 1024 * 1024;
const LIMIT = 1 * MiB;
const fio = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
const fioText = fio.toString('utf8');
/** A fio document's opening up to its `jobs` value. */
const FIO_PREFIX = '{"fio version":"fio-3.33","jobs":';
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const asIs = (b: unknown) => b as string;
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

/**
 * The server's log lines for `t`: a body refused for its size logs how far it was read (after
 * inflation), which is the bound these tests assert instead of how long the refusal took.
 */
const logLines: Record<string, unknown>[] = [];
const refusals = () =>
  logLines
    .filter((l) => l.msg === 'body refused: over the size limit')
    .map((l) => ({ bodyBytesRead: l.bodyBytesRead as number, limitBytes: l.limitBytes as number }));
/** One read past the limit: a socket read or a zlib output chunk is at most 64 KiB. */
const ONE_CHUNK = 64 * 1024;

let t: TestApp;
let big: TestApp;
let runId: string;
beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
  t = await makeTestApp({ rateLimits: NO_RATE_LIMITS, config: { maxUploadBytes: LIMIT }, logger });
  big = await makeTestApp({ rateLimits: NO_RATE_LIMITS, config: { maxUploadBytes: 4 * MiB } });
  const res = await request(t.app)
    .post('/api/runs?name=base')
    .set('Content-Type', 'application/json')
    .serialize(asIs)
    .send(fio);
  runId = res.body.id;
});
afterAll(async () => {
  await t.close();
  await big.close();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

const expectError = (res: { status: number; body: unknown }, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(status);
  expect(ErrorResponseSchema.parse(res.body).error.code).toBe(code);
};

const upload = (
  app: TestApp,
  body: Buffer | string,
  type: string | null = 'application/json',
  headers: Record<string, string> = {},
) => {
  const r = request(app.app).post('/api/runs');
  if (type) r.set('Content-Type', type);
  for (const [k, v] of Object.entries(headers)) r.set(k, v);
  return r.serialize(asIs).send(body);
};

describe('over the size limit → 413, before or while reading, also after inflation', () => {
  it('a declared Content-Length over the limit: refused before reading a byte', async () => {
    logLines.length = 0;
    expectError(await upload(t, Buffer.alloc(LIMIT + 1, 0x20)), 413, 'payload_too_large');
    expect(refusals()).toEqual([{ bodyBytesRead: 0, limitBytes: LIMIT }]);
  });

  it.each([
    [
      'gzip Content-Encoding that inflates past the limit',
      () =>
        upload(t, gzipSync(Buffer.alloc(20 * MiB, 0x20)), 'application/json', { 'Content-Encoding': 'gzip' }),
    ],
    [
      'gzip bytes (application/gzip) that inflate past the limit',
      () => upload(t, gzipSync(Buffer.alloc(20 * MiB, 0x20)), 'application/gzip'),
    ],
    [
      'a multipart file over the limit',
      () =>
        request(t.app)
          .post('/api/runs')
          .attach('file', Buffer.alloc(LIMIT + 10, 0x20), 'big.json'),
    ],
    [
      'a multipart gzip file that inflates past the limit',
      () =>
        request(t.app)
          .post('/api/runs')
          .attach('file', gzipSync(Buffer.alloc(20 * MiB, 0x20)), 'bomb.json.gz'),
    ],
  ])('%s: cut off one chunk past the limit', async (_, send) => {
    logLines.length = 0;
    expectError(await send(), 413, 'payload_too_large');
    // Read (or inflated) up to the limit and one chunk more, never the 20 MiB.
    const [refusal, ...more] = refusals();
    expect(more).toEqual([]);
    expect(refusal!.limitBytes).toBe(LIMIT);
    expect(refusal!.bodyBytesRead).toBeGreaterThanOrEqual(LIMIT);
    expect(refusal!.bodyBytesRead).toBeLessThanOrEqual(LIMIT + ONE_CHUNK);
  });

  it('a chunked body (no length) over the limit: cut off one chunk past the limit', async () => {
    logLines.length = 0;
    const server = await listen(t.app);
    try {
      const status = await new Promise<number>((resolve) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: server.port,
            method: 'POST',
            path: '/api/runs',
            headers: { 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', () => resolve(-1));
        for (let i = 0; i < 20; i++) req.write(Buffer.alloc(128 * 1024, 0x20));
        req.end();
      });
      expect(status).toBe(413);
      expect(refusals()).toHaveLength(1);
      expect(refusals()[0]!.bodyBytesRead).toBeLessThanOrEqual(LIMIT + ONE_CHUNK);
    } finally {
      await server.close();
    }
  });
});

describe('wrong media type or encoding → 415 (not a silent 422)', () => {
  it.each([
    ['text/html', 'text/html'],
    ['application/xml', 'application/xml'],
    ['form encoding', 'application/x-www-form-urlencoded'],
    ['no Content-Type at all', null],
  ])('%s', async (_, type) => {
    expectError(await upload(t, fio, type), 415, 'unsupported_media_type');
  });

  it('a Content-Encoding the server does not decode (br)', async () => {
    expectError(
      await upload(t, fio, 'application/json', { 'Content-Encoding': 'br' }),
      415,
      'unsupported_media_type',
    );
  });

  it('a comparison that is not JSON', async () => {
    const res = await request(t.app)
      .post('/api/comparisons')
      .set('Content-Type', 'text/plain')
      .send('{"runIds":[]}');
    expectError(res, 415, 'unsupported_media_type');
  });
});

describe('malformed, too deep, schema-invalid: 400 / 400 / 422, refused before any JSON.parse where it matters', () => {
  it.each(
    (
      [
        ['truncated JSON', () => upload(t, fio.subarray(0, 2000)), 400, 'invalid_json'],
        ['binary bytes', () => upload(t, Buffer.from([0, 1, 2, 0xff, 0xfe, 0, 0, 9])), 400, 'binary_input'],
        [
          'a wrong type inside a fio document',
          () => upload(t, fioText.replace(/"iops" : [0-9.]+/, '"iops" : "fast"')),
          422,
          'fio_invalid',
        ],
        ['JSON that is not fio', () => upload(t, '{"hello":"world"}'), 422, 'not_fio_json'],
        [
          'a 10^5-deep value inside a fio document',
          () => upload(t, `${FIO_PREFIX}${deepArray(1e5)}}`),
          400,
          'too_deep',
        ],
        [
          'a 10^6-deep value inside a fio document',
          () => upload(big, `${FIO_PREFIX}${deepArray(1e6)}}`),
          400,
          'too_deep',
        ],
        // No object in it, so there is no fio document to look for: refused without JSON.parse.
        ['a bare 10^6-deep array', () => upload(big, deepArray(1e6)), 422, 'not_fio_json'],
      ] as const
    ).map(([name, send, status, code]) => ({ name, send, status, code })),
  )('$name → $status $code', async ({ send, status, code }) => {
    const res = await send();
    expectError(res, status, code);
    // Refused where the byte scan reached the 65th level (the `{` is level 1, the first `[` level
    // 2), not after reading the 10^5 or 10^6 levels into an object graph.
    if (code === 'too_deep')
      expect(res.body.error.message).toContain(`(line 1, column ${FIO_PREFIX.length + 64})`);
  });

  it('the scan refuses the deep documents before any JSON.parse', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(extractFioDocument(`${FIO_PREFIX}${deepArray(1e6)}}`)).toMatchObject({
        ok: false,
        error: { code: 'too_deep' },
      });
      expect(extractFioDocument(deepArray(1e6))).toMatchObject({
        ok: false,
        error: { code: 'not_fio_json' },
      });
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('a malformed comparison is 400, a schema-invalid one 422, a 10^5-deep one never 500', async () => {
    const post = (body: string) =>
      request(t.app)
        .post('/api/comparisons')
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(body);
    expectError(await post('{"runIds": ['), 400, 'body_invalid');
    expectError(await post('{"runIds": "all"}'), 422, 'body_invalid');
    expectError(await post(`{"runIds": [], "plan": ${deepArray(1e5)}}`), 422, 'body_invalid');
    // An unknown key holding a value JSON.stringify cannot serialize: dropped by the schema, and
    // the frozen comparison never re-serializes user JSON as received.
    const extra = await post(`{"runIds": ["${runId}"], "extra": ${deepArray(1e5)}}`);
    expect(extra.status).toBe(201);
    expectError(await post(`{"runIds": [], "pad": "${'x'.repeat(LIMIT)}"}`), 413, 'payload_too_large');
  });
});

describe('prototype keys and hostile strings (R5)', () => {
  it('__proto__ / constructor keys in an upload are stored as data, never as prototypes', async () => {
    const doc = fioText
      .replace('{', '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},')
      .replace('"job options" : {', '"job options" : {"__proto__":"x","constructor":"y","toString":"z",');
    const res = await upload(t, doc);
    expect(res.status).toBe(201);
    const run = await request(t.app).get(`/api/runs/${res.body.id}`);
    expect(run.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof ({} as { toString: unknown }).toString).toBe('function');
  });

  it('__proto__ in a comparison body', async () => {
    const res = await request(t.app)
      .post('/api/comparisons')
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(`{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"runIds":["${runId}"]}`);
    expect(res.status).toBe(201);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('U+0000 in a label is 400; in a file name it is replaced, never a 500', async () => {
    expectError(
      await request(t.app)
        .post('/api/runs?name=a%00b')
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(fio),
      400,
      'labels_invalid',
    );
    // A tag value with U+0000 (a lone surrogate cannot arrive through a query string: Node
    // decodes invalid UTF-8 as U+FFFD).
    expectError(
      await request(t.app)
        .post('/api/runs?tag.env=a%00')
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(fio),
      400,
      'labels_invalid',
    );
    const named = await request(t.app)
      .post('/api/runs?filename=a%00b.json')
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(fio);
    expect(named.status).toBe(201);
    const cut = await request(t.app)
      .post(`/api/runs?filename=${'a'.repeat(254)}%F0%9F%98%80.json`)
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(fio);
    expect(cut.status).toBe(201);
    // A raw NUL in a part header is malformed multipart (400); encoded (RFC 5987) it is a name.
    const raw = await request(t.app).post('/api/runs').attach('file', fio, 'nul\u0000name.json');
    expectError(raw, 400, 'body_invalid');
    const boundary = 'bwboundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''nul%00name.json\r\nContent-Type: application/json\r\n\r\n`,
      ),
      fio,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const encoded = await request(t.app)
      .post('/api/runs')
      .set('Content-Type', `multipart/form-data; boundary=${boundary}`)
      .serialize(asIs)
      .send(body);
    expect(encoded.status, JSON.stringify(encoded.body)).toBe(201);
    const stored = await request(t.app).get(`/api/runs/${encoded.body.runs[0].id}`);
    expect(stored.body.fileName).toBe('nul\uFFFDname.json');
  });
});
