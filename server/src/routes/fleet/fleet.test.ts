import { once } from 'node:events';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, gunzipSync, gzipSync } from 'node:zlib';
import { FLEET_REQUEST_LIMITS, type FleetPlan } from '@blockwise/shared/fleet';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { openSqliteStore } from '../../store/sqlite-store.ts';
import {
  FLEET_VOLUMES,
  fleetInstancesJson,
  fleetMetricsJson,
  fleetPlanInsert,
  fleetPlanOfInputs,
  fleetVolumesJson,
} from '../../store/testing/fleet-inputs.ts';
import { fixture, makeTestApp, type TestApp } from '../../testing/test-app.ts';
import { fleetPlanIdempotencyKey } from '../../store/fleet-plan-document.ts';
import { crc32Combine } from '../../presenters/fleet-plan.ts';
import { ParsePool } from '../../ingest/parse-pool.ts';
import { generateToken, hashToken } from '../../http/auth.ts';
import { CreatedFleetPlanSchema, StoredFleetPlanResponseSchema } from '@blockwise/shared/api';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({
    rateLimits: { writesAnonymous: { name: 'uploads without a token', limit: 1000, windowMs: 60_000 } },
  });
});
afterAll(async () => {
  await t.close();
});

const body = (extra: Record<string, unknown> = {}) => ({
  volumes: fleetVolumesJson(),
  metrics: [fleetMetricsJson()],
  instances: fleetInstancesJson(),
  headroom: 0.25,
  statistic: 'max',
  region: 'us-east-1',
  ...extra,
});

const volumeOf = (plan: { volumes: { volumeId: string }[] }, id: string) =>
  plan.volumes.find((v) => v.volumeId === id) ?? expect.fail(`${id} is not in the plan`);

