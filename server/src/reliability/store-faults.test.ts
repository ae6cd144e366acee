/**
 * Honest errors under database faults: every route that touches the store answers 503 with
 * Retry-After (never 500) when the database is gone, read-only or full; the response names no
 * cause, the log does; /healthz says `degraded` and whether writes go through (503 only when
 * reads fail too: a database that refuses only writes leaves every replica in rotation).
 *
 * The faults are real: a closed SQLite connection, a SQLite connection opened read-only, a
 * SQLite database capped at its size (`max_page_count` → SQLITE_FULL), a PostgreSQL reached
 * through a TCP proxy that is then shut, and PostgreSQL connections whose transactions are
 * read-only (`default_transaction_read_only`).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Express } from 'express';
import pg from 'pg';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema, HealthSchema } from '@blockwise/shared/api';
import { generateToken } from '../http/auth.ts';
import { openPostgresStore } from '../store/postgres-store.ts';
import type { RunStore } from '../store/run-store.ts';
import { MonotonicClock, WRITE_FAILURE_MEMORY_MS } from '../store/store-core.ts';
import { SqliteRunStore, openSqliteStore } from '../store/sqlite-store.ts';
import { PG_URL, probePg, readOnlyPgUrl } from '../testing/pg-archive.ts';
import { fleetInstancesJson, fleetMetricsJson, fleetVolumesJson } from '../store/testing/fleet-inputs.ts';
import { capturedLogger, fixture, makeTestApp } from '../testing/test-app.ts';

const fio = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
const NO_LIMITS = { name: 'test', limit: 1_000_000, windowMs: 60_000 };
const rateLimits = {
  writesAnonymous: NO_LIMITS,
  writesToken: NO_LIMITS,
  reads: NO_LIMITS,
  notFound: NO_LIMITS,
};

type Ids = {
  run: string;
  /** The run after `run` on its branch: `run` is its baseline. */
  next: string;
  comparison: string;
  series: string;
  fleetPlan: string;
};
type Route = {
  /** As Express registered it: METHOD path. */
  route: string;
  /** Writes to the store (a read-only or full database refuses it). */
  writes: boolean;
  send: (app: Express, ids: Ids) => request.Test;
};

/** Every route that reads or writes the archive, with a request that reaches its store call. */
const STORE_ROUTES: Route[] = [
  {
    route: 'POST /api/runs',
    writes: true,
    send: (app, ids) =>
      request(app)
        // Other labels than the seed's: a new run, not an idempotent repeat.
        .post(`/api/runs?series=${ids.series}&branch=fault-${randomBytes(4).toString('hex')}`)
        .set('Content-Type', 'application/json')
        .serialize((b: unknown) => b as string)
        .send(fio),
  },
  { route: 'GET /api/runs', writes: false, send: (app) => request(app).get('/api/runs') },
  { route: 'GET /api/runs/:id', writes: false, send: (app, ids) => request(app).get(`/api/runs/${ids.run}`) },
  {
    route: 'GET /api/runs/:id/raw',
    writes: false,
    send: (app, ids) => request(app).get(`/api/runs/${ids.run}/raw`),
  },
  {
    route: 'GET /api/runs/:id/regression',
    // Read-only: the comparison it links is frozen when that link is opened (the route below).
    writes: false,
    send: (app, ids) => request(app).get(`/api/runs/${ids.run}/regression`),
  },
  {
    route: 'GET /c/pair/:baselineId/:runId',
    // Its first opening stores the comparison.
    writes: true,
    send: (app, ids) => request(app).get(`/c/pair/${ids.run}/${ids.next}`),
  },
  {
    route: 'HEAD /c/pair/:baselineId/:runId',
    // Never builds: it only looks for the comparison.
    writes: false,
    send: (app, ids) => request(app).head(`/c/pair/${ids.run}/${ids.next}`),
  },
  {
    route: 'POST /api/comparisons',
    writes: true,
    send: (app, ids) =>
      request(app)
        .post('/api/comparisons')
        .send({ runIds: [ids.run] }),
  },
  {
    route: 'GET /api/comparisons/:id',
    writes: false,
    send: (app, ids) => request(app).get(`/api/comparisons/${ids.comparison}`),
  },
  { route: 'GET /c/:id', writes: false, send: (app, ids) => request(app).get(`/c/${ids.comparison}`) },
  {
    route: 'GET /api/series/:series/settings',
    writes: false,
    send: (app, ids) => request(app).get(`/api/series/${ids.series}/settings`),
  },
  {
    route: 'PUT /api/series/:series/settings',
    writes: true,
    send: (app, ids) => request(app).put(`/api/series/${ids.series}/settings`).send({ baselineRuns: 4 }),
  },
  { route: 'GET /api/series', writes: false, send: (app) => request(app).get('/api/series') },
  {
    route: 'POST /api/fleet/plans',
    writes: true,
    send: (app) => request(app).post('/api/fleet/plans').send(fleetBody()),
  },
  {
    route: 'GET /api/fleet/plans/:id',
    writes: false,
    send: (app, ids) => request(app).get(`/api/fleet/plans/${ids.fleetPlan}`),
  },
  {
    route: 'GET /api/series/:series/runs',
    writes: false,
    send: (app, ids) => request(app).get(`/api/series/${ids.series}/runs`),
  },
];

