import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * The web app's index.html paints a static frame before any script (web/index.html), with the
 * planning page's heading for `/` only: a share link or the archive must not flash "Planning
 * session" before React takes over. Served from the real index.html source.
 */

const INDEX = new URL('../../../../web/index.html', import.meta.url);
const dist = mkdtempSync(join(tmpdir(), 'bw-web-dist-'));
let t: TestApp;

beforeAll(async () => {
  copyFileSync(INDEX, join(dist, 'index.html'));
  mkdirSync(join(dist, 'assets'));
  t = await makeTestApp({ config: { webDist: dist } });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the static frame in index.html, per route', () => {
  it.each([
    ['/', true],
    ['/runs', false],
    ['/runs/abc', false],
    ['/c/abc', false],
    ['/history', false],
    ['/history/pg-data', false],
  ])('%s → frame, planning heading: %s', async (path, withPlanHead) => {
    const res = await request(t.app).get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain('<header class="app-header">');
    expect(res.text).toContain('<footer class="app-footer">');
    expect(res.text.includes('Planning session')).toBe(withPlanHead);
    expect(res.text.includes('blockwise:plan-head')).toBe(withPlanHead);
    expect(res.text).toContain('<div id="root">');
  });
});

describe('a share link starts fetching its comparison with the HTML', () => {
  it('adds a preload of /api/comparisons/:id for a valid id, and nothing for an invalid one', async () => {
    const id = 'AAAAAAAAAAAAAAAAAAAAAA';
    const res = await request(t.app).get(`/c/${id}`);
    expect(res.text).toContain(
      `<link rel="preload" href="/api/comparisons/${id}" as="fetch" crossorigin="anonymous" />`,
    );
    expect(res.text.indexOf('rel="preload"')).toBeLessThan(res.text.indexOf('</head>'));
    const hostile = await request(t.app).get(`/c/${encodeURIComponent('"><script>alert(1)</script>')}`);
    expect(hostile.status).toBe(200);
    expect(hostile.text).not.toContain('rel="preload"');
    expect(hostile.text).not.toContain('<script>alert');
  });

  it('other routes get no preload', async () => {
    for (const path of ['/', '/runs', '/history']) {
      expect((await request(t.app).get(path)).text).not.toContain('rel="preload"');
    }
  });
});

describe('a page that does not exist', () => {
  it.each(['/nope', '/runs/abc/extra', '/c'])(
    '%s → 404 HTML with a way back (the app renders "Page not found")',
    async (path) => {
      const res = await request(t.app).get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<div id="root">');
      expect(res.text).toContain('<a href="/runs">');
      expect(res.text).not.toContain('Planning session');
    },
  );

  it('API paths keep JSON 404s', async () => {
    const res = await request(t.app).get('/api/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.error.code).toBe('not_found');
  });
});

describe('a page that does not exist, without the built web app', () => {
  it('answers a minimal 404 HTML page linking to / and /runs; API paths keep JSON', async () => {
    const bare = await makeTestApp();
    try {
      const res = await request(bare.app).get('/nope');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<a href="/">');
      expect(res.text).toContain('<a href="/runs">');
      expect(res.text).toContain('/nope');
      const hostile = await request(bare.app).get('/%3Cscript%3Ealert(1)%3C%2Fscript%3E');
      expect(hostile.status).toBe(404);
      expect(hostile.text).not.toContain('<script>');
      const api = await request(bare.app).get('/api/nope');
      expect(api.headers['content-type']).toMatch(/^application\/json/);
      const post = await request(bare.app).post('/nope');
      expect(post.status).toBe(404);
      expect(post.headers['content-type']).toMatch(/^application\/json/);
    } finally {
      await bare.close();
    }
  });
});
