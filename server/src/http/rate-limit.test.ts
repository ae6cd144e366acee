import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.ts';
import { fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';

describe('RateLimiter', () => {
  it('allows exactly `limit` per window, then says how long to wait', () => {
    let now = 0;
    const rl = new RateLimiter({ name: 'test', limit: 3, windowMs: 10_000 }, () => now);
    expect([rl.hit('a'), rl.hit('a'), rl.hit('a')]).toEqual([null, null, null]);
    expect(rl.hit('a')).toBe(10);
    expect(rl.hit('b')).toBeNull();
    now = 7_500;
    expect(rl.hit('a')).toBe(3);
    now = 10_000;
    expect(rl.hit('a')).toBeNull();
  });
});

describe('rate limits through HTTP (R8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({
      rateLimits: {
        writesAnonymous: { name: 'uploads without a token', limit: 5, windowMs: 60_000 },
        notFound: { name: 'unknown ids', limit: 3, windowMs: 60_000 },
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('a burst of limit + 5 uploads: exactly `limit` succeed, the rest get 429 with Retry-After', async () => {
    const body = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 10; i += 1) {
      const res = await request(t.app)
        .post(`/api/runs?name=burst-${i}`)
        .set('Content-Type', 'application/json')
        .serialize((b: unknown) => b as string)
        .send(body);
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers['retry-after'];
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('probing unknown ids is limited (anti-enumeration)', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await request(t.app).get('/api/runs/AAAAAAAAAAAAAAAAAAAAAA')).status);
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
  });
});
