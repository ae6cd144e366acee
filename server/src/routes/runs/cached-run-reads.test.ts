import http, { type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capturedLogger, fixture, makeTestApp, type TestApp } from '../../testing/test-app.ts';
import { RunAnswers } from './run-answers.ts';

const mixed = fixture('fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');

type Raw = { status: number; rawHeaders: string[]; headers: IncomingHttpHeaders; body: Buffer };

/** One request as it goes over the wire: headers in their order, the body's bytes as sent (no gunzip). */
function rawRequest(server: Server, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const { port } = server.address() as AddressInfo;
  return new Promise<Raw>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          rawHeaders: res.rawHeaders,
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end(method === 'POST' ? mixed : undefined);
  });
}

/** Header names in order, values too except those that differ per request (Date, X-Request-Id). */
const comparable = (raw: Raw) =>
  raw.rawHeaders
    .map((value, i) =>
      i % 2 === 0 ? value : /^(date|x-request-id)$/i.test(raw.rawHeaders[i - 1]!) ? '·' : value,
    )
    .join('\n');

let t: TestApp | undefined;
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await t?.close();
  server = t = undefined;
  vi.restoreAllMocks();
});

async function start(options: Parameters<typeof makeTestApp>[0] = {}) {
  t = await makeTestApp(options);
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const remembered = vi.spyOn(RunAnswers.prototype, 'remember');
  const created = await rawRequest(
    server,
    '/api/runs?name=cached',
    { 'content-type': 'application/json' },
    'POST',
  );
  expect(created.status).toBe(201);
  const path = `/api/runs/${JSON.parse(created.body.toString()).id as string}`;
  // The first read goes through Express and the store; the answer is then held, gzip'd off the loop.
  expect((await rawRequest(server, path)).status).toBe(200);
  const [answer] = remembered.mock.results;
  if (answer?.type !== 'return') return expect.fail('the first read did not remember its answer');
  await answer.value.gzipped;
  // Express's res.send: what the route calls; the held answers never reach it.
  const sent = vi.spyOn(t.app.response, 'send');
  return { server, path, sent, app: t };
}

describe('GET /api/runs/:id of an answer the app holds', () => {
  it('is sent before Express with the same status, headers (in order) and bytes as Express sends, identity and gzip', async () => {
    const { logger, lines } = capturedLogger();
    const { server, path, sent, app } = await start({ logger });
    for (const encoding of ['identity', 'gzip']) {
      const fast = await rawRequest(server, path, { 'accept-encoding': encoding });
      expect(sent).toHaveBeenCalledTimes(0);
      // An ETag that does not match: Express's route answers it, in full.
      const viaExpress = await rawRequest(server, path, {
        'accept-encoding': encoding,
        'if-none-match': '"another"',
      });
      expect(sent).toHaveBeenCalledTimes(1);
      sent.mockClear();
      expect(fast.status).toBe(200);
      expect(viaExpress.status).toBe(200);
      expect(comparable(fast)).toBe(comparable(viaExpress));
      expect(fast.body.equals(viaExpress.body)).toBe(true);
      expect(fast.headers['content-encoding']).toBe(encoding === 'gzip' ? 'gzip' : undefined);
    }
    // The same log line (request id, method, path, status) and the same metrics label.
    const requestLines = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.msg === 'request' && line.method === 'GET');
    const shapes = requestLines.map(({ time: _t, ms: _m, reqId, ...rest }) => ({
      ...rest,
      reqId: typeof reqId,
      keys: Object.keys(rest).join(','),
    }));
    expect(shapes).toHaveLength(5);
    for (const shape of shapes.slice(1)) expect(shape).toEqual(shapes[0]);
    const exposition = await app.ctx.metrics!.exposition();
    expect(exposition).toContain(
      'blockwise_http_request_duration_seconds_count{method="GET",route="/api/runs/:id",status_class="2xx"} 5',
    );
  });

  it('counts against the reads limit like any read; past it, Express answers the 429', async () => {
    const { server, path, sent } = await start({
      rateLimits: { reads: { name: 'reads', limit: 3, windowMs: 60_000 } },
    });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await rawRequest(server, path)).status);
    // The first read (before the spy) was one of the three. Only the refusals went to Express.
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(sent).toHaveBeenCalledTimes(2);
    const refused = await rawRequest(server, path);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(JSON.parse(refused.body.toString()).error.code).toBe('rate_limited');
  });

  it('behind a proxy, counts the client Express would count (trust proxy, X-Forwarded-For)', async () => {
    const { server, path, sent } = await start({
      trustProxy: 1,
      rateLimits: { reads: { name: 'reads', limit: 4, windowMs: 60_000 } },
    });
    // The first read (start) came from 127.0.0.1 itself, a budget of its own.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await rawRequest(server, path, { 'x-forwarded-for': `198.51.100.${i + 1}, 203.0.113.7` });
      statuses.push(res.status);
    }
    // With a hop count of 1 the last hop is the client: rotating earlier entries does not escape it.
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    expect(sent).toHaveBeenCalledTimes(2);
    const other = await rawRequest(server, path, { 'x-forwarded-for': '203.0.113.8' });
    expect(other.status).toBe(200);
    expect(sent).toHaveBeenCalledTimes(2);
  });

  it('reads the client as Express does for the trust proxy setting in force, also one set after creation', async () => {
    const { server, path, sent, app } = await start();
    const { reads } = app.ctx.limiters;
    const fastKeys = vi.spyOn(reads, 'hitNow');
    const expressKeys = vi.spyOn(reads, 'hit');
    const forwarded = { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' };
    /** The reads key of one request the fast path answers and of one Express answers. */
    const keysOf = async () => {
      fastKeys.mockClear();
      expressKeys.mockClear();
      expect((await rawRequest(server, path, forwarded)).status).toBe(200);
      expect(sent).toHaveBeenCalledTimes(0);
      // An ETag that does not match: Express's route answers it.
      expect((await rawRequest(server, path, { ...forwarded, 'if-none-match': '"another"' })).status).toBe(
        200,
      );
      expect(sent).toHaveBeenCalledTimes(1);
      sent.mockClear();
      return { fast: fastKeys.mock.calls.map((c) => c[0]), express: expressKeys.mock.calls.map((c) => c[0]) };
    };
    // Each value BLOCKWISE_TRUST_PROXY can take (config.ts parseTrustProxy), set after creation.
    for (const [setting, client] of [
      [false, '127.0.0.1'],
      [1, '203.0.113.7'],
      [2, '198.51.100.1'],
      [['loopback'], '203.0.113.7'],
      [false, '127.0.0.1'],
    ] as const) {
      app.app.set('trust proxy', setting);
      expect(await keysOf(), `trust proxy ${JSON.stringify(setting)}`).toEqual({
        fast: [`ip:${client}`],
        express: [`ip:${client}`],
      });
    }
  });

  it('leaves to Express what it does not take: HEAD, a query, a conditional request', async () => {
    const { server, path, sent } = await start();
    expect((await rawRequest(server, path, {}, 'HEAD')).status).toBe(200);
    expect((await rawRequest(server, `${path}?x=1`)).status).toBe(200);
    expect(sent).toHaveBeenCalledTimes(2);
    const tag = (await rawRequest(server, path)).headers.etag;
    expect((await rawRequest(server, path, { 'if-none-match': String(tag) })).status).toBe(304);
    expect(sent).toHaveBeenCalledTimes(2);
  });
});
