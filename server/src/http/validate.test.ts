import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SeriesNameSchema, pageLimitParam } from '@blockwise/shared/api';
import { errorHandler } from './errors.ts';
import { validate } from './validate.ts';

const check = validate({
  params: z.object({ series: SeriesNameSchema }),
  query: z.object({ limit: pageLimitParam(200, 50) }),
  body: z.object({ baselineRuns: z.number().int().min(1).max(50).optional() }),
});
const app = express();
app.use(express.json());
app.put('/series/:series', check, (req, res) => res.json(check.values(req)));
app.use(errorHandler);

describe('validate(): one middleware for params, query and body', () => {
  it('hands the handler the parsed values (defaults and transforms applied)', async () => {
    const res = await request(app).put('/series/team%2Fpg?limit=20').send({ baselineRuns: 4 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      params: { series: 'team/pg' },
      query: { limit: 20 },
      body: { baselineRuns: 4 },
    });
    expect((await request(app).put('/series/pg').send({})).body.query).toEqual({ limit: 50 });
  });

  it.each([
    ['a bad path parameter', '/series/a%20b', {}, 400, 'query_invalid', 'series'],
    ['a bad query parameter', '/series/pg?limit=1e1', {}, 400, 'query_invalid', 'limit'],
    ['a bad body field', '/series/pg', { baselineRuns: 0 }, 422, 'body_invalid', 'baselineRuns'],
    [
      'params before query before body',
      '/series/a%20b?limit=x',
      { baselineRuns: 0 },
      400,
      'query_invalid',
      'series',
    ],
  ])('%s: %i %s naming the field', async (_, url, body, status, code, path) => {
    const res = await request(app).put(url).send(body);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, path });
    expect(res.body.error.message).toMatch(new RegExp(`^${path}: `));
  });

  it('a body that is not an object is named `body`, with no path', async () => {
    const res = await request(app).put('/series/pg').set('Content-Type', 'application/json').send('[1]');
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('body_invalid');
    expect(res.body.error.message).toMatch(/^body: /);
    expect(res.body.error.path).toBeUndefined();
  });
});
