import type { Page } from '@playwright/test';
import { basename } from 'node:path';
import { fixtureBytes } from './support/fixtures.ts';
import { gotoPlan } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * EBS's own evidence in the planning session: `nvme amzn stats` snapshots and the EBS CSI
 * driver's Prometheus metrics dropped on "Import production metrics" (fixtures/nvme-amzn,
 * fixtures/ebs-csi: the same log page). The panel shows the per-interval latency percentiles and
 * the seconds over the four limits, and the measured latency against each type's promise; the
 * figures are recomputed here from the raw fixture.
 */

async function addMetricsFile(page: Page, path: string): Promise<void> {
  await page.getByLabel('Choose metrics files…').setInputFiles({
    name: basename(path),
    mimeType: path.endsWith('.json') ? 'application/json' : 'text/plain',
    buffer: fixtureBytes(path),
  });
}

/** µs between the two snapshots of a text counter line ("    IOPS: 743900000" under a section). */
function textCounterIncrease(path: string, section: string, item: string): number {
  const values: number[] = [];
  let inSection = false;
  for (const line of fixtureBytes(path).toString('utf8').split('\n')) {
    const t = line.trim();
    if (t.endsWith(':') && !/^\w+:\s*\d+$/.test(t)) inSection = t === section;
    const m = new RegExp(`^${item}:\\s*(\\d+)$`).exec(t);
    if (inSection && m) values.push(Number(m[1]));
  }
  return values[1]! - values[0]!;
}

test('nvme amzn stats: the latency percentiles and the seconds over each of the four limits', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const file = 'nvme-amzn/stats_v2.16_normal.txt';
  await gotoPlan(page);
  await addMetricsFile(page, file);
  const region = page.getByRole('region', { name: `Production metrics: ${basename(file)}` });
  await expect(region.getByText('nvme amzn stats', { exact: true })).toBeVisible();
  const volumeIopsSec = textCounterIncrease(file, 'EBS Volume Performance Exceeded (us):', 'IOPS') / 1e6;
  const instanceTpSec =
    textCounterIncrease(file, 'EC2 Instance EBS Performance Exceeded (us):', 'Throughput') / 1e6;
  const table = region.getByRole('table', { name: /EBS NVMe statistics per interval/ });
  const row = table.getByRole('row', { name: /2026-11-24 10:00/ });
  await expect(row).toContainText(`${volumeIopsSec.toFixed(2)} s`);
  await expect(row).toContainText(`${instanceTpSec.toFixed(2)} s`);
  // Read p99 2,048 µs and write p99.9 8,192 µs (the histogram arithmetic: fixtures/nvme-amzn/README.md).
  await expect(row).toContainText('2.05 ms');
  await expect(row).toContainText('8.19 ms');
  const promises = region.getByRole('list', { name: /measured latency against each type's promise/ });
  await expect(promises).toContainText(
    'gp3 promises single-digit millisecond (1–10 ms average); measured p99 4.1 ms: within the promise',
  );
});

test('the EBS CSI driver’s metrics: another volume, sub-millisecond, is slower on gp3’s promise', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const file = 'ebs-csi/query_range_counters.json';
  await gotoPlan(page);
  await addMetricsFile(page, file);
  const region = page.getByRole('region', { name: `Production metrics: ${basename(file)}` });
  await expect(region.getByText('Prometheus query_range JSON', { exact: true })).toBeVisible();
  await expect(region.getByText(/vol-0a1b2c3d4e5f60718, the busiest of 2 devices/)).toBeVisible();
  await region.getByRole('button', { name: /^Change how .* is read \(.*device\)$/ }).click();
  await region
    .getByRole('group', { name: 'Which device?' })
    .getByRole('radio', { name: /^vol-0fedcba9876543210/ })
    .check();
  await region.getByRole('button', { name: 'Read the file again' }).click();
  await expect(region.getByText(/vol-0fedcba9876543210 \(as chosen/)).toBeVisible();
  const promises = region.getByRole('list', { name: /measured latency against each type's promise/ });
  await expect(promises.locator('[data-verdict="slower-than-today"]').first()).toContainText(
    'gp3 promises single-digit millisecond (1–10 ms average); measured p99 0.51 ms: slower than today',
  );
  await expect(promises).toContainText(
    'io2 promises sub-millisecond (under 1 ms average); measured p99 0.51 ms: within the promise',
  );
});
