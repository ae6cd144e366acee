/**
 * GET /api/series (the series with their counts, for the web's CI history page) and the
 * regression check's link to the comparison with its baseline: the check only reads; the link
 * freezes the comparison when it is first opened (issue 12; issue 24, 2026-11-29).
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema, RunRegressionSchema, SeriesListSchema } from '@blockwise/shared/api';
import { generateToken, hashToken } from '../../http/auth.ts';
import { readOnlyStore } from '../../testing/read-only-store.ts';
import { MANY_UPLOADS, fixture, makeTestApp, type TestApp } from '../../testing/test-app.ts';
import { smallRunInput } from '../../store/testing/run-inputs.ts';

const BODY = fixture('fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');
async function upload(t: TestApp, labels: Record<string, string>): Promise<string> {
  const res = await request(t.app)
    .post(`/api/runs?${new URLSearchParams(labels)}`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(BODY as unknown as string);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function regression(t: TestApp, id: string) {
  const res = await request(t.app).get(`/api/runs/${id}/regression`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return RunRegressionSchema.parse(res.body);
}

describe('GET /api/series', () => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await makeTestApp({ rateLimits: MANY_UPLOADS });
    ids.db1 = await upload(t, { series: 'db', branch: 'main', commit: 'aaa1' });
    ids.web1 = await upload(t, { series: 'team/web', branch: 'main', commit: 'bbb1' });
    ids.db2 = await upload(t, { series: 'db', branch: 'pr-7', commit: 'aaa2' });
    ids.db3 = await upload(t, { series: 'db', branch: 'main', commit: 'aaa3' });
    ids.none = await upload(t, { name: 'ad hoc' });
    ids.logs = await upload(t, { series: 'logs' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists each series once, most recently active first, with run and branch counts and its latest run', async () => {
    const res = await request(t.app).get('/api/series');
    expect(res.status).toBe(200);
    const body = SeriesListSchema.parse(res.body);
    expect(body.items.map((s) => [s.series, s.runCount, s.branchCount, s.latestRun.id])).toEqual([
      ['logs', 1, 0, ids.logs],
      ['db', 3, 2, ids.db3],
      ['team/web', 1, 1, ids.web1],
    ]);
    expect(body.items[1]!.latestRun).toMatchObject({
      url: `/runs/${ids.db3}`,
      labels: { series: 'db', branch: 'main', commit: 'aaa3' },
    });
    expect(body.items[1]!.latestRun.headline.readIops).toBeGreaterThan(0);
    expect(body.nextCursor).toBeNull();
  });

  it('pages with limit and cursor; refuses a bad limit or cursor', async () => {
    const first = SeriesListSchema.parse((await request(t.app).get('/api/series?limit=2')).body);
    expect(first.items.map((s) => s.series)).toEqual(['logs', 'db']);
    const next = SeriesListSchema.parse(
      (await request(t.app).get(`/api/series?limit=2&cursor=${first.nextCursor}`)).body,
    );
    expect(next.items.map((s) => s.series)).toEqual(['team/web']);
    expect(next.nextCursor).toBeNull();
    for (const [query, code] of [
      ['limit=0', 'query_invalid'],
      ['limit=201', 'query_invalid'],
      ['cursor=nope', 'invalid_cursor'],
    ]) {
      const res = await request(t.app).get(`/api/series?${query}`);
      expect(res.status, query).toBe(400);
      expect(ErrorResponseSchema.parse(res.body).error.code).toBe(code);
    }
  });

  it('is read-only (405 otherwise), and needs a CI token once the archive requires one, like the other listings', async () => {
    const post = await request(t.app).post('/api/series').send({});
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');

    const own = await makeTestApp();
    try {
      const token = generateToken();
      await own.store.createToken({ name: 'ci', tokenSha256: hashToken(token) });
      expect((await request(own.app).get('/api/series')).status).toBe(401);
      const ok = await request(own.app).get('/api/series').set('Authorization', `Bearer ${token}`);
      expect(ok.status).toBe(200);
      expect(SeriesListSchema.parse(ok.body).items).toEqual([]);
    } finally {
      await own.close();
    }
  });
});

describe('the regression check only reads; the comparison it links is frozen when the link is opened', () => {
  it('a check served by a store that fails every write: the pair’s link before it is opened, the frozen comparison after', async () => {
    const t = await makeTestApp({ rateLimits: MANY_UPLOADS });
    try {
      await upload(t, { series: 's', branch: 'main', commit: 'ccc1' });
      const baseline = await upload(t, { series: 's', branch: 'main', commit: 'ccc2' });
      const run = await upload(t, { series: 's', branch: 'feature', baseBranch: 'main', commit: 'fff1' });
      expect(await t.store.findPairComparisons([baseline, run])).toEqual([]);

      const spy = readOnlyStore(t.store);
      const readOnly = await makeTestApp({ store: spy.store, dir: t.dir });
      try {
        const before = await regression(readOnly, run);
        expect(before.comparisonUrl).toBe(`/c/pair/${baseline}/${run}`);
        expect(before.baselineRunIds[0]).toBe(baseline);
        const opened = await request(t.app).get(before.comparisonUrl!).expect(303);
        const frozen = (await t.store.findPairComparisons([baseline, run]))[0];
        expect(opened.headers.location).toBe(`/c/${frozen!.id}`);
        expect((await regression(readOnly, run)).comparisonUrl).toBe(`/c/${frozen!.id}`);
        expect(spy.writes).toEqual([]);
      } finally {
        await readOnly.close({ keepDir: true });
      }
    } finally {
      await t.close();
    }
  });

  it('after the settings change the baseline, the check links the new pair and the old link is 404; a run with no baseline has no link', async () => {
    const t = await makeTestApp({ rateLimits: MANY_UPLOADS });
    try {
      const main = await upload(t, { series: 's', branch: 'main', commit: 'ccc1' });
      const develop = await upload(t, { series: 's', branch: 'develop', commit: 'ddd1' });
      const run = await upload(t, { series: 's', branch: 'feature', commit: 'fff1' });
      const oldLink = (await regression(t, run)).comparisonUrl;
      expect(oldLink).toBe(`/c/pair/${main}/${run}`);

      const put = await request(t.app).put('/api/series/s/settings').send({ baseBranch: 'develop' });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
      await t.store.insertRun(smallRunInput({ series: 'other' }));

      const spy = readOnlyStore(t.store);
      const readOnly = await makeTestApp({ store: spy.store, dir: t.dir });
      try {
        const report = await regression(readOnly, run);
        expect(report.baseBranch).toBe('develop');
        expect(report.comparisonUrl).toBe(`/c/pair/${develop}/${run}`);
        expect(report.notes.join('\n')).not.toMatch(/no comparison link/);
        expect((await regression(readOnly, develop)).comparisonUrl).toBeNull(); // the first of its branch
        expect(spy.writes).toEqual([]);
      } finally {
        await readOnly.close({ keepDir: true });
      }
      // (A 404 counts against the unknown-id rate limit, a write: asked of the app that writes.)
      const gone = await request(t.app).get(oldLink!).expect(404);
      expect(gone.body.error.message).toContain('is not the latest baseline');
      expect(gone.text).not.toContain(develop);
      expect(await t.store.findPairComparisons([main, run])).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
