import type { Page } from '@playwright/test';
import { Seeder, uniqueSuffix } from './support/api.ts';
import { chartsDrawn, gotoPlan, planNvmeVsEbs, seedNvmeVsEbs } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * At 360 px (a small phone) no page scrolls sideways: wide tables scroll inside their own
 * region, long run and file names wrap. Checked on every page, with data, with the lazy charts
 * drawn and the data tables open.
 */

test.use({ viewport: { width: 360, height: 780 } });

async function expectNoHorizontalScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => {
    const width = window.innerWidth;
    // For the failure message: the outermost elements that stick out of the viewport.
    const out = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= width + 0.5)
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}: ${(el.textContent ?? '').slice(0, 60)}`,
      );
    return { scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: width, culprits: out };
  });
  expect(
    scrollWidth,
    `${what}: page wider than the viewport; sticking out: ${culprits.join(' | ')}`,
  ).toBeLessThanOrEqual(innerWidth);
}

async function openDataTables(page: Page) {
  for (const summary of await page.getByLabel(/^Data table: /).all()) await summary.click();
}

test('planning page, empty and with data', async ({ page }) => {
  test.setTimeout(90_000);
  await gotoPlan(page);
  await expectNoHorizontalScroll(page, 'empty planning page');
  await page.getByRole('button', { name: 'Type in metrics…' }).click();
  await expectNoHorizontalScroll(page, 'planning page with the typed-in form');
  await page.getByRole('button', { name: 'Cancel' }).click();

  await planNvmeVsEbs(page);
  await page.getByRole('button', { name: '+ gp3' }).click();
  await expect(page.getByRole('tab', { name: /^gp3 1000 GiB/ })).toBeVisible();
  await chartsDrawn(page);
  await expectNoHorizontalScroll(page, 'planning page with data');
  await openDataTables(page);
  await expectNoHorizontalScroll(page, 'planning page with the data tables open');
  // The instance list pops up over the page, not beside it.
  const combobox = page.getByRole('combobox', { name: 'Instance type for the plan' });
  await combobox.fill('r5d');
  await expect(page.getByRole('listbox', { name: 'Instance type for the plan options' })).toBeVisible();
  await expectNoHorizontalScroll(page, 'planning page with the instance list open');
});

test('share view, archive and run page', async ({ page, request }) => {
  test.setTimeout(90_000);
  const seeder = new Seeder(request);
  const { comparison, ebs } = await seedNvmeVsEbs(seeder, `layout ${uniqueSuffix()}`);

  await page.goto(comparison.url);
  await expect(page.getByText('Shared comparison · read-only')).toBeVisible();
  await chartsDrawn(page);
  await expectNoHorizontalScroll(page, 'share view');
  await openDataTables(page);
  await expectNoHorizontalScroll(page, 'share view with the data tables open');

  await page.goto('/runs');
  await expect(page.getByRole('table', { name: 'Archived runs' })).toBeVisible();
  await expectNoHorizontalScroll(page, 'archive');

  await page.goto(`/runs/${ebs.id}`);
  await expect(page.getByRole('region', { name: 'What binds', exact: true })).toBeVisible();
  await chartsDrawn(page);
  await expectNoHorizontalScroll(page, 'run page');
});
