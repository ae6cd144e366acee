import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from '../../http/auth.ts';
import { capturedLogger, fixture, makeTestApp, type TestApp } from '../../testing/test-app.ts';
import { StoreUnavailableError, type RunStore } from '../../store/run-store.ts';
import { MonotonicClock } from '../../store/store-core.ts';
import { SqliteRunStore } from '../../store/sqlite-store.ts';

const mixed = fixture('fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');
const jsonPlus = fixture('fio/generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json');

/** Sends bytes as they are (superagent would JSON-encode a Buffer under application/json). */
const asIs = (body: unknown) => body as string;

type Sample = { name: string; labels: Record<string, string>; value: number };

/**
 * Prometheus's text format, version 0.0.4: `name{label="value",…} value` per line, `#` lines
 * are HELP/TYPE. Label values escape `\`, `"` and newlines. Throws on a line it cannot read, so
 * a malformed exposition fails the test.
 */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    const pair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
    let read = 0;
    for (let p = pair.exec(body); p; p = pair.exec(body)) {
      labels[p[1]!] = p[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      read = pair.lastIndex;
    }
    if (read !== body.length) throw new Error(`unreadable labels: ${line}`);
    const raw = m[3]!;
    // Go's ParseFloat, which Prometheus reads values with, takes NaN in any case (prom-client writes `Nan`).
    const value = raw === '+Inf' ? Infinity : raw === '-Inf' ? -Infinity : Number(raw);
    if (Number.isNaN(value) && raw.toLowerCase() !== 'nan') throw new Error(`not a number: ${line}`);
    samples.push({ name: m[1]!, labels, value });
  }
  return samples;
}

/** The one sample of `name` whose labels include `labels`; fails when there is none or several. */
function sample(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}

/**
 * A timing gauge (a ping, the event-loop lag) whose value depends on the machine: it must be
 * exposed once (sample throws otherwise) and be a finite number — not NaN, not ±Inf, which a gauge
 * set from a failed or never-run measurement would show.
 */
function expectFiniteSample(samples: Sample[], name: string): void {
  const value = sample(samples, name);
  expect(Number.isFinite(value), `${name} = ${value}`).toBe(true);
}

async function scrape(app: TestApp['app'], token?: string): Promise<Sample[]> {
  const req = request(app).get('/metrics');
  const res = await (token ? req.set('Authorization', `Bearer ${token}`) : req);
  expect(res.status, res.text).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(res.headers['cache-control']).toBe('no-store');
  return parseExposition(res.text);
}

const upload = (app: TestApp['app'], body: Buffer, type = 'application/json') =>
  request(app).post('/api/runs?kind=ebs').set('Content-Type', type).serialize(asIs).send(body);

