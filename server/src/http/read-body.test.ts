import { deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorResponseSchema } from '@blockwise/shared/api';
import { fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';

/** Corrupt or truncated compressed bodies are the client's data problem: 400 gzip_invalid, not an abort. */
const fio = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
const gzipped = gzipSync(fio);
const truncated = gzipped.subarray(0, Math.floor(gzipped.length / 2));
/** Gzip magic and header, then bytes that are no deflate stream. */
const corrupt = Buffer.concat([gzipped.subarray(0, 10), Buffer.from('this is not deflate data at all')]);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const asIs = (b: unknown) => b as string;

function expectCode(res: request.Response, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const { error } = ErrorResponseSchema.parse(res.body);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(/data is corrupt or truncated/);
}

describe('corrupt compressed uploads', () => {
  it.each([
    ['corrupt', corrupt],
    ['truncated', truncated],
    ['not gzip at all', Buffer.from('plain text, but declared gzip')],
  ])('Content-Encoding: gzip, %s → 400 gzip_invalid', async (_name, body) => {
    const res = await request(t.app)
      .post('/api/runs')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(asIs)
      .send(body);
    expectCode(res, 'gzip_invalid');
  });

  it.each([
    ['corrupt', corrupt],
    ['truncated', truncated],
  ])('a gzip file (magic bytes), %s → 400 gzip_invalid', async (_name, body) => {
    const res = await request(t.app)
      .post('/api/runs')
      .set('Content-Type', 'application/gzip')
      .serialize(asIs)
      .send(body);
    expectCode(res, 'gzip_invalid');
  });

  it('Content-Encoding: deflate, truncated → 400 deflate_invalid', async () => {
    const deflated = deflateSync(fio);
    const res = await request(t.app)
      .post('/api/runs')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'deflate')
      .serialize(asIs)
      .send(deflated.subarray(0, deflated.length - 20));
    expectCode(res, 'deflate_invalid');
  });

  it('a multipart file that is corrupt gzip → 400 gzip_invalid', async () => {
    const res = await request(t.app).post('/api/runs').attach('file', corrupt, 'fio.json.gz');
    expectCode(res, 'gzip_invalid');
  });

  it('a JSON body (comparisons) sent as corrupt gzip → 400 gzip_invalid', async () => {
    const res = await request(t.app)
      .post('/api/comparisons')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(asIs)
      .send(corrupt);
    expectCode(res, 'gzip_invalid');
  });

  it('the intact gzip upload is stored', async () => {
    const res = await request(t.app)
      .post('/api/runs')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .serialize(asIs)
      .send(gzipped);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});
