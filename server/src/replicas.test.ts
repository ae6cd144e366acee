/**
 * State that survives replicas (issue 12): two app instances on one PostgreSQL archive, as two
 * `blockwise serve` replicas behind a load balancer. Skipped without a reachable server unless
 * BLOCKWISE_REQUIRE_PG=1 (CI), like the store's own PostgreSQL tests.
 */
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { CreatedRunSchema, RunRegressionSchema } from '@blockwise/shared/api';
import type { CreateAppOptions } from './app.ts';
import type { RunStore } from './store/run-store.ts';
import { pgArchive, type PgArchive } from './testing/pg-archive.ts';
import { readOnlyStore } from './testing/read-only-store.ts';
import { fixture, makeTestApp, type TestApp } from './testing/test-app.ts';

const BODY = fixture('fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');

type Replicas = { archive: PgArchive; a: TestApp; b: TestApp };
const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** A fresh archive with two replicas on it, or null (skip) without a PostgreSQL server. */
async function replicas(options: Partial<CreateAppOptions> = {}): Promise<Replicas | null> {
  const archive = await pgArchive();
  if (!archive) return null;
  opened.push(() => archive.drop());
  const app = async () => {
    const store = await archive.open();
    const t = await makeTestApp({ ...options, store });
    opened.push(async () => {
      await t.close();
      await store.close();
    });
    return t;
  };
  return { archive, a: await app(), b: await app() };
}

function upload(t: TestApp, labels: Record<string, string>) {
  return request(t.app)
    .post(`/api/runs?${new URLSearchParams(labels)}`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(BODY as unknown as string);
}

async function uploaded(t: TestApp, labels: Record<string, string>): Promise<string> {
  const res = await upload(t, labels);
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  return CreatedRunSchema.parse(res.body).id;
}

async function regression(t: TestApp, id: string) {
  const res = await request(t.app).get(`/api/runs/${id}/regression`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return RunRegressionSchema.parse(res.body);
}

const main = (i: number) => ({ series: 'pg-data', branch: 'main', commit: `c0ffee${i}` });
const feature = { series: 'pg-data', branch: 'feature/x', baseBranch: 'main', commit: 'feed01' };

/** Rows per table, to show a request wrote nothing. */
async function rowCounts(archive: PgArchive): Promise<Record<string, unknown>> {
  const [row] = await archive.sql(`SELECT
    (SELECT count(*) FROM runs)::int AS runs,
    (SELECT count(*) FROM comparisons)::int AS comparisons,
    (SELECT count(*) FROM series_settings)::int AS series_settings,
    (SELECT count(*) FROM series_stats)::int AS series_stats`);
  return row ?? {};
}

describe('two replicas on one PostgreSQL archive', () => {
  it('make one baseline comparison per [baseline, run] pair, whichever gets the upload and the openings of its link', async (context) => {
    const r = await replicas();
    if (!r) return context.skip();
    const { archive, a, b } = r;
    await uploaded(a, main(1));
    const baseline = await uploaded(b, main(2));
    // CI retries an upload that timed out, and the load balancer sends each try elsewhere.
    const [first, second] = await Promise.all([upload(a, feature), upload(b, feature)]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    const run = CreatedRunSchema.parse(first.body).id;
    expect(CreatedRunSchema.parse(second.body).id).toBe(run);

    const checks = await Promise.all([a, b, a, b].map((t) => regression(t, run)));
    const link = `/c/pair/${baseline}/${run}`;
    for (const check of checks) expect(check.comparisonUrl).toBe(link);
    // Reviewers open the link at once, each request on another replica.
    const openings = await Promise.all([a, b, a, b].map((t) => request(t.app).get(link)));
    expect(openings.map((o) => o.status)).toEqual([303, 303, 303, 303]);
    const frozen = openings[0]!.headers.location as string;
    for (const o of openings) expect(o.headers.location).toBe(frozen);
    for (const t of [a, b]) expect((await regression(t, run)).comparisonUrl).toBe(frozen);
    const pairs = await archive.sql(
      `SELECT id FROM comparisons WHERE run_ids = '${JSON.stringify([baseline, run])}'::jsonb`,
    );
    expect(pairs).toEqual([{ id: frozen.split('/c/')[1] }]);
  });

  it('answer GET /api/runs/:id/regression without writing anything', async (context) => {
    const r = await replicas();
    if (!r) return context.skip();
    const { archive, a, b } = r;
    await uploaded(a, main(1));
    await uploaded(a, main(2));
    const run = await uploaded(b, feature);
    const before = await rowCounts(archive);
    const reports = [];
    for (const t of [a, b, b, a]) reports.push(await regression(t, run));
    expect(await rowCounts(archive)).toEqual(before);

    // A replica whose store fails every write answers the same report.
    const store: RunStore = await archive.open();
    const spy = readOnlyStore(store);
    const readOnly = await makeTestApp({ store: spy.store });
    opened.push(async () => {
      await readOnly.close();
      await store.close();
    });
    expect(await regression(readOnly, run)).toEqual(reports[0]);
    expect(spy.writes).toEqual([]);
  });

  it('share the anonymous upload limit: limit 3 → the 4th upload across both is 429', async (context) => {
    const r = await replicas({
      rateLimits: { writesAnonymous: { name: 'uploads without a token', limit: 3, windowMs: 60_000 } },
    });
    if (!r) return context.skip();
    const { a, b } = r;
    const statuses = [];
    for (const [i, t] of [a, b, a, b, a].entries())
      statuses.push((await upload(t, { name: `u${i}` })).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });
});
