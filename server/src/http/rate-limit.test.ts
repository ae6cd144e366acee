import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, byteBudgetsFor } from '../app.ts';
import { RateLimiter, memoryCounter, storeCounter } from './rate-limit.ts';
import { generateToken, hashToken } from './auth.ts';
import { MemoryWindowCounters } from '../store/replica-state.ts';
import { StoreUnavailableError, type RunStore, type StoreFault } from '../store/run-store.ts';
import { capturedLogger, fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';

const BODY = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');

function upload(t: TestApp, name: string, body: Buffer = BODY, headers: Record<string, string> = {}) {
  let req = request(t.app)
    .post(`/api/runs?name=${name}`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string);
  for (const [k, v] of Object.entries(headers)) req = req.set(k, v);
  return req.send(body as unknown as string);
}

async function runCount(t: TestApp): Promise<number> {
  const page = await t.store.listRuns({ limit: 200 });
  if (!page.ok) throw new Error(page.error.message);
  return page.value.items.length;
}

describe('RateLimiter', () => {
  it('allows exactly `limit` per window, then says how long to wait', async () => {
    let now = 0;
    const rl = new RateLimiter(
      { name: 'test', limit: 3, windowMs: 10_000 },
      memoryCounter(() => now),
    );
    expect([await rl.hit('a'), await rl.hit('a'), await rl.hit('a')]).toEqual([null, null, null]);
    expect(await rl.hit('a')).toBe(10);
    expect(await rl.hit('b')).toBeNull();
    now = 7_500;
    expect(await rl.hit('a')).toBe(3);
    now = 10_000;
    expect(await rl.hit('a')).toBeNull();
  });

  it('charges amounts (a byte budget); exhausted() reads the window without charging it', async () => {
    let now = 0;
    const rl = new RateLimiter(
      { name: 'bytes', limit: 1000, windowMs: 60_000, unit: 'bytes' },
      memoryCounter(() => now),
    );
    expect(await rl.exhausted('a')).toBeNull();
    expect(await rl.hit('a', 600)).toBeNull();
    expect(await rl.exhausted('a')).toBeNull();
    expect(await rl.hit('a', 400)).toBeNull(); // exactly the budget
    expect(await rl.exhausted('a')).toBe(60); // nothing left: refuse before reading the next body
    now = 30_000;
    expect(await rl.hit('a', 1)).toBe(30);
    expect(rl.refusal(30).message).toBe(
      'too many bytes (bytes: 1 KiB of request bodies per 60 s); retry in 30 s',
    );
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
    const statuses: number[] = [];
    let retryAfter: string | undefined;
    for (let i = 0; i < 10; i += 1) {
      const res = await upload(t, `burst-${i}`);
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

describe('bytes parsed count against a budget per client (issue 12)', () => {
  it('charges each body after it is read, refuses the one past the budget before parsing it, then refuses unread', async () => {
    const t = await makeTestApp({
      // 1.5 bodies per window; a body larger than maxUploadBytes shows which check answered.
      config: { maxUploadBytes: 64 * 1024 },
      rateLimits: {
        bytesAnonymous: {
          name: 'upload bytes without a token',
          limit: Math.floor(BODY.length * 1.5),
          windowMs: 60_000,
          unit: 'bytes',
        },
      },
    });
    try {
      expect((await upload(t, 'first')).status).toBe(201);
      const second = await upload(t, 'second');
      expect(second.status).toBe(429);
      expect(second.body.error.code).toBe('rate_limited');
      expect(second.body.error.message).toMatch(/upload bytes without a token/);
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      expect(await runCount(t)).toBe(1); // refused before it was parsed or stored
      // Past the budget, a body is not even read: an oversized one gets 429, not 413.
      const oversized = await upload(t, 'oversized', Buffer.alloc(100 * 1024, 0x20));
      expect(oversized.status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('counts the inflated size of a gzip body, not the bytes on the wire', async () => {
    const gzipped = gzipSync(BODY);
    expect(gzipped.length).toBeLessThan(BODY.length / 2);
    const t = await makeTestApp({
      rateLimits: {
        bytesAnonymous: { name: 'upload bytes without a token', limit: BODY.length - 1, windowMs: 60_000 },
      },
    });
    try {
      const res = await upload(t, 'gz', gzipped, { 'Content-Encoding': 'gzip' });
      expect(res.status).toBe(429);
      expect(await runCount(t)).toBe(0);
    } finally {
      await t.close();
    }
  });

  it('a CI token has its own budget, apart from anonymous uploads from the same address', async () => {
    const t = await makeTestApp({
      config: { auth: 'open' },
      rateLimits: {
        bytesAnonymous: { name: 'upload bytes without a token', limit: BODY.length, windowMs: 60_000 },
        bytesToken: { name: 'upload bytes per CI token', limit: BODY.length * 2, windowMs: 60_000 },
      },
    });
    try {
      const token = generateToken();
      expect((await t.store.createToken({ name: 'ci', tokenSha256: hashToken(token) })).ok).toBe(true);
      const auth = { Authorization: `Bearer ${token}` };
      expect((await upload(t, 'anon-1')).status).toBe(201);
      expect((await upload(t, 'anon-2')).status).toBe(429);
      expect((await upload(t, 'ci-1', BODY, auth)).status).toBe(201);
      expect((await upload(t, 'ci-2', BODY, auth)).status).toBe(201);
      expect((await upload(t, 'ci-3', BODY, auth)).status).toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('byte budget defaults', () => {
  it('100 MiB/min without a token and 2 GiB/min per token, never less than 2 (40) uploads at the size limit', () => {
    const MiB = 1024 * 1024;
    expect(byteBudgetsFor(DEFAULT_CONFIG.maxUploadBytes)).toMatchObject({
      bytesAnonymous: { limit: 100 * MiB, windowMs: 60_000, unit: 'bytes' },
      bytesToken: { limit: 2048 * MiB, windowMs: 60_000, unit: 'bytes' },
    });
    expect(byteBudgetsFor(200 * MiB)).toMatchObject({
      bytesAnonymous: { limit: 400 * MiB },
      bytesToken: { limit: 8000 * MiB },
    });
  });
});

/** hitRateLimit of a store whose database refuses charges with `fault` while `failing` says so. */
function counterStore(fault: StoreFault) {
  const counters = new MemoryWindowCounters(() => 0);
  const state = { failing: true, charges: 0 };
  const store = {
    hitRateLimit: async (key: string, amount: number, windowMs: number) => {
      // A read-only database still answers reads (amount 0); only charges are writes.
      if (state.failing && (amount > 0 || fault === 'unreachable'))
        throw new StoreUnavailableError(`the database refuses: ${fault}`, { fault });
      if (amount > 0) state.charges += 1;
      return counters.hit(key, amount, windowMs);
    },
  } as unknown as RunStore;
  return { store, state };
}

describe('the counter store refuses writes (read-only, disk full, I/O errors)', () => {
  it.each([['read_only'], ['disk_full'], ['io_error']] as const)(
    '%s: counts in this process, still limited, logged once; back to the store when it takes writes',
    async (fault) => {
      const { store, state } = counterStore(fault);
      const log = capturedLogger();
      const limiter = new RateLimiter(
        { name: 'unknown ids', limit: 2, windowMs: 60_000 },
        storeCounter(store, log.logger, () => 0),
      );
      expect([await limiter.hit('a'), await limiter.hit('a'), await limiter.hit('a')]).toEqual([
        null,
        null,
        60,
      ]);
      expect(await limiter.exhausted('a')).toBe(60); // reads see the charges made in memory
      expect(await limiter.hit('b')).toBeNull();
      expect(log.lines.filter((l) => l.includes('refuses writes'))).toHaveLength(1);
      expect(log.lines.join('')).toContain(`the database refuses: ${fault}`);

      state.failing = false;
      expect(await limiter.hit('c')).toBeNull();
      expect(state.charges).toBe(1);
      expect(log.lines.filter((l) => l.includes('takes writes again'))).toHaveLength(1);
    },
  );

  it('an unreachable store still fails the request (reads fail then too)', async () => {
    const { store } = counterStore('unreachable');
    const limiter = new RateLimiter({ name: 'x', limit: 2, windowMs: 60_000 }, storeCounter(store));
    await expect(limiter.hit('a')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(limiter.exhausted('a')).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

describe('the counter store unreachable', () => {
  it('an upload is 503 with Retry-After, never let through unlimited; the cause is in the log', async () => {
    const log = capturedLogger();
    const base = await makeTestApp();
    const down = new Proxy(base.store, {
      get(target, prop, receiver) {
        if (prop === 'hitRateLimit')
          return () => Promise.reject(new StoreUnavailableError('connect ECONNREFUSED 127.0.0.1:5432'));
        const value = Reflect.get(target, prop, receiver) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as RunStore;
    const t = await makeTestApp({ store: down, dir: base.dir, logger: log.logger });
    try {
      const res = await upload(t, 'while-down');
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('store_unavailable');
      expect(res.headers['retry-after']).toBe('5');
      expect(JSON.stringify(res.body)).not.toContain('ECONNREFUSED');
      expect(log.lines.join('')).toContain('connect ECONNREFUSED 127.0.0.1:5432');
      expect(await runCount(base)).toBe(0);
    } finally {
      await t.close({ keepDir: true });
      await base.close();
    }
  });
});