describe('POST /api/fleet/plans → GET: an immutable fleet plan link', () => {
  it('plans the fleet with the shared planner, stores it, and serves the same document', async () => {
    const created = await request(t.app).post('/api/fleet/plans').send(body());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, url, plan } = CreatedFleetPlanSchema.parse(created.body);
    expect(url).toBe(`/fleet/${id}`);
    // Exactly what the shared planner computes from the same files (the CLI and the page too).
    expect(plan).toEqual(fleetPlanOfInputs());

    // The known peaks: the under-provisioned gp3 is a risk, the io2 on an m5.large is held by the
    // instance's EBS IOPS cap, the volume without points is listed, not dropped.
    expect(volumeOf(plan, FLEET_VOLUMES.under)).toMatchObject({ status: 'under', risk: expect.any(String) });
    expect(volumeOf(plan, FLEET_VOLUMES.capped)).toMatchObject({
      instanceType: 'm5.large',
      binding: { id: 'instance-iops', explanation: expect.stringContaining('m5.large') },
    });
    expect(volumeOf(plan, FLEET_VOLUMES.over)).toMatchObject({ status: 'over' });
    expect(plan.noData).toEqual([
      expect.objectContaining({ volumeId: FLEET_VOLUMES.noData, status: 'no_data' }),
    ]);
    expect(plan.unused.map((u) => u.volumeId)).toEqual([FLEET_VOLUMES.unattached]);

    const read = await request(t.app).get(`/api/fleet/plans/${id}`);
    expect(read.status).toBe(200);
    expect(read.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const served = StoredFleetPlanResponseSchema.parse(read.body);
    expect(served).toEqual({
      id,
      url,
      createdAt: expect.any(String),
      analysisVersion: ANALYSIS_VERSION,
      plan,
    });
  });

  it('round-trips through the SQLite file: another store on the same database reads the same plan', async () => {
    const created = await request(t.app)
      .post('/api/fleet/plans')
      .send(body({ headroom: 0.5, statistic: 'p99' }));
    expect(created.status).toBe(201);
    const { id, plan } = CreatedFleetPlanSchema.parse(created.body);
    expect(plan).toMatchObject({ headroom: 0.5, statistic: 'p99' });
    const other = await openSqliteStore({ path: `${t.dir}/blockwise.db` });
    try {
      const stored = await other.getFleetPlan(id);
      expect(stored).toMatchObject({ id, analysisVersion: ANALYSIS_VERSION, priceDate: plan.priceDate });
      expect(stored?.plan).toEqual(plan);
    } finally {
      await other.close();
    }
  });

  it('takes a gzip body and works without describe-instances (no instance caps applied)', async () => {
    const { instances: _instances, ...withoutInstances } = body();
    const created = await request(t.app)
      .post('/api/fleet/plans')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize((bytes: unknown) => bytes as string)
      .send(gzipSync(JSON.stringify(withoutInstances)));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { plan } = CreatedFleetPlanSchema.parse(created.body);
    expect(volumeOf(plan, FLEET_VOLUMES.capped)).toMatchObject({ instanceType: null });
  });

  it.each([
    ['an unknown id', '/api/fleet/plans/AAAAAAAAAAAAAAAAAAAAAA'],
    ['a malformed id', '/api/fleet/plans/..%2F..%2Fetc'],
  ])('answers 404 fleet_plan_not_found for %s', async (_what, path) => {
    const res = await request(t.app).get(path);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('fleet_plan_not_found');
  });

  it('refuses to change a stored plan (405)', async () => {
    const res = await request(t.app).put('/api/fleet/plans/AAAAAAAAAAAAAAAAAAAAAA').send({});
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('POST /api/fleet/plans: ignoreRecurring, as `fleet plan --ignore-recurring`', () => {
  // fixtures/demand: 14 days of 5-minute Sums at ~1,300 IOPS, 8,200 IOPS daily 01:30–01:40 UTC.
  const nightly = (extra: Record<string, unknown>) => ({
    volumes: JSON.parse(fixture('demand/volumes_nightly.json').toString('utf8')) as unknown,
    metrics: [JSON.parse(fixture('demand/gmd_nightly_batch_14d.json').toString('utf8')) as unknown],
    headroom: 0.25,
    statistic: 'p99',
    ...extra,
  });
  const planOf = async (extra: Record<string, unknown>) => {
    const res = await request(t.app).post('/api/fleet/plans').send(nightly(extra));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return CreatedFleetPlanSchema.parse(res.body).plan;
  };

  it('absent or false: p99 keeps the nightly batch (≥ 8,200 × 1.25) and says it recurs', async () => {
    for (const extra of [{}, { ignoreRecurring: false }]) {
      const plan = await planOf(extra);
      const [v] = plan.volumes;
      expect(v?.target?.iops).toBeGreaterThanOrEqual(8_200 * 1.25);
      expect(v?.notes.join('\n')).toMatch(
        /recurring peak, max 4,100 IOPS at 01:30–01:40 UTC on 14 of 14 days/,
      );
      expect(plan.ignoreRecurring).not.toBe(true);
    }
  });

  it('true: sizes on p99 and states the risk next to it', async () => {
    const plan = await planOf({ ignoreRecurring: true });
    expect(plan.ignoreRecurring).toBe(true);
    const [v] = plan.volumes;
    expect(v?.target?.iops).toBeLessThan(1_800);
    expect(v?.notes.join('\n')).toMatch(
      /ignored as asked \(--ignore-recurring\): those peaks will be throttled/,
    );
  });

  it('audience web (the Fleet page’s save): the notes name the page’s option, not the flag', async () => {
    const plan = await planOf({ ignoreRecurring: true, audience: 'web' });
    const notes = plan.volumes.flatMap((v) => v.notes).join('\n');
    expect(notes).toMatch(
      /ignored as asked \(the “Ignore recurring peaks” option\): those peaks will be throttled/,
    );
    expect(notes).not.toContain('--ignore-recurring');
    const res = await request(t.app)
      .post('/api/fleet/plans')
      .send(nightly({ audience: 'browser' }));
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'body_invalid', path: 'audience' });
  });

  it('refuses a value that is not a boolean (422 body_invalid, naming the field)', async () => {
    const res = await request(t.app)
      .post('/api/fleet/plans')
      .send(nightly({ ignoreRecurring: 'yes' }));
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'body_invalid', path: 'ignoreRecurring' });
  });
});

