import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ComparisonSchema,
  CreatedRunSchema,
  ErrorResponseSchema,
  RunRegressionSchema,
  RunSchema,
  type RunRegression,
} from '@blockwise/shared/api';
import { MANY_UPLOADS, fixture, testAppPerFile } from '../../testing/test-app.ts';
import { DEGRADED, MAIN_NOISE, rescaleFio, type Rescale } from '../../testing/noisy-fio.ts';

/**
 * The CI story end to end, over HTTP on a real SQLite archive: a series accumulates main-branch
 * runs of one real fio job (re-measured with a few percent of noise), then two feature branches
 * upload — one healthy, one on a degraded volume — and the gate flags exactly the degraded one.
 */

const JOB = 'fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json';
const original = fixture(JOB);
const SERIES = 'pg-data-volume';
const VOLUME = {
  kind: 'ebs',
  instanceType: 'r6i.4xlarge',
  volumeType: 'gp3',
  volumeSizeGiB: '1000',
  volumeIops: '16000',
  volumeThroughputMiBps: '1000',
};

const t = testAppPerFile({ rateLimits: MANY_UPLOADS });

async function upload(rescale: Rescale, labels: Record<string, string>): Promise<string> {
  const res = await request(t.app)
    .post(`/api/runs?${new URLSearchParams(labels)}`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(rescaleFio(original, rescale));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return CreatedRunSchema.parse(res.body).id;
}

async function regression(id: string): Promise<RunRegression> {
  const res = await request(t.app).get(`/api/runs/${id}/regression`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return RunRegressionSchema.parse(res.body);
}

const metric = (r: RunRegression, id: string) => r.metrics.find((m) => m.metric === id)!;

describe('a series on main, a healthy and a degraded feature branch', () => {
  const main: string[] = [];
  const mainReports: RunRegression[] = [];
  let healthy: string;
  let degraded: string;

  beforeAll(async () => {
    for (const [i, noise] of MAIN_NOISE.entries()) {
      const id = await upload(noise, { ...VOLUME, series: SERIES, branch: 'main', commit: `c0ffee${i}0` });
      main.push(id);
      // Checked right after its upload, as CI does: each main run against the main runs before it.
      mainReports.push(await regression(id));
    }
    healthy = await upload(
      { throughput: 1.01, latency: 0.99 },
      { ...VOLUME, series: SERIES, branch: 'feature/kernel-6.8', baseBranch: 'main', commit: 'feed0001' },
    );
    degraded = await upload(DEGRADED, {
      ...VOLUME,
      series: SERIES,
      branch: 'feature/xfs-nobarrier',
      baseBranch: 'main',
      commit: 'dead0001',
    });
  });

  it('the rescaled uploads parse like the original (same block sizes, scaled IOPS and latency)', async () => {
    const run = RunSchema.parse((await request(t.app).get(`/api/runs/${degraded}`)).body);
    const base = RunSchema.parse((await request(t.app).get(`/api/runs/${main[0]}`)).body);
    const h = run.summary.headline;
    const b = base.summary.headline;
    expect(b.readIops).toBeCloseTo(10267.013091, 4); // main[0] is the fixture unchanged
    expect(h.readIops / b.readIops).toBeCloseTo(0.7, 6);
    expect(h.writeBytesPerSec / b.writeBytesPerSec).toBeCloseTo(0.7, 6);
    expect(h.readBlockSizeBytes! / b.readBlockSizeBytes!).toBeCloseTo(1, 4);
    expect(h.readClatMs!['99']! / b.readClatMs!['99']!).toBeCloseTo(1.6, 4);
  });

  it('main builds: insufficient history for the first three, then pass', () => {
    expect(mainReports.map((r) => r.verdict)).toEqual([
      'insufficient-history',
      'insufficient-history',
      'insufficient-history',
      'pass',
      'pass',
      'pass',
    ]);
    expect(mainReports.map((r) => r.baselineRunIds.length)).toEqual([0, 1, 2, 3, 4, 5]);
    // The run itself is never in its own baseline; the one before it always is.
    for (const [i, r] of mainReports.entries()) {
      expect(r.baselineRunIds).not.toContain(main[i]);
      if (i > 0) expect(r.baselineRunIds[0]).toBe(main[i - 1]);
    }
    expect(mainReports[0]!.comparisonUrl).toBeNull();
  });

  it('exactly the degraded branch is flagged', async () => {
    const verdicts = await Promise.all(
      [...main, healthy, degraded].map(async (id) => (await regression(id)).verdict),
    );
    expect(verdicts.filter((v) => v === 'regression')).toHaveLength(1);
    expect(verdicts.at(-1)).toBe('regression');
    expect(verdicts.at(-2)).toBe('pass');
  });

  it('the degraded run: every metric regressed, by the numbers it was degraded by', async () => {
    const r = await regression(degraded);
    expect(r).toMatchObject({
      verdict: 'regression',
      series: SERIES,
      branch: 'feature/xfs-nobarrier',
      commit: 'dead0001',
      baseBranch: 'main',
      baselineRunIds: main.slice(1).reverse(),
      method: 'percent',
    });
    expect(r.metrics.map((m) => [m.metric, m.verdict])).toEqual([
      ['read.iops', 'regression'],
      ['write.iops', 'regression'],
      ['read.bytesPerSec', 'regression'],
      ['write.bytesPerSec', 'regression'],
      ['read.clat.p50', 'regression'],
      ['read.clat.p99', 'regression'],
      ['read.clat.p99.9', 'regression'],
      ['write.clat.p50', 'regression'],
      ['write.clat.p99', 'regression'],
      ['write.clat.p99.9', 'regression'],
    ]);
    // Baseline = main runs 2–6: throughput factors average 0.998, latency factors 1.002.
    expect(metric(r, 'read.iops').deltaPct).toBeCloseTo((0.7 / 0.998 - 1) * 100, 2);
    expect(metric(r, 'write.bytesPerSec').deltaPct).toBeCloseTo((0.7 / 0.998 - 1) * 100, 2);
    expect(metric(r, 'write.clat.p99').deltaPct).toBeCloseTo((1.6 / 1.002 - 1) * 100, 1);
    expect(metric(r, 'read.iops').baseline).toMatchObject({ n: 5 });
    expect(r.message).toMatch(
      /^regression: read IOPS -29\.9%, write IOPS -29\.9%, .* \(10 of 10 metrics\) vs the last 5 runs on main\.$/,
    );
  });

  it('the healthy branch passes with every metric ok', async () => {
    const r = await regression(healthy);
    expect(r.verdict).toBe('pass');
    expect(r.metrics.every((m) => m.verdict === 'ok')).toBe(true);
    expect(Math.abs(metric(r, 'read.iops').deltaPct!)).toBeLessThan(2);
  });

  it('links an immutable comparison of [latest main run, this run], frozen when first opened and linked by every later check', async () => {
    const first = await regression(degraded);
    // (links are relative unless BLOCKWISE_PUBLIC_URL is set: compare the paths)
    const path = (url: string | null) => new URL(url!, 'http://localhost').pathname;
    expect(path(first.comparisonUrl)).toBe(`/c/pair/${main.at(-1)}/${degraded}`);
    expect(first.runUrl).toMatch(new RegExp(`/runs/${degraded}$`));
    const opened = await request(t.app).get(path(first.comparisonUrl)).expect(303);
    const again = await regression(degraded);
    expect(path(again.comparisonUrl)).toBe(opened.headers.location);
    const id = again.comparisonUrl!.split('/c/')[1]!;
    const c = ComparisonSchema.parse((await request(t.app).get(`/api/comparisons/${id}`)).body);
    expect(c.runIds).toEqual([main.at(-1), degraded]);
    expect(c.title).toBe('pg-data-volume: main@c0ffee50 vs feature/xfs-nobarrier@dead0001');
    expect(c.result.runs[1]!.summary.headline.readIops).toBeCloseTo(10267.013091 * 0.7, 2);
  });

  it('the history lists the series newest first, by branch, with cursor pages', async () => {
    const all = await request(t.app).get(`/api/series/${SERIES}/runs`);
    expect(all.body.items.map((i: { id: string }) => i.id)).toEqual([
      degraded,
      healthy,
      ...main.slice().reverse(),
    ]);
    const page1 = await request(t.app).get(`/api/series/${SERIES}/runs?branch=main&limit=4`);
    expect(page1.body.items.map((i: { id: string }) => i.id)).toEqual(main.slice(2).reverse());
    expect(page1.body.items[0].labels).toMatchObject({ branch: 'main', commit: 'c0ffee50' });
    expect(page1.body.items[0].headline.readIops).toBeGreaterThan(0);
    const page2 = await request(t.app).get(
      `/api/series/${SERIES}/runs?branch=main&limit=4&before=${page1.body.nextCursor}`,
    );
    expect(page2.body.items.map((i: { id: string }) => i.id)).toEqual(main.slice(0, 2).reverse());
    expect(page2.body.nextCursor).toBeNull();
  });
});

describe('when the gate cannot judge', () => {
  it('a series with fewer than the minimum runs on main passes as insufficient history', async () => {
    for (const [i, noise] of MAIN_NOISE.slice(0, 2).entries())
      await upload(noise, { series: 'young-series', branch: 'main', commit: `abc${i}def` });
    const id = await upload(DEGRADED, { series: 'young-series', branch: 'feature/x', commit: 'abcdef9' });
    const r = await regression(id);
    expect(r.verdict).toBe('insufficient-history');
    expect(r.message).toBe(
      'insufficient history: 2 earlier runs on main, 3 needed. Nothing is judged until then; the gate passes.',
    );
    expect(r.metrics.every((m) => m.verdict === 'skipped')).toBe(true);
    expect(r.comparisonUrl).not.toBeNull();
  });

  it('a run without a branch says it cannot pick a base', async () => {
    const id = await upload({ throughput: 0.5 }, { series: SERIES, commit: 'abcdef0' });
    const r = await regression(id);
    expect(r).toMatchObject({
      verdict: 'no-base',
      baseBranch: null,
      baselineRunIds: [],
      comparisonUrl: null,
    });
    expect(r.message).toMatch(/^cannot pick a base branch: the run has no branch label/);
  });

  it('a run without a series: 422 no_series', async () => {
    const id = await upload({}, { name: 'no-series' });
    const res = await request(t.app).get(`/api/runs/${id}/regression`);
    expect(res.status).toBe(422);
    expect(ErrorResponseSchema.parse(res.body).error).toMatchObject({
      code: 'no_series',
      path: 'labels.series',
    });
  });
});
