import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { ErrorResponseSchema, HealthSchema } from '@blockwise/shared/api';
import { createApp } from './app.ts';
import { StoreUnavailableError, type RunStore } from './store/run-store.ts';
import { fixture, makeTestApp, type TestApp } from './testing/test-app.ts';

let t: TestApp;
let runId: string;
beforeAll(async () => {
  t = await makeTestApp();
  const res = await request(t.app)
    .post('/api/runs?name=<img src=x onerror=alert(1)>')
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'));
  runId = res.body.id;
});
afterAll(async () => {
  await t.close();
});

describe('security headers on every response (R9)', () => {
  const routes = () => [
    ['GET', '/healthz'],
    ['GET', '/api/openapi.json'],
    ['GET', '/api/runs'],
    ['GET', `/api/runs/${runId}`],
    ['GET', `/api/runs/${runId}/raw`],
    ['GET', '/api/runs/AAAAAAAAAAAAAAAAAAAAAA'],
    ['GET', '/api/comparisons/AAAAAAAAAAAAAAAAAAAAAA'],
    ['GET', '/c/AAAAAAAAAAAAAAAAAAAAAA'],
    ['GET', '/'],
    ['GET', '/nowhere'],
    ['POST', '/api/runs'],
    ['DELETE', `/api/runs/${runId}`],
    ['GET', '/api/nowhere'],
  ];
  it('CSP (object-src, base-uri, frame-ancestors none; no inline script), nosniff, no X-Powered-By, JSON with charset', async () => {
    for (const [method, path] of routes()) {
      const res = await request(t.app)[method === 'GET' ? 'get' : method === 'POST' ? 'post' : 'delete'](
        path!,
      );
      const csp = res.headers['content-security-policy'] as string;
      expect(csp, path).toMatch(/object-src 'none'/);
      expect(csp, path).toMatch(/base-uri 'none'/);
      expect(csp, path).toMatch(/frame-ancestors 'none'|sandbox/);
      expect(csp, path).not.toMatch(/unsafe-inline/);
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['x-powered-by'], path).toBeUndefined();
      expect(res.headers['x-request-id'], path).toMatch(/^[A-Za-z0-9._-]+$/);
      if (String(res.headers['content-type']).startsWith('application/json'))
        expect(res.headers['content-type'], path).toMatch(/charset=utf-8/);
    }
  });

  it('every request gets an id of its own, and keeps a well-formed one it brings', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++)
      ids.add(String((await request(t.app).get('/healthz')).headers['x-request-id']));
    expect(ids.size).toBe(20);
    const brought = await request(t.app).get('/healthz').set('X-Request-Id', 'ci-run-42.step_3');
    expect(brought.headers['x-request-id']).toBe('ci-run-42.step_3');
  });
});

describe('errors are {error:{code,message}} with stable codes', () => {
  it('404 for unknown API routes, 404 for unknown pages', async () => {
    const api = await request(t.app).get('/api/nowhere');
    expect(api.status).toBe(404);
    expect(ErrorResponseSchema.parse(api.body).error.code).toBe('not_found');
  });
});

describe('the parse pool', () => {
  it('a server’s own pool has its worker started before the first large upload; a pool given to the app is left as it is', async () => {
    const own = createApp({ store: t.store, logger: pino({ level: 'silent' }) });
    try {
      expect(own.ctx.pool.stats).toEqual({ jobs: 0, workersStarted: 1 });
    } finally {
      await own.close();
    }
    expect(t.ctx.pool.stats.workersStarted).toBe(0); // makeTestApp's pool: no large upload yet
  });
});

describe('GET /api/openapi.json', () => {
  it('documents every endpoint, generated from the Zod schemas', async () => {
    const res = await request(t.app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.0.3');
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/runs',
        '/api/runs/{id}',
        '/api/runs/{id}/raw',
        '/api/comparisons',
        '/api/comparisons/{id}',
        '/healthz',
      ]),
    );
    expect(res.body.components.schemas.RunLabels.properties.instanceType.pattern).toBeDefined();
    expect(res.body.components.schemas.Run.properties.report).toBeDefined();
  });
});

describe('GET /healthz', () => {
  it('checks the store', async () => {
    const res = await request(t.app).get('/healthz');
    expect(res.status).toBe(200);
    expect(HealthSchema.parse(res.body)).toMatchObject({ status: 'ok', store: { kind: 'sqlite', ok: true } });
  });

  it('reports a store outage as degraded (503) while the server keeps serving', async () => {
    // A store whose database is gone: every call rejects the way the real stores do.
    const down = new Proxy(t.store, {
      get(target, prop, receiver) {
        if (prop === 'dialect') return 'postgres';
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function'
          ? () => Promise.reject(new StoreUnavailableError('connect ECONNREFUSED 127.0.0.1:5432'))
          : value;
      },
    }) as RunStore;
    const outage = await makeTestApp({ store: down });
    try {
      const health = await request(outage.app).get('/healthz');
      expect(health.status).toBe(503);
      expect(HealthSchema.parse(health.body)).toMatchObject({ status: 'degraded', store: { ok: false } });
      const read = await request(outage.app).get(`/api/runs/${runId}`);
      expect(read.status).toBe(503);
      expect(read.headers['retry-after']).toBe('5');
      expect(read.body.error.code).toBe('store_unavailable');
      expect((await request(outage.app).get('/api/openapi.json')).status).toBe(200);
    } finally {
      await outage.close({ keepDir: true });
    }
  });
});

describe('share page without the built web app', () => {
  it('renders a script-free summary with user strings escaped', async () => {
    const created = await request(t.app)
      .post('/api/comparisons')
      .send({ title: '<script>alert(1)</script>', runIds: [runId] });
    expect(created.status).toBe(201);
    const page = await request(t.app).get(`/c/${created.body.id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.text).toMatch(/Prices as of 2024-07-18/); // the built-in us-east-1 prices (shared/src/aws/data/SOURCES.md)
  });
});
