import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { Seeder } from './support/api.ts';
import { parseCsv } from './support/csv.ts';
import { artifactPath, fixtureBytes, fixturePath } from './support/fixtures.ts';
import { EBS_FIXTURE, GP3, gotoPlan, INSTANCE, seedNvmeVsEbs } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Issue 27, items 3 and 7: one answer everywhere, phone-first tables, print without blank charts.
 *
 * - The colleague's `/c/:id` on a 390 px phone shows what binds, what to buy and the monthly cost
 *   in the first viewport (bounding boxes inside the viewport's height), above the metadata and
 *   the runs table; the run page and a saved fleet plan open with the same answer box.
 * - At 390 px the decisive column of each table is on screen without scrolling it: What binds →
 *   Utilization, the shared Runs table → Write, Fleet → Recommended and Saving.
 * - Print media of the plan renders every chart (an SVG with marks in each chart frame), though
 *   the charts below the fold had not been mounted before.
 * - The CSV export starts with the answer rows.
 *
 * Screenshots: e2e/artifacts/answer-<view>-<width>.png.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** The element lies inside the first viewport: its bottom edge at most the viewport's height. */
async function expectInFirstViewport(page: Page, what: string, locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, `${what}: laid out`).not.toBeNull();
  const height = page.viewportSize()!.height;
  expect(box!.y, `${what}: top within the first screen`).toBeGreaterThanOrEqual(0);
  expect(
    box!.y + box!.height,
    `${what}: bottom (${Math.round(box!.y + box!.height)} px) within ${height} px`,
  ).toBeLessThanOrEqual(height);
}

/** A column header whose right edge is on screen at scroll 0 (not cut off by the table's scroller). */
async function expectColumnOnScreen(page: Page, table: Locator, name: string | RegExp) {
  const header = table.getByRole('columnheader', { name });
  // Down to the table, never sideways: the scroller (as wide as the page) is what moves into view.
  await table.evaluate((t) =>
    (t.closest('.table-scroll') ?? t).scrollIntoView({ block: 'start', inline: 'nearest' }),
  );
  const box = await header.boundingBox();
  expect(box, `column ${String(name)}: laid out`).not.toBeNull();
  const width = page.viewportSize()!.width;
  expect(box!.x, `column ${String(name)}: left edge on screen`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `column ${String(name)}: right edge ≤ ${width} px`).toBeLessThanOrEqual(width);
  // The column is the one on screen, not the scroller moved to it.
  const scrolled = await table.evaluate((t) => t.closest('.table-scroll')?.scrollLeft ?? 0);
  expect(scrolled, `${String(name)}: the table was not scrolled sideways`).toBe(0);
}

/** The answer box's lines, as the planning page says them. */
function answerLines(page: Page) {
  const answer = page.getByRole('region', { name: 'The answer' });
  return {
    answer,
    binds: answer
      .getByRole('listitem')
      .filter({ hasText: /binds|Not deliverable|asked for/ })
      .first(),
    buy: answer.getByRole('listitem').filter({ hasText: /^Provision / }),
    cost: answer
      .getByRole('listitem')
      .filter({ hasText: /\$[\d,.]+\/month/ })
      .first(),
  };
}