describe('POST /api/fleet/plans: bad input is a 4xx with a stable code naming the field', () => {
  const badVolumes = { Volumes: [{ VolumeId: 'vol-1', Size: 'big', VolumeType: 'gp3', State: 'in-use' }] };
  const badLabel = {
    MetricDataResults: [{ Id: 'm1', Label: 'not a volume', Timestamps: [], Values: [] }],
  };
  it.each([
    ['volumes missing', { volumes: undefined }, 422, 'body_invalid', 'volumes'],
    ['no metrics file', { metrics: [] }, 422, 'body_invalid', 'metrics'],
    ['a negative headroom', { headroom: -0.1 }, 422, 'body_invalid', 'headroom'],
    ['an unknown statistic', { statistic: 'p50' }, 422, 'body_invalid', 'statistic'],
    ['a region that is no region code', { region: 'Europe' }, 422, 'body_invalid', 'region'],
    ['a region without prices', { region: 'xx-north-1' }, 422, 'region_unknown', 'region'],
    [
      'a describe-volumes size that is text',
      { volumes: badVolumes },
      422,
      'volumes_invalid',
      'volumes.Volumes.0.Size',
    ],
    [
      'a metric result whose label names no volume',
      { metrics: [fleetMetricsJson(), badLabel] },
      422,
      'metrics_invalid',
      'metrics.1.MetricDataResults.0.Label',
    ],
    [
      'describe-instances without a list',
      { instances: { Reservations: 'x' } },
      422,
      'instances_invalid',
      'instances.Reservations',
    ],
  ])('%s', async (_what, extra, status, code, path) => {
    const res = await request(t.app).post('/api/fleet/plans').send(body(extra));
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error).toMatchObject({ code, path });
    expect(res.body.error.message).toContain(path.split('.')[0]);
  });

  it('refuses a field it does not know (422 body_invalid, naming it)', async () => {
    const res = await request(t.app)
      .post('/api/fleet/plans')
      .send(body({ headrooom: 0.3 }));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('body_invalid');
    expect(res.body.error.message).toContain('headrooom');
  });

  it('refuses a body that is not JSON (400 invalid_json) or not sent as JSON (415)', async () => {
    const broken = await request(t.app)
      .post('/api/fleet/plans')
      .set('Content-Type', 'application/json')
      .send('{"volumes": ');
    expect(broken.status).toBe(400);
    expect(broken.body.error.code).toBe('invalid_json');
    const text = await request(t.app).post('/api/fleet/plans').set('Content-Type', 'text/plain').send('{}');
    expect(text.status).toBe(415);
    expect(text.body.error.code).toBe('unsupported_media_type');
  });
});

describe('POST /api/fleet/plans: limited like uploads', () => {
  it('refuses a body over the upload size limit (413) and a client over its upload rate (429)', async () => {
    const small = await makeTestApp({
      config: { maxUploadBytes: 64 * 1024 },
      rateLimits: { writesAnonymous: { name: 'uploads without a token', limit: 2, windowMs: 60_000 } },
    });
    try {
      const big = await request(small.app).post('/api/fleet/plans').send(body());
      expect(big.status).toBe(413);
      expect(big.body.error.code).toBe('payload_too_large');
      const small1 = await request(small.app)
        .post('/api/fleet/plans')
        .send({ volumes: { Volumes: [] }, metrics: [{ MetricDataResults: [] }] });
      expect(small1.status, JSON.stringify(small1.body)).toBe(201);
      const third = await request(small.app).post('/api/fleet/plans').send(body());
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('rate_limited');
      expect(third.headers['retry-after']).toBeDefined();
    } finally {
      await small.close();
    }
  });
});