/** A fleet plan request: describe-volumes, get-metric-data and describe-instances outputs. */
function fleetBody() {
  return { volumes: fleetVolumesJson(), metrics: [fleetMetricsJson()], instances: fleetInstancesJson() };
}

/**
 * Routes that never touch the store, and the two that report on it, tested on their own: the
 * health check (app.test.ts) and /metrics (routes/metrics/metrics.test.ts: 200 with
 * blockwise_store_up 0, or 503 when its token cannot be checked).
 */
const STORELESS = new Set([
  'GET /healthz',
  'GET /metrics',
  'GET /api/openapi.json',
  'GET /',
  'GET /api/catalog',
  'GET /api/catalog/data',
]);

/** METHOD path of every route the app registered (router.all fallbacks for 405 excluded). */
function registeredRoutes(app: Express): string[] {
  type Layer = {
    route?: { path: string; methods: Record<string, boolean> };
    handle?: { stack?: Layer[] };
  };
  const routes: string[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        for (const [method, on] of Object.entries(layer.route.methods))
          if (on && method !== '_all') routes.push(`${method.toUpperCase()} ${layer.route.path}`);
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  return routes;
}

async function seed(app: Express, series: string): Promise<Ids> {
  const run = await request(app)
    .post(`/api/runs?series=${series}&branch=main`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(fio);
  expect(run.status, JSON.stringify(run.body)).toBe(201);
  const next = await request(app)
    .post(`/api/runs?series=${series}&branch=main&commit=abcd1`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(fio);
  expect(next.status, JSON.stringify(next.body)).toBe(201);
  const comparison = await request(app)
    .post('/api/comparisons')
    .send({ runIds: [run.body.id] });
  expect(comparison.status, JSON.stringify(comparison.body)).toBe(201);
  const fleetPlan = await request(app).post('/api/fleet/plans').send(fleetBody());
  expect(fleetPlan.status, JSON.stringify(fleetPlan.body)).toBe(201);
  return {
    run: run.body.id as string,
    next: next.body.id as string,
    comparison: comparison.body.id as string,
    series,
    fleetPlan: fleetPlan.body.id as string,
  };
}

function expectUnavailable(res: request.Response, route: string, causes: RegExp): void {
  expect(res.status, `${route}: ${String(res.text).slice(0, 300)}`).toBe(503);
  expect(res.headers['retry-after'], route).toBe('5');
  if (route.startsWith('HEAD ')) return; // no body
  expect(ErrorResponseSchema.parse(res.body).error.code, route).toBe('store_unavailable');
  expect(String(res.text), `${route} must not carry the cause`).not.toMatch(causes);
}

/** Unknown ids are 404 (not 503) while the database is read-only. */
async function expectUnknownIdsNotFound(app: Express): Promise<void> {
  const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';
  for (const path of [`/api/runs/${unknown}`, `/api/runs/${unknown}/raw`, `/api/comparisons/${unknown}`]) {
    const res = await request(app).get(path);
    expect(res.status, `${path}: ${String(res.text).slice(0, 200)}`).toBe(404);
  }
}

async function health(app: Express) {
  const res = await request(app).get('/healthz');
  return { status: res.status, body: HealthSchema.parse(res.body) };
}

describe('the route table covers every route', () => {
  it('each registered route is in STORE_ROUTES or known not to touch the store', async () => {
    const t = await makeTestApp();
    try {
      const known = new Set([...STORE_ROUTES.map((r) => r.route), ...STORELESS]);
      const missing = registeredRoutes(t.app).filter((route) => !known.has(route));
      // A new route that reads the store: add it to STORE_ROUTES (and it gets the 503 test).
      expect(missing).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('OpenAPI', () => {
  it('every API operation documents 503 store_unavailable; those with query parameters 400', async () => {
    const t = await makeTestApp();
    try {
      const doc = (await request(t.app).get('/api/openapi.json')).body as {
        paths: Record<
          string,
          Record<string, { responses: Record<string, unknown>; parameters?: { in: string }[] }>
        >;
      };
      const apiPaths = Object.entries(doc.paths).filter(
        ([path]) => path.startsWith('/api/') && !STORELESS.has(`GET ${path}`),
      );
      expect(apiPaths.length).toBeGreaterThan(5);
      for (const [path, operations] of apiPaths)
        for (const [method, operation] of Object.entries(operations)) {
          expect(operation.responses, `${method} ${path}`).toHaveProperty('503');
          if (operation.parameters?.some((p) => p.in === 'query'))
            expect(operation.responses, `${method} ${path}`).toHaveProperty('400');
        }
    } finally {
      await t.close();
    }
  });
});

describe('SQLite: the store closed under the running app', () => {
  it.each([['anonymous'], ['with a bearer token']])(
    'every store route answers 503 + Retry-After, %s; /healthz is degraded (closed)',
    async (who) => {
      const log = capturedLogger();
      const t = await makeTestApp({ rateLimits, logger: log.logger });
      try {
        const ids = await seed(t.app, 'closed');
        await t.store.close();
        for (const r of STORE_ROUTES) {
          const req = r.send(t.app, ids);
          if (who !== 'anonymous') req.set('Authorization', `Bearer ${generateToken()}`);
          expectUnavailable(await req, r.route, /SQLite|not open|closed/);
        }
        const h = await health(t.app);
        expect(h.status).toBe(503);
        expect(h.body.status).toBe('degraded');
        expect(h.body.store).toMatchObject({ ok: false, writable: false, fault: 'closed' });
        expect(log.text()).toContain('SQLite store is closed');
      } finally {
        await t.close();
      }
    },
  );
});

describe('SQLite: a read-only database', () => {
  it('reads answer, writes are 503 with the cause only in the log, /healthz: writable false (probe)', async () => {
    const seeded = await makeTestApp({ rateLimits });
    const ids = await seed(seeded.app, 'read-only');
    await seeded.store.close();
    // What a read-only file gives (chmod 0444 does not stop root, who may run the tests).
    const db = new Database(join(seeded.dir, 'blockwise.db'), { readonly: true });
    const store = new SqliteRunStore(db, new MonotonicClock());
    const log = capturedLogger();
    const t = await makeTestApp({ store, rateLimits, logger: log.logger });
    try {
      for (const r of STORE_ROUTES) {
        const res = await r.send(t.app, ids);
        if (r.writes) expectUnavailable(res, r.route, /SQLITE|readonly/i);
        else expect(res.status, `${r.route}: ${String(res.text).slice(0, 200)}`).toBe(200);
      }
      await expectUnknownIdsNotFound(t.app);
      // Reads work: the replica stays in rotation (200), and says writes fail.
      const h = await health(t.app);
      expect(h.status).toBe(200);
      expect(h.body).toMatchObject({
        status: 'degraded',
        store: { ok: true, writable: false, fault: 'read_only', writeCheck: { probe: 'failed' } },
      });
      expect(JSON.stringify(h.body)).not.toMatch(/SQLITE|attempt to write/);
      expect(log.text()).toContain('SQLITE_READONLY');
    } finally {
      await t.close();
      await store.close();
      await seeded.close();
    }
  });

  it('PRAGMA query_only: the same 503 for a write, and /healthz degraded', async () => {
    const seeded = await makeTestApp({ rateLimits });
    const ids = await seed(seeded.app, 'query-only');
    await seeded.store.close();
    const db = new Database(join(seeded.dir, 'blockwise.db'));
    db.pragma('query_only = ON');
    const store = new SqliteRunStore(db, new MonotonicClock());
    const t = await makeTestApp({ store, rateLimits });
    try {
      expectUnavailable(
        await request(t.app).put(`/api/series/${ids.series}/settings`).send({}),
        'PUT settings',
        /SQLITE/,
      );
      expect((await health(t.app)).body.store).toMatchObject({ writable: false, fault: 'read_only' });
    } finally {
      await t.close();
      await store.close();
      await seeded.close();
    }
  });
});

describe('SQLite: the database file deleted under the running app', () => {
  it('writes are 503, not written to an unlinked file (lost at the next start); /healthz degraded', async () => {
    const log = capturedLogger();
    const t = await makeTestApp({ rateLimits, logger: log.logger });
    try {
      const ids = await seed(t.app, 'deleted');
      for (const suffix of ['', '-wal', '-shm'])
        rmSync(join(t.dir, `blockwise.db${suffix}`), { force: true });
      for (const r of STORE_ROUTES.filter((route) => route.writes))
        expectUnavailable(await r.send(t.app, ids), r.route, /SQLITE|readonly/i);
      const h = await health(t.app);
      expect(h.status).toBe(200);
      expect(h.body.status).toBe('degraded');
      expect(h.body.store).toMatchObject({
        writable: false,
        fault: 'io_error',
        writeCheck: { probe: 'failed' },
      });
      expect(log.text()).toMatch(/the database file .*blockwise\.db was deleted while open/);
      // Reads still answer from the open file.
      expect((await request(t.app).get(`/api/runs/${ids.run}`)).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('SQLite: a full disk', () => {
  it('a write that fails with SQLITE_FULL is a 503; /healthz is degraded until a write succeeds (or a minute passes)', async () => {
    const seeded = await makeTestApp({ rateLimits });
    const ids = await seed(seeded.app, 'full');
    await seeded.store.close();
    const db = new Database(join(seeded.dir, 'blockwise.db'));
    const pages = Number(db.pragma('page_count', { simple: true }));
    // The database may not grow by a page: what a full disk does to SQLite (SQLITE_FULL).
    db.pragma(`max_page_count = ${pages}`);
    let now = Date.parse('2026-01-01T00:00:00Z');
    const clock = () => now;
    const store = new SqliteRunStore(db, new MonotonicClock(clock), undefined, clock);
    const log = capturedLogger();
    const t = await makeTestApp({ store, rateLimits, logger: log.logger });
    try {
      // The rolled-back probe needs no new page: writes look fine until one fails.
      expect((await health(t.app)).body.store).toMatchObject({ writable: true, writeCheck: { probe: 'ok' } });
      const upload = STORE_ROUTES.find((r) => r.route === 'POST /api/runs')!;
      // Free pages inside the file are used first: upload until the file would have to grow.
      let res = await upload.send(t.app, ids);
      for (let attempt = 0; res.status === 201 && attempt < 50; attempt += 1)
        res = await upload.send(t.app, ids);
      expectUnavailable(res, 'POST /api/runs', /SQLITE|full/i);
      expect(res.body.error.message).toBe('the archive cannot store anything right now; retry later');
      expect(log.text()).toContain('SQLITE_FULL');

      const degraded = await health(t.app);
      expect(degraded.status).toBe(200);
      expect(degraded.body.status).toBe('degraded');
      expect(degraded.body.store).toMatchObject({
        ok: true,
        writable: false,
        fault: 'disk_full',
        writeCheck: { probe: 'ok', lastWriteFailureAt: '2026-01-01T00:00:00.000Z' },
      });

      // Reported for a bounded time only: a replica out of rotation sees no write that could clear it.
      now += WRITE_FAILURE_MEMORY_MS + 1;
      expect((await health(t.app)).body.status).toBe('ok');

      await upload.send(t.app, ids).expect(503);
      expect((await health(t.app)).body.status).toBe('degraded');
      // Space again: the next write succeeds and clears the failure at once.
      db.pragma('max_page_count = 1000000');
      expect((await upload.send(t.app, ids)).status).toBe(201);
      expect((await health(t.app)).body).toMatchObject({
        status: 'ok',
        store: { writable: true, writeCheck: { lastWriteFailureAt: null } },
      });
    } finally {
      await t.close();
      await store.close();
      await seeded.close();
    }
  });
});

describe('SQLite: start-up errors are one line naming the file', () => {
  // chmod does not stop root (the tests may run as root): then this case is skipped.
  it.skipIf(process.getuid?.() === 0)('a read-only file: one line saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-ro-'));
    try {
      const path = join(dir, 'blockwise.db');
      await (await openSqliteStore({ path })).close();
      chmodSync(path, 0o444);
      await expect(openSqliteStore({ path })).rejects.toThrow(
        /^the SQLite archive .*blockwise\.db is read-only \(the server needs write access to the file and its directory\): .*SQLITE_READONLY/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a path under a regular file, and a directory as the database', async () => {
    const t = await makeTestApp();
    try {
      const file = join(t.dir, 'blockwise.db');
      await expect(openSqliteStore({ path: join(file, 'nested', 'x.db') })).rejects.toThrow(
        /^cannot create the directory of the SQLite archive .*nested\/x\.db: (.*is not a directory|ENOTDIR)/,
      );
      await expect(openSqliteStore({ path: t.dir })).rejects.toThrow(
        /^the SQLite archive .* cannot be opened or read .*SQLITE_CANTOPEN/,
      );
    } finally {
      await t.close();
    }
  });
});

// ── PostgreSQL ───────────────────────────────────────────────────────────────────────────────

/** A TCP proxy to the PostgreSQL server that can be shut like a network outage. */
async function tcpProxy(target: URL): Promise<{ port: number; cut: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    cut: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

const reachable = (await probePg()).ok;
describe.skipIf(!reachable)('PostgreSQL faults', () => {
  const admin = new pg.Pool({ connectionString: PG_URL, max: 2 });
  admin.on('error', () => {});
  const schemas: string[] = [];
  async function freshSchema(): Promise<string> {
    const schema = `bw_test_${randomBytes(8).toString('hex')}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    schemas.push(schema);
    return schema;
  }
  afterAll(async () => {
    for (const schema of schemas) await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  });

  it.each([['anonymous'], ['with a bearer token']])(
    'the server unreachable: every store route answers 503 + Retry-After, %s',
    async (who) => {
      const schema = await freshSchema();
      const target = new URL(PG_URL);
      const proxy = await tcpProxy(target);
      const viaProxy = new URL(PG_URL);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const store = await openPostgresStore({ url: viaProxy.toString(), schema, connectionTimeoutMs: 1000 });
      const log = capturedLogger();
      const t = await makeTestApp({ store, rateLimits, logger: log.logger });
      try {
        const ids = await seed(t.app, 'pg-down');
        await proxy.cut();
        for (const r of STORE_ROUTES) {
          const req = r.send(t.app, ids);
          if (who !== 'anonymous') req.set('Authorization', `Bearer ${generateToken()}`);
          expectUnavailable(await req, r.route, /ECONNREFUSED|127\.0\.0\.1|PostgreSQL|terminated/);
        }
        const h = await health(t.app);
        expect(h.status).toBe(503);
        expect(h.body.store).toMatchObject({ ok: false, writable: false, fault: 'unreachable' });
        expect(log.text()).toMatch(/ECONNREFUSED|Connection terminated/);
      } finally {
        await t.close();
        await store.close();
      }
    },
  );

  it('read-only transactions (default_transaction_read_only): writes 503, no 500, /healthz degraded (probe)', async () => {
    const schema = await freshSchema();
    const writable = await openPostgresStore({ url: PG_URL, schema });
    const seeded = await makeTestApp({ store: writable, rateLimits });
    const ids = await seed(seeded.app, 'pg-read-only');
    await seeded.close();
    await writable.close();
    // Every connection of this pool starts its transactions read-only, as on a standby.
    const store: RunStore = await openPostgresStore({ url: readOnlyPgUrl(schema) });
    const log = capturedLogger();
    const t = await makeTestApp({ store, rateLimits, logger: log.logger });
    try {
      for (const r of STORE_ROUTES) {
        const res = await r.send(t.app, ids);
        if (r.writes) expectUnavailable(res, r.route, /25006|read-only transaction/);
        else expect(res.status, `${r.route}: ${String(res.text).slice(0, 200)}`).toBe(200);
      }
      // Each 404 charges the unknown-ids limit, which PostgreSQL counts in a table it cannot
      // write now: the count moves to this process's memory, and the answer stays a 404.
      await expectUnknownIdsNotFound(t.app);
      const h = await health(t.app);
      expect(h.status).toBe(200);
      expect(h.body.status).toBe('degraded');
      expect(h.body.store).toMatchObject({
        ok: true,
        writable: false,
        fault: 'read_only',
        writeCheck: { probe: 'failed' },
      });
      expect(log.text()).toContain('read-only transaction');
    } finally {
      await t.close();
      await store.close();
    }
  });
});
