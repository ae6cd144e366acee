import { fixtureBytes } from './support/fixtures.ts';
import { addFioFiles, gotoPlan, labelsOf, labelNvme, NVME_FILE, NVME_FIXTURE } from './support/planning.ts';
import { renderedText } from './support/rendered-text.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey: a session with a good fio file and typed-in numbers → add two broken files (a real
 * Windows fio output that holds only error lines and no JSON, and a real result cut off half-way)
 * → each failure names its file and says why, and everything already in the session stays.
 */

const ERROR_ONLY = 'fio/public/cyberhuey_windows_fio_error_only.json';
const TRUNCATED_FROM = 'fio/generated/c_randread_4k_libaio_qd32_timebased5s.json';

test('a broken file gets a clear error naming it; the inputs and results already there stay', async ({
  page,
}) => {
  await gotoPlan(page);
  await addFioFiles(page, [NVME_FIXTURE]);
  await expect(labelsOf(page, NVME_FILE)).toBeVisible({ timeout: 20_000 });
  await labelNvme(page, NVME_FILE);
  await page.getByRole('button', { name: 'Type in metrics…' }).click();
  await page.getByRole('textbox', { name: 'Label (optional)' }).fill('orders-db peak');
  await page.getByRole('textbox', { name: 'Peak read IOPS' }).fill('1200');
  await page.getByRole('textbox', { name: 'Peak read throughput' }).fill('40');
  await page.getByRole('textbox', { name: 'Peak write IOPS' }).fill('800');
  await page.getByRole('textbox', { name: 'Peak write throughput' }).fill('25');
  await page.getByRole('button', { name: 'Add typed-in metrics' }).click();

  const inputs = page.getByRole('list', { name: /^In this session/ });
  await expect(inputs.getByRole('listitem')).toHaveCount(2);
  const profile = page.getByRole('region', { name: 'I/O profile', exact: true });
  const rightSize = page.getByRole('region', { name: 'Right-size & what-if', exact: true });
  await expect(profile.getByRole('table')).toBeVisible();
  // The plan sizes on the typed-in peaks (demand); the NVMe run at saturation is capacity evidence
  // (issue 27), so the profile is the typed one.
  await expect(profile.getByRole('table')).toContainText('1,200 IOPS');
  const before = {
    inputs: await inputs.getByRole('listitem').allInnerTexts(),
    profile: await renderedText(profile),
    target: await renderedText(rightSize.getByText(/^Target with \d+% headroom/)),
  };

  // Two broken files at once: fio's error lines without JSON, and a real result truncated.
  const whole = fixtureBytes(TRUNCATED_FROM);
  const truncated = {
    name: 'randread_4k_cut_short.json',
    mimeType: 'application/json',
    buffer: whole.subarray(0, 2000),
  };
  await addFioFiles(page, [ERROR_ONLY, truncated]);

  const errorOnly = inputs.getByRole('listitem').filter({ hasText: 'cyberhuey_windows_fio_error_only.json' });
  const cut = inputs.getByRole('listitem').filter({ hasText: truncated.name });
  const errorOnlyAlert = errorOnly.getByRole('alert');
  const cutAlert = cut.getByRole('alert');
  await expect(errorOnlyAlert).toContainText(
    'cyberhuey_windows_fio_error_only.json could not be read: no fio JSON found in the input',
  );
  // …quoting what fio itself printed instead of JSON.
  await expect(errorOnlyAlert).toContainText('the input says: fio: "C is not a directory');
  await expect(cutAlert).toContainText(`${truncated.name} could not be read:`);
  // Where it stops and what that means.
  await expect(cutAlert).toContainText('cut off');
  await expect(cutAlert).toContainText(`(character ${truncated.buffer.length})`);
  await expect(cutAlert).toContainText('the file is truncated');
  for (const alert of [errorOnlyAlert, cutAlert])
    await expect(alert).toContainText('The rest of the session is unaffected');

  // Nothing already there was lost or changed.
  await expect(inputs.getByRole('listitem')).toHaveCount(4);
  expect((await inputs.getByRole('listitem').allInnerTexts()).slice(0, 2)).toEqual(before.inputs);
  expect(await renderedText(profile)).toBe(before.profile);
  await expect(rightSize.getByText(/^Target with \d+% headroom/)).toHaveText(before.target);
  await expect(page.getByRole('region', { name: 'What binds', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save & share' })).toBeEnabled();

  // The broken files can be removed; the session goes on.
  await page.getByRole('button', { name: 'Remove cyberhuey_windows_fio_error_only.json' }).click();
  await page.getByRole('button', { name: `Remove ${truncated.name}` }).click();
  await expect(inputs.getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await renderedText(profile)).toBe(before.profile);
});
