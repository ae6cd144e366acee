import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Page } from '@playwright/test';
import { artifactPath, fixtureBytes } from './support/fixtures.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey (issue 28, AWS's own evidence on the Fleet page), at 1280 and 390 px, with
 * fixtures/fleet-evidence (its generate.mjs and README):
 * - vol-0pinned: pinned at its 3,000 IOPS, VolumeIOPSExceededCheck 415 minutes → "demand above
 *   the limit for 415 minutes", never a saving;
 * - vol-0confirmed: the model's binding limit (its IOPS) confirmed by its own check;
 * - vol-0contra: the model says the volume binds; only i-0small's InstanceEBSIOPSExceededCheck
 *   fired → contradicted, the instance trusted;
 * - vol-0quiet: no check points → "No data", never 0;
 * - Save & share: the server's plan (POST /api/fleet/plans) says the same.
 * Screenshots in e2e/artifacts/fleet-evidence-<width>.png.
 */

const WIDTHS = [
  { label: '1280', width: 1280, height: 900 },
  { label: '390', width: 390, height: 844 },
] as const;

const file = (name: string) => ({
  name,
  mimeType: 'application/json',
  buffer: fixtureBytes(`fleet-evidence/${name}`),
});

async function shoot(page: Page, name: string) {
  const path = artifactPath(`${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
  expect(readFileSync(path).subarray(1, 4).toString('latin1'), `${name}.png is a PNG`).toBe('PNG');
  await test.info().attach(name, { path, contentType: 'image/png' });
}

for (const { label, width, height } of WIDTHS) {
  test(`${label} px: exceeded checks confirm, contradict, show 415 throttled minutes, and say no data`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height });
    await page.goto('/fleet');
    await expect(page.getByRole('heading', { level: 1, name: 'Fleet' })).toBeVisible();
    await page
      .getByLabel('Choose files')
      .setInputFiles([file('volumes.json'), file('instances.json'), file('metrics.json')]);
    await expect(page.getByRole('table', { name: /Volumes of the fleet/ })).toBeVisible();

    const evidence = page.getByTestId('fleet-evidence');
    await expect(evidence).toBeVisible();
    const item = (id: string) => evidence.locator(`li[data-evidence-id="${id}"]`);
    await expect(item('vol-0pinned')).toContainText('Throttled 415 min');
    await expect(item('vol-0pinned')).toContainText('volume IOPS (VolumeIOPSExceededCheck) exceeded 415 min');
    await expect(page.getByText(/Risk: demand above the limit for 415 minutes/)).toBeVisible();
    await expect(item('vol-0confirmed')).toContainText(
      'the checks confirm the binding limit: VolumeIOPSExceededCheck fired 36 min',
    );
    await expect(item('vol-0contra')).toContainText('Checks contradict the model');
    await expect(item('vol-0contra')).toContainText(
      "i-0small's InstanceEBSIOPSExceededCheck fired 48 min and the volume's checks never fired — trusting the checks, the instance binds",
    );
    await expect(item('vol-0quiet')).toContainText('No data');
    await expect(item('vol-0quiet')).toContainText('volume exceeded checks: no data');
    await expect(item('vol-0io2')).toContainText('above what io2 promises');
    await expect(item('vol-0gp2')).toContainText('credits ran out on 1 day(s)');
    await expect(item('i-0small')).toContainText('EBS IOPS (InstanceEBSIOPSExceededCheck) exceeded 48 min');

    // No horizontal page scroll (as layout-360.spec.ts measures it).
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.scrollingElement!.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await evidence.scrollIntoViewIfNeeded();
    await shoot(page, `fleet-evidence-${label}`);

    // The server plans the same files the same way (POST /api/fleet/plans, its worker pool).
    await page.getByRole('button', { name: 'Save & share' }).click();
    const link = page.getByRole('link', { name: /\/fleet\/[A-Za-z0-9_-]{22}$/ });
    await expect(link).toBeVisible({ timeout: 20_000 });
    await page.goto(await link.innerText());
    await expect(page.getByText('Shared fleet plan · read-only')).toBeVisible();
    await expect(
      page.getByTestId('fleet-evidence').locator('li[data-evidence-id="vol-0pinned"]'),
    ).toContainText('Throttled 415 min');
    await expect(
      page.getByTestId('fleet-evidence').locator('li[data-evidence-id="vol-0contra"]'),
    ).toContainText('Checks contradict the model');
  });
}
