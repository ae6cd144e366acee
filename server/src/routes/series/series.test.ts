import request from 'supertest';
import { describe, expect, it } from 'vitest';
import {
  ErrorResponseSchema,
  RunListSchema,
  RunRegressionSchema,
  SeriesSettingsSchema,
} from '@blockwise/shared/api';
import { generateToken, hashToken } from '../../http/auth.ts';
import { MANY_UPLOADS, fixture, makeTestApp, testAppPerFile } from '../../testing/test-app.ts';
import { MAIN_NOISE, rescaleFio, type Rescale } from '../../testing/noisy-fio.ts';

const job = fixture('fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');

const t = testAppPerFile({ rateLimits: MANY_UPLOADS });

const expectError = (res: request.Response, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = ErrorResponseSchema.parse(res.body);
  expect(body.error.code).toBe(code);
  return body.error;
};

async function upload(labels: Record<string, string>, noise: Rescale = MAIN_NOISE[0]!): Promise<string> {
  const res = await request(t.app)
    .post(`/api/runs?${new URLSearchParams(labels)}`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(rescaleFio(job, noise));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

describe('GET/PUT /api/series/:series/settings', () => {
  it('an unknown series has the defaults, not an error', async () => {
    const res = await request(t.app).get('/api/series/never-seen/settings');
    expect(res.status).toBe(200);
    expect(SeriesSettingsSchema.parse(res.body)).toEqual({
      series: 'never-seen',
      stored: false,
      updatedAt: null,
      config: {
        baseBranch: 'main',
        baselineRuns: 5,
        minBaselineRuns: 3,
        method: 'percent',
        sigmaK: 3,
        thresholds: { iops: 10, throughput: 10, latency: 20 },
        ignoreMetrics: [],
      },
    });
  });

  it('PUT stores what was sent; GET answers it with the defaults filled in', async () => {
    const put = await request(t.app)
      .put('/api/series/team%2Fpg-data/settings')
      .send({ baseBranch: 'develop', method: 'minmax', thresholds: { latency: 30 } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const got = SeriesSettingsSchema.parse(
      (await request(t.app).get('/api/series/team%2Fpg-data/settings')).body,
    );
    expect(got).toMatchObject({
      series: 'team/pg-data',
      stored: true,
      config: {
        baseBranch: 'develop',
        method: 'minmax',
        thresholds: { iops: 10, throughput: 10, latency: 30 },
      },
    });
    expect(Date.parse(got.updatedAt!)).not.toBeNaN();
    expect((await t.store.getSeriesSettings('team/pg-data'))!.config).toEqual({
      baseBranch: 'develop',
      method: 'minmax',
      thresholds: { latency: 30 },
    });
  });

  it.each([
    [{ baselineRuns: 2, minBaselineRuns: 3 }, 'minBaselineRuns'],
    [{ thresholds: { latency: -5 } }, 'thresholds.latency'],
    [{ method: 'median' }, 'method'],
    [{ ignoreMetrics: ['read.iopz'] }, 'ignoreMetrics.0'],
    [{ threshold: 5 }, undefined],
    [[1, 2], undefined],
  ])('422 body_invalid for %j (path %s)', async (body, path) => {
    const err = expectError(
      await request(t.app).put('/api/series/bad-input/settings').send(body),
      422,
      'body_invalid',
    );
    expect(err.path).toBe(path);
    expect(await t.store.getSeriesSettings('bad-input')).toBeNull();
  });

  it('415 for a body that is not JSON, 400 for broken JSON', async () => {
    expectError(
      await request(t.app)
        .put('/api/series/x/settings')
        .set('Content-Type', 'text/plain')
        .send('method=minmax'),
      415,
      'unsupported_media_type',
    );
    expectError(
      await request(t.app)
        .put('/api/series/x/settings')
        .set('Content-Type', 'application/json')
        .send('{"method":'),
      400,
      'body_invalid',
    );
  });

  it('400 query_invalid for a name the series label would refuse', async () => {
    expect(
      expectError(await request(t.app).get('/api/series/no%20spaces!/settings'), 400, 'query_invalid').path,
    ).toBe('series');
  });

  it('405 for DELETE, with Allow', async () => {
    const res = await request(t.app).delete('/api/series/x/settings');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD, PUT');
  });

  it('writing needs a CI token once tokens exist; reading stays public', async () => {
    // An archive of its own: once it has held a token it stays closed (revoking does not re-open it).
    const own = await makeTestApp();
    const token = generateToken();
    await own.store.createToken({ name: 'series-settings', tokenSha256: hashToken(token) });
    try {
      expectError(
        await request(own.app).put('/api/series/guarded/settings').send({ baselineRuns: 8 }),
        401,
        'unauthorized',
      );
      const ok = await request(own.app)
        .put('/api/series/guarded/settings')
        .set('Authorization', `Bearer ${token}`)
        .send({ baselineRuns: 8 });
      expect(ok.status).toBe(200);
      const read = await request(own.app).get('/api/series/guarded/settings');
      expect(read.status).toBe(200);
      expect(read.body.config.baselineRuns).toBe(8);
      // History and regression reports list other runs: like GET /api/runs, they need the token.
      expectError(await request(own.app).get('/api/series/guarded/runs'), 401, 'unauthorized');
    } finally {
      await own.close();
    }
  });
});

describe('GET /api/series/:series/runs', () => {
  it('an unknown series is an empty history', async () => {
    const res = await request(t.app).get('/api/series/nobody-uploaded-this/runs');
    expect(res.status).toBe(200);
    expect(RunListSchema.parse(res.body)).toEqual({ items: [], nextCursor: null });
  });

  it('filters by branch and pages with `before`', async () => {
    const main = [await upload({ series: 'paged', branch: 'main' }, MAIN_NOISE[1])];
    const other = await upload({ series: 'paged', branch: 'feature/y' }, MAIN_NOISE[2]);
    main.push(await upload({ series: 'paged', branch: 'main' }, MAIN_NOISE[3]));
    const page = RunListSchema.parse(
      (await request(t.app).get('/api/series/paged/runs?branch=main&limit=1')).body,
    );
    expect(page.items.map((i) => i.id)).toEqual([main[1]]);
    const next = RunListSchema.parse(
      (await request(t.app).get(`/api/series/paged/runs?branch=main&limit=1&before=${page.nextCursor}`)).body,
    );
    expect(next.items.map((i) => i.id)).toEqual([main[0]]);
    const all = RunListSchema.parse((await request(t.app).get('/api/series/paged/runs')).body);
    expect(all.items.map((i) => i.id)).toEqual([main[1], other, main[0]]);
    expect(all.items[0]!.url).toMatch(new RegExp(`/runs/${main[1]}$`));
  });

  it.each([
    ['limit=0', 'query_invalid', 'limit'],
    ['limit=201', 'query_invalid', 'limit'],
    ['before=not-a-cursor', 'invalid_cursor', 'before'],
  ])('400 for %s', async (query, code, path) => {
    expect(expectError(await request(t.app).get(`/api/series/paged/runs?${query}`), 400, code).path).toBe(
      path,
    );
  });
});

describe('GET /api/runs/:id/regression', () => {
  it('404 for unknown and malformed ids', async () => {
    expectError(
      await request(t.app).get('/api/runs/AAAAAAAAAAAAAAAAAAAAAA/regression'),
      404,
      'run_not_found',
    );
    expectError(await request(t.app).get('/api/runs/nope/regression'), 404, 'run_not_found');
  });

  it('follows the series settings: baseline size, minimum, method', async () => {
    const ids: string[] = [];
    for (const noise of MAIN_NOISE.slice(0, 4))
      ids.push(await upload({ series: 'tuned', branch: 'main' }, noise));
    const feature = await upload({ series: 'tuned', branch: 'feature/z' }, { throughput: 0.92, latency: 1 });
    // Defaults: percent, 10 % → -8 % passes against the 4 main runs.
    const before = RunRegressionSchema.parse(
      (await request(t.app).get(`/api/runs/${feature}/regression`)).body,
    );
    expect(before).toMatchObject({ verdict: 'pass', method: 'percent' });
    expect(before.baselineRunIds).toEqual(ids.slice().reverse());
    await request(t.app)
      .put('/api/series/tuned/settings')
      .send({ baselineRuns: 2, minBaselineRuns: 2, method: 'minmax', thresholds: { iops: 2, throughput: 2 } })
      .expect(200);
    // The last two main runs (0.975, 1.025): -8 % is 5.6 % under their minimum.
    const after = RunRegressionSchema.parse(
      (await request(t.app).get(`/api/runs/${feature}/regression`)).body,
    );
    expect(after).toMatchObject({ verdict: 'regression', method: 'minmax', minBaselineRuns: 2 });
    expect(after.baselineRunIds).toEqual([ids[3], ids[2]]);
    expect(after.metrics.find((m) => m.metric === 'read.iops')!.verdict).toBe('regression');
  });

  it('a run with its own baseBranch label is compared with that branch', async () => {
    for (const noise of MAIN_NOISE.slice(0, 3)) await upload({ series: 'rel', branch: 'release-7' }, noise);
    const hotfix = await upload(
      { series: 'rel', branch: 'hotfix/a', baseBranch: 'release-7' },
      { throughput: 0.5 },
    );
    const r = RunRegressionSchema.parse((await request(t.app).get(`/api/runs/${hotfix}/regression`)).body);
    expect(r).toMatchObject({ verdict: 'regression', baseBranch: 'release-7' });
    expect(r.baselineRunIds).toHaveLength(3);
  });

  it('settings stored by another version that no longer validate: defaults, and a note says so', async () => {
    for (const noise of MAIN_NOISE.slice(0, 3)) await upload({ series: 'legacy', branch: 'main' }, noise);
    await t.store.putSeriesSettings('legacy', { method: 'bayesian' });
    const id = await upload({ series: 'legacy', branch: 'feature/q' });
    const r = RunRegressionSchema.parse((await request(t.app).get(`/api/runs/${id}/regression`)).body);
    expect(r.verdict).toBe('pass');
    expect(r.method).toBe('percent');
    expect(r.notes.at(-1)).toMatch(
      /^the stored series settings do not validate \(method: .*\); the defaults were used$/,
    );
  });

  it('405 for POST', async () => {
    const res = await request(t.app).post('/api/runs/AAAAAAAAAAAAAAAAAAAAAA/regression');
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('OpenAPI', () => {
  it('documents the series endpoints and their schemas', async () => {
    const doc = (await request(t.app).get('/api/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/series/{series}/settings',
        '/api/series/{series}/runs',
        '/api/runs/{id}/regression',
      ]),
    );
    expect(
      doc.paths['/api/series/{series}/settings'].put.requestBody.content['application/json'].schema,
    ).toEqual({
      $ref: '#/components/schemas/SeriesConfigInput',
    });
    expect(doc.components.schemas.SeriesConfigInput.properties.method.enum).toEqual([
      'percent',
      'minmax',
      'sigma',
    ]);
    expect(doc.components.schemas.RunRegression.properties.verdict.enum).toEqual([
      'pass',
      'regression',
      'insufficient-history',
      'no-base',
    ]);
  });
});
