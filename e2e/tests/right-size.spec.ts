import type { Locator } from '@playwright/test';
import { int, num, usd } from './support/oracle.ts';
import { gotoPlan } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey: type the peaks a CloudWatch dashboard shows (each throughput in its own unit) →
 * right-sized gp3 and its monthly cost → change the headroom → the cost follows.
 *
 * The expected configuration and cost are computed here from the documented rules
 * (docs/domain.md), not with the app's code:
 *   §3  EBS counts each I/O up to 256 KiB as one operation (larger: ceil(size / 256 KiB));
 *   §7  gp3 IOPS = max(3,000, ceil(peak IOPS × (1 + h))), MiB/s = max(125, ceil(peak MiB/s × (1 + h))),
 *       IOPS raised to 4 × MiB/s when the 0.25 MiB/s-per-IOPS rule needs it, size ≥ IOPS / 500;
 *   §8  gp3 = GiB × storage + (IOPS − 3,000) × iops rate + (MiB/s − 125) × throughput rate,
 *       at the us-east-1 rates $0.08 / $0.005 / $0.04 (checked against the page's rate card below).
 */

const KiB = 1024;
const MiB = 1024 * 1024;
const RATES = { storage: 0.08, iops: 0.005, throughput: 0.04 };

/** Peaks as a dashboard shows them: reads in KiB/s, writes in MB/s (decimal). */
const PEAKS = {
  readIops: 3044,
  readKiBps: 192_512,
  writeIops: 6020,
  writeMBps: 400,
};
const readBytesPerSec = PEAKS.readKiBps * KiB;
const writeBytesPerSec = PEAKS.writeMBps * 1e6;

function rightSizedGp3(headroom: number) {
  const accounted = (iops: number, bytesPerSec: number) =>
    iops * Math.max(1, Math.ceil(bytesPerSec / iops / (256 * KiB)));
  const demandIops =
    accounted(PEAKS.readIops, readBytesPerSec) + accounted(PEAKS.writeIops, writeBytesPerSec);
  const demandMiBps = (readBytesPerSec + writeBytesPerSec) / MiB;
  const throughputMiBps = Math.max(125, Math.ceil(demandMiBps * (1 + headroom)));
  let iops = Math.max(3000, Math.ceil(demandIops * (1 + headroom)));
  if (throughputMiBps > 0.25 * iops) iops = Math.ceil(throughputMiBps / 0.25);
  const sizeGiB = Math.max(1, Math.ceil(iops / 500));
  const monthly =
    sizeGiB * RATES.storage + (iops - 3000) * RATES.iops + (throughputMiBps - 125) * RATES.throughput;
  return { sizeGiB, iops, throughputMiBps, monthly: Math.round(monthly * 100) / 100 };
}

/** A volume type's column of the side-by-side table, by row header. */
async function gp3Column(table: Locator) {
  // The table's columns settle after the first paint (the sections render in a deferred pass).
  await expect(table.getByRole('columnheader', { name: /\(gp3\)/ })).toBeVisible();
  const headers = await table.getByRole('columnheader').allTextContents();
  const index = headers.filter((h) => h.trim() !== '').findIndex((h) => h.includes('(gp3)'));
  expect(index, 'a gp3 column').toBeGreaterThanOrEqual(0);
  return (row: string) =>
    table
      .getByRole('row', { name: new RegExp(`^${row}`) })
      .getByRole('cell')
      .nth(index);
}

test('typed-in CloudWatch peaks → right-sized gp3 and its cost → more headroom → the cost follows', async ({
  page,
}) => {
  await gotoPlan(page);
  await page.getByRole('button', { name: 'Type in metrics…' }).click();
  const form = page.getByRole('region', { name: 'Bring data' });
  await form.getByRole('textbox', { name: 'Label (optional)' }).fill('pg-primary, 14-day peak');

  const reads = form.getByRole('group', { name: 'Reads', exact: true });
  await reads.getByRole('textbox', { name: 'Peak read IOPS' }).fill(String(PEAKS.readIops));
  await reads.getByRole('textbox', { name: 'Peak read throughput' }).fill('192,512');
  await reads.getByRole('combobox', { name: 'Reads throughput unit' }).selectOption('KiB/s');
  const writes = form.getByRole('group', { name: 'Writes', exact: true });
  await writes.getByRole('textbox', { name: 'Peak write IOPS' }).fill(String(PEAKS.writeIops));
  await writes.getByRole('textbox', { name: 'Peak write throughput' }).fill(String(PEAKS.writeMBps));
  const writeUnit = writes.getByRole('combobox', { name: 'Writes throughput unit' });
  await expect(writeUnit.getByRole('option')).toHaveText([
    'B/s',
    'KiB/s',
    'KB/s',
    'MiB/s',
    'MB/s',
    'GiB/s',
    'GB/s',
    'Mbps',
    'Gbps',
  ]);
  await writeUnit.selectOption('MB/s');
  // The average I/O size follows the typing: bytes/s ÷ IOPS, in KiB.
  await expect(writes).toContainText(
    `≈ ${(writeBytesPerSec / PEAKS.writeIops / KiB).toFixed(1)} KiB per I/O`,
  );
  await expect(reads).toContainText(`≈ ${(readBytesPerSec / PEAKS.readIops / KiB).toFixed(1)} KiB per I/O`);
  await form.getByRole('button', { name: 'Add typed-in metrics' }).click();

  const inputs = page.getByRole('list', { name: /^In this session/ });
  await expect(inputs.getByRole('listitem')).toHaveCount(1);
  await expect(inputs).toContainText('pg-primary, 14-day peak');
  await expect(inputs).toContainText(
    `read: ${int(PEAKS.readIops)} IOPS · ${num(readBytesPerSec / MiB)} MiB/s`,
  );
  await expect(inputs).toContainText(
    `write: ${int(PEAKS.writeIops)} IOPS · ${num(writeBytesPerSec / MiB)} MiB/s`,
  );

  // The rates the expected costs use are the ones the page prices with.
  const rates = page.getByRole('table', { name: /^EBS rates in USD/ });
  await expect(rates.getByRole('textbox', { name: 'gp3 storage, USD per GB-month' })).toHaveValue(
    String(RATES.storage),
  );
  await expect(rates.getByRole('textbox', { name: 'gp3 IOPS above 3,000, USD per IOPS-month' })).toHaveValue(
    String(RATES.iops),
  );
  await expect(
    rates.getByRole('textbox', { name: 'gp3 throughput above 125 MiB/s, USD per MiB/s-month' }),
  ).toHaveValue(String(RATES.throughput));

  const region = page.getByRole('region', { name: 'Right-size & what-if', exact: true });
  const headroomBox = region.getByRole('textbox', { name: 'Headroom above the peak' });
  await expect(headroomBox).toHaveValue('25');
  const table = region.getByRole('table', {
    name: 'Volume types side by side, right-sized for this profile',
  });
  const gp3 = await gp3Column(table);
  // The cost chart's numbers, from its data table.
  await region.getByLabel(/^Data table: Monthly cost per node/).click();
  const costOf = region
    .getByRole('table', { name: /^Monthly cost per node/ })
    .getByRole('row', { name: /^gp3 right-sized/ })
    .getByRole('cell');

  const check = async (headroom: number) => {
    const want = rightSizedGp3(headroom);
    await expect(region.getByText(/^Target with \d+% headroom/)).toContainText(
      `Target with ${Math.round(headroom * 100)}% headroom: ${int(want.iops)} IOPS`,
    );
    await expect(gp3('Size')).toHaveText(`${int(want.sizeGiB)} GiB`);
    await expect(gp3('Sustained IOPS')).toHaveText(int(want.iops));
    await expect(gp3('Sustained throughput')).toHaveText(`${int(want.throughputMiBps)} MiB/s`);
    await expect(gp3('Per node / month')).toHaveText(usd(want.monthly));
    await expect(costOf.nth(3)).toHaveText(usd(want.monthly));
    return want;
  };

  const before = await check(0.25);

  // 25% → 50% with the slider's arrow keys (5% steps); the exact field follows.
  const slider = region.getByRole('slider', { name: 'Headroom above the peak (slider)' });
  await slider.focus();
  for (let i = 0; i < 5; i += 1) await slider.press('ArrowRight');
  await expect(headroomBox).toHaveValue('50');
  const after = await check(0.5);
  expect(after.monthly).toBeGreaterThan(before.monthly);

  // …and a typed value works the same way.
  await headroomBox.fill('40');
  await expect(slider).toHaveValue('40');
  await check(0.4);
});
