import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { Seeder, uniqueSuffix, type Labels } from './support/api.ts';
import { formulaCells, parseCsv } from './support/csv.ts';
import { fixtureBytes } from './support/fixtures.ts';
import { addFioFiles } from './support/planning.ts';
import { expect, Guard, test } from './support/test.ts';
import { FORMULA_START, XSS_PAYLOADS } from './support/xss-payloads.ts';

/**
 * Security in the browser (docs/performance.md R9/R10). Runs whose fio job names, file names, run
 * names, branches — and comparisons whose titles — hold the XSS corpus are uploaded through the
 * API as CI would, then shown by every page: the archive (all pages), every run page, share views,
 * planning sessions opened from them. Passing means: 0 dialogs, 0 script errors, 0 CSP violations
 * (the guard in support/test.ts), no injected element or handler in the DOM, every payload visible
 * as text, raw downloads with RFC 6266 file names, and CSV exports whose cells cannot run as
 * formulas (= + - @ TAB CR get a leading quote), downloaded with the pages' own Export CSV button.
 */

const TEMPLATE = 'fio/generated/c_randread_4k_libaio_qd32_timebased5s.json';
/** A run with no name and no file name: its fio job name is what the planning page shows. */
const JOBNAME_ONLY = '<img src=x onerror=alert("jobname")>';
const CHUNK = 20; // runs per comparison (the API's maximum)

type Seeded = { payload: string; id: string; kind: 'nvme' | 'ebs'; named: boolean };

/** Text as the page renders it: white space runs (a TAB inside a payload) collapse to one space. */
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The fixture with the payload as its job name (in the job and in its options). */
function fioWithJobName(jobName: string): string {
  const doc = JSON.parse(fixtureBytes(TEMPLATE).toString('utf8')) as {
    jobs: { jobname: string; 'job options'?: Record<string, string> }[];
  };
  for (const job of doc.jobs) {
    job.jobname = jobName;
    if (job['job options']) job['job options'].name = jobName;
  }
  return JSON.stringify(doc, null, 2);
}

/**
 * Every payload appears, as text, in the page's text. textContent, not innerText: regions off
 * screen are not laid out (content-visibility: auto) and innerText reads nothing from them.
 */
async function expectShownAsText(page: Page, payloads: readonly string[], what: string) {
  const text = norm((await page.locator('body').textContent()) ?? '');
  const missing = payloads.filter((p) => !text.includes(norm(p)));
  expect(missing, `${what}: payloads not shown as text`).toEqual([]);
}

/** No element, attribute or URL that a payload could have injected is in the DOM. */
async function expectNoInjectedMarkup(page: Page, what: string) {
  const found = await page.evaluate(() => {
    const selectors = [
      'body script',
      'iframe',
      'object',
      'embed',
      'base',
      'meta[http-equiv]',
      'style:not(head style)',
      'math',
      'xss',
      'marquee',
      'video',
      'audio',
      'form[action]',
      'a[href^="javascript:" i]',
      'img[src="x"]',
      '[onerror]',
      '[onload]',
      '[onmouseover]',
      '[onfocus]',
      '[ontoggle]',
      '[onstart]',
      '[onclick]',
      '[srcdoc]',
      '[style*="javascript:" i]',
      '[style*="expression(" i]',
    ];
    return selectors.flatMap((s) =>
      [...document.querySelectorAll(s)].map((e) => `${s} → ${e.outerHTML.slice(0, 100)}`),
    );
  });
  expect(found, `${what}: markup injected into the DOM`).toEqual([]);
  expect(await Guard.windowViolations(page), `${what}: CSP violations recorded on window`).toEqual([]);
}

async function downloadCsv(page: Page): Promise<string[][]> {
  const download = page.waitForEvent('download');
  await page.getByRole('group', { name: 'Export' }).getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^[a-z0-9-]+\.csv$/);
  return parseCsv(readFileSync((await file.path())!, 'utf8'));
}

/** A CSV cell as the export must write a name: prefixed with ' when a spreadsheet would evaluate it. */
const defused = (s: string) => (FORMULA_START.test(s) ? `'${s}` : s);

function expectDefused(rows: string[][], names: { name: string; item: string }[], what: string) {
  expect(formulaCells(rows), `${what}: cells a spreadsheet would evaluate`).toEqual([]);
  const items = new Set(rows.filter((r) => r[0] === 'run').map((r) => r[1]));
  const missing = names.filter((n) => !items.has(n.item));
  expect(missing, `${what}: run rows named exactly (defused) after the payloads`).toEqual([]);
}

