import type { Page } from '@playwright/test';
import { basename } from 'node:path';
import { fixtureBytes } from './support/fixtures.ts';
import { gotoPlan } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * The "Import production metrics" drop zone with the real Linux and Prometheus captures
 * (fixtures/metrics/README.md): iostat -x, iostat without -t (the interval asked for), the device
 * changed, a Prometheus query_range answer. The max profile shown is checked against the largest
 * value of the raw columns computed here (points at their own step, never averaged up).
 */

async function addMetricsFile(page: Page, path: string): Promise<void> {
  await page.getByLabel('Choose metrics files…').setInputFiles({
    name: basename(path),
    mimeType: path.endsWith('.json') ? 'application/json' : 'text/plain',
    buffer: fixtureBytes(path),
  });
}

/** Largest r/s and w/s of a device over an iostat capture, the first (since boot) report left out. */
function iostatPeaks(path: string, device: string): { reads: number; writes: number } {
  let header: string[] = [];
  let reports = 0;
  const r: number[] = [];
  const w: number[] = [];
  for (const line of fixtureBytes(path).toString('utf8').split('\n')) {
    if (line.startsWith('Device')) {
      header = line.trim().split(/\s+/);
      reports += 1;
    } else if (line.startsWith(`${device} `) && reports > 1) {
      const cells = line.trim().split(/\s+/);
      r.push(Number(cells[header.indexOf('r/s')]));
      w.push(Number(cells[header.indexOf('w/s')]));
    }
  }
  return { reads: Math.max(...r), writes: Math.max(...w) };
}

const fmtInt = (v: number) => Math.round(v).toLocaleString('en-US');

test('iostat -x: read in the browser, the queue explained, the device changed', async ({ page }) => {
  test.setTimeout(90_000);
  const file = 'metrics/iostat_12.6.1_x_t_C.txt';
  await gotoPlan(page);
  await addMetricsFile(page, file);
  const region = page.getByRole('region', { name: `Production metrics: ${basename(file)}` });
  await expect(region.getByText('iostat -x', { exact: true })).toBeVisible();
  await expect(region.getByText('vda, the busiest of 2 devices (vda, loop1)')).toBeVisible();
  const queue = region.getByRole('list', { name: `${basename(file)}: device queue and Little's law` });
  await expect(queue).toContainText('Little’s law, IOPS = queue depth ÷ latency');
  await expect(queue).toContainText(/matches bytes ÷ operations at all \d+ points/);

  const { reads, writes } = iostatPeaks(file, 'vda');
  const table = region.getByRole('table', { name: /each sizing statistic side by side/ });
  await expect(table.getByRole('row', { name: /^Read IOPS/ })).toContainText(fmtInt(reads));
  await expect(table.getByRole('row', { name: /^Write IOPS/ })).toContainText(fmtInt(writes));

  await region.getByRole('button', { name: /^Change how .* is read \(.*device\)$/ }).click();
  await region
    .getByRole('group', { name: 'Which device?' })
    .getByRole('radio', { name: /^loop1/ })
    .check();
  await region.getByRole('button', { name: 'Read the file again' }).click();
  await expect(region.getByText('loop1 (as chosen; the file has 2)')).toBeVisible();
  const loop = iostatPeaks(file, 'loop1');
  await expect(
    region
      .getByRole('table', { name: /each sizing statistic side by side/ })
      .getByRole('row', { name: /^Read IOPS/ }),
  ).toContainText(fmtInt(loop.reads));
});

test('iostat without -t asks for the interval; a Prometheus answer reads as such', async ({ page }) => {
  test.setTimeout(90_000);
  await gotoPlan(page);
  const noTimes = 'metrics/iostat_12.6.1_xk_2s_no_t.txt';
  await addMetricsFile(page, noTimes);
  const question = page.getByRole('group', { name: 'How long is each point’s period?' });
  await expect(question).toContainText('The reports carry no times (iostat ran without -t)');
  await question.getByRole('radio', { name: 'Another period' }).check();
  await question.getByRole('textbox').fill('2');
  await page.getByRole('button', { name: 'Read the file with these answers' }).click();
  const region = page.getByRole('region', { name: `Production metrics: ${basename(noTimes)}` });
  await expect(region.getByText('39 2-second points', { exact: true })).toBeVisible();
  const { reads } = iostatPeaks(noTimes, 'vda');
  await expect(
    region
      .getByRole('table', { name: /each sizing statistic side by side/ })
      .getByRole('row', { name: /^Read IOPS/ }),
  ).toContainText(fmtInt(reads));

  const prom = 'metrics/prometheus_query_range_counters.json';
  await addMetricsFile(page, prom);
  const promRegion = page.getByRole('region', { name: `Production metrics: ${basename(prom)}` });
  await expect(promRegion.getByText('Prometheus query_range JSON', { exact: true })).toBeVisible();
  await expect(promRegion.getByText('vda, the busiest of 2 devices (vda, zram0)')).toBeVisible();
});

test('a CloudWatch export in the planning session: the coarse-resolution and recurring-peak notes of the demand model', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // 14 days of 5-minute Sums at ~1,300 IOPS, 8,200 IOPS daily 01:30–01:40 UTC (fixtures/demand/README.md).
  const file = 'demand/gmd_nightly_batch_14d.json';
  await gotoPlan(page);
  await addMetricsFile(page, file);
  const region = page.getByRole('region', { name: `Production metrics: ${basename(file)}` });
  // 5-minute points can hide a 1-minute burst: said, with what reveals it.
  await expect(region.locator('[data-code="coarse_resolution"]').first()).toContainText(
    /The points are 5-minute averages: a point of [\d,]+ IOPS can hold a 60-second burst of up to [\d,]+ IOPS \(5×\)/,
  );
  await expect(region.locator('[data-code="recurring_peak"]')).toHaveCount(0);
  await region.getByRole('radio', { name: /^P99 of the points/ }).check();
  const recurring = region.locator('[data-code="recurring_peak"]');
  await expect(recurring.first()).toContainText(
    /Recurring peak: max 8,200 IOPS at 01:30–01:40 UTC on 14 of 14 days; p99 = [\d,]+ IOPS ignores it, so it is sized on 8,200 IOPS/,
  );
  // Sized on the batch, not the p99: the table's p99 column asks for the batch.
  await expect(
    region
      .getByRole('table', { name: /each sizing statistic side by side/ })
      .getByRole('row', { name: /^Write IOPS/ }),
  ).toContainText('4,100');
});
