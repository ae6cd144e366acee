import type { Page } from '@playwright/test';
import { artifactPath, fixturePath } from './support/fixtures.ts';
import { expect, test } from './support/test.ts';

/**
 * Issue 27, item 4, the Fleet page: the unsaved plan survives a reload (its files kept in
 * IndexedDB) and its view state lives in the address (sort, statistic) — a reload keeps both;
 * after saving, "Copy link" puts the share link on the clipboard. At 1280 and 390 px.
 */

const FILES = ['volumes.json', 'instances.json', 'metrics-1.json', 'metrics-2.json'].map((f) =>
  fixturePath(`fleet/${f}`),
);

const table = (page: Page) => page.getByRole('table', { name: /Volumes of the fleet/ });
const volumeOrder = (page: Page) =>
  table(page)
    .locator('tr[data-volume-id]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-volume-id')));

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test('fleet files → sort and statistic in the address → reload keeps the plan and both → Save & share → Copy link', async ({
      page,
      context,
      baseURL,
    }) => {
      test.setTimeout(120_000);
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto('/fleet');
      await expect(page.getByRole('heading', { level: 1, name: 'Fleet' })).toBeVisible();
      await page.getByLabel('Choose files').setInputFiles(FILES);
      await expect(table(page)).toBeVisible();

      await page.getByLabel('Statistic').selectOption('p99');
      await table(page)
        .getByRole('button', { name: /^Volume/ })
        .click();
      await expect(page).toHaveURL(/[?&]statistic=p99(&|$)/);
      await expect(page).toHaveURL(/[?&]sort=volume%3Aascending(&|$)/);
      const header = table(page).getByRole('columnheader', { name: /^Volume/ });
      await expect(header).toHaveAttribute('aria-sort', 'ascending');
      const order = await volumeOrder(page);
      const saving = await page.getByTestId('fleet-saving').innerText();
      // The files are kept a moment after the last drop.
      await page.waitForTimeout(800);

      await page.reload();
      await expect(page.getByRole('heading', { level: 1, name: 'Fleet' })).toBeVisible();
      await expect(table(page)).toBeVisible({ timeout: 20_000 });
      await expect(page.getByRole('list', { name: 'Files' }).getByRole('listitem')).toHaveCount(4);
      await expect(page.getByLabel('Statistic')).toHaveValue('p99');
      await expect(table(page).getByRole('columnheader', { name: /^Volume/ })).toHaveAttribute(
        'aria-sort',
        'ascending',
      );
      expect(await volumeOrder(page)).toEqual(order);
      await expect(page.getByTestId('fleet-saving')).toHaveText(saving);
      await page.screenshot({ path: artifactPath(`fleet-reloaded-${width}.png`) });

      await page.getByRole('button', { name: 'Save & share' }).click();
      const link = page.getByRole('link', { name: /\/fleet\/[A-Za-z0-9_-]{22}$/ });
      await expect(link).toBeVisible({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Copy link' }).click();
      await expect(page.getByText('Copied.')).toBeVisible();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(await link.innerText());
      expect(copied.startsWith(`${baseURL}/fleet/`)).toBe(true);
    });
  });
}
