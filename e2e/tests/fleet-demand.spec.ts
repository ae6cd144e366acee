import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Page } from '@playwright/test';
import { artifactPath, fixtureBytes } from './support/fixtures.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey (issue 25, the demand model on the Fleet page), at 1280 and 390 px:
 * - the nightly batch of fixtures/demand (14 days of 5-minute Sums at ~1,300 IOPS, 8,200 IOPS
 *   daily 01:30–01:40 UTC) planned on p99 → the recurring-peak note, the batch kept (≥ 8,200 ×
 *   1.25); "Ignore recurring peaks" → sized on p99, the risk stated;
 * - two gp3 on one r6i.large (3,600 IOPS baseline) at 2,500 IOPS each, together 02:00–02:15 UTC
 *   (made here, one day of 5-minute Sums) → the instance row: 5,000 IOPS together, 15 min/day
 *   above the baseline, carried by the burst, r6in.large sustains it;
 * - the first page only of the nightly answer (NextToken, PartialData) → the incomplete-data
 *   banner naming the volume and the file.
 * Screenshots in e2e/artifacts/fleet-demand-<width>.png.
 */

const NIGHTLY = 'vol-0e1d2c3b4a5968778';
const NIGHTLY_INSTANCE = 'i-0f1e2d3c4b5a69788';
const SHARED_INSTANCE = 'i-0r6shared';

const WIDTHS = [
  { label: '1280', width: 1280, height: 900 },
  { label: '390', width: 390, height: 844 },
] as const;

type Upload = { name: string; mimeType: string; buffer: Buffer };
const jsonFile = (name: string, value: unknown): Upload => ({
  name,
  mimeType: 'application/json',
  buffer: Buffer.from(JSON.stringify(value, null, 2)),
});
const fixtureFile = (path: string): Upload => ({
  name: path.split('/').pop()!,
  mimeType: 'application/json',
  buffer: fixtureBytes(path),
});

/** describe-volumes: the nightly gp3 of fixtures/demand and the two gp3 sharing the r6i.large. */
function volumesFile(): Upload {
  const nightly = JSON.parse(fixtureBytes('demand/volumes_nightly.json').toString('utf8')) as {
    Volumes: unknown[];
  };
  const shared = ['vol-0shareda', 'vol-0sharedb'].map((id) => ({
    VolumeId: id,
    VolumeType: 'gp3',
    Size: 100,
    Iops: 3000,
    Throughput: 125,
    State: 'in-use',
    AvailabilityZone: 'us-east-1a',
    Attachments: [{ InstanceId: SHARED_INSTANCE, Device: '/dev/sdf', State: 'attached' }],
  }));
  return jsonFile('volumes.json', { Volumes: [...nightly.Volumes, ...shared] });
}

const instancesFile = (): Upload =>
  jsonFile('instances.json', {
    Reservations: [
      { Instances: [{ InstanceId: SHARED_INSTANCE, InstanceType: 'r6i.large', State: { Name: 'running' } }] },
      {
        Instances: [{ InstanceId: NIGHTLY_INSTANCE, InstanceType: 'm6i.xlarge', State: { Name: 'running' } }],
      },
    ],
  });

/**
 * get-metric-data for the two shared volumes: one day of 5-minute Sums, 500 IOPS each except
 * 2,500 IOPS each 02:00–02:15 UTC (3 points), half reads, half writes, 8 KiB requests.
 */
function sharedMetricsFile(): Upload {
  const start = Date.UTC(2026, 10, 20);
  const stamps = Array.from({ length: 288 }, (_, i) => new Date(start + i * 300_000).toISOString());
  const iops = (i: number) => (i >= 24 && i < 27 ? 2500 : 500);
  const results = (id: string) =>
    (['VolumeReadOps', 'VolumeWriteOps', 'VolumeReadBytes', 'VolumeWriteBytes'] as const).map((m) => ({
      Id: `${id.replace(/\W/g, '')}_${m}`,
      Label: `${id} ${m}`,
      Timestamps: stamps,
      Values: stamps.map((_, i) => ((iops(i) * 300) / 2) * (m.endsWith('Bytes') ? 8192 : 1)),
      StatusCode: 'Complete',
    }));
  return jsonFile('metrics-shared.json', {
    MetricDataResults: [...results('vol-0shareda'), ...results('vol-0sharedb')],
    Messages: [],
  });
}

