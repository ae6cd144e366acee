import { Seeder } from './support/api.ts';
import { seedHistorySeries } from './support/history.ts';
import { escapeRegExp } from './support/oracle.ts';
import { expect, test } from './support/test.ts';

/**
 * Journeys (issue 14): the run page CI prints shows the regression gate's verdict; on a 390 px
 * phone the history table keeps each run's gate verdict in view.
 */

test('the run page shows the gate verdict: failed on the degraded branch, with the way to its history', async ({
  page,
  request,
}) => {
  const { series, degradedId } = await seedHistorySeries(new Seeder(request));
  await page.goto(`/runs/${degradedId}`);
  const gate = page.getByRole('region', { name: 'Regression gate' });
  await expect(gate).toHaveAttribute('data-verdict', 'regression');
  await expect(gate).toContainText('Gate failed');
  await expect(gate).toContainText(/regression: .* vs /);
  await gate.getByRole('link', { name: `History of ${series}` }).click();
  await expect(page).toHaveURL(
    new RegExp(`/history/${escapeRegExp(encodeURIComponent(series))}\\?.*run=${degradedId}`),
  );
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the history table keeps the gate column in view while the numbers scroll', async ({
    page,
    request,
  }) => {
    const { series } = await seedHistorySeries(new Seeder(request));
    await page.goto(`/history/${encodeURIComponent(series)}`);
    const table = page.getByRole('table', { name: `Runs of ${series}, newest first` });
    await expect(table.getByText('checking…')).toHaveCount(0);
    const firstGate = table.locator('tbody tr').first().locator('td').first();
    await expect(firstGate.locator('.badge')).toHaveText('regression');
    const inView = async () => {
      const box = await firstGate.boundingBox();
      return box !== null && box.x >= 0 && box.x + box.width <= 390;
    };
    expect(await inView()).toBe(true);
    // Scroll the table's region to its far right: the gate verdict stays put.
    await page
      .getByRole('region', { name: `Runs of ${series}, newest first` })
      .evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(inView).toBe(true);
    await table.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/ux-details-history-390.png' });
  });
});