test('the colleague’s share link on a phone: the answer first, the decisive columns on screen, CSV opens with the answer', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const { comparison, ebs } = await seedNvmeVsEbs(new Seeder(request), 'Answer on a phone');
  for (const viewport of [PHONE, DESKTOP]) {
    const context = await browser.newContext({ viewport });
    const phone = await context.newPage();
    await phone.goto(`/c/${comparison.id}`);
    const { answer, binds, buy, cost } = answerLines(phone);
    await expect(answer).toBeVisible();
    await expect(buy).toContainText(/^Provision gp3 .* for \$[\d,.]+\/month/);
    // Sized on the workload's peaks saved with the runs, never on a run at saturation (issue 27).
    await expect(
      answer.getByText(/^Needs 11,327 IOPS and 712 MiB\/s: the peak plus 25% headroom/),
    ).toBeVisible();
    await expect(binds).toContainText(/on r5d\.4xlarge/);
    // The answer comes right under the heading, in the head the server paints before React
    // (share-static-head.spec.ts holds it still), before the banner and every section: in the
    // first viewport at 1280 px and on a 390 × 844 phone. Measured once React has taken over (its
    // sections are drawn): the server's copy is replaced then, and must not be measured mid-swap.
    await expect(phone.getByRole('region', { name: 'Runs', exact: true })).toHaveCount(1, {
      timeout: 20_000,
    });
    await expectInFirstViewport(
      phone,
      'the answer’s title',
      answer.getByRole('heading', { name: 'The answer' }),
    );
    await expectInFirstViewport(phone, 'what binds', binds);
    await expectInFirstViewport(phone, 'what to buy', buy);
    await expectInFirstViewport(phone, 'the monthly cost', cost);
    await expect(cost).toBeVisible();
    const runs = phone.getByRole('table', { name: 'Runs in this comparison' });
    expect((await runs.boundingBox())!.y).toBeGreaterThan((await buy.boundingBox())!.y);
    await phone.screenshot({ path: artifactPath(`answer-share-${viewport.width}.png`) });

    // The decisive columns: Write in the runs table, Utilization in What binds.
    await expectColumnOnScreen(phone, runs, 'Write');
    const limits = phone
      .getByRole('region', { name: 'What binds', exact: true })
      .getByRole('table', { name: /^What binds: / });
    await expectColumnOnScreen(phone, limits, 'Utilization');
    await phone.screenshot({ path: artifactPath(`answer-share-limits-${viewport.width}.png`) });
    await context.close();
  }

  // The CSV's first rows are the answer's lines, as the page says them.
  await page.goto(`/c/${comparison.id}`);
  // The server-painted head's buttons do nothing before React has taken over (its sections drawn).
  await expect(page.getByRole('region', { name: 'Runs', exact: true })).toHaveCount(1, { timeout: 20_000 });
  const buyText = (await answerLines(page).buy.textContent())!.replace(/\s*Right-size$/, '').trim();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const csv = parseCsv(await readFile((await (await download).path())!, 'utf8'));
  expect(csv[0]).toEqual(['section', 'item', 'metric', 'value', 'unit', 'note']);
  expect(csv[1]!.slice(0, 3)).toEqual(['answer', expect.any(String), 'needs']);
  const buyRow = csv.find((r) => r[0] === 'answer' && r[2] === 'what to buy');
  expect(buyRow?.[3]).toBe(buyText);
  const firstOther = csv.findIndex((r, i) => i > 0 && r[0] !== 'answer');
  expect(csv.slice(firstOther).some((r) => r[0] === 'answer')).toBe(false);

  // The run page opens with the same answer box.
  const context = await browser.newContext({ viewport: PHONE });
  const runPage = await context.newPage();
  await runPage.goto(`/runs/${ebs.id}`);
  const run = answerLines(runPage);
  await expect(run.answer).toBeVisible();
  await expectInFirstViewport(runPage, 'run page: what binds', run.binds);
  // An unpaced fio run is capacity evidence: what it delivered, never "Needs …" (issue 27 item 1).
  await expect(run.answer.getByText(/^Delivered [\d,]+ IOPS/)).toBeVisible();
  await expect(run.answer.getByText(/^Needs /)).toHaveCount(0);
  await runPage.screenshot({ path: artifactPath('answer-run-390.png') });
  await context.close();
});

test('a share link made through the API from runs alone: the unpaced benchmark delivered, never “Needs”, with and without scripts', async ({
  request,
  browser,
}) => {
  const seeder = new Seeder(request);
  const run = await seeder.uploadRun(
    fixtureBytes(EBS_FIXTURE),
    {
      kind: 'ebs',
      instanceType: INSTANCE,
      volumeType: 'gp3',
      volumeSizeGiB: GP3.sizeGiB,
      volumeIops: GP3.iops,
      volumeThroughputMiBps: GP3.throughputMiBps,
    },
    'unpaced.json',
  );
  const comparison = await seeder.createComparison({ title: 'Runs alone', runIds: [run.id] });
  for (const javaScriptEnabled of [false, true]) {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled });
    const page = await context.newPage();
    await page.goto(`/c/${comparison.id}`);
    if (javaScriptEnabled)
      await expect(page.getByRole('region', { name: 'Runs', exact: true })).toHaveCount(1, {
        timeout: 20_000,
      });
    const { answer, binds } = answerLines(page);
    await expect(
      answer.getByText(/^Delivered [\d,]+ IOPS and [\d,]+ MiB\/s — capacity evidence/),
    ).toBeVisible();
    await expect(answer.getByText(/^Needs /)).toHaveCount(0);
    await expect(answer.getByText(/^Provision /)).toHaveCount(0);
    await expectInFirstViewport(
      page,
      `runs alone (scripts ${javaScriptEnabled ? 'on' : 'off'}): what binds`,
      binds,
    );
    await page.screenshot({
      path: artifactPath(`answer-share-runs-alone-390-${javaScriptEnabled ? 'react' : 'static'}.png`),
    });
    await context.close();
  }
});