describe('POST /api/fleet/plans: a token revoked while the plan is computed', () => {
  /** The real pool; `planned` runs after the worker planned, before the route stores the plan. */
  class PoolWithHook extends ParsePool {
    planned: () => Promise<void> = async () => {};
    override async planFleet(...args: Parameters<ParsePool['planFleet']>) {
      const result = await super.planFleet(...args);
      await this.planned();
      return result;
    }
  }

  it('is 401 and stores nothing (checked again in the insert’s transaction)', async () => {
    const pool = new PoolWithHook({ size: 1, maxQueue: 2, timeoutMs: 60_000 });
    const app = await makeTestApp({ pool });
    try {
      const token = generateToken();
      expect((await app.store.createToken({ name: 'ci', tokenSha256: hashToken(token) })).ok).toBe(true);
      const post = (payload: Record<string, unknown>) =>
        request(app.app).post('/api/fleet/plans').set('Authorization', `Bearer ${token}`).send(payload);
      const storedPlans = () => {
        const db = new Database(join(app.dir, 'blockwise.db'), { readonly: true });
        try {
          return db.prepare('SELECT id FROM fleet_plans').all();
        } finally {
          db.close();
        }
      };
      // Control: the same request with the token active is stored.
      const stored = await post(body());
      expect(stored.status).toBe(201);
      pool.planned = async () => {
        expect((await app.store.revokeToken({ name: 'ci' })).ok).toBe(true);
      };
      const revoked = await post(body({ headroom: 0.5 }));
      expect(revoked.status, JSON.stringify(revoked.body)).toBe(401);
      expect(revoked.body).toMatchObject({ error: { code: 'unauthorized' } });
      expect(revoked.headers['www-authenticate']).toMatch(/Bearer/);
      expect(storedPlans()).toEqual([{ id: stored.body.id }]);
    } finally {
      await app.close(); // closes the pool too
    }
  });
});

