import { basename } from 'node:path';
import type { Page } from '@playwright/test';
import { Seeder, uniqueSuffix } from './support/api.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import {
  EBS_FIXTURE as MIX33_FIXTURE,
  addFioFiles,
  chartsDrawn,
  gotoPlan,
  labelEbsGp3,
  labelNvme,
  labelsOf,
  seedNvmeVsEbs,
} from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey (issue #11): a 4 KiB randwrite run on an NVMe drive and a bsrange 33 %-read mix on EBS
 * are not the same fio job. The planning page and the share link say so first — `jobs_differ`,
 * each differing setting with both values — show the numbers side by side and give no verdict
 * (no "EBS +13 %", no "EBS is as good as NVMe"). Both pages stay free of serious axe violations.
 */

// axe is injected as an inline script, which the app's CSP refuses (see support/axe.ts).
test.use({ bypassCSP: true });

/** 4k randwrite, 16 jobs × iodepth 4, io_uring, 60 s, on an NVMe drive (fixtures/fio/public/SOURCES.md). */
const RANDWRITE_FIXTURE = 'fio/public/samyaple_fio-3.33_randwrite_nj16_perjob.json';
const RANDWRITE_FILE = basename(RANDWRITE_FIXTURE);
const MIX33_FILE = basename(MIX33_FIXTURE);

/** What both pages must show in their NVMe-vs-EBS section. */
async function expectWithheld(page: Page) {
  const compare = page.getByRole('region', { name: 'NVMe vs EBS', exact: true });
  const alert = compare.getByRole('alert');
  await expect(alert).toContainText('Different fio jobs: no verdict.');
  const differences = alert.getByRole('table', { name: 'fio settings that differ' });
  await expect(differences.getByRole('row', { name: /^bs / })).toContainText('4 KiB');
  await expect(differences.getByRole('row', { name: /^rw / })).toContainText(/randwrite\s*randrw/);
  await expect(differences.getByRole('row', { name: /^rwmixread / })).toContainText(/n\/a\s*33%/);
  await expect(page.getByText(/Same fio job/)).toHaveCount(0);
  // Numbers side by side, deltas withheld.
  await compare.getByLabel('Data table: IOPS: NVMe vs EBS').click();
  const iops = compare.getByRole('table', { name: 'IOPS: NVMe vs EBS' });
  await expect(iops.getByRole('row', { name: /^Write/ })).toContainText('withheld: different fio jobs');
  await expect(compare.getByText(/^EBS [+−]\d/)).toHaveCount(0);
  // No EBS-vs-NVMe latency verdict, for reads or writes.
  const latency = page.getByRole('region', { name: 'Latency: NVMe vs EBS' });
  await expect(latency.getByText(/no verdict — the runs ran different fio jobs/)).toBeVisible();
  await latency.getByRole('radio', { name: 'Writes' }).check();
  await expect(latency.getByText(/^EBS vs NVMe \(writes\): no verdict/)).toBeVisible();
  await expect(latency.getByText(/EBS is as good|EBS is acceptable|Investigate:/)).toHaveCount(0);
  // Each run's own clat p99 against the types' promises still stands (shared measuredLatencyOfFio):
  // the NVMe run's worst-job p99 is 536,576 ns.
  await expect(
    latency.getByText(/measured p99 0\.537 ms \(writes\), from fio completion latency/),
  ).toBeVisible();
  await expect(
    latency.getByText(
      'gp3 promises single-digit millisecond (1–10 ms average); measured p99 0.54 ms: slower than today',
    ),
  ).toBeVisible();
}

test('different fio jobs → jobs_differ first, numbers side by side, no verdict — planning page and share link', async ({
  page,
  request,
  guard,
}) => {
  test.setTimeout(120_000);

  await test.step('planning page', async () => {
    await gotoPlan(page);
    await addFioFiles(page, [RANDWRITE_FIXTURE, MIX33_FIXTURE]);
    await expect(labelsOf(page, RANDWRITE_FILE)).toBeVisible({ timeout: 20_000 });
    await expect(labelsOf(page, MIX33_FILE)).toBeVisible({ timeout: 20_000 });
    await labelNvme(page, RANDWRITE_FILE);
    await labelEbsGp3(page, MIX33_FILE);
    await expectWithheld(page);
    await chartsDrawn(page);
    await expectNoSeriousA11yViolations(page, 'planning page, jobs differ');
  });

  await test.step('share link', async () => {
    const { comparison } = await seedNvmeVsEbs(new Seeder(request), `jobs differ ${uniqueSuffix()}`, {
      nvme: RANDWRITE_FIXTURE,
      ebs: MIX33_FIXTURE,
    });
    // The planning session above was never saved: leaving it asks first.
    guard.expectLeaveWarning();
    await page.goto(comparison.url);
    await expect(page.getByText('Shared comparison · read-only')).toBeVisible();
    // Before the runs and every number: the stored warning, naming the settings.
    const warning = page.locator('[data-code="jobs_differ"]').first();
    await expect(warning).toContainText('ran different fio jobs (bs 4 KiB vs not set;');
    await expect(warning).toContainText('rwmixread n/a vs 33%');
    // Measured once React has drawn the page (the server's static head, warning included, is
    // replaced then): the runs region is React's.
    const runs = page.getByRole('region', { name: 'Runs', exact: true });
    await expect(runs).toBeVisible();
    const warningTop = (await warning.boundingBox())!.y;
    const runsTop = (await runs.boundingBox())!.y;
    expect(warningTop).toBeLessThan(runsTop);
    await expectWithheld(page);
    await chartsDrawn(page);
    await expectNoSeriousA11yViolations(page, 'share view, jobs differ');
  });
});
