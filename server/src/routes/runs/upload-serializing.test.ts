import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RunLabelsSchema } from '@blockwise/shared/records';
import { fixture, makeTestApp, MANY_UPLOADS, type TestApp } from '../../testing/test-app.ts';

// What the bench uploads (bench/lib/fixtures.mjs largestPlainFixture, ciUploadPath): the largest
// plain fio file, with the labels CI sends. The regression gate's comparison with the run before
// it is not built by the upload: only when the check's link is opened (regression-gate.test.ts).
const FILE = fixture('fio/public/samyaple_fio-3.33_randwrite_nj16_perjob.json');
const ciUpload = (n: number) =>
  `/api/runs?name=ci-${n}&series=bench&branch=main&commit=0123abc&kind=ebs&instanceType=m7i.xlarge` +
  '&volumeType=gp3&volumeSizeGiB=500&volumeIops=6000&volumeThroughputMiBps=250&region=us-east-1';

/** Characters JSON.stringify wrote and JSON.parse read while `body` ran (every caller: app, store, logs). */
async function jsonWork(body: () => Promise<void>) {
  const { stringify, parse } = JSON;
  const work = { stringified: 0, parsed: 0 };
  const s = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof stringify>) => {
    const text = stringify(...args);
    work.stringified += text?.length ?? 0;
    return text;
  });
  const p = vi.spyOn(JSON, 'parse').mockImplementation((...args: Parameters<typeof parse>) => {
    work.parsed += args[0].length;
    return parse(...args);
  });
  try {
    await body();
  } finally {
    s.mockRestore();
    p.mockRestore();
  }
  return work;
}

describe('a CI upload serializes each document once (bench P2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ rateLimits: MANY_UPLOADS });
  });
  afterAll(() => t.close());

  it('the report and the summary, each once; no comparison', async () => {
    const first = await request(t.app).post(ciUpload(1)).type('application/json').send(FILE.toString());
    expect(first.status).toBe(201);
    let id = '';
    const work = await jsonWork(async () => {
      const res = await request(t.app).post(ciUpload(2)).type('application/json').send(FILE.toString());
      expect(res.status).toBe(201);
      id = (res.body as { id: string }).id;
    });
    expect(await t.store.findPairComparisons([(first.body as { id: string }).id, id])).toEqual([]);
    const stored = (await t.store.getRunJson(id))!;
    // The report and the summary (~50 KB), each once, and the labels and the answer's head. With
    // the comparison frozen here (before 2026-11-29) it was ~24 KB more: its own part of ~59 KB
    // and the jobs' settings it compares (jobSettingsOf, a key per job).
    const documents = stored.reportJson.length + stored.summaryJson.length;
    expect(work.stringified).toBeLessThan(documents + 4 * 1024);
    // Parsed: the body, once, and the answer (its summary, ~15 KB) by this test's client.
    expect(work.parsed).toBeLessThan(FILE.length + 16 * 1024);
  });

  it('the labels: checked once, by the store; not read back', async () => {
    const labelChecks = vi.spyOn(RunLabelsSchema, 'safeParse');
    try {
      const res = await request(t.app).post(ciUpload(3)).type('application/json').send(FILE.toString());
      expect(res.status).toBe(201);
      expect(labelChecks).toHaveBeenCalledTimes(1);
    } finally {
      labelChecks.mockRestore();
    }
  });
});