describe('POST /api/fleet/plans: bounded work, one plan per request (issue 24)', () => {
  /** describe-volumes of `n` minimal gp3 volumes (no points: each is planned as no_data). */
  const tinyVolumes = (n: number, id = (i: number) => `vol-${String(i).padStart(8, '0')}`) => ({
    Volumes: Array.from({ length: n }, (_, i) => ({
      VolumeId: id(i),
      Size: 8,
      VolumeType: 'gp3',
      State: 'in-use',
    })),
  });

  it('plans in the worker pool, not on the event loop', async () => {
    const before = t.ctx.pool.stats.jobs;
    const res = await request(t.app)
      .post('/api/fleet/plans')
      .send(body({ headroom: 0.3 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(t.ctx.pool.stats.jobs).toBe(before + 1);
  });

  it('the same body twice is the same plan: 201 then 200 with the same id; another body is another plan', async () => {
    const same = body({ headroom: 0.4 });
    const first = await request(t.app).post('/api/fleet/plans').send(same);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await request(t.app).post('/api/fleet/plans').send(same);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.plan).toEqual(first.body.plan);
    const other = await request(t.app)
      .post('/api/fleet/plans')
      .send(body({ headroom: 0.45 }));
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('a body posted again after an analysis version bump is a new plan; the one stored before is still served as stored', async () => {
    // The 2026.11.2 plan of a body, stored under the key 2026.11.2 gave it (what the archive holds
    // after an upgrade): the key includes the version, so today's POST does not replay it.
    const stored = JSON.parse(fixture('stored/fleet-plan-2026.11.2.json').toString('utf8')) as {
      analysisVersion: string;
      body: FleetPlan;
    };
    expect(stored.analysisVersion).not.toBe(ANALYSIS_VERSION);
    const same = body({ headroom: 0.35 });
    const key = fleetPlanIdempotencyKey(
      Buffer.from(JSON.stringify(same)),
      stored.analysisVersion,
      stored.body.priceDate,
    );
    const old = await t.ctx.store.insertFleetPlan(
      fleetPlanInsert(stored.body, { analysisVersion: stored.analysisVersion, key }),
    );
    expect(old.created).toBe(true);
    const posted = await request(t.app).post('/api/fleet/plans').send(same);
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body.id).not.toBe(old.plan.id);
    expect(posted.body.analysisVersion).toBe(ANALYSIS_VERSION);
    // Today's key for the same bytes replays today's plan, not the old one.
    const again = await request(t.app).post('/api/fleet/plans').send(same);
    expect([again.status, again.body.id]).toEqual([200, posted.body.id]);
    const read = await request(t.app).get(`/api/fleet/plans/${old.plan.id}`);
    expect(read.status).toBe(200);
    expect(StoredFleetPlanResponseSchema.parse(read.body)).toMatchObject({
      id: old.plan.id,
      analysisVersion: stored.analysisVersion,
      plan: stored.body,
    });
  });

  it.each([
    [
      'a volume id listed twice, naming it',
      { volumes: tinyVolumes(3, (i) => (i === 2 ? 'vol-00000000' : `vol-${String(i).padStart(8, '0')}`)) },
      422,
      'volumes_invalid',
      'volumes.Volumes.2.VolumeId',
      'vol-00000000',
    ],
    [
      'IOPS of 1e308 (was a 500: its cost was Infinity)',
      {
        volumes: {
          Volumes: [{ VolumeId: 'vol-1', Size: 8, VolumeType: 'gp3', State: 'in-use', Iops: 1e308 }],
        },
      },
      422,
      'volumes_invalid',
      'volumes.Volumes.0.Iops',
      'at most 80000 IOPS',
    ],
    [
      'gp3 at 1e20 IOPS (was stored at $5e17/month)',
      {
        volumes: {
          Volumes: [{ VolumeId: 'vol-1', Size: 8, VolumeType: 'gp3', State: 'in-use', Iops: 1e20 }],
        },
      },
      422,
      'volumes_invalid',
      'volumes.Volumes.0.Iops',
      'gp3',
    ],
    [
      'more volumes than one plan takes',
      { volumes: tinyVolumes(FLEET_REQUEST_LIMITS.maxVolumes + 1) },
      413,
      'too_many_volumes',
      'volumes.Volumes',
      '10,000',
    ],
    [
      'a metric point of 1e308',
      {
        metrics: [
          { MetricDataResults: [{ Id: 'm', Timestamps: ['2026-11-19T00:00:00Z'], Values: [1e308] }] },
        ],
      },
      422,
      'metrics_invalid',
      'metrics.0.MetricDataResults.0.Values.0',
      '1e+308',
    ],
  ])('refuses %s', async (_what, extra, status, code, path, says) => {
    const res = await request(t.app).post('/api/fleet/plans').send(body(extra));
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error).toMatchObject({ code, path });
    expect(res.body.error.message).toContain(says);
  });

  it('refuses a request whose plan would take more than 2 × its bytes + 64 KiB (volumes without points)', async () => {
    // 2,000 volumes of ~70 bytes each plan into ~1 KB each: the probe's 700,000 gave 508 MB from 51 MB.
    const res = await request(t.app)
      .post('/api/fleet/plans')
      .send({ volumes: tinyVolumes(2_000), metrics: [{ MetricDataResults: [] }] });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.code).toBe('fleet_plan_too_large');
    expect(res.body.error.message).toMatch(/more than 2 × the request \+ 65536/);
  });
});

describe('GET /api/fleet/plans/:id: the stored bytes, not a parse and re-serialization', () => {
  /** The answer's bytes as sent (supertest would inflate them), over a real socket. */
  const getRaw = async (id: string, acceptEncoding: string) => {
    const server = t.app.listen(0);
    try {
      await once(server, 'listening');
      const { port } = server.address() as AddressInfo;
      const res = await new Promise<IncomingMessage>((resolve, reject) =>
        get(
          { port, path: `/api/fleet/plans/${id}`, headers: { 'accept-encoding': acceptEncoding } },
          resolve,
        ).on('error', reject),
      );
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      return { res: { status: res.statusCode, headers: res.headers }, bytes: Buffer.concat(chunks) };
    } finally {
      server.close();
    }
  };

  it('to a client that accepts gzip: the stored deflate data verbatim inside one valid gzip member', async () => {
    const created = await request(t.app)
      .post('/api/fleet/plans')
      .send(body({ headroom: 0.6 }));
    expect(created.status).toBe(201);
    const { id, plan } = CreatedFleetPlanSchema.parse(created.body);
    const stored = await t.ctx.store.getFleetPlanDocument(id);
    if (!stored || !('gzip' in stored.body)) return expect.fail('expected a gzip body');
    const { res, bytes } = await getRaw(id, 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(Number(res.headers['content-length'])).toBe(bytes.length);
    // The stored deflate data (between its 10-byte header and its final empty block + trailer) is
    // sent as it is: nothing was inflated or compressed again.
    const storedDeflate = Buffer.from(stored.body.gzip).subarray(10, -10);
    expect(bytes.indexOf(storedDeflate)).toBeGreaterThan(10);
    // gunzip checks the spliced CRC-32 and length.
    const served = StoredFleetPlanResponseSchema.parse(JSON.parse(gunzipSync(bytes).toString('utf8')));
    expect(served).toEqual({
      id,
      url: `/fleet/${id}`,
      createdAt: expect.any(String),
      analysisVersion: ANALYSIS_VERSION,
      plan,
    });
  });

  it.each(['identity', 'gzip;q=0', 'gzip;q=0, *'])(
    'to a client that does not (Accept-Encoding: %s): the stored gzip inflated as a stream, with its exact length',
    async (accept) => {
      const created = await request(t.app)
        .post('/api/fleet/plans')
        .send(body({ headroom: 0.7 }));
      const { id, plan } = CreatedFleetPlanSchema.parse(created.body);
      const { res, bytes } = await getRaw(id, accept);
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Number(res.headers['content-length'])).toBe(bytes.length);
      expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({
        id,
        analysisVersion: ANALYSIS_VERSION,
        plan,
      });
    },
  );
});

describe('GET /api/fleet/plans/:id of a row whose body_size is wrong', () => {
  /** The bytes a client received before the connection ended, and whether the transfer completed. */
  const getPartial = async (app: TestApp['app'], id: string) => {
    const server = app.listen(0);
    try {
      await once(server, 'listening');
      const { port } = server.address() as AddressInfo;
      const res = await new Promise<IncomingMessage>((resolve, reject) =>
        get({ port, path: `/api/fleet/plans/${id}`, headers: { 'accept-encoding': 'identity' } }, resolve).on(
          'error',
          reject,
        ),
      );
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of res) chunks.push(chunk as Buffer);
      } catch {
        // the server ended the connection: what arrived is the answer
      }
      return { res, bytes: Buffer.concat(chunks) };
    } finally {
      server.close();
    }
  };

  it.each([
    ['larger than the plan (the client would wait for bytes that never come)', 1000],
    ['smaller than the plan (the client would read a cut plan as the whole)', -1000],
  ])('%s: the transfer ends short of Content-Length, and the mismatch is logged', async (_, delta) => {
    const logs: string[] = [];
    const logger = pino({ level: 'error' }, { write: (line: string) => void logs.push(line) });
    const app = await makeTestApp({ logger });
    try {
      const created = await request(app.app)
        .post('/api/fleet/plans')
        .send(body({ headroom: 0.55 }));
      const { id } = CreatedFleetPlanSchema.parse(created.body);
      // The table is append-only (a trigger refuses UPDATE): this test stands in for a corrupt row.
      const db = new Database(join(app.dir, 'blockwise.db'));
      db.exec('DROP TRIGGER fleet_plans_no_update');
      db.prepare('UPDATE fleet_plans SET body_size = body_size + ? WHERE id = ?').run(delta, id);
      db.close();
      const { res, bytes } = await getPartial(app.app, id);
      expect(res.statusCode).toBe(200);
      expect(res.complete).toBe(false);
      expect(bytes.length).toBeLessThan(Number(res.headers['content-length']));
      expect(logs.join('')).toMatch(/inflates to .* not its stored body_size/);
    } finally {
      await app.close();
    }
  });
});

