import { Seeder } from './support/api.ts';
import { DEGRADED, HISTORY_JOB, historyRunPath, seedHistorySeries } from './support/history.ts';
import { oracle, escapeRegExp } from './support/oracle.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey (issue 6): CI has been uploading one fio job to a series — six main-branch runs with a
 * few percent of run-to-run noise, then a healthy feature branch and one on a degraded volume
 * (30 % fewer IOPS and MiB/s, 60 % higher latency; support/history.ts). A reviewer opens CI
 * history → the series → sees a chart per metric family and exactly one run flagged → opens that
 * run's report (every metric regressed, Δ ≈ −30 % on IOPS) → filters by branch → opens the frozen
 * comparison with the baseline → opens the run itself. Expected IOPS come from the fixture's oracle.
 */

const expected = oracle(HISTORY_JOB);

test('CI history: the degraded branch is the one run flagged, with its report and baseline comparison', async ({
  page,
  request,
}) => {
  const { series, degradedId } = await seedHistorySeries(new Seeder(request));

  // CI history → the series.
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/history/i);
  await page.getByRole('link', { name: series, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/history/${escapeRegExp(series)}$`));
  await expect(page.getByRole('heading', { level: 1, name: series })).toBeVisible();

  // One chart per metric family, drawn (Recharts renders its lines as SVG paths).
  const metrics = page.getByRole('region', { name: 'Metrics over time' });
  for (const family of ['IOPS', 'Throughput', 'Completion latency']) {
    const figure = metrics.getByRole('figure', { name: new RegExp(`^${escapeRegExp(series)}: ${family}`) });
    await expect(figure).toBeVisible();
    await expect(figure.locator('path.recharts-curve').first()).toBeVisible();
  }

  // The table: 8 runs, newest first; exactly the degraded one says "regression".
  const table = page.getByRole('table', { name: `Runs of ${series}, newest first` });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(8);
  await expect(rows.first()).toContainText('feature/xfs-nobarrier');
  await expect(table.getByText('checking…')).toHaveCount(0);
  await expect(table.locator('.badge', { hasText: /^regression$/ })).toHaveCount(1);
  await expect(rows.first().locator('.badge')).toHaveText('regression');
  await expect(rows.nth(1).locator('.badge')).toHaveText('pass');
  // The first three main runs had fewer than the minimum baseline runs before them.
  await expect(table.locator('.badge', { hasText: 'insufficient history' })).toHaveCount(3);
  // Read IOPS as uploaded: the oracle's figure × 0.7 on the degraded run.
  await expect(rows.first()).toContainText(
    Math.round(expected.read.iops * DEGRADED.throughput).toLocaleString('en-US'),
  );

  // Its report: every checked metric regressed; read IOPS by ≈ −30 %.
  await rows
    .first()
    .getByRole('button', { name: /^Details of the run of/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]run=${degradedId}`));
  const selected = page.getByRole('region', { name: 'Selected run' });
  await expect(selected).toContainText('feature/xfs-nobarrier @ dead0001');
  // Against the mean of the 5 main runs before it (their noise averages to ≈ 1.00).
  const report = selected.getByRole('table', { name: /^Against 5 runs on main/ });
  const readIops = report.getByRole('row', { name: /^read IOPS/ });
  await expect(readIops).toContainText(/-(29\.\d|30\.\d)%/);
  await expect(readIops.locator('.badge')).toHaveText('regression');
  const verdicts = await report.locator('tbody tr td .badge').allTextContents();
  expect(verdicts.length).toBeGreaterThanOrEqual(6);
  expect(new Set(verdicts)).toEqual(new Set(['regression']));

  // The branch filter narrows the history to the branch.
  await page.getByLabel('Branch').selectOption('main');
  await expect(page).toHaveURL(/[?&]branch=main/);
  const mainTable = page.getByRole('table', { name: `Runs of ${series} on main, newest first` });
  await expect(mainTable.locator('tbody tr')).toHaveCount(6);
  await expect(mainTable.locator('.badge', { hasText: /^regression$/ })).toHaveCount(0);

  // Back to the degraded run; compare it with its baseline: the link freezes the comparison of the
  // latest main run and this one, and the server redirects to it.
  await page.goto(historyRunPath(series, degradedId));
  await page
    .getByRole('region', { name: 'Selected run' })
    .getByRole('link', { name: 'Compare with its baseline' })
    .click();
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('feature/xfs-nobarrier').first()).toBeVisible();

  // And the run itself, from the history.
  await page.goBack();
  await page
    .getByRole('region', { name: 'Selected run' })
    .getByRole('link', { name: 'Open this run' })
    .click();
  await expect(page).toHaveURL(new RegExp(`/runs/${degradedId}$`));
  await expect(page.getByText('dead0001').first()).toBeVisible();
});
