import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunSchema } from '@blockwise/shared/api';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { type RunLabels } from '@blockwise/shared/records';
import { fixture, makeTestApp, type TestApp } from '../../testing/test-app.ts';

/** A summary as analysis version 2026.11.1 stored it (fixtures/stored/README.md says how it was made). */
const stored: { analysisVersion: string; file: string; labels: RunLabels; summary: object } = JSON.parse(
  fixture('stored/run-summary-2026.11.1.json').toString('utf8'),
);

let t: TestApp;
let id = '';

/**
 * A run archived by the previous release: its raw bytes, its labels, and the documents that
 * version wrote (the report as today's parser reads the bytes, as 2026.11.1 did for this file).
 */
async function archiveStoredRun(app: TestApp): Promise<string> {
  const { run } = await app.store.insertRun({
    rawBytes: fixture(stored.file),
    mediaType: 'application/json',
    fileName: 'c_randread_4k.json',
    labels: stored.labels,
    report: { stale: 'a report 2026.11.1 wrote' },
    summary: stored.summary,
    analysisVersion: stored.analysisVersion,
    fioVersion: 'fio-3.33',
  });
  return run.id;
}

beforeAll(async () => {
  t = await makeTestApp();
  id = await archiveStoredRun(t);
});
afterAll(async () => {
  await t.close();
});

describe('a run stored by an earlier analysis version', () => {
  it('GET /api/runs/:id analyzes it again from its raw bytes and serves today’s analysis', async () => {
    const res = await request(t.app).get(`/api/runs/${id}`).set('Accept-Encoding', 'identity').expect(200);
    const run = RunSchema.parse(res.body);
    expect(run.summary.analysisVersion).toBe(ANALYSIS_VERSION);
    expect(run.summary.plan?.bottleneck?.state).toBeDefined();
    expect(run.report.jobs.length).toBeGreaterThan(0);
    expect(res.headers.etag).toBe(`"analysis-${ANALYSIS_VERSION}-${id}-identity"`);
    expect(res.headers['cache-control']).toBe('public, no-cache');
  });

  it('analyzed again in the parse pool (its bytes above largeBodyBytes): the same answer as inline, its report sent as UTF-8 bytes and served as text', async () => {
    const pooled = await makeTestApp({ config: { largeBodyBytes: 1024 } });
    try {
      const pooledId = await archiveStoredRun(pooled);
      const jobs = pooled.ctx.pool.stats.jobs;
      const [inline, inPool] = await Promise.all([
        request(t.app).get(`/api/runs/${id}`).set('Accept-Encoding', 'identity').expect(200),
        request(pooled.app).get(`/api/runs/${pooledId}`).set('Accept-Encoding', 'identity').expect(200),
      ]);
      expect(pooled.ctx.pool.stats.jobs - jobs).toBe(1);
      // All but what names the run (its id, its links) and when it was archived.
      const answerOf = (body: unknown) => {
        const { id: _, createdAt: __, url: ___, rawUrl: ____, ...rest } = RunSchema.parse(body);
        return rest;
      };
      expect(answerOf(inPool.body)).toEqual(answerOf(inline.body));
      expect(answerOf(inPool.body).report.jobs.length).toBeGreaterThan(0);
    } finally {
      await pooled.close();
    }
  });

  it('a cache holding this analysis version revalidates with a 304 and no body', async () => {
    const res = await request(t.app)
      .get(`/api/runs/${id}`)
      .set('Accept-Encoding', 'identity')
      .set('If-None-Match', `"analysis-${ANALYSIS_VERSION}-${id}-identity"`)
      .expect(304);
    expect(res.text).toBe('');
    // One cached under the previous version gets today's analysis.
    await request(t.app).get(`/api/runs/${id}`).set('If-None-Match', '"analysis-2026.11.1"').expect(200);
  });

  it('lists it with the headline it was stored with, read through the versioned reader', async () => {
    const res = await request(t.app).get('/api/runs').expect(200);
    const item = (res.body as { items: Array<{ id: string; headline: unknown }> }).items.find(
      (i) => i.id === id,
    );
    expect(item?.headline).toEqual((stored.summary as { headline: unknown }).headline);
  });
});
