import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestsEqual, generateToken, hashToken } from './auth.ts';
import { openStore } from '../store/open-store.ts';
import { StoreUnavailableError, type RunStore } from '../store/run-store.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import { runCli } from '../testing/run-cli.ts';
import { fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';

const body = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
const asIs = (b: unknown) => b as string;
const upload = (t: TestApp, token?: string) => {
  const r = request(t.app).post('/api/runs?name=auth').set('Content-Type', 'application/json');
  if (token) r.set('Authorization', `Bearer ${token}`);
  return r.serialize(asIs).send(body);
};

describe('tokens (R7)', () => {
  it('are 256 random bits with a recognizable prefix, never repeated', () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateToken));
    expect(tokens.size).toBe(1000);
    for (const t of tokens) expect(t).toMatch(/^bw_[A-Za-z0-9_-]{43}$/);
  });
  it('compare digests in constant time and only equal-length digests', () => {
    const d = hashToken('bw_x');
    expect(digestsEqual(d, hashToken('bw_x'))).toBe(true);
    expect(digestsEqual(d, hashToken('bw_y'))).toBe(false);
    expect(digestsEqual(d, d.slice(0, 10))).toBe(false);
  });
});

describe('access control', () => {
  let t: TestApp;
  let token: string;
  let shareId: string;
  let logs = '';

  beforeAll(async () => {
    const { pino } = await import('pino');
    const sink = { write: (line: string) => void (logs += line) };
    t = await makeTestApp({ logger: pino({ level: 'debug' }, sink as never) });
    // Open by default: anyone may upload and list while no token exists.
    expect((await upload(t)).status).toBe(201);
    const created = await request(t.app)
      .post('/api/comparisons')
      .send({ runIds: [(await upload(t)).body.id] });
    shareId = created.body.id;
    expect((await request(t.app).get('/api/runs')).status).toBe(200);
    token = generateToken();
    const r = await t.store.createToken({ name: 'ci', tokenSha256: hashToken(token) });
    expect(r.ok).toBe(true);
  });
  afterAll(async () => {
    await t.close();
  });

  it('once a token exists, writes and listings need it; share links stay public', async () => {
    const anonymous = await upload(t);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('unauthorized');
    expect(anonymous.headers['www-authenticate']).toMatch(/Bearer/);
    expect((await request(t.app).get('/api/runs')).status).toBe(401);
    expect((await request(t.app).post('/api/comparisons').send({ runIds: [] })).status).toBe(401);
    expect((await upload(t, token)).status).toBe(200); // same bytes + labels as before: the existing run
    expect((await request(t.app).get('/api/runs').set('Authorization', `Bearer ${token}`)).status).toBe(200);
    expect((await request(t.app).get(`/api/comparisons/${shareId}`)).status).toBe(200);
  });

  it.each([
    ['a malformed token', 'Bearer nope'],
    ['an unknown token', `Bearer ${generateToken()}`],
  ])('401 for %s', async (_, header) => {
    const res = await request(t.app)
      .post('/api/runs')
      .set('Authorization', header)
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(body);
    expect(res.status).toBe(401);
  });

  it('a revoked token is refused', async () => {
    const other = generateToken();
    await t.store.createToken({ name: 'temp', tokenSha256: hashToken(other) });
    expect((await upload(t, other)).status).toBeLessThan(300);
    await t.store.revokeToken({ name: 'temp' });
    expect((await upload(t, other)).status).toBe(401);
  });

  it('never writes a token in clear to the logs or the database files', async () => {
    expect(logs.length).toBeGreaterThan(100);
    expect(logs).not.toContain(token);
    for (const f of readdirSync(t.dir)) {
      const bytes = readFileSync(join(t.dir, f));
      expect(bytes.includes(Buffer.from(token)), f).toBe(false);
    }
  });
});

const listRuns = (t: TestApp, token?: string) => {
  const r = request(t.app).get('/api/runs');
  return token ? r.set('Authorization', `Bearer ${token}`) : r;
};