async function shoot(page: Page, name: string) {
  const path = artifactPath(`${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.screenshot({ path, fullPage: true });
  expect(readFileSync(path).subarray(1, 4).toString('latin1'), `${name}.png is a PNG`).toBe('PNG');
  await test.info().attach(name, { path, contentType: 'image/png' });
}

for (const { label, width, height } of WIDTHS) {
  test(`${label} px: recurring-peak note, per-instance rows, incomplete-data banner`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height });
    await page.goto('/fleet');
    await expect(page.getByRole('heading', { level: 1, name: 'Fleet' })).toBeVisible();
    await page
      .getByLabel('Choose files')
      .setInputFiles([
        volumesFile(),
        instancesFile(),
        fixtureFile('demand/gmd_nightly_batch_14d.json'),
        sharedMetricsFile(),
      ]);
    const table = page.getByRole('table', { name: /Volumes of the fleet/ });
    await expect(table).toBeVisible();

    // (b) The two volumes of the r6i.large, summed point by point: 5,000 IOPS against 3,600.
    const row = page.getByTestId('fleet-instances').locator(`tr[data-instance-id="${SHARED_INSTANCE}"]`);
    const cells = row.getByRole('cell');
    await expect(cells.nth(0)).toHaveText('vol-0shareda, vol-0sharedb');
    await expect(cells.nth(1)).toHaveText('5,000');
    await expect(cells.nth(3)).toHaveText('3,600 IOPS, 77 MiB/s');
    await expect(cells.nth(4)).toHaveText('15');
    await expect(cells.nth(5)).toHaveText('carries it');
    await expect(cells.nth(6)).toHaveText('r6in.large');

    // (a) The maximum keeps every peak: no note, nothing to ignore.
    const ignore = page.getByRole('checkbox', { name: /Ignore recurring peaks/ });
    await expect(ignore).toBeDisabled();
    await expect(page.getByTestId('fleet-recurring')).toHaveCount(0);
    await page.getByLabel('Statistic').selectOption('p99');
    const recurring = page.getByTestId('fleet-recurring');
    await expect(recurring).toContainText('kept: the p99 alone would drop them');
    await expect(recurring).toContainText(
      /VolumeWriteOps: recurring peak, max 4,100 IOPS at 01:30–01:40 UTC on 14 of 14 days/,
    );
    const nightlyRow = table.locator(`tr[data-volume-id="${NIGHTLY}"]`);
    // Sized on the batch: 8,200 × 1.25 = 10,250 IOPS.
    await expect(nightlyRow).toContainText('10,250');
    await recurring.scrollIntoViewIfNeeded();
    await shoot(page, `fleet-demand-recurring-${label}`);

    await ignore.check();
    await expect(
      page.getByText(/Risk: a peak that recurs .* throttled to what the p99 provisions/),
    ).toBeVisible();
    await expect(recurring).toContainText(
      'ignored as asked: the p99 sizes below them, and they will be throttled every time they recur',
    );
    await expect(recurring).toContainText(
      /ignored as asked \(the “Ignore recurring peaks” option\): those peaks will be throttled/,
    );
    await expect(nightlyRow).not.toContainText('10,250');
    await ignore.uncheck();

    // (c) Only the first page of the nightly answer: the plan says it is incomplete, before any number.
    await expect(page.getByTestId('fleet-incomplete')).toHaveCount(0);
    await page.getByRole('button', { name: 'Remove gmd_nightly_batch_14d.json' }).click();
    await page
      .getByLabel('Choose files')
      .setInputFiles([fixtureFile('demand/gmd_nightly_batch_first_page.json')]);
    const banner = page.getByTestId('fleet-incomplete');
    await expect(banner).toBeVisible();
    await expect(banner).toHaveAttribute('role', 'alert');
    await expect(banner).toContainText('Incomplete data for 1 volume(s)');
    await expect(banner).toContainText(
      `${NIGHTLY}: gmd_nightly_batch_first_page.json: CloudWatch answered PartialData for this volume (the response has a NextToken: more pages exist)`,
    );
    // The first page (9 days) still shows the recurrence, on the days it has.
    await expect(recurring).toContainText(/on 9 of 9 days/);
    await expect(row.getByRole('cell').nth(1)).toHaveText('5,000');

    // No horizontal page scroll at either width (as layout-360.spec.ts measures it).
    const { scrollWidth, innerWidth, culprits } = await page.evaluate(() => {
      const w = window.innerWidth;
      const out = [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > w + 0.5)
        .filter((el) => {
          for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
            if (getComputedStyle(a).overflowX !== 'visible') return false;
          return true;
        })
        .slice(0, 5)
        .map(
          (el) =>
            `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}: ${(el.textContent ?? '').slice(0, 60)}`,
        );
      return { scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: w, culprits: out };
    });
    expect(
      scrollWidth,
      `page wider than the viewport; sticking out: ${culprits.join(' | ')}`,
    ).toBeLessThanOrEqual(innerWidth);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, `fleet-demand-incomplete-${label}`);
  });
}
