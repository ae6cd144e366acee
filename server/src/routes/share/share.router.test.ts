import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ComparisonSchema, type Comparison } from '@blockwise/shared/api';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { CLOUDWATCH_PEAK, planSession } from '../../../../shared/src/test-support/plan-session.ts';
import { StoreUnavailableError } from '../../store/run-store.ts';
import { escapeHtml } from '../../presenters/escape-html.ts';
import { fixture, makeTestApp, type TestApp } from '../../testing/test-app.ts';

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

describe('a share link paints the top of its page with the HTML (largest paint before any script)', () => {
  const HOSTILE_TITLE = `</title><script>alert("x")</script> 'gp3' & "io2"`;
  const asIs = (b: unknown) => b as string;
  const plan = planSession({
    observed: [CLOUDWATCH_PEAK],
    profileRef: 'observed:cw',
    instanceType: 'r5d.4xlarge',
    candidates: [{ type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000, count: 1 }],
  });

  async function upload(query: string, file: string): Promise<string> {
    const res = await request(t.app)
      .post(`/api/runs?${query}`)
      .set('Content-Type', 'application/json')
      .serialize(asIs)
      .send(fixture(file));
    expect(res.status).toBe(201);
    return res.body.id as string;
  }
  async function share(body: object): Promise<Comparison> {
    const created = await request(t.app).post('/api/comparisons').send(body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return ComparisonSchema.parse((await request(t.app).get(`/api/comparisons/${created.body.id}`)).body);
  }
  /** The markup that replaced the planning heading inside <main>. */
  const headOf = (html: string) => /<main[^>]*>\s*([\s\S]*?)\s*<\/main>/.exec(html)![1]!;
  /** The answer box the server painted under the heading ('' without one). */
  const answerOf = (html: string) =>
    /<section class="answer"[\s\S]*?<\/section>/.exec(headOf(html))?.[0] ?? '';

  afterEach(() => vi.restoreAllMocks());

  it('heading, facts, buttons and banner as SharePage draws them; every stored string escaped', async () => {
    const c = await share({ title: HOSTILE_TITLE, runIds: [], plan });
    const res = await request(t.app).get(`/c/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(headOf(res.text)).toBe(
      '<div class="page"><header class="page-head"><div><p class="page-head__kicker">Shared comparison · read-only</p>' +
        '<h1 tabindex="-1" id="page-title">&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &#39;gp3&#39; &amp; &quot;io2&quot;</h1>' +
        '<dl class="facts facts--inline">' +
        `<div><dt>Created</dt><dd><time datetime="${c.createdAt}">${new Date(c.createdAt).toUTCString()}</time></dd></div>` +
        `<div><dt>Analysis version</dt><dd>${ANALYSIS_VERSION}</dd></div>` +
        `<div><dt>Prices as of</dt><dd>${c.priceTableDate}</dd></div>` +
        '<div><dt>Region</dt><dd>us-east-1</dd></div></dl></div>' +
        '<div class="page-head__actions"><button type="button" class="btn btn--primary">Open as a new planning session</button>' +
        '<div class="button-row" role="group" aria-label="Export"><button type="button" class="btn btn--small">Export CSV</button>' +
        '<button type="button" class="btn btn--small">Export JSON</button>' +
        '<button type="button" class="btn btn--small">Print / PDF</button></div></div></header>' +
        // The answer (its own test below), then the banner.
        `${answerOf(res.text)}` +
        '<p class="banner banner--info">These results were computed once, when the link was created, and never change: later uploads, price updates or rule changes do not alter them.</p></div>',
    );
    expect(res.text).toContain(
      '<title>&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &#39;gp3&#39; &amp; &quot;io2&quot; — Blockwise</title>',
    );
    expect(res.text.match(/<title>/g)).toHaveLength(1);
    expect(res.text).not.toContain('<script>alert');
    expect(res.text).not.toContain('Planning session');
    expect(res.text).toContain(`<link rel="preload" href="/api/comparisons/${c.id}"`);
  });

  it('the answer under the heading, as StoredAnswer renders it: what it needs, what binds, what to buy for how much a month', async () => {
    const c = await share({ title: 'answer', runIds: [], plan });
    const answer = answerOf((await request(t.app).get(`/c/${c.id}`)).text);
    expect(answer).toMatch(
      new RegExp(
        '^<section class="answer" aria-labelledby="answer-title" id="answer"><div class="answer__head">' +
          '<h2 class="answer__title" id="answer-title">The answer</h2><span class="answer__note">For [^<]+</span></div>' +
          '<ul class="answer__lines"><li><strong>Needs 11,327 IOPS and 712 MiB/s: the peak plus 25% headroom; [^<]+</strong> <a href="#profile">Profile</a></li>' +
          '<li><span class="answer__binds answer__binds--(ok|watch|concern)">[^<]+ on r5d\\.4xlarge[^<]*</span> <a href="#limits">What binds</a></li>' +
          '(<li>[^<]+ <a href="#right-size">Instance options</a></li>)?' +
          '<li>Provision gp3 [^<]+ for \\$[\\d,]+\\.\\d\\d/month[^<]*\\. <a href="#right-size">Right-size</a></li>' +
          '(<li>[^<]+ <a href="#compare">NVMe vs EBS</a></li>)?' +
          '</ul><p class="answer__meta">Costs at us-east-1 prices of [\\d-]+\\. <a href="#rates">Rate card</a></p></section>$',
      ),
    );
  });

  it('a link made from runs alone answers with its first run’s role, its name escaped: an unpaced benchmark delivered, never “Needs”', async () => {
    const name = `<img src=x onerror=alert(1)> "run" & 'co'`;
    const run = await upload(
      `name=${encodeURIComponent(name)}&kind=ebs&instanceType=r5d.4xlarge&volumeType=gp3&volumeSizeGiB=1000`,
      'fio/settings/s1_randwrite_4k_unpaced.json',
    );
    const c = await share({ runIds: [run] });
    const html = (await request(t.app).get(`/c/${c.id}`)).text;
    const answer = answerOf(html);
    expect(answer).toContain(`<span class="answer__note">For ${escapeHtml(name)}</span>`);
    expect(answer).toMatch(
      /<li><strong>Delivered 22,1\d\d IOPS and \d+ MiB\/s — capacity evidence \(no rate set: /,
    );
    expect(answer).not.toContain('Needs');
    expect(answer).not.toContain('Provision');
    expect(html).not.toContain('<img src=x');
  });

  it('an untitled comparison is "Shared comparison"; the warnings sit under the banner, escaped', async () => {
    // Same 4k randread, different iodepth and runtime: a jobs_differ warning frozen with the link.
    const nvme = await upload(
      'name=nvme&kind=nvme&instanceType=r5d.4xlarge',
      'fio/generated/c_randread_4k_libaio_qd32_timebased5s.json',
    );
    const ebs = await upload(
      'name=ebs&kind=ebs&instanceType=r5d.4xlarge&volumeType=gp3&volumeSizeGiB=1000',
      'fio/generated/i1_randread_4k_percentile_list_lat_clat_percentiles.json',
    );
    const c = await share({ runIds: [ebs, nvme] });
    expect(c.result.warnings?.map((w) => w.code)).toEqual(['jobs_differ']);
    const html = (await request(t.app).get(`/c/${c.id}`)).text;
    expect(html).toContain('<h1 tabindex="-1" id="page-title">Shared comparison</h1>');
    expect(html).toContain('<title>Shared comparison — Blockwise</title>');
    const message = c.result.warnings![0]!.message;
    expect(headOf(html)).toMatch(
      new RegExp(
        `</p><div class="callout callout--concern"><p><strong>Read this before the numbers:</strong></p><ul class="warnings"><li class="warning" data-code="jobs_differ"><span class="warning__icon" aria-hidden="true">⚠</span><span class="visually-hidden">Warning: </span><span>`,
      ),
    );
    expect(headOf(html)).toContain(`<span>${escapeHtml(message)}</span></li></ul></div></div>`);
    expect(message).toMatch(/^NVMe run/);
  });

  it('names the analysis version the app now runs when the link froze an earlier one', async () => {
    const c = await share({ title: 'old', runIds: [], plan });
    const stored = await t.store.insertComparison({
      title: 'old',
      runIds: [],
      plan,
      result: c.result,
      priceTableDate: c.priceTableDate,
      analysisVersion: '2000.1.0',
    });
    expect(stored.ok).toBe(true);
    const html = (await request(t.app).get(`/c/${stored.ok ? stored.value.id : ''}`)).text;
    expect(html).toContain('<dt>Analysis version</dt><dd>2000.1.0</dd>');
    expect(html).toContain(
      `do not alter them. This app now runs analysis version ${ANALYSIS_VERSION}; open it as a planning session to recompute.</p>`,
    );
  });

  it('unknown id, a store that is down or a record it cannot read → the frame without a head, never a 500', async () => {
    const unknown = await request(t.app).get('/c/BBBBBBBBBBBBBBBBBBBBBB');
    expect(unknown.status).toBe(200);
    expect(headOf(unknown.text)).toBe('');
    expect(unknown.text).toContain('<title>Blockwise — what storage to buy on AWS, and why</title>');

    const c = await share({ title: 'fine', runIds: [], plan });
    const record = (await t.store.getComparison(c.id))!;
    const get = vi.spyOn(t.store, 'getComparison');
    get.mockRejectedValueOnce(new StoreUnavailableError('database is down'));
    get.mockResolvedValueOnce({ ...record, result: { runs: 'nope' } });
    for (const what of ['store down', 'unreadable record']) {
      const res = await request(t.app).get(`/c/${c.id}`);
      expect(res.status, what).toBe(200);
      expect(headOf(res.text), what).toBe('');
      expect(res.text, what).toContain(`<link rel="preload" href="/api/comparisons/${c.id}"`);
    }
    expect((await request(t.app).get(`/c/${c.id}`)).text).toContain('>fine</h1>');
  });

  it('a link without demand: a hostile run name and benchmark label are escaped in the painted head and the script-free page', async () => {
    const hostileRun = `name=${encodeURIComponent(HOSTILE_TITLE)}&kind=ebs`;
    const file = 'fio/generated/c_randread_4k_libaio_qd32_timebased5s.json';
    const run = await upload(hostileRun, file);
    const benchmark = {
      ...CLOUDWATCH_PEAK,
      id: 'sb',
      label: HOSTILE_TITLE,
      role: 'capacity' as const,
      kind: 'sysbench' as const,
    };
    const plan = planSession({ observed: [benchmark] });
    const body = { title: 'capacity', runIds: [run], plan };
    const escaped = escapeHtml(HOSTILE_TITLE);
    const c = await share(body);
    expect(c.result.plans).toEqual([]);
    const painted = answerOf((await request(t.app).get(`/c/${c.id}`)).text);
    expect(painted).toContain(`<li>${escaped} (fio · EBS) delivered `);
    expect(painted).toContain(`<li>${escaped} (sysbench) delivered `);
    // Without the built web app: the script-free page's capacity block.
    const bare = await makeTestApp();
    try {
      const bareRun = await request(bare.app)
        .post(`/api/runs?${hostileRun}`)
        .set('Content-Type', 'application/json')
        .serialize(asIs)
        .send(fixture(file));
      expect(bareRun.status).toBe(201);
      const created = await request(bare.app)
        .post('/api/comparisons')
        .send({ ...body, runIds: [bareRun.body.id] });
      expect(created.status).toBe(201);
      const html = (await request(bare.app).get(`/c/${created.body.id}`)).text;
      expect(html).toContain('<strong>No demand yet.</strong>');
      expect(html).toContain(`<li>${escaped} (fio · EBS) delivered `);
      expect(html).toContain(`<li>${escaped} (sysbench) delivered `);
      for (const text of [painted, html]) {
        expect(text).not.toContain('<script>alert');
        expect(text).not.toContain(HOSTILE_TITLE);
      }
    } finally {
      await bare.close();
    }
  });

  it('a link saved before replay marks, holding typed-in peaks it was not sized on: the painted head names them', async () => {
    const file = 'fio/generated/c_randread_4k_libaio_qd32_timebased5s.json';
    const run = await upload('name=sat&kind=ebs&instanceType=r5.4xlarge', file);
    const session = planSession({
      observed: [CLOUDWATCH_PEAK],
      profileRef: `run:${run}`,
      instanceType: 'r5.4xlarge',
      candidates: [{ type: 'gp3', sizeGiB: 500, iops: 3000, throughputMiBps: 125 }],
    });
    const c = await share({ title: 'old web', runIds: [run], plan: session });
    expect(c.result.plans.length).toBeGreaterThan(0);
    // As the older web's POST was stored: no replaysLoad field.
    const { replaysLoad: _, ...legacy } = c.plan!;
    const stored = await t.store.insertComparison({
      title: 'old web',
      runIds: [run],
      plan: legacy,
      result: c.result,
      priceTableDate: c.priceTableDate,
      analysisVersion: c.analysisVersion,
    });
    if (!stored.ok) throw new Error(stored.error.message);
    const painted = answerOf((await request(t.app).get(`/c/${stored.value.id}`)).text);
    expect(painted).toContain(
      '<p><strong>Not sized on the workload’s demand.</strong> This link was sized on a benchmark run, not on the workload’s peaks “prod peak”',
    );
    expect(painted).not.toContain('No demand yet');
    expect(painted).not.toContain('What does the workload ask at its peak?');
    // The box's note agrees with its lead: demand held, not sized on — not "No demand".
    expect(painted).toContain(
      '<span class="answer__note">Not sized on its demand: what each storage delivered</span>',
    );
  });

  it('an invalid id never reaches the store', async () => {
    const get = vi.spyOn(t.store, 'getComparison');
    for (const path of ['/c/abc', `/c/${encodeURIComponent('"><script>alert(1)</script>')}`]) {
      const res = await request(t.app).get(path);
      expect(res.status).toBe(200);
      expect(headOf(res.text)).toBe('');
    }
    expect(get).not.toHaveBeenCalled();
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
