import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { RunLabelsSchema } from '@blockwise/shared/records';
import { fixture, makeTestApp, MANY_UPLOADS, type TestApp } from '../../testing/test-app.ts';

// What the bench uploads (bench/lib/fixtures.mjs largestPlainFixture, ciUploadPath): the largest
// plain fio file, with the labels CI sends, so every upload freezes its comparison with the run
// before it (the regression gate).
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

  it('the report, the summary and the gate’s comparison: the summaries and plans it embeds are written as stored', async () => {
    const first = await request(t.app).post(ciUpload(1)).type('application/json').send(FILE.toString());
    expect(first.status).toBe(201);
    let id = '';
    const work = await jsonWork(async () => {
      const res = await request(t.app).post(ciUpload(2)).type('application/json').send(FILE.toString());
      expect(res.status).toBe(201);
      id = (res.body as { id: string }).id;
    });
    // The comparison with the run before it was frozen in that request.
    const frozen = await t.store.findPairComparisons([(first.body as { id: string }).id, id]);
    expect(frozen).toHaveLength(1);
    const stored = (await t.store.getRunJson(id))!;
    // The report and the summary (~50 KB), each once; the comparison (~59 KB, two summaries and
    // two plans) adds only its own few KB, and comparing the jobs' settings (jobSettingsOf, a key
    // per job) ~17 KB. Serializing the comparison whole wrote ~56 KB more.
    const documents = stored.reportJson.length + stored.summaryJson.length;
    expect(work.stringified).toBeLessThan(documents + 24 * 1024);
    // Parsed: the body, once (the run before it is compared from the documents its upload made).
    expect(work.parsed).toBeLessThan(FILE.length + 16 * 1024);
  });

  it('the labels: read from the request, checked by the store, read back once by the gate', async () => {
    const labelChecks = vi.spyOn(RunLabelsSchema, 'safeParse');
    try {
      const res = await request(t.app).post(ciUpload(3)).type('application/json').send(FILE.toString());
      expect(res.status).toBe(201);
      expect(labelChecks).toHaveBeenCalledTimes(3);
    } finally {
      labelChecks.mockRestore();
    }
  });
});