describe('GET /metrics, BLOCKWISE_METRICS=open', () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    // largeBodyBytes 0: every upload is analyzed in the parse pool, which the metrics count.
    t = await makeTestApp({ config: { metrics: 'open', largeBodyBytes: 0 } });
    other = await makeTestApp({ config: { metrics: 'open' } });
  });
  afterAll(async () => {
    await t.close();
    await other.close();
  });

  it('counts uploads, refusals by code and request durations by route pattern', async () => {
    expect((await upload(t.app, mixed)).status).toBe(201);
    expect((await upload(t.app, jsonPlus)).status).toBe(201);
    // The same bytes again: accepted, already stored.
    expect((await upload(t.app, mixed)).status).toBe(200);
    // curl's default form type: refused before anything is read.
    const refused = await upload(t.app, mixed, 'application/x-www-form-urlencoded');
    expect(refused.status).toBe(415);
    expect(refused.body.error.code).toBe('unsupported_media_type');
    // Two ids, one route: the label is the pattern, never the path.
    const ids = [(await upload(t.app, jsonPlus)).body.id as string];
    expect((await request(t.app).get(`/api/runs/${ids[0]}`)).status).toBe(200);
    expect((await request(t.app).get('/api/runs/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect((await request(t.app).get('/no/such/page-3f9a')).status).toBe(404);

    const res = await request(t.app).get('/metrics');
    const m = parseExposition(res.text);
    expect(sample(m, 'blockwise_runs_uploaded_total', { result: 'created' })).toBe(2);
    expect(sample(m, 'blockwise_runs_uploaded_total', { result: 'existing' })).toBe(2);
    expect(
      sample(m, 'blockwise_http_error_responses_total', {
        route: '/api/runs',
        status: '415',
        code: 'unsupported_media_type',
      }),
    ).toBe(1);
    expect(
      sample(m, 'blockwise_http_error_responses_total', { route: '/api/runs/:id', code: 'run_not_found' }),
    ).toBe(1);

    const post = { method: 'POST', route: '/api/runs' };
    const count = (labels: Record<string, string>) =>
      sample(m, 'blockwise_http_request_duration_seconds_count', labels);
    expect(count({ ...post, status_class: '2xx' })).toBe(4);
    expect(count({ ...post, status_class: '4xx' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/runs/:id', status_class: '2xx' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/runs/:id', status_class: '4xx' })).toBe(1);
    expect(count({ method: 'GET', route: '(unmatched)', status_class: '4xx' })).toBe(1);
    // Buckets are cumulative and the last one holds every request of the series.
    const buckets = m.filter(
      (s) =>
        s.name === 'blockwise_http_request_duration_seconds_bucket' &&
        s.labels.route === '/api/runs' &&
        s.labels.status_class === '2xx',
    );
    expect(buckets.length).toBe(16);
    for (let i = 1; i < buckets.length; i += 1)
      expect(buckets[i]!.value).toBeGreaterThanOrEqual(buckets[i - 1]!.value);
    expect(buckets.at(-1)).toMatchObject({ labels: { le: '+Inf' }, value: 4 });
    expect(
      sample(m, 'blockwise_http_request_duration_seconds_sum', { ...post, status_class: '2xx' }),
    ).toBeGreaterThan(0);
    // No path a client chose reaches a label.
    expect(res.text).not.toContain(ids[0]);
    expect(res.text).not.toContain('page-3f9a');
    expect(res.text).not.toContain('AAAAAAAAAAAAAAAAAAAAAA');

    // Store and parse pool, read at scrape time.
    expect(sample(m, 'blockwise_store_up', { dialect: 'sqlite' })).toBe(1);
    expect(sample(m, 'blockwise_store_writable')).toBe(1);
    expectFiniteSample(m, 'blockwise_store_ping_seconds');
    expect(sample(m, 'blockwise_store_pending_writes')).toBe(0);
    for (const fault of ['unreachable', 'busy', 'read_only', 'disk_full', 'io_error', 'closed'])
      expect(sample(m, 'blockwise_store_unavailable_errors_total', { fault })).toBe(0);
    // Four uploads analyzed (the 415 never reached the parser), nothing left in the pool.
    expect(sample(m, 'blockwise_parse_pool_jobs_total')).toBe(4);
    expect(sample(m, 'blockwise_parse_pool_queued_jobs', { size: 'small' })).toBe(0);
    expect(sample(m, 'blockwise_parse_pool_queued_jobs', { size: 'large' })).toBe(0);
    expect(sample(m, 'blockwise_parse_pool_running_jobs')).toBe(0);
    expect(sample(m, 'blockwise_parse_pool_admitted_requests', { size: 'small' })).toBe(0);
    expect(sample(m, 'blockwise_parse_pool_held_bytes')).toBe(0);
    // The process's own (prom-client's defaults), event-loop lag among them.
    expectFiniteSample(m, 'nodejs_eventloop_lag_seconds');
    expectFiniteSample(m, 'nodejs_eventloop_lag_p99_seconds');
    expect(sample(m, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    // Each app has its own registry: the other app in this process saw none of it.
    const o = await scrape(other.app);
    expect(o.filter((s) => s.name === 'blockwise_runs_uploaded_total')).toEqual([]);
    expect(o.filter((s) => s.name === 'blockwise_http_request_duration_seconds_count')).toEqual([]);
  });

  it('answers 405 to other methods', async () => {
    const res = await request(t.app).post('/metrics');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('GET /metrics with a database that refuses writes', () => {
  it('counts the write failures by fault and shows the store not writable', async () => {
    // A real fault: the archive's file opened with PRAGMA query_only (SQLITE_READONLY on writes).
    const seeded = await makeTestApp();
    await seeded.store.close();
    const db = new Database(join(seeded.dir, 'blockwise.db'));
    db.pragma('query_only = ON');
    const store = new SqliteRunStore(db, new MonotonicClock());
    const t = await makeTestApp({ store, config: { metrics: 'open' } });
    try {
      const refused = await upload(t.app, mixed);
      expect(refused.status).toBe(503);
      expect(refused.body.error.code).toBe('store_unavailable');
      const m = await scrape(t.app);
      expect(sample(m, 'blockwise_store_up', { dialect: 'sqlite' })).toBe(1);
      expect(sample(m, 'blockwise_store_writable')).toBe(0);
      // The upload's insert (the write check's rolled-back probe is /healthz's, not a store call's).
      expect(sample(m, 'blockwise_store_unavailable_errors_total', { fault: 'read_only' })).toBe(1);
      expect(sample(m, 'blockwise_store_unavailable_errors_total', { fault: 'unreachable' })).toBe(0);
      expect(
        sample(m, 'blockwise_http_error_responses_total', {
          route: '/api/runs',
          status: '503',
          code: 'store_unavailable',
        }),
      ).toBe(1);
      expect(m.filter((x) => x.name === 'blockwise_runs_uploaded_total')).toEqual([]);
    } finally {
      await t.close();
      await store.close();
      await seeded.close();
    }
  });
});

describe('the request log line', () => {
  it('stays one JSON object per request, with the error code the metrics count', async () => {
    const log = capturedLogger();
    const t = await makeTestApp({ logger: log.logger });
    try {
      expect((await upload(t.app, mixed, 'text/csv')).status).toBe(415);
      const lines = log.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.filter((l) => l.msg === 'request')).toEqual([
        expect.objectContaining({
          method: 'POST',
          url: '/api/runs',
          status: 415,
          code: 'unsupported_media_type',
        }),
      ]);
    } finally {
      await t.close();
    }
  });
});

describe('GET /metrics, BLOCKWISE_METRICS=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ config: { metrics: 'off' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 and keeps no metrics', async () => {
    expect((await upload(t.app, mixed)).status).toBe(201);
    const res = await request(t.app).get('/metrics');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(res.body.error.message).toContain('BLOCKWISE_METRICS=off');
    expect(t.ctx.metrics).toBeNull();
  });
});

describe('GET /metrics, BLOCKWISE_METRICS=token (the default)', () => {
  let t: TestApp;
  let real: TestApp;
  let token: string;
  let other: string;
  /** Switched on: every store call fails as the real stores do when the database is unreachable. */
  let down = false;
  beforeAll(async () => {
    real = await makeTestApp();
    const store = new Proxy(real.store, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        // What the store counts in memory answers without the database.
        const local = prop === 'unavailableErrors' || prop === 'pendingWrites';
        return (...args: unknown[]) =>
          down && !local
            ? Promise.reject(new StoreUnavailableError('connect ECONNREFUSED 127.0.0.1:5432'))
            : method.apply(target, args);
      },
    }) as RunStore;
    t = await makeTestApp({ store });
    [token, other] = [generateToken(), generateToken()];
    for (const [name, value] of [
      ['prometheus', token],
      ['ci', other],
    ] as const)
      expect((await real.store.createToken({ name, tokenSha256: hashToken(value) })).ok).toBe(true);
  });
  afterAll(async () => {
    await t.close();
    await real.close();
  });

  it.each([
    ['no token', undefined],
    ['a malformed token', 'Bearer nope'],
    ['an unknown token', `Bearer ${generateToken()}`],
  ])('answers 401 with %s', async (_what, header) => {
    const req = request(t.app).get('/metrics');
    const res = await (header ? req.set('Authorization', header) : req);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
    expect(res.text).not.toContain('blockwise_');
    if (!header) expect(res.headers['www-authenticate']).toBe('Bearer realm="blockwise"');
  });

  it('serves a CI token, and keeps serving it while the store cannot check it', async () => {
    expect(sample(await scrape(t.app, token), 'blockwise_store_up', { dialect: 'sqlite' })).toBe(1);
    down = true;
    try {
      // Accepted a moment ago: still accepted, and the scrape shows the outage.
      const m = await scrape(t.app, token);
      expect(sample(m, 'blockwise_store_up', { dialect: 'sqlite' })).toBe(0);
      expect(sample(m, 'blockwise_store_writable')).toBe(0);
      expect(m.some((s) => s.name === 'blockwise_store_ping_seconds')).toBe(false);
      // A token this server never accepted: the store cannot say whether it is valid.
      const unchecked = await request(t.app).get('/metrics').set('Authorization', `Bearer ${other}`);
      expect(unchecked.status).toBe(503);
      expect(unchecked.body.error.code).toBe('store_unavailable');
    } finally {
      down = false;
    }
  });
});