async function seed(request: APIRequestContext, series: string): Promise<Seeded[]> {
  const seeder = new Seeder(request);
  const seeded: Seeded[] = [];
  const jobOnly = await seeder.uploadRun(fioWithJobName(JOBNAME_ONLY), { kind: 'nvme', series });
  seeded.push({ payload: JOBNAME_ONLY, id: jobOnly.id, kind: 'nvme', named: false });
  for (const [i, payload] of XSS_PAYLOADS.entries()) {
    const kind = i % 2 === 0 ? 'ebs' : 'nvme';
    const labels: Labels = {
      name: payload,
      kind,
      instanceType: 'r5d.4xlarge',
      series,
      branch: payload,
      ...(kind === 'ebs'
        ? { volumeType: 'gp3', volumeSizeGiB: 1000, volumeIops: 16000, volumeThroughputMiBps: 1000 }
        : {}),
    };
    const run = await seeder.uploadRun(fioWithJobName(payload), labels, `${payload}.json`);
    seeded.push({ payload, id: run.id, kind, named: true });
  }
  return seeded;
}

test('XSS payloads in job names, file names and labels are text everywhere; CSV exports are defused', async ({
  page,
  request,
  guard,
}) => {
  test.setTimeout(300_000);
  expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50);
  expect(new Set(XSS_PAYLOADS).size).toBe(XSS_PAYLOADS.length);
  for (const p of XSS_PAYLOADS) {
    expect(p, 'labels are trimmed by the API').toBe(p.trim());
    expect(p.length, 'labels hold at most 200 characters').toBeLessThanOrEqual(200);
  }

  const series = `xss-${uniqueSuffix()}`;
  const seeded = await test.step('upload the runs through the API', () => seed(request, series));
  const named = seeded.filter((s) => s.named);

  await test.step('raw downloads name their files per RFC 6266', async () => {
    for (const s of named) {
      const res = await request.get(`/api/runs/${s.id}/raw`, {
        headers: { 'X-Forwarded-For': '192.0.2.10' },
      });
      expect(res.status()).toBe(200);
      const disposition = res.headers()['content-disposition'] ?? '';
      const m = /^attachment; filename="([\x20-\x7e]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]*)$/.exec(
        disposition,
      );
      expect(m, `Content-Disposition of ${s.payload}: ${disposition}`).not.toBeNull();
      expect(m![1]).not.toMatch(/["\\]/);
      expect(decodeURIComponent(m![2]!)).toBe(`${s.payload}.json`);
    }
  });

  await test.step('archive (every page) and each run page', async () => {
    await page.goto(`/runs?series=${encodeURIComponent(series)}`);
    const table = page.getByRole('table', { name: 'Archived runs' });
    const links = table.getByRole('rowheader').getByRole('link');
    const shown: string[] = [];
    let visited = 0;
    for (let pageNo = 1; ; pageNo += 1) {
      await expect(links.first()).toBeVisible();
      const names = (await links.allInnerTexts()).map(norm);
      shown.push(...names);
      // In the archive's order (newest first).
      const here = names.map((n) => {
        const s = seeded.find((x) => (x.named ? norm(x.payload) : `Run ${x.id.slice(0, 8)}`) === n);
        expect(s, `an archived run named ${n}`).toBeDefined();
        return s!;
      });
      expect(here).toHaveLength(names.length);
      await expectShownAsText(
        page,
        here.filter((s) => s.named).map((s) => s.payload),
        `archive page ${pageNo}`,
      );
      for (const s of here.filter((x) => x.named))
        await expect(
          page.getByRole('button', { name: `Add to session: ${s.payload}`, exact: true }),
        ).toHaveCount(1);
      await expectNoInjectedMarkup(page, `archive page ${pageNo}`);

      // Run pages, reached the way a user does: from the link, then back. Every payload is rendered
      // by the archive, the share views and the planning sessions; the run page (same components,
      // one name at a time) is opened for every fourth payload and the run named by its job.
      for (const [i, s] of here.entries()) {
        if (s.named && seeded.indexOf(s) % 4 !== 1) continue;
        const title = s.named ? s.payload : `Run ${s.id.slice(0, 8)}`;
        await links.nth(i).click();
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(norm(title));
        expect(page.url()).toMatch(new RegExp(`/runs/${s.id}$`));
        await expect(page).toHaveTitle(`${norm(title)} — Blockwise`);
        if (s.named) {
          const file = page.getByRole('link', { name: norm(`${s.payload}.json`), exact: true });
          await expect(file).toHaveAttribute('download', `${s.payload}.json`);
          await expectShownAsText(page, [s.payload, `${series} · ${s.payload}`], `run page of ${s.payload}`);
        }
        // Charts are drawn when scrolled near: the latency chart (series named by the payload) is.
        const latency = page.getByRole('region', { name: 'Latency', exact: true });
        await latency.scrollIntoViewIfNeeded();
        await expect(latency.locator('svg').first()).toBeVisible();
        await expectNoInjectedMarkup(page, `run page of ${s.payload}`);
        visited += 1;
        await page.goBack();
        await expect(links.nth(i)).toBeVisible();
      }

      const next = page
        .getByRole('navigation', { name: 'Pages of runs' })
        .getByRole('link', { name: 'Next page' });
      if ((await next.count()) === 0) break;
      await next.click();
      await expect(links.first()).not.toHaveText(names[0]!);
    }
    expect(visited).toBeGreaterThanOrEqual(Math.floor(XSS_PAYLOADS.length / 4));
    expect(shown.sort()).toEqual(
      seeded.map((s) => (s.named ? norm(s.payload) : `Run ${s.id.slice(0, 8)}`)).sort(),
    );
  });

  const seeder = new Seeder(request);
  for (let start = 0, k = 0; start < seeded.length; start += CHUNK, k += 1) {
    const chunk = seeded.slice(start, start + CHUNK);
    const title = XSS_PAYLOADS[(k * 7) % XSS_PAYLOADS.length]!;
    const last = start + CHUNK >= seeded.length;

    await test.step(`share view ${k + 1}: ${chunk.length} runs, titled ${title}`, async () => {
      const comparison = await seeder.createComparison({ title, runIds: chunk.map((s) => s.id) });
      await page.goto(comparison.url);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(norm(title));
      await expect(page).toHaveTitle(`${norm(title)} — Blockwise`);
      const runs = page.getByRole('table', { name: 'Runs in this comparison' });
      await expect(runs.getByRole('row')).toHaveCount(chunk.length + 1);
      await expectShownAsText(
        page,
        [title, ...chunk.filter((s) => s.named).map((s) => s.payload)],
        'share view',
      );
      await expect(page.getByRole('status').filter({ hasText: /^Loading chart/ })).toHaveCount(0);
      await expectNoInjectedMarkup(page, `share view ${k + 1}`);
      const csv = await downloadCsv(page);
      expectDefused(
        csv,
        chunk.map((s, i) => ({
          name: s.payload,
          item: `${s.named ? defused(s.payload) : `run ${i + 1}`} (${s.kind})`,
        })),
        `share view ${k + 1} CSV`,
      );
    });

    await test.step(`planning session ${k + 1} opened from the share view`, async () => {
      await page.getByRole('button', { name: 'Open as a new planning session' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Planning session' })).toBeVisible();
      const inputs = page.getByRole('list', { name: /^In this session/ });
      await expect(inputs.getByRole('listitem')).toHaveCount(chunk.length);
      // Every input analysed (its headline comes from the same analysis the page and export show).
      await expect(inputs.getByRole('listitem').filter({ hasText: 'read:' })).toHaveCount(chunk.length);
      await expect(page.getByRole('region', { name: 'NVMe vs EBS', exact: true })).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Loading chart/ })).toHaveCount(0);
      await expectShownAsText(
        page,
        chunk.filter((s) => s.named).map((s) => s.payload),
        'planning page',
      );
      if (k === 0)
        await expect(page.getByRole('region', { name: 'I/O profile', exact: true })).toContainText(
          JOBNAME_ONLY,
        );
      await expectNoInjectedMarkup(page, `planning session ${k + 1}`);

      if (last) {
        // Names a spreadsheet reads as formulas even after a TAB or CR: local files can carry them.
        // Different bytes (a trailing newline on one): the same bytes twice are one card by design.
        const local = ['\t=1+2.json', '\r@SUM(1+9).json'].map((name, n) => ({
          name,
          mimeType: 'application/json',
          buffer: Buffer.concat([fixtureBytes(TEMPLATE), Buffer.from('\n'.repeat(n))]),
        }));
        await addFioFiles(page, local);
        await expect(inputs.getByRole('listitem')).toHaveCount(chunk.length + local.length);
        // Read and analysed (the headline comes from the analysis the export uses).
        for (const name of ['=1+2.json', '@SUM(1+9).json'])
          await expect(inputs.getByRole('listitem').filter({ hasText: name })).toContainText('read:');
      }
      const csv = await downloadCsv(page);
      expectDefused(
        csv,
        [
          ...chunk.map((s) => ({
            name: s.payload,
            item: `${s.named ? defused(s.payload) : `run ${s.id}`} (${s.kind})`,
          })),
          ...(last
            ? [
                { name: 'TAB', item: "'\t=1+2.json" },
                { name: 'CR', item: "'\r@SUM(1+9).json" },
              ]
            : []),
        ],
        `planning session ${k + 1} CSV`,
      );
    });
  }

  expect(guard.dialogs, 'dialogs opened by a payload').toEqual([]);
  expect(guard.pageErrors, 'uncaught errors').toEqual([]);
  expect(guard.consoleErrors, 'console errors').toEqual([]);
  expect(guard.cspViolations, 'securitypolicyviolation events').toEqual([]);
});
