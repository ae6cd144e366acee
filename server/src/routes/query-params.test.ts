import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from '@blockwise/shared/api';
import { fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';

/**
 * Query parameters are read once and strictly: a parameter given twice, or a number written in
 * another base, is a 400 naming the parameter — never one of the values, or another number.
 */
const fio = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');

let t: TestApp;
let runId: string;
beforeAll(async () => {
  t = await makeTestApp();
  const res = await request(t.app)
    .post('/api/runs?series=q&branch=main')
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(fio);
  runId = res.body.id;
});
afterAll(async () => {
  await t.close();
});

function expectRefused(res: request.Response, code: string, path: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const { error } = ErrorResponseSchema.parse(res.body);
  expect(error.code).toBe(code);
  expect(error.path).toBe(path);
  expect(error.message.startsWith(`${path.replace(/^labels\./, '')}:`)).toBe(true);
  return error.message;
}

describe('a query parameter given twice is refused on every API route', () => {
  it.each([
    ['GET', '/api/runs?kind=ebs&kind=nvme', 'kind'],
    ['GET', '/api/runs?series=a&series=b', 'series'],
    ['GET', '/api/runs?limit=5&limit=10', 'limit'],
    ['GET', '/api/series/q/runs?branch=main&branch=dev', 'branch'],
    ['GET', '/api/series?limit=1&limit=2', 'limit'],
    ['GET', '/api/series/q/settings?x=1&x=1', 'x'],
    ['GET', '/api/runs/RUN?x=1&x=2', 'x'],
    ['GET', '/api/runs/RUN/regression?x=1&x=2', 'x'],
    ['GET', '/api/comparisons/AAAAAAAAAAAAAAAAAAAAAA?y=1&y=2', 'y'],
    ['POST', '/api/runs?kind=ebs&kind=nvme', 'kind'],
    ['POST', '/api/runs?volumeIops=3000&volumeIops=3000', 'volumeIops'],
    ['POST', '/api/runs?tag.env=prod&tag.env=dev', 'tag.env'],
    ['POST', '/api/runs?filename=a.json&filename=b.json', 'filename'],
  ])('%s %s → 400 query_invalid naming %s', async (method, url, name) => {
    const path = url.replace('RUN', runId);
    const req = method === 'GET' ? request(t.app).get(path) : request(t.app).post(path);
    const res = await req.set('Content-Type', 'application/json').send('{}');
    expect(expectRefused(res, 'query_invalid', name)).toBe(
      `${name}: given more than once; send each query parameter once`,
    );
  });

  it('nothing was stored by the refused uploads', async () => {
    const list = await request(t.app).get('/api/runs');
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([runId]);
  });
});

describe('numbers in query strings', () => {
  it.each([['0x10'], ['1e1'], [' 5'], ['5 '], ['5.0'], ['0b11'], ['Infinity'], ['']])(
    'limit=%j is refused, not read as a number',
    async (limit) => {
      const res = await request(t.app).get(`/api/runs?limit=${encodeURIComponent(limit)}`);
      expectRefused(res, 'query_invalid', 'limit');
      const series = await request(t.app).get(`/api/series/q/runs?limit=${encodeURIComponent(limit)}`);
      expectRefused(series, 'query_invalid', 'limit');
    },
  );

  it('limit in digits works', async () => {
    const res = await request(t.app).get('/api/runs?limit=007');
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
  });

  it.each([['0x10'], ['0b1'], ['0o7'], ['Infinity'], ['1e400'], [' 3000']])(
    'upload label volumeIops=%j → 400 labels_invalid naming it',
    async (value) => {
      const res = await request(t.app)
        .post(`/api/runs?volumeIops=${encodeURIComponent(value)}`)
        .set('Content-Type', 'application/json')
        .serialize((b: unknown) => b as string)
        .send(fio);
      expectRefused(res, 'labels_invalid', 'labels.volumeIops');
    },
  );

  it('volumeIops=1e3 is 1000 (decimal, scientific notation)', async () => {
    const res = await request(t.app)
      .post('/api/runs?kind=ebs&volumeIops=1e3')
      .set('Content-Type', 'application/json')
      .serialize((b: unknown) => b as string)
      .send(fio);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const run = await request(t.app).get(`/api/runs/${res.body.id}`);
    expect(run.body.labels.volumeIops).toBe(1000);
  });
});

describe('labels given twice in headers and multipart fields', () => {
  it('a repeated X-Blockwise-* header is refused, not joined into "a, b"', async () => {
    const res = await request(t.app)
      .post('/api/runs')
      .set('Content-Type', 'application/json')
      // An array: Node sends the header twice.
      .set('X-Blockwise-Branch', ['main', 'feature/x'] as unknown as string)
      .serialize((b: unknown) => b as string)
      .send(fio);
    expectRefused(res, 'labels_invalid', 'labels.branch');
  });

  it('a multipart field given twice is refused', async () => {
    const res = await request(t.app)
      .post('/api/runs')
      .field('kind', 'ebs')
      .field('kind', 'nvme')
      .attach('file', fio, 'fio.json');
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(ErrorResponseSchema.parse(res.body).error).toMatchObject({
      code: 'labels_invalid',
      path: 'fields.kind',
    });
  });
});

describe('filters the archive cannot store', () => {
  it.each([['branch'], ['series'], ['instance']])('%s with U+0000 → 400 query_invalid', async (name) => {
    const res = await request(t.app).get(`/api/runs?${name}=a%00b`);
    expectRefused(res, 'query_invalid', name);
  });
});
