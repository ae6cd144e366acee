import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { Seeder, uniqueSuffix } from './support/api.ts';
import { artifactPath } from './support/fixtures.ts';
import { historyRunPath, seedHistorySeries } from './support/history.ts';
import { escapeRegExp } from './support/oracle.ts';
import { chartsDrawn, EBS_FILE, planNvmeVsEbs, seedNvmeVsEbs } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Screenshots of each main view at desktop width and at 360 px, kept in e2e/artifacts/
 * (gitignored; CI uploads the folder) and attached to the HTML report: the planning session with
 * data, the limits chart, NVMe vs EBS, right-sizing, a share view, the archive and a CI history series with a regression report.
 */

const WIDTHS = [
  { label: 'desktop', width: 1280, height: 900 },
  { label: '360', width: 360, height: 780 },
] as const;

async function shoot(target: Page | Locator, name: string) {
  const path = artifactPath(`${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  if ('goto' in target) await target.screenshot({ path, fullPage: true });
  else await target.screenshot({ path });
  const png = readFileSync(path);
  expect(png.subarray(1, 4).toString('latin1'), `${name}.png is a PNG`).toBe('PNG');
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/** Each width in turn: resize, let the charts measure their new width, then shoot. */
async function atEachWidth(page: Page, shots: (width: string) => Promise<void>) {
  for (const { label, width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await chartsDrawn(page);
    await shots(label);
  }
}

test('planning session: whole page, limits chart, NVMe vs EBS, right-size', async ({ page }) => {
  test.setTimeout(90_000);
  await planNvmeVsEbs(page);
  await page.getByRole('button', { name: '+ gp3' }).click();
  const limits = page.getByRole('region', { name: 'What binds', exact: true });
  await limits.getByRole('tab', { name: new RegExp(`^Measured: ${escapeRegExp(EBS_FILE)}`) }).click();
  // The EBS run is more than r5d.4xlarge's EBS bandwidth delivers: "Not deliverable", not a bottleneck.
  await expect(limits.getByRole('paragraph').filter({ hasText: /^Not deliverable:/ })).toBeVisible();
  await atEachWidth(page, async (w) => {
    await shoot(page, `planning-${w}`);
    await shoot(limits, `limits-${w}`);
    await shoot(page.getByRole('region', { name: 'NVMe vs EBS', exact: true }), `nvme-vs-ebs-${w}`);
    await shoot(page.getByRole('region', { name: 'Right-size & what-if', exact: true }), `right-size-${w}`);
  });
});

test('share view and archive', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { comparison } = await seedNvmeVsEbs(new Seeder(request), `Screenshots ${uniqueSuffix()}`);
  await page.goto(comparison.url);
  await expect(page.getByText('Shared comparison · read-only')).toBeVisible();
  await atEachWidth(page, (w) => shoot(page, `share-${w}`));
  await page.goto('/runs');
  await expect(page.getByRole('table', { name: 'Archived runs' })).toBeVisible();
  await atEachWidth(page, (w) => shoot(page, `archive-${w}`));
});

test('CI history: a series with the flagged run selected', async ({ page, request }) => {
  test.setTimeout(90_000);
  const { series, degradedId } = await seedHistorySeries(new Seeder(request));
  await page.goto(historyRunPath(series, degradedId));
  await expect(page.getByRole('table', { name: /^Against \d+ runs on main/ })).toBeVisible();
  await atEachWidth(page, (w) => shoot(page, `history-${w}`));
});
