import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken, hashToken } from './auth.ts';
import { fixture, makeTestApp, type TestApp } from '../testing/test-app.ts';
import { parseAllowedHosts } from '../config.ts';

const body = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
const asIs = (b: unknown) => b as string;
const HOST = 'blockwise.internal:8080';

/** A raw upload as `fetch(url, {method: 'POST', mode: 'no-cors', body})` sends it: text/plain. */
function noCorsPost(t: TestApp, headers: Record<string, string>, name: string) {
  const r = request(t.app)
    .post(`/api/runs?name=${name}`)
    .set('Host', HOST)
    .set('Content-Type', 'text/plain;charset=UTF-8');
  for (const [k, v] of Object.entries(headers)) r.set(k, v);
  return r.serialize(asIs).send(body);
}

async function storedNames(t: TestApp): Promise<string[]> {
  const page = await t.store.listRuns({ limit: 100 });
  if (!page.ok) throw new Error(page.error.message);
  return page.value.items.map((m) => String((m.labels as { name?: string }).name));
}

describe('writes without a token from another site (open mode)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The server is reached as blockwise.internal:8080 (configured) and, through a proxy, as its public URL.
    t = await makeTestApp({
      config: { publicUrl: 'https://blockwise.example.com', allowedHosts: ['blockwise.internal'] },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    [
      'a no-cors text/plain POST from a page on another site',
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', Origin: 'https://evil.example' },
    ],
    [
      'a sibling subdomain (same-site)',
      { 'Sec-Fetch-Site': 'same-site', Origin: 'https://evil.example.com' },
    ],
    ['an older browser: only Origin, another site', { Origin: 'https://evil.example' }],
    ['Origin: null (a sandboxed frame or a file: page)', { Origin: 'null' }],
    ['the right host on another port', { Origin: 'http://blockwise.internal:9999' }],
  ])('%s: 403 cross_origin, nothing stored', async (label, headers) => {
    const res = await noCorsPost(t, headers, `refused-${label.length}`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_origin');
    expect(res.body.error.message).not.toContain('evil');
    expect(await storedNames(t)).not.toContain(`refused-${label.length}`);
  });

  it('refuses the other state-changing routes the same way; reads from another site stay allowed', async () => {
    const cross = { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' };
    const comparison = await request(t.app).post('/api/comparisons').set(cross).send({ runIds: [] });
    expect(comparison.status).toBe(403);
    const settings = await request(t.app).put('/api/series/s/settings').set(cross).send({ baselineRuns: 3 });
    expect(settings.status).toBe(403);
    expect((await request(t.app).get('/api/series/s/settings')).body.stored).toBe(false);
    expect((await request(t.app).get('/api/runs').set(cross)).status).toBe(200);
  });

  it.each([
    [
      'the web app on this server (same-origin fetch)',
      { 'Sec-Fetch-Site': 'same-origin', Origin: `http://${HOST}` },
      'same-origin',
    ],
    ['a typed-in or bookmarked request', { 'Sec-Fetch-Site': 'none' }, 'none'],
    ['an older browser on this host (scheme not compared)', { Origin: `https://${HOST}` }, 'own-host'],
    [
      'an older browser on BLOCKWISE_PUBLIC_URL behind a proxy that rewrites Host',
      { Origin: 'https://blockwise.example.com' },
      'public-url',
    ],
    ['curl or CI: neither header', {}, 'curl'],
  ])('%s: accepted', async (_, headers, name) => {
    const res = await noCorsPost(t, headers, name);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    expect(await storedNames(t)).toContain(name);
  });

  it('a multipart upload as the web app sends it (same-origin) is accepted', async () => {
    const res = await request(t.app)
      .post('/api/runs')
      .set('Host', HOST)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Origin', `http://${HOST}`)
      .field('name', 'from-the-web-app')
      .attach('file', body, { filename: 'web.json', contentType: 'application/json' });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  });

  it('a request with a bearer token is not an ambient-credential request: the origin is not checked', async () => {
    const token = generateToken();
    const own = await makeTestApp();
    try {
      await own.store.createToken({ name: 'ci', tokenSha256: hashToken(token) });
      const res = await noCorsPost(
        own,
        { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example', Authorization: `Bearer ${token}` },
        'with-token',
      );
      expect(res.status).toBe(201);
    } finally {
      await own.close();
    }
  });
});

/** A POST as a browser sends it, to a server addressed as `host`, from a page on `origin`. */
function browserPost(t: TestApp, host: string, headers: Record<string, string>, name: string) {
  return request(t.app)
    .post(`/api/runs?name=${name}`)
    .set('Host', host)
    .set('Content-Type', 'text/plain;charset=UTF-8')
    .set(headers)
    .serialize(asIs)
    .send(body);
}

describe('a forged same-origin pair (DNS rebinding) when no name is configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  // evil.example now resolves to this server: the victim's browser sends a Host and an Origin
  // that agree, and calls the request same-origin.
  it.each([
    ['a current browser', { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://evil.example:8080' }],
    ['an older browser (Origin only)', { Origin: 'http://evil.example:8080' }],
    ['a browser sending only Sec-Fetch-Site', { 'Sec-Fetch-Site': 'same-origin' }],
  ])('%s: 403 cross_origin naming the setting, nothing stored', async (label, headers) => {
    const name = `rebound-${label.length}`;
    const res = await browserPost(t, 'evil.example:8080', headers, name);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('cross_origin');
    expect(res.body.error.message).toContain('BLOCKWISE_ALLOWED_HOSTS');
    expect(res.body.error.message).not.toContain('evil');
    expect(await storedNames(t)).not.toContain(name);
  });

  it.each([
    ['127.0.0.1:8080', 'loopback-v4'],
    ['localhost:5173', 'localhost'],
    ['[::1]:8080', 'loopback-v6'],
    ['app.localhost:8080', 'dot-localhost'],
  ])('the web app on a loopback name (%s): accepted', async (host, name) => {
    const res = await browserPost(
      t,
      host,
      { 'Sec-Fetch-Site': 'same-origin', Origin: `http://${host}` },
      name,
    );
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    expect(await storedNames(t)).toContain(name);
  });

  it('curl or CI (no browser headers) under any name: accepted, as before', async () => {
    const res = await browserPost(t, 'evil.example:8080', {}, 'curl-any-host');
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  });
});

describe('names configured with BLOCKWISE_PUBLIC_URL and BLOCKWISE_ALLOWED_HOSTS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({
      config: {
        publicUrl: 'https://blockwise.example.com',
        allowedHosts: parseAllowedHosts('blockwise.internal, 10.0.0.5:8080, web.internal:80'),
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['blockwise.example.com', 'https://blockwise.example.com', 201, 'public-url-host'],
    ['blockwise.internal:8080', 'http://blockwise.internal:8080', 201, 'allowed-any-port'],
    ['10.0.0.5:8080', 'http://10.0.0.5:8080', 201, 'allowed-with-port'],
    ['10.0.0.5:9090', 'http://10.0.0.5:9090', 403, 'allowed-other-port'],
    ['blockwise.example.net', 'http://blockwise.example.net', 403, 'unlisted'],
    // Default ports, written or not, on either side: the same origin.
    ['blockwise.internal:80', 'http://blockwise.internal', 201, 'host-default-port-http'],
    ['blockwise.internal:443', 'https://blockwise.internal', 201, 'host-default-port-https'],
    ['blockwise.internal', 'http://blockwise.internal:80', 201, 'origin-default-port'],
    ['blockwise.internal', 'http://blockwise.internal:8080', 403, 'origin-other-port'],
    ['blockwise.internal:443', 'http://blockwise.internal', 403, 'https-port-http-origin'],
    ['web.internal', 'http://web.internal', 201, 'allowed-port-80-no-host-port'],
    ['web.internal:80', 'http://web.internal', 201, 'allowed-port-80'],
    ['web.internal:8080', 'http://web.internal:8080', 403, 'allowed-port-80-other-port'],
  ])('Host %s, Origin %s: %i', async (host, origin, status, name) => {
    const res = await browserPost(t, host, { 'Sec-Fetch-Site': 'same-origin', Origin: origin }, name);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
  });
});
