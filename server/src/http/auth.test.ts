import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestsEqual, generateToken, hashToken } from './auth.ts';
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
    t.ctx.tokens.invalidate();
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