test('a share link saved from a session with capacity evidence only: what each storage delivered, peaks asked, never “Needs”', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  // The journeys' NVMe-vs-EBS pair, both at saturation, saved without the workload's peaks.
  const { comparison } = await seedNvmeVsEbs(new Seeder(request), 'Capacity only', { peaks: false });
  for (const viewport of [PHONE, DESKTOP])
    for (const javaScriptEnabled of [false, true]) {
      const context = await browser.newContext({ viewport, javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`/c/${comparison.id}`);
      if (javaScriptEnabled)
        await expect(page.getByRole('region', { name: 'Runs', exact: true })).toHaveCount(1, {
          timeout: 20_000,
        });
      const answer = page.getByRole('region', { name: 'The answer' });
      await expect(answer.getByText('No demand yet.')).toBeVisible();
      await expect(answer.getByText(/Needs/)).toHaveCount(0);
      await expect(answer.getByText(/^Provision /)).toHaveCount(0);
      const nvme = answer.getByText(
        / \(fio · NVMe\) delivered [\d,]+ IOPS and [\d,]+ MiB\/s \(read \+ write\)/,
      );
      const ebs = answer.getByText(
        / \(fio · EBS\) delivered [\d,]+ IOPS and [\d,]+ MiB\/s \(read \+ write\)/,
      );
      await expect(nvme).toBeVisible();
      await expect(ebs).toBeVisible();
      await expect(answer.getByText(/delivered [\d.]+× the IOPS of/)).toBeVisible();
      const ask = answer.getByText(/^What does the workload ask at its peak\?/);
      await expect(ask).toBeVisible();
      const where = `capacity only at ${viewport.width} px (scripts ${javaScriptEnabled ? 'on' : 'off'})`;
      await expectInFirstViewport(page, `${where}: what the NVMe run delivered`, nvme);
      await expectInFirstViewport(page, `${where}: what the EBS run delivered`, ebs);
      await page.screenshot({
        path: artifactPath(
          `answer-share-capacity-${viewport.width}-${javaScriptEnabled ? 'react' : 'static'}.png`,
        ),
      });
      await context.close();
    }
});

test('a saved fleet plan on a phone: the answer first, Recommended and Saving on screen', async ({
  request,
  browser,
}) => {
  const json = async (name: string): Promise<unknown> =>
    JSON.parse(await readFile(fixturePath(`fleet/${name}`), 'utf8'));
  const api = await request.post('/api/fleet/plans', {
    headers: { 'X-Forwarded-For': '198.51.100.27' },
    data: {
      volumes: await json('volumes.json'),
      instances: await json('instances.json'),
      metrics: [await json('metrics-1.json'), await json('metrics-2.json')],
      // Not fleet.spec.ts's body: the server answers an identical plan with the saved one (200),
      // and that journey expects to create its own (201).
      headroom: 0.3,
      statistic: 'max',
      region: 'us-east-1',
    },
  });
  expect(api.status()).toBe(201);
  const { id } = (await api.json()) as { id: string };
  for (const viewport of [PHONE, DESKTOP]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`/fleet/${id}`);
    const answer = page.getByRole('region', { name: 'The answer' });
    await expect(answer).toBeVisible();
    const binds = answer.getByRole('listitem').filter({ hasText: /under-provisioned/ });
    const buy = answer
      .getByRole('listitem')
      .filter({ hasText: /^Change \d+ volumes?: the fleet goes from \$[\d,.]+\/month to \$[\d,.]+\/month/ });
    await expectInFirstViewport(page, 'fleet: what binds', binds);
    await expectInFirstViewport(page, 'fleet: what to buy and the monthly cost', buy);
    await page.screenshot({ path: artifactPath(`answer-fleet-${viewport.width}.png`) });
    const table = page.getByRole('table', { name: /Volumes of the fleet/ });
    await table.evaluate((t) => t.closest('.table-scroll')?.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: artifactPath(`answer-fleet-table-${viewport.width}.png`) });
    await expectColumnOnScreen(page, table, /^Recommended/);
    await expectColumnOnScreen(page, table, /^Saving/);
    await context.close();
  }
});

test('print media of the plan renders every chart, those below the fold included', async ({ page }) => {
  test.setTimeout(90_000);
  await gotoPlan(page);
  const answer = page.getByRole('region', { name: 'The answer' });
  await answer.getByRole('button', { name: 'Try an example' }).click();
  await expect(answer.getByText(/^Needs /)).toBeVisible();
  const frames = page.locator('figure.chart-frame');
  await expect(frames, 'the charts of the example session').toHaveCount(5);
  const drawn = () =>
    frames.evaluateAll((figures) =>
      figures.map((f) => {
        const svgs = [...f.querySelectorAll('svg')].filter((s) => {
          const r = s.getBoundingClientRect();
          return r.width > 50 && r.height > 50 && s.querySelectorAll('path, rect, line').length > 0;
        });
        return svgs.length > 0;
      }),
    );
  // On screen, the charts far below the answer wait for the reader to scroll to them.
  expect((await drawn()).filter((d) => !d).length, 'charts not mounted before print').toBeGreaterThan(0);
  await page.emulateMedia({ media: 'print' });
  await expect.poll(drawn, { timeout: 20_000 }).toEqual([true, true, true, true, true]);
  // No section is skipped as off screen (content-visibility: auto paints nothing there in print).
  const skipped = await page
    .locator('.page--plan > section')
    .evaluateAll((sections) =>
      sections.filter((s) => getComputedStyle(s).contentVisibility === 'auto').map((s) => s.id),
    );
  expect(skipped, 'sections skipped in print').toEqual([]);
  await page.screenshot({ path: artifactPath('answer-plan-print-1280.png'), fullPage: true });
});
