import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, makeTestApp, type TestApp } from './testing/test-app.ts';

const job = fixture('fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');
const asIs = (b: unknown) => b as string;
const EVIL = 'evil.example';
const ID = /[A-Za-z0-9_-]{22}/.source;

/** The body as text, whatever its type (supertest keeps binary bodies as a Buffer). */
const bodyText = (res: request.Response): string =>
  res.text ?? (Buffer.isBuffer(res.body) ? res.body.toString('latin1') : JSON.stringify(res.body));

/**
 * Every response a client can make the server produce, with a forged Host (and, as a proxy would
 * pass it on, X-Forwarded-Host/-Proto). Links must not come from those headers: GET /api/runs/:id
 * is cached `public, immutable` for a year, so a poisoned link would outlive the request.
 */
async function everyResponse(t: TestApp): Promise<Array<{ what: string; res: request.Response }>> {
  const forged = { Host: EVIL, 'X-Forwarded-Host': EVIL, 'X-Forwarded-Proto': 'https' };
  const out: Array<{ what: string; res: request.Response }> = [];
  const add = (what: string, res: request.Response) => (out.push({ what, res }), res);
  const upload = (query: string) =>
    request(t.app)
      .post(`/api/runs?${query}`)
      .set(forged)
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(job);
  const first = add('POST /api/runs', await upload('series=links&branch=main&commit=aaaa'));
  const second = add(
    'POST /api/runs (2nd)',
    await upload('series=links&branch=pr&commit=bbbb&volumeIops=3000'),
  );
  add(
    'POST /api/runs multipart',
    await request(t.app)
      .post('/api/runs')
      .set(forged)
      .field('series', 'links')
      .attach('file', job, { filename: 'm.json', contentType: 'application/json' }),
  );
  const ids = [first.body.id as string, second.body.id as string];
  const comparison = add(
    'POST /api/comparisons',
    await request(t.app).post('/api/comparisons').set(forged).send({ runIds: ids }),
  );
  for (const path of [
    '/api/runs',
    `/api/runs/${ids[0]}`,
    `/api/runs/${ids[0]}/raw`,
    `/api/runs/${ids[1]}/regression`,
    '/api/series/links/runs',
    '/api/series/links/settings',
    `/api/comparisons/${comparison.body.id}`,
    `/c/${comparison.body.id}`,
    '/api/openapi.json',
    '/healthz',
    '/',
    '/api/nowhere',
    '/nowhere',
  ])
    add(`GET ${path}`, await request(t.app).get(path).set(forged));
  add('DELETE a run', await request(t.app).delete(`/api/runs/${ids[0]}`).set(forged));
  return out;
}

describe('links in responses', () => {
  describe('BLOCKWISE_PUBLIC_URL unset: relative links, never from the Host header', () => {
    let t: TestApp;
    let responses: Awaited<ReturnType<typeof everyResponse>>;
    beforeAll(async () => {
      t = await makeTestApp({ trustProxy: 1 });
      responses = await everyResponse(t);
    });
    afterAll(async () => {
      await t.close();
    });

    it(`a request with Host: ${EVIL} never yields ${EVIL} in a body or a header`, () => {
      expect(responses.length).toBeGreaterThan(15);
      for (const { what, res } of responses) {
        expect(res.status, `${what}: ${res.text}`).toBeLessThan(500);
        expect(bodyText(res), what).not.toContain(EVIL);
        expect(JSON.stringify(res.headers), what).not.toContain(EVIL);
      }
    });

    it('url, rawUrl, runUrl and comparisonUrl are paths', () => {
      const byWhat = new Map(responses.map((r) => [r.what, r.res.body]));
      expect(byWhat.get('POST /api/runs').url).toMatch(new RegExp(`^/runs/${ID}$`));
      expect(byWhat.get('POST /api/runs multipart').runs[0].url).toMatch(new RegExp(`^/runs/${ID}$`));
      expect(byWhat.get('POST /api/comparisons').url).toMatch(new RegExp(`^/c/${ID}$`));
      const id = byWhat.get('POST /api/runs').id;
      expect(byWhat.get(`GET /api/runs/${id}`)).toMatchObject({
        url: `/runs/${id}`,
        rawUrl: `/api/runs/${id}/raw`,
      });
      for (const item of byWhat.get('GET /api/runs').items)
        expect(item.url).toMatch(new RegExp(`^/runs/${ID}$`));
      const regression = [...byWhat].find(([w]) => w.endsWith('/regression'))![1];
      expect(regression.runUrl).toMatch(new RegExp(`^/runs/${ID}$`));
      const comparison = [...byWhat].find(([w]) => w.startsWith('GET /api/comparisons/'))![1];
      expect(comparison.url).toMatch(new RegExp(`^/c/${ID}$`));
    });
  });

  it('BLOCKWISE_PUBLIC_URL set: absolute links from it, whatever the Host', async () => {
    const t = await makeTestApp({ config: { publicUrl: 'https://blockwise.example.com' } });
    try {
      const responses = await everyResponse(t);
      for (const { what, res } of responses) expect(bodyText(res), what).not.toContain(EVIL);
      const created = responses[0]!.res.body;
      expect(created.url).toBe(`https://blockwise.example.com/runs/${created.id}`);
      const run = (await request(t.app).get(`/api/runs/${created.id}`)).body;
      expect(run.rawUrl).toBe(`https://blockwise.example.com/api/runs/${created.id}/raw`);
    } finally {
      await t.close();
    }
  });
});
