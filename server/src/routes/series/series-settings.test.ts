import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ErrorResponseSchema, RunRegressionSchema, SeriesSettingsSchema } from '@blockwise/shared/api';
import { MANY_UPLOADS, fixture, testAppPerFile } from '../../testing/test-app.ts';

/**
 * Series settings text is validated like labels: U+0000 and lone surrogates cannot be stored in
 * PostgreSQL nor queried, so a base branch holding one would make every regression check of the
 * series fail. One already stored (by an older version) falls back to the defaults, with a note.
 */
const fio = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');

const t = testAppPerFile({ rateLimits: MANY_UPLOADS });

async function upload(labels: Record<string, string>): Promise<string> {
  const res = await request(t.app)
    .post(`/api/runs?${new URLSearchParams(labels)}`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(fio);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

describe('PUT /api/series/:series/settings: text the archive cannot hold', () => {
  it.each([
    ['U+0000', 'main\u0000'],
    ['a lone high surrogate', 'main\ud800'],
    ['a lone low surrogate', '\udc00main'],
  ])('baseBranch with %s → 422 body_invalid naming it, nothing stored', async (_what, baseBranch) => {
    const res = await request(t.app).put('/api/series/nul-branch/settings').send({ baseBranch });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(ErrorResponseSchema.parse(res.body).error).toMatchObject({
      code: 'body_invalid',
      path: 'baseBranch',
      message: 'baseBranch: contains U+0000 or a lone UTF-16 surrogate',
    });
    expect(await t.store.getSeriesSettings('nul-branch')).toBeNull();
  });

  it('a surrogate pair (an emoji) is fine', async () => {
    const res = await request(t.app).put('/api/series/emoji/settings').send({ baseBranch: 'release-🚀' });
    expect(res.status).toBe(200);
    expect(SeriesSettingsSchema.parse(res.body).config.baseBranch).toBe('release-🚀');
  });
});

describe('a stored base branch that cannot be queried', () => {
  it('the regression check answers (defaults, with a note) instead of 500; GET settings shows the defaults', async () => {
    for (let i = 0; i < 3; i += 1) await upload({ series: 'legacy-nul', branch: 'main', commit: `abcd${i}` });
    // What an older version accepted and stored.
    await t.store.putSeriesSettings('legacy-nul', { baseBranch: 'main\u0000', baselineRuns: 3 });
    const id = await upload({ series: 'legacy-nul', branch: 'feature/q' });

    const res = await request(t.app).get(`/api/runs/${id}/regression`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const report = RunRegressionSchema.parse(res.body);
    expect(report.baseBranch).toBe('main');
    expect(report.baselineRunIds).toHaveLength(3);
    expect(report.notes.at(-1)).toBe(
      'the stored series settings do not validate (baseBranch: contains U+0000 or a lone UTF-16 surrogate); the defaults were used',
    );

    const settings = await request(t.app).get('/api/series/legacy-nul/settings');
    expect(settings.status).toBe(200);
    expect(SeriesSettingsSchema.parse(settings.body)).toMatchObject({
      stored: true,
      config: { baseBranch: 'main', baselineRuns: 5 },
    });
  });
});
