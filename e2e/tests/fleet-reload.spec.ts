import type { Page } from '@playwright/test';
import { artifactPath, fixturePath } from './support/fixtures.ts';
import { expect, test } from './support/test.ts';

/**
 * Issue 27, item 4, the Fleet page: the unsaved plan survives a reload (its files kept in
 * IndexedDB) and its view state lives in the address (sort, statistic, the table's filters) — a
 * reload keeps them; after saving, "Copy link" puts the share link on the clipboard, and that
 * link opens the same filtered table. At 1280 and 390 px (where the filters fold behind a
 * button and the Recommended and Saving columns stay in view).
 */

const FILES = ['volumes.json', 'instances.json', 'metrics-1.json', 'metrics-2.json'].map((f) =>
  fixturePath(`fleet/${f}`),
);

const table = (page: Page) => page.getByRole('table', { name: /Volumes of the fleet/ });
const shown = (page: Page) => page.getByTestId('fleet-shown');
const filterField = (page: Page, label: string) =>
  page.getByRole('group', { name: 'Filter the volumes' }).getByLabel(label, { exact: true });

/** The decisive columns are on screen (not scrolled off sideways) at the page's width. */
async function expectDecisiveColumnsInView(page: Page, width: number) {
  for (const name of [/^Recommended/, /^Saving \/ risk/]) {
    const box = await table(page).getByRole('columnheader', { name }).boundingBox();
    expect(box, `${String(name)} has a box`).not.toBeNull();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(width);
  }
}

/** On a phone the filters are folded behind one button: unfold them. */
async function openFilters(page: Page, width: number) {
  const toggle = page.getByRole('button', { name: /^Filters/ });
  if (width === 390) {
    await expect(filterField(page, 'Volume id or name')).toBeHidden();
    await toggle.click();
  } else {
    await expect(toggle).toBeHidden();
  }
  await expect(filterField(page, 'Volume id or name')).toBeVisible();
}

const volumeOrder = (page: Page) =>
  table(page)
    .locator('tr[data-volume-id]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-volume-id')));

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    test('fleet files → sort, statistic and filters in the address → reload keeps the plan and them → Save & share → Copy link opens the same filtered view', async ({
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
      const total = (await volumeOrder(page)).length;
      await expect(shown(page)).toHaveText(`${total} of ${total} volumes shown`);

      // Filters: the volumes on instance i-0app1 whose id or name has "vol-0".
      await openFilters(page, width);
      await filterField(page, 'Instance').selectOption('i-0app1');
      await filterField(page, 'Volume id or name').fill('vol-0');
      await expect(page).toHaveURL(/[?&]instance=i-0app1(&|$)/);
      await expect(page).toHaveURL(/[?&]q=vol-0(&|$)/);
      const order = await volumeOrder(page);
      expect(order.length).toBeGreaterThan(0);
      expect(order.length).toBeLessThan(total);
      const shownText = `${order.length} of ${total} volumes shown · the Fleet totals above are of all ${total}, not only these`;
      await expect(shown(page)).toHaveText(shownText);
      await expectDecisiveColumnsInView(page, width);
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
      await expect(shown(page)).toHaveText(shownText);
      await expect(page.getByTestId('fleet-saving')).toHaveText(saving);
      await expectDecisiveColumnsInView(page, width);
      // The filters are folded again on a phone after a reload, and say how many are on.
      if (width === 390) await expect(page.getByRole('button', { name: 'Filters (2 on)' })).toBeVisible();
      await openFilters(page, width);
      await expect(filterField(page, 'Instance')).toHaveValue('i-0app1');
      await expect(filterField(page, 'Volume id or name')).toHaveValue('vol-0');
      await page.screenshot({ path: artifactPath(`fleet-reloaded-${width}.png`) });

      await page.getByRole('button', { name: 'Save & share' }).click();
      // The share link carries the view (sort and filters), not the planning options.
      const link = page.getByRole('link', { name: /\/fleet\/[A-Za-z0-9_-]{22}\?\S+$/ });
      await expect(link).toBeVisible({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Copy link' }).click();
      await expect(page.getByText('Copied.')).toBeVisible();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(await link.innerText());
      expect(copied.startsWith(`${baseURL}/fleet/`)).toBe(true);
      expect(new URL(copied).searchParams.get('statistic')).toBeNull();

      // The copied link opens the saved plan with the same filtered, sorted table.
      const shared = await context.newPage();
      await shared.goto(copied);
      await expect(shared.getByRole('heading', { level: 1, name: /^Fleet plan:/ })).toBeVisible();
      await expect(table(shared)).toBeVisible({ timeout: 20_000 });
      expect(await volumeOrder(shared)).toEqual(order);
      await expect(shown(shared)).toHaveText(shownText);
      await expect(table(shared).getByRole('columnheader', { name: /^Volume/ })).toHaveAttribute(
        'aria-sort',
        'ascending',
      );
      await expectDecisiveColumnsInView(shared, width);
      await openFilters(shared, width);
      await expect(filterField(shared, 'Instance')).toHaveValue('i-0app1');
      await shared.screenshot({ path: artifactPath(`fleet-shared-filtered-${width}.png`) });
      await shared.close();

      // A hand-edited address with junk: each bad parameter is dropped alone, the page works.
      await page.goto('/fleet?status=fine&instance=../etc&type=GP3%3B&sort=size:up&q=vol-0io2');
      await expect(table(page)).toBeVisible({ timeout: 20_000 });
      expect(await volumeOrder(page)).toEqual(['vol-0io2']);
      await expect(shown(page)).toHaveText(
        `1 of ${total} volumes shown · the Fleet totals above are of all ${total}, not only these`,
      );
    });
  });
}
