import type { Locator, Page } from '@playwright/test';
import { Seeder, uniqueSuffix } from './support/api.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { fixtureBytes } from './support/fixtures.ts';
import { historyRunPath, seedHistorySeries } from './support/history.ts';
import { chartsDrawn, gotoPlan, planNvmeVsEbs, seedNvmeVsEbs } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * axe-core on every page — planning (empty and with data), share view, archive, run page, CI
 * history (series list, a series with a run's regression report open) — at
 * desktop width and at 360 px (where tables scroll), with no serious or critical violation
 * allowed; then a keyboard-only pass through the planning page's main controls.
 */

// axe is injected as an inline script, which the app's CSP refuses (see support/axe.ts).
test.use({ bypassCSP: true });

/** Opens every "Data table" disclosure so the tables behind the charts are scanned too. */
async function openDataTables(page: Page) {
  for (const summary of await page.getByLabel(/^Data table: /).all()) await summary.click();
}

/** One scan at desktop width, one at 360 px (where tables scroll and the layout stacks). */
async function scanAtBothWidths(page: Page, what: string) {
  await expectNoSeriousA11yViolations(page, `${what} at 1280 px`);
  await page.setViewportSize({ width: 360, height: 780 });
  await expectNoSeriousA11yViolations(page, `${what} at 360 px`);
}

test.describe('axe: no serious or critical violations', () => {
  test('planning page, empty', async ({ page }) => {
    await gotoPlan(page);
    await expect(page.getByText('Add data to start')).toBeVisible();
    await scanAtBothWidths(page, 'empty planning page');
  });

  test('planning page with an NVMe and an EBS run, a candidate and the typed-in form open', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await planNvmeVsEbs(page);
    await page.getByRole('button', { name: '+ gp3' }).click();
    await expect(page.getByRole('tab', { name: /^gp3 1000 GiB/ })).toBeVisible();
    await page.getByRole('button', { name: 'Type in metrics…' }).click();
    await chartsDrawn(page);
    await openDataTables(page);
    await scanAtBothWidths(page, 'planning page with data');
  });

  test('share view', async ({ page, request }) => {
    const { comparison } = await seedNvmeVsEbs(new Seeder(request), `a11y share ${uniqueSuffix()}`);
    await page.goto(comparison.url);
    await expect(page.getByText('Shared comparison · read-only')).toBeVisible();
    await chartsDrawn(page);
    await openDataTables(page);
    await scanAtBothWidths(page, 'share view');
  });

  test('archive', async ({ page, request }) => {
    await seedNvmeVsEbs(new Seeder(request), `a11y archive ${uniqueSuffix()}`);
    await page.goto('/runs');
    await expect(page.getByRole('table', { name: 'Archived runs' })).toBeVisible();
    await scanAtBothWidths(page, 'archive');
  });

  test('run page', async ({ page, request }) => {
    const { ebs } = await seedNvmeVsEbs(new Seeder(request), `a11y run ${uniqueSuffix()}`);
    await page.goto(`/runs/${ebs.id}`);
    await expect(page.getByRole('region', { name: 'What binds', exact: true })).toBeVisible();
    await chartsDrawn(page);
    await openDataTables(page);
    await scanAtBothWidths(page, 'run page');
  });

  test('CI history: the series list and a series with a regression report open', async ({
    page,
    request,
  }) => {
    const { series, degradedId } = await seedHistorySeries(new Seeder(request));
    await page.goto('/history');
    await expect(page.getByRole('link', { name: series, exact: true })).toBeVisible();
    await scanAtBothWidths(page, 'history: series list');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(historyRunPath(series, degradedId));
    await expect(page.getByRole('table', { name: /^Against \d+ runs on main/ })).toBeVisible();
    await chartsDrawn(page);
    await openDataTables(page);
    await scanAtBothWidths(page, 'history: series');
  });
});

/** Presses Tab until `target` has focus (at most `max` times); fails if it is never reached. */
async function tabTo(page: Page, target: Locator, max = 150): Promise<number> {
  // One handle for the whole walk: resolving a role locator on every press is slow on a big page.
  const element = await target.elementHandle();
  for (let i = 1; i <= max; i += 1) {
    await page.keyboard.press('Tab');
    if (await element!.evaluate((el) => el === document.activeElement)) return i;
  }
  throw new Error(`Tab never reached ${target}`);
}