describe('crc32Combine (zlib crc32_combine)', () => {
  it.each([
    ['', 'abc'],
    ['{"id":"x","plan":', '{"volumes":[]}'],
    ['a', 'x'.repeat(100_003)],
  ])('CRC-32(%j ‖ B) from the parts', (a, b) => {
    const joined = crc32(Buffer.from(a + b));
    expect(crc32Combine(crc32(Buffer.from(a)), crc32(Buffer.from(b)), Buffer.byteLength(b))).toBe(joined);
  });
});

describe('ParsePool.planFleet', () => {
  it('moves the request body to the worker instead of copying it, and plans it there', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 1, timeoutMs: 60_000 });
    try {
      const bytes = Buffer.from(JSON.stringify(body()));
      const length = bytes.length;
      expect(length).toBeGreaterThan(8 * 1024); // its own ArrayBuffer, not a slice of Node's pool
      const planned = await pool.planFleet(bytes);
      expect(bytes.buffer.byteLength).toBe(0); // detached: transferred, not cloned
      if (!planned.ok) return expect.fail(JSON.stringify(planned.problem));
      expect(JSON.parse(gunzipSync(planned.document.gzip).toString('utf8'))).toEqual(fleetPlanOfInputs());
      expect(planned.document.bytes).toBeGreaterThan(0);
      expect(length).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });
});

