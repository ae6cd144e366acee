import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  CreatedRunSchema,
  ErrorResponseSchema,
  RunListSchema,
  RunSchema,
  UploadResponseSchema,
} from '@blockwise/shared/api';
import { fixture, makeTestApp, type TestApp } from '../../testing/test-app.ts';
import { RunAnswers } from './run-answers.ts';

const mixed = fixture('fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');
const jsonPlus = fixture('fio/generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json');
const normalJson = fixture('fio/generated/h2_randread_4k_output_normal_json.txt');
const errorOnly = fixture('fio/public/cyberhuey_windows_fio_error_only.json');

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Sends bytes as they are (superagent would JSON-encode a Buffer under application/json). */
const asIs = (body: unknown) => body as string;

const expectError = (res: request.Response, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const body = ErrorResponseSchema.parse(res.body);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(10);
  return body.error;
};

describe('POST /api/runs', () => {
  it('stores raw fio JSON with query labels and answers 201 with {id, url, summary}', async () => {
    const res = await request(t.app)
      .post(
        '/api/runs?name=ebs-r5d&kind=ebs&instanceType=r5d.4xlarge&volumeType=gp3&volumeSizeGiB=1000&volumeIops=16000&volumeThroughputMiBps=1000&region=us-east-1&tag.team=db',
      )
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(mixed);
    expect(res.status).toBe(201);
    const run = CreatedRunSchema.parse(res.body);
    expect(run.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(run.url).toMatch(new RegExp(`/runs/${run.id}$`));
    expect(run.created).toBe(true);
    expect(run.summary.headline.readIops).toBeCloseTo(10267.013091, 3);
    expect(run.summary.plan?.instanceType).toBe('r5d.4xlarge');
    expect(run.summary.plan?.limits.map((l) => l.id)).toEqual([
      'volume-iops',
      'volume-throughput',
      'instance-iops',
      'instance-bandwidth',
    ]);
    // 1.43 GB/s of writes on a 10 s test: far above r5d.4xlarge's 566 MiB/s — mislabelled or cached
    expect(run.summary.warnings.map((w) => w.code)).toContain('above_provisioned_limit');
  });

  it('is idempotent: identical bytes + labels give the same run, not a duplicate', async () => {
    const send = () =>
      request(t.app)
        .post('/api/runs?name=twice&kind=nvme&instanceType=r5d.4xlarge')
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(jsonPlus);
    const first = await send();
    const second = await send();
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.created).toBe(false);
    const other = await request(t.app)
      .post('/api/runs?name=twice&kind=ebs')
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(jsonPlus);
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('takes labels from X-Blockwise-* headers and text/plain normal+json output', async () => {
    const res = await request(t.app)
      .post('/api/runs')
      .set('Content-Type', 'text/plain; charset=utf-8')
      .set('X-Blockwise-Series', 'pg-data-volume')
      .set('X-Blockwise-Branch', 'main')
      .set('X-Blockwise-Commit', 'abc1234')
      .set('X-Blockwise-Tag', 'env=ci, kernel=6.1')
      .serialize(asIs)
      .send(normalJson);
    expect(res.status).toBe(201);
    const run = RunSchema.parse((await request(t.app).get(`/api/runs/${res.body.id}`)).body);
    expect(run.labels).toMatchObject({
      series: 'pg-data-volume',
      branch: 'main',
      commit: 'abc1234',
      tags: { env: 'ci', kernel: '6.1' },
    });
    expect(run.mediaType).toBe('text/plain');
    expect(run.report.warnings.map((w) => w.code)).toContain('text_before_json');
  });

  it('accepts a gzip-encoded body and stores the inflated bytes (what fio wrote)', async () => {
    const res = await request(t.app)
      .post('/api/runs?name=gz')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(asIs)
      .send(gzipSync(mixed));
    expect(res.status).toBe(201);
    const raw = await request(t.app)
      .get(`/api/runs/${res.body.id}/raw`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(Buffer.compare(raw.body as Buffer, mixed)).toBe(0);
  });

  it('accepts multipart/form-data with several files plus label fields', async () => {
    const res = await request(t.app)
      .post('/api/runs')
      .field('kind', 'ebs')
      .field('instanceType', 'm5.8xlarge')
      .attach('file', mixed, 'mixed.json')
      .attach('file', gzipSync(jsonPlus), 'plus.json.gz');
    expect(res.status).toBe(201);
    const body = UploadResponseSchema.parse(res.body);
    expect(body.runs).toHaveLength(2);
    const second = RunSchema.parse((await request(t.app).get(`/api/runs/${body.runs[1]!.id}`)).body);
    expect(second.labels).toMatchObject({ kind: 'ebs', instanceType: 'm5.8xlarge', name: 'plus.json.gz' });
    expect(second.report.jsonPlus).toBe(true);
  });

  it('rejects a multipart upload with one bad file as a whole, naming the file', async () => {
    const before = (await request(t.app).get('/api/runs?limit=200')).body.items.length;
    const res = await request(t.app)
      .post('/api/runs')
      .attach('file', mixed, 'good.json')
      .attach('file', errorOnly, 'windows.json');
    const err = expectError(res, 422, 'not_fio_json');
    expect(err.message).toMatch(/^windows\.json: /);
    expect(err.path).toBe('files.1');
    expect((await request(t.app).get('/api/runs?limit=200')).body.items.length).toBe(before);
  });

  it.each([
    ['text with no JSON (Windows fio error lines)', errorOnly, 'application/json', 422, 'not_fio_json'],
    ['truncated JSON', mixed.subarray(0, 5000), 'application/json', 400, 'invalid_json'],
    ['an empty body', Buffer.alloc(0), 'application/json', 400, 'empty_input'],
    ['JSON that is not fio', Buffer.from('{"hello":"world"}'), 'application/json', 422, 'not_fio_json'],
    [
      'nesting deeper than the bound',
      Buffer.from(`${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`),
      'application/json',
      400,
      'too_deep',
    ],
    [
      'binary bytes',
      Buffer.from([0x00, 0xff, 0xfe, 0x00, 0x01, 0x02, 0x03, 0x04, 0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]),
      'application/json',
      400,
      'binary_input',
    ],
    ['an XML body', Buffer.from('<xml/>'), 'application/xml', 415, 'unsupported_media_type'],
  ])('%s → %d %s', async (_, body, type, status, code) => {
    expectError(
      await request(t.app).post('/api/runs').set('Content-Type', type).serialize(asIs).send(body),
      status,
      code,
    );
  });

  it('names the JSON path of a wrong type (422 fio_invalid)', async () => {
    const doc = JSON.parse(mixed.toString('utf8'));
    doc.jobs[0].read.iops = 'fast';
    const err = expectError(
      await request(t.app)
        .post('/api/runs')
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(JSON.stringify(doc)),
      422,
      'fio_invalid',
    );
    expect(err.message).toMatch(/jobs\.0\.read\.iops/);
  });

  it('415 without a Content-Type', async () => {
    const res = await request(t.app)
      .post('/api/runs')
      .serialize(asIs)
      .send(mixed.toString('latin1'))
      .unset('Content-Type');
    expectError(res, 415, 'unsupported_media_type');
  });

  it.each([
    ['kind=ssd', 'labels.kind'],
    ['volumeSizeGiB=lots', 'labels.volumeSizeGiB'],
    ['instanceType=R5D.4XLARGE%3Cscript%3E', 'labels.instanceType'],
    ['commit=not-a-sha', 'labels.commit'],
    ['tag.__proto__=x', 'labels.tags.__proto__'],
  ])('400 labels_invalid for %s', async (query, path) => {
    const err = expectError(
      await request(t.app)
        .post(`/api/runs?${query}`)
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(mixed),
      400,
      'labels_invalid',
    );
    expect(err.path).toBe(path);
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('x');
  });

  it('413 past the limit, also when the limit is crossed only after gzip inflation', async () => {
    const small = await makeTestApp({ config: { maxUploadBytes: 32 * 1024 } });
    try {
      expect(jsonPlus.length).toBeGreaterThan(32 * 1024);
      expectError(
        await request(small.app)
          .post('/api/runs')
          .set('Content-Type', 'application/json')
          .serialize(asIs)
          .send(jsonPlus),
        413,
        'payload_too_large',
      );
      const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
      expect(bomb.length).toBeLessThan(32 * 1024);
      expectError(
        await request(small.app)
          .post('/api/runs')
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', 'gzip')
          .serialize(asIs)
          .send(bomb),
        413,
        'payload_too_large',
      );
    } finally {
      await small.close();
    }
  });

  it('analyzes large bodies in the worker pool with the same result as inline', async () => {
    const tiny = await makeTestApp({ config: { largeBodyBytes: 1024 } });
    try {
      const res = await request(tiny.app)
        .post('/api/runs?name=worker')
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(jsonPlus);
      expect(res.status).toBe(201);
      const inline = await request(t.app)
        .post('/api/runs?name=worker')
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(jsonPlus);
      expect(res.body.summary).toEqual(inline.body.summary);
    } finally {
      await tiny.close();
    }
  });
});

describe('GET /api/runs', () => {
  it('lists newest first with cursor pagination and filters', async () => {
    for (let i = 0; i < 3; i += 1) {
      await request(t.app)
        .post(`/api/runs?name=page-${i}&series=paging&kind=nvme`)
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(mixed);
    }
    const first = RunListSchema.parse((await request(t.app).get('/api/runs?series=paging&limit=2')).body);
    expect(first.items.map((r) => r.labels.name)).toEqual(['page-2', 'page-1']);
    expect(first.nextCursor).not.toBeNull();
    const second = RunListSchema.parse(
      (await request(t.app).get(`/api/runs?series=paging&limit=2&cursor=${first.nextCursor}`)).body,
    );
    expect(second.items.map((r) => r.labels.name)).toEqual(['page-0']);
    expect(second.nextCursor).toBeNull();
    const kinds = RunListSchema.parse((await request(t.app).get('/api/runs?kind=nvme&limit=200')).body);
    expect(kinds.items.every((r) => r.labels.kind === 'nvme')).toBe(true);
  });

  it.each([
    ['limit=0', 'query_invalid'],
    ['limit=1000', 'query_invalid'],
    ['kind=tape', 'query_invalid'],
    ['cursor=garbage!!', 'invalid_cursor'],
  ])('400 for %s', async (query, code) => {
    expectError(await request(t.app).get(`/api/runs?${query}`), 400, code);
  });
});

describe('GET /api/runs/:id and /raw', () => {
  it('404 run_not_found for unknown and malformed ids', async () => {
    expectError(await request(t.app).get('/api/runs/AAAAAAAAAAAAAAAAAAAAAA'), 404, 'run_not_found');
    expectError(await request(t.app).get('/api/runs/..%2F..%2Fetc'), 404, 'run_not_found');
    expectError(await request(t.app).get('/api/runs/AAAAAAAAAAAAAAAAAAAAAA/raw'), 404, 'run_not_found');
  });

  it('serves the raw bytes as an attachment that cannot run as a page', async () => {
    const created = await request(t.app)
      .post('/api/runs?filename=r%C3%A9sultat%22.json')
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(mixed);
    const raw = await request(t.app).get(`/api/runs/${created.body.id}/raw`);
    expect(raw.headers['content-disposition']).toBe(
      `attachment; filename="r_sultat_.json"; filename*=UTF-8''r%C3%A9sultat%22.json`,
    );
    expect(raw.headers['content-security-policy']).toContain('sandbox');
    expect(raw.headers['x-content-type-options']).toBe('nosniff');
  });

  it("an answer is encoded once: later reads skip the store and go out gzip'd where accepted, the same JSON", async () => {
    const created = await request(t.app)
      .post('/api/runs?name=answer-once&series=answers')
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(mixed);
    const path = `/api/runs/${created.body.id}`;
    const reads = vi.spyOn(t.store, 'getRunJson');
    const remembered = vi.spyOn(RunAnswers.prototype, 'remember');
    try {
      const first = await request(t.app).get(path).set('Accept-Encoding', 'identity');
      expect(first.status).toBe(200);
      expect(first.headers.vary).toBe('Accept-Encoding');
      expect(first.headers['content-encoding']).toBeUndefined();
      expect(RunSchema.parse(first.body).id).toBe(created.body.id);
      // The gzip copy is made off the event loop after the first answer: identity until it is done.
      const [answer] = remembered.mock.results;
      if (answer?.type !== 'return') return expect.fail('the first read did not remember its answer');
      await answer.value.gzipped;
      const zipped = await request(t.app).get(path).set('Accept-Encoding', 'gzip');
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(Number(zipped.headers['content-length'])).toBeLessThan(first.text.length / 3);
      expect(zipped.text).toBe(first.text);
      const again = await request(t.app).get(path).set('Accept-Encoding', 'identity');
      expect(again.text).toBe(first.text);
      // gzip refused by name, even beside a wildcard: identity (RFC 9110 §12.5.3).
      for (const accept of ['gzip;q=0', 'gzip;q=0, *']) {
        const refused = await request(t.app).get(path).set('Accept-Encoding', accept);
        expect(refused.headers['content-encoding']).toBeUndefined();
        expect(refused.text).toBe(first.text);
      }
      // A strong ETag per representation, and per run: each revalidates in its own encoding only.
      const identityTag = first.headers.etag;
      const gzipTag = zipped.headers.etag;
      expect(identityTag).toMatch(new RegExp(`^"analysis-.+-${created.body.id}-identity"$`));
      expect(gzipTag).toBe(identityTag?.replace(/-identity"$/, '-gzip"'));
      const conditional = async (accept: string, tag: string | undefined) =>
        request(t.app).get(path).set('Accept-Encoding', accept).set('If-None-Match', String(tag));
      expect((await conditional('identity', identityTag)).status).toBe(304);
      expect((await conditional('gzip', gzipTag)).status).toBe(304);
      const stale = await conditional('gzip', identityTag);
      expect(stale.status).toBe(200);
      expect(stale.headers['content-encoding']).toBe('gzip');
      expect((await conditional('identity', gzipTag)).status).toBe(200);
      expect(reads).toHaveBeenCalledTimes(1);
    } finally {
      reads.mockRestore();
      remembered.mockRestore();
    }
  });

  it.each(['put', 'patch', 'delete'] as const)('%s on a published run → 405 (immutable)', async (method) => {
    const created = await request(t.app)
      .post('/api/runs?name=immutable')
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(mixed);
    const res = await request(t.app)[method](`/api/runs/${created.body.id}`).send({});
    expectError(res, 405, 'method_not_allowed');
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});