test('keyboard only: upload, typed-in metrics, instance combobox, Save & share', async ({ page }) => {
  test.setTimeout(90_000);
  await gotoPlan(page);
  // Playwright intercepts file choosers once a 'filechooser' listener exists, and turns that on
  // without waiting for it: a listener added just before the key press lost that race on a busy
  // CI machine (Chromium's own dialog opened, no event, a 90 s timeout). Added here, the Tab walk
  // below gives it every round trip it needs.
  const noChooserYet = () => {};
  page.on('filechooser', noChooserYet);

  // The skip link comes first and moves focus to the main content.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();

  // Upload: the file input is reachable and opens the file chooser with Space.
  const upload = page.getByLabel('Choose fio files…');
  await tabTo(page, upload);
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press('Space');
  const fileChooser = await chooser;
  page.off('filechooser', noChooserYet);
  expect(fileChooser.isMultiple()).toBe(true);
  await fileChooser.setFiles({
    name: 'randread_4k.json',
    mimeType: 'application/json',
    buffer: fixtureBytes('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json'),
  });
  await expect(page.getByRole('group', { name: 'Labels for randread_4k.json' })).toBeVisible();

  // The typed-in form: opening it puts focus in its first field; Tab walks the fields; Enter submits.
  const typeIn = page.getByRole('button', { name: 'Type in metrics…' });
  await tabTo(page, typeIn);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Label (optional)' })).toBeFocused();
  await page.keyboard.type('keyboard peaks');
  for (const [name, value] of [
    ['Peak read IOPS', '3043'],
    ['Peak read throughput', '188'],
    ['Peak write IOPS', '6018'],
    ['Peak write throughput', '381'],
  ] as const) {
    await tabTo(page, page.getByRole('textbox', { name, exact: true }), 12);
    await page.keyboard.type(value);
  }
  await page.keyboard.press('Enter');
  const inputs = page.getByRole('list', { name: /^In this session/ });
  await expect(inputs.getByRole('listitem')).toHaveCount(2);
  await expect(inputs).toContainText('keyboard peaks');
  // Focus moves to what appeared — the answer at the top, which now reads the new peaks — not to
  // the top of the page (issue 14: "move focus to what appeared").
  await expect(page.getByRole('heading', { name: 'The answer', level: 2 })).toBeFocused();

  // The instance combobox: type, arrows move the active option, Enter picks it.
  const combobox = page.getByRole('combobox', { name: 'Instance type for the plan' });
  await tabTo(page, combobox);
  await page.keyboard.type('r5d.');
  await expect(combobox).toHaveAttribute('aria-expanded', 'true');
  const listbox = page.getByRole('listbox', { name: 'Instance type for the plan options' });
  await expect(listbox.getByRole('option').first()).toContainText('r5d.');
  const active = async () => {
    const id = await combobox.getAttribute('aria-activedescendant');
    return id ? ((await listbox.locator(`[id="${id}"]`).innerText()).split(/\s/)[0] ?? null) : null;
  };
  const seen: (string | null)[] = [];
  for (let i = 0; i < 20 && seen.at(-1) !== 'r5d.4xlarge'; i += 1) {
    await page.keyboard.press('ArrowDown');
    seen.push(await active());
  }
  expect(seen.at(-1), `ArrowDown walked ${seen.join(' → ')}`).toBe('r5d.4xlarge');
  expect(seen.length).toBeGreaterThan(1);
  await page.keyboard.press('ArrowUp');
  expect(await active()).toBe(seen.at(-2));
  await page.keyboard.press('ArrowDown');
  expect(await active()).toBe('r5d.4xlarge');
  await page.keyboard.press('Enter');
  await expect(combobox).toHaveValue('r5d.4xlarge');
  await expect(combobox).toHaveAttribute('aria-expanded', 'false');
  await expect(combobox).toBeFocused();

  // Save & share is in the tab order and works from the keyboard.
  const save = page.getByRole('button', { name: 'Save & share' });
  await tabTo(page, save);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Share link' })).toHaveValue(/\/c\/[A-Za-z0-9_-]{22}$/, {
    timeout: 20_000,
  });
});