/** `blockwise token …` against an archive, as an operator runs it (its own connection). */
async function tokenCli(db: string, ...args: string[]): Promise<string> {
  const r = await runCli(['token', ...args, '--db', db]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

describe('automatic auth fails closed', () => {
  it('revoking the last token does not re-open anonymous writes and listings', async () => {
    const t = await makeTestApp();
    try {
      const token = generateToken();
      expect((await t.store.createToken({ name: 'only', tokenSha256: hashToken(token) })).ok).toBe(true);
      expect((await upload(t, token)).status).toBe(201);
      expect((await t.store.revokeToken({ name: 'only' })).ok).toBe(true);
      expect(await t.store.countActiveTokens()).toBe(0);
      const anonymous = await upload(t);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.message).toMatch(/token create/);
      expect((await listRuns(t)).status).toBe(401);
      expect((await upload(t, token)).status).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('refuses anonymous writes right after `token create`, with no wait', async () => {
    const t = await makeTestApp();
    try {
      // Served open a moment ago: nothing about that may linger once a token exists.
      expect((await upload(t)).status).toBe(201);
      expect((await listRuns(t)).status).toBe(200);
      const token = await tokenCli(`sqlite:${join(t.dir, 'blockwise.db')}`, 'create', '--name', 'ci');
      expect((await upload(t)).status).toBe(401);
      expect((await listRuns(t)).status).toBe(401);
      expect((await listRuns(t, token)).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('--auth required|open', () => {
  it('required with no token yet: every protected route is 401 and says how to create one', async () => {
    const t = await makeTestApp({ config: { auth: 'required' } });
    try {
      for (const res of [
        await upload(t),
        await listRuns(t),
        await request(t.app).post('/api/comparisons').send({ runIds: [] }),
        await request(t.app).put('/api/series/s/settings').send({}),
        await request(t.app).get('/api/series/s/runs'),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('unauthorized');
        expect(res.body.error.message).toMatch(/none exists yet.*blockwise token create/);
      }
      expect((await request(t.app).get('/healthz')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('open with tokens: tokens still authenticate (and a bad one is refused), anonymous writes pass', async () => {
    const t = await makeTestApp({ config: { auth: 'open' } });
    try {
      const token = generateToken();
      await t.store.createToken({ name: 'ci', tokenSha256: hashToken(token) });
      expect((await upload(t)).status).toBe(201);
      expect((await listRuns(t)).status).toBe(200);
      expect((await listRuns(t, token)).status).toBe(200);
      expect((await listRuns(t, generateToken())).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('an unreachable database during auth', () => {
  it('is 503 with Retry-After, with or without a token (not 500)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bw-auth-down-'));
    const real = await openSqliteStore({ path: join(dir, 'blockwise.db') });
    let down = false;
    const failing = new Set(['hasHeldToken', 'findActiveTokenByHash', 'countActiveTokens']);
    const store = new Proxy(real, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          down && failing.has(String(key))
            ? Promise.reject(new StoreUnavailableError('connection refused'))
            : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
    const t = await makeTestApp({ store, dir });
    try {
      down = true;
      for (const res of [await upload(t), await upload(t, generateToken()), await listRuns(t)]) {
        expect(res.status).toBe(503);
        expect(res.body.error.code).toBe('store_unavailable');
        expect(res.headers['retry-after']).toMatch(/^\d+$/);
      }
      down = false;
      expect((await upload(t)).status).toBe(201);
    } finally {
      await t.close();
      await real.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Two replicas: each app has its own store (connection) on one archive. */
type Archive = { db: string; open: () => Promise<RunStore>; drop: () => Promise<void> };

async function sqliteArchive(): Promise<Archive> {
  const dir = mkdtempSync(join(tmpdir(), 'bw-replicas-'));
  const path = join(dir, 'blockwise.db');
  return {
    db: `sqlite:${path}`,
    open: () => openSqliteStore({ path }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

const PG_URL = process.env.BLOCKWISE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema on the test PostgreSQL server, or null when none is reachable (unless CI requires it). */
async function postgresArchive(): Promise<Archive | null> {
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  admin.on('error', () => {});
  try {
    await admin.connect();
  } catch (error) {
    if (process.env.BLOCKWISE_REQUIRE_PG === '1') throw error;
    return null;
  }
  const schema = `bw_test_${randomBytes(8).toString('hex')}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = `${PG_URL}?options=-c%20search_path%3D${schema}`;
  return {
    db,
    open: () => openStore(db),
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

describe.each([
  ['SQLite (one file)', sqliteArchive],
  ['PostgreSQL', postgresArchive],
])('two replicas on one archive: %s', (_, makeArchive) => {
  let archive: Archive | null;
  const replicas: TestApp[] = [];
  const stores: RunStore[] = [];
  beforeAll(async () => {
    archive = await makeArchive();
    if (!archive) return;
    for (let i = 0; i < 2; i++) {
      const store = await archive.open();
      stores.push(store);
      replicas.push(await makeTestApp({ store }));
    }
  });
  afterAll(async () => {
    for (const r of replicas) await r.close();
    for (const s of stores) await s.close();
    await archive?.drop();
  });

  it('see a token created or revoked on the other at once', async (context) => {
    if (!archive) return context.skip();
    const [a, b] = replicas as [TestApp, TestApp];
    for (const r of [a, b]) expect((await listRuns(r)).status).toBe(200);

    const token = await tokenCli(archive.db, 'create', '--name', 'ci');
    for (const r of [a, b]) {
      expect((await upload(r)).status).toBe(401);
      expect((await listRuns(r, token)).status).toBe(200);
    }

    await tokenCli(archive.db, 'revoke', '--name', 'ci');
    for (const r of [a, b]) {
      expect((await listRuns(r, token)).status).toBe(401);
      expect((await listRuns(r)).status).toBe(401);
    }
  });

  it('an upload whose token is revoked while its body is in flight: 401, nothing stored', async (context) => {
    if (!archive) return context.skip();
    const token = await tokenCli(archive.db, 'create', '--name', 'mid-body');
    const server = replicas[0]!.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const name = `revoked-mid-body-${randomBytes(4).toString('hex')}`;
      const req = http.request({
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method: 'POST',
        path: `/api/runs?name=${name}`,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': body.length,
        },
      });
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, text }));
        });
        req.on('error', reject);
      });
      req.write(body.subarray(0, 1000));
      // The token passed the check at the headers once it is marked used (after that check).
      for (let i = 0; i < 500; i++) {
        const mid = (await stores[0]!.listTokens()).find((t) => t.name === 'mid-body');
        if (mid?.lastUsedAt != null) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await tokenCli(archive.db, 'revoke', '--name', 'mid-body');
      req.end(body.subarray(1000));
      const res = await answer;
      expect(res.status, res.text).toBe(401);
      expect(JSON.parse(res.text).error).toMatchObject({
        code: 'unauthorized',
        message: expect.stringMatching(/revoked while the upload was being received: nothing was stored/),
      });
      const stored = await stores[1]!.listRuns({ limit: 200 });
      expect(stored.ok && stored.value.items.map((r) => (r.labels as { name?: string }).name)).not.toContain(
        name,
      );
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