describe('POST /api/fleet/plans with AWS evidence metrics (issue 28: fixtures/fleet-evidence)', () => {
  const evidenceBody = () => ({
    volumes: JSON.parse(fixture('fleet-evidence/volumes.json').toString('utf8')) as unknown,
    instances: JSON.parse(fixture('fleet-evidence/instances.json').toString('utf8')) as unknown,
    metrics: [JSON.parse(fixture('fleet-evidence/metrics.json').toString('utf8')) as unknown],
    headroom: 0.25,
    statistic: 'max',
    region: 'us-east-1',
  });

  it('plans them in the worker pool: the pinned volume’s 415 minutes, one binding limit confirmed, one contradicted, no data kept as no data', async () => {
    const before = t.ctx.pool.stats.jobs;
    const res = await request(t.app).post('/api/fleet/plans').send(evidenceBody());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(t.ctx.pool.stats.jobs).toBe(before + 1);
    const { plan } = CreatedFleetPlanSchema.parse(res.body);
    const pinned = volumeOf(plan, 'vol-0pinned') as FleetPlan['volumes'][number];
    expect(pinned.status).toBe('under');
    expect(pinned.risk).toContain('demand above the limit for 415 minutes');
    expect((volumeOf(plan, 'vol-0confirmed') as FleetPlan['volumes'][number]).evidence!.bindingCheck).toBe(
      'confirmed',
    );
    const contra = volumeOf(plan, 'vol-0contra') as FleetPlan['volumes'][number];
    expect(contra.evidence).toMatchObject({ bindingCheck: 'contradicted', modelBinding: 'volume-iops' });
    expect(contra.binding!.id).toBe('instance-iops');
    expect(
      (volumeOf(plan, 'vol-0quiet') as FleetPlan['volumes'][number]).evidence!.throttledMinutes,
    ).toBeNull();
    // Served as stored.
    const got = await request(t.app).get(`/api/fleet/plans/${CreatedFleetPlanSchema.parse(res.body).id}`);
    expect(got.status).toBe(200);
    expect(got.body.plan).toEqual(plan);
  });

  it('refuses a check value above its period’s minutes (422 metrics_invalid, naming the point)', async () => {
    const b = evidenceBody();
    const m = b.metrics[0] as { MetricDataResults: { Label: string; Values: number[] }[] };
    const r = m.MetricDataResults.findIndex((x) => x.Label === 'vol-0pinned VolumeIOPSExceededCheck');
    m.MetricDataResults[r]!.Values[0] = 9;
    const res = await request(t.app).post('/api/fleet/plans').send(b);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('metrics_invalid');
    expect(res.body.error.message).toContain(`MetricDataResults.${r}.Values.0: VolumeIOPSExceededCheck`);
  });
});
