import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { fixturePath } from './support/fixtures.ts';
import { fact } from './support/planning.ts';
import { expect, Guard, test } from './support/test.ts';

/**
 * Journey (issue 17): drop the generated fleet (fixtures/fleet: describe-volumes, describe-instances,
 * two get-metric-data pages) on the Fleet page → the under-provisioned volume is a risk, the one on
 * an m5.large names the instance's cap, the one without points is listed → the fleet saving is what
 * the server computes from the same files → Save & share → the link, in a new browser context,
 * shows the same numbers read-only.
 */

const FILES = ['volumes.json', 'instances.json', 'metrics-1.json', 'metrics-2.json'].map((f) =>
  fixturePath(`fleet/${f}`),
);

const rowOf = (page: Page, volumeId: string): Locator =>
  page.getByRole('table', { name: /Volumes of the fleet/ }).locator(`tr[data-volume-id="${volumeId}"]`);

/** The numbers a reviewer checks, as one page shows them. */
async function keyNumbers(page: Page) {
  const text = async (l: Locator) => (await l.innerText()).replace(/\s+/g, ' ').trim();
  return {
    saving: await text(page.getByTestId('fleet-saving')),
    risks: await text(page.getByTestId('fleet-risks')),
    volumes: await text(page.getByTestId('fleet-volumes')),
    under: await text(rowOf(page, 'vol-0under')),
    capped: await text(rowOf(page, 'vol-0capped')),
    prices: await text(fact(page, 'Prices')),
  };
}

test('fleet files → risks, instance cap, no-data volume, fleet saving → Save & share → the link shows the same numbers', async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await page.goto('/fleet');
  await expect(page.getByRole('heading', { level: 1, name: 'Fleet' })).toBeVisible();
  await page.getByLabel('Choose files').setInputFiles(FILES);

  const table = page.getByRole('table', { name: /Volumes of the fleet/ });
  await expect(table).toBeVisible();
  await expect(rowOf(page, 'vol-0under')).toContainText('Under-provisioned (risk)');
  await expect(rowOf(page, 'vol-0under')).toContainText('Risk:');
  // The m5.large's EBS limit binds before the gp3 volume's own: the row names the instance.
  await expect(rowOf(page, 'vol-0capped')).toContainText('m5.large');
  await expect(rowOf(page, 'vol-0capped')).toContainText(/m5\.large's .*EBS/);
  await expect(rowOf(page, 'vol-0nodata')).toContainText('No data');
  await expect(page.getByRole('region', { name: 'Volumes without enough data' })).toContainText(
    'vol-0nodata',
  );

  // The server plans the same files with the same shared planner: the page's total is its total.
  const json = async (name: string): Promise<unknown> =>
    JSON.parse(await readFile(fixturePath(`fleet/${name}`), 'utf8'));
  const api = await request.post('/api/fleet/plans', {
    headers: { 'X-Forwarded-For': '198.51.100.17' },
    data: {
      volumes: await json('volumes.json'),
      instances: await json('instances.json'),
      metrics: [await json('metrics-1.json'), await json('metrics-2.json')],
      headroom: 0.25,
      statistic: 'max',
      region: 'us-east-1',
    },
  });
  expect(api.status()).toBe(201);
  const { plan } = (await api.json()) as {
    plan: { totals: { fleet: { savingUsdPerMonth: number; riskCount: number } } };
  };
  const usd = plan.totals.fleet.savingUsdPerMonth.toLocaleString('en-US', {
    style: 'currency',
    currency: 'USD',
  });
  await expect(page.getByTestId('fleet-saving')).toHaveText(`${usd}/month`);
  await expect(page.getByTestId('fleet-risks')).toHaveText(
    new RegExp(`^${plan.totals.fleet.riskCount} volume`),
  );
  // The known numbers of the generated fleet (fixtures/fleet/README.md), not only page = server.
  await expect(page.getByTestId('fleet-saving')).toHaveText('$764.50/month');
  await expect(rowOf(page, 'vol-0io2')).toContainText('$1,362.50/month');
  await expect(rowOf(page, 'vol-0io2')).toContainText('$712.50/month');
  await expect(rowOf(page, 'vol-0unattached')).toContainText('see Unused');

  // Sorting by keyboard: the header button, aria-sort on the header.
  const saving = table.getByRole('columnheader', { name: /Saving \/ risk/ });
  await saving.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(saving).toHaveAttribute('aria-sort', 'descending');

  const planned = await keyNumbers(page);
  expect(planned.prices).toMatch(/^\(us-east-1 prices of \d{4}-\d{2}-\d{2}/);

  await page.getByRole('button', { name: 'Save & share' }).click();
  // The link carries the table's view (here the sort by saving): the reviewer sees it as shown.
  const link = page.getByRole('link', { name: /\/fleet\/[A-Za-z0-9_-]{22}\?sort=saving%3Adescending$/ });
  await expect(link).toBeVisible({ timeout: 20_000 });
  const url = await link.innerText();
  expect(url).toMatch(
    new RegExp(
      `^${baseURL!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/fleet/[A-Za-z0-9_-]{22}\\?sort=saving%3Adescending$`,
    ),
  );

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const reviewer = await context.newPage();
    const guard = new Guard();
    await guard.watch(reviewer);
    await reviewer.goto(url);
    await expect(reviewer.getByText('Shared fleet plan · read-only')).toBeVisible();
    await expect(reviewer.getByRole('table', { name: /Volumes of the fleet/ })).toBeVisible();
    const shared = await keyNumbers(reviewer);
    expect(shared).toEqual(planned);
    await expect(reviewer.getByRole('button', { name: 'Save & share' })).toHaveCount(0);
    guard.expectClean('the shared fleet plan');
  } finally {
    await context.close();
  }
});
