import type { Page } from '@playwright/test';
import { basename } from 'node:path';
import { artifactPath, fixtureBytes } from './support/fixtures.ts';
import { EBS_FIXTURE, EBS_FILE, addFioFiles, gotoPlan } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Issue 27, item 4: the session's raw files survive a reload (IndexedDB, in the real Chromium).
 * A metrics export and a fio file → reload → the export comes back read again (its statistics,
 * its p99 choice), not as a typed-in card → Save & share uploads the fio file kept in the
 * browser (it failed with "the original file is no longer available") → the link opens. Adding
 * the same file again finds its card. At 1280 and 390 px, screenshots in e2e/artifacts/.
 */

const METRICS = 'metrics/iostat_12.6.1_x_t_C.txt';
const METRICS_FILE = basename(METRICS);

async function addMetricsFile(page: Page): Promise<void> {
  await page
    .getByLabel('Choose metrics files…')
    .setInputFiles({ name: METRICS_FILE, mimeType: 'text/plain', buffer: fixtureBytes(METRICS) });
}

const inputs = (page: Page) => page.getByRole('list', { name: /^In this session/ }).getByRole('listitem');
const metricsRegion = (page: Page) =>
  page.getByRole('region', { name: `Production metrics: ${METRICS_FILE}` });

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test('metrics import + fio file → reload → analysis intact → Save & share works → the link opens', async ({
      page,
      browser,
      baseURL,
      guard,
    }) => {
      test.setTimeout(150_000);
      await gotoPlan(page);
      await addMetricsFile(page);
      const region = metricsRegion(page);
      const stats = region.getByRole('table', { name: /each sizing statistic side by side/ });
      await expect(stats).toBeVisible({ timeout: 20_000 });
      await region.getByRole('radio', { name: /^P99 of the points/ }).check();
      await expect(page.getByText(/sized on the p99 of the points/).first()).toBeVisible();
      await addFioFiles(page, [EBS_FIXTURE]);
      await expect(inputs(page)).toHaveCount(2);
      await expect(inputs(page).filter({ hasText: EBS_FILE })).toContainText('IOPS', { timeout: 20_000 });
      await expect(stats).toContainText('Read IOPS');
      const statsText = await stats.textContent();
      // The stored copy is written a moment after the last change (and on unload).
      await page.waitForTimeout(800);

      // Unsaved work: the page asks before the reload, and the user says leave.
      guard.expectLeaveWarning();
      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Planning session' })).toBeVisible();
      await expect(inputs(page)).toHaveCount(2);
      // Read again from the kept file: the same statistics, the p99 choice, no "typed in" card.
      const again = metricsRegion(page).getByRole('table', { name: /each sizing statistic side by side/ });
      await expect(again).toBeVisible({ timeout: 20_000 });
      await expect.poll(() => again.textContent(), { timeout: 20_000 }).toBe(statsText);
      await expect(metricsRegion(page).getByRole('radio', { name: /^P99 of the points/ })).toBeChecked();
      await expect(inputs(page).filter({ hasText: 'typed in' })).toHaveCount(0);
      await page.screenshot({
        path: artifactPath(`kept-files-reloaded-${width}.png`),
        fullPage: width === 390,
      });

      // The same fio file added again: its card, not a second one.
      await addFioFiles(page, [EBS_FIXTURE]);
      await expect(page.getByText(`${EBS_FILE} is already in this session (the same bytes)`)).toBeVisible();
      await expect(inputs(page)).toHaveCount(2);

      const share = page.getByRole('region', { name: 'Share & export' });
      await share.getByRole('textbox', { name: 'Title (optional)' }).fill(`Kept files ${width}`);
      await share.getByRole('button', { name: 'Save & share' }).click();
      const link = share.getByRole('textbox', { name: 'Share link' });
      await expect(link).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText(/no longer available/)).toHaveCount(0);
      const url = await link.inputValue();
      expect(url).toMatch(new RegExp(`^${baseURL}/c/[A-Za-z0-9_-]{22}$`));

      const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
      try {
        const colleague = await context.newPage();
        await colleague.goto(url);
        await expect(colleague.getByRole('heading', { level: 1, name: `Kept files ${width}` })).toBeVisible();
        await expect(colleague.getByText('Shared comparison · read-only')).toBeVisible();
        // The fio run travelled as a stored run; the metrics export as its p99 peaks.
        await expect(colleague.getByRole('table', { name: 'Runs in this comparison' })).toContainText(
          EBS_FILE,
        );
        await expect(
          colleague.getByText(new RegExp(`${METRICS_FILE}.*p99 of the points`)).first(),
        ).toBeVisible();
        await colleague.screenshot({ path: artifactPath(`kept-files-shared-${width}.png`) });
      } finally {
        await context.close();
      }
    });
  });
}
