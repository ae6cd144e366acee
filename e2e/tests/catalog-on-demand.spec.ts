import { gotoPlan } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey (issue 14, bench P11): a first visit to the planning page does not fetch or parse the
 * AWS catalog (≈ 470 kB of instance and price data) — nothing on an empty page needs it. Reaching
 * for the instance picker loads it, and a name typed meanwhile is applied once it arrives.
 */
test('the empty planning page loads the catalog only when the instance picker is used', async ({ page }) => {
  const catalogRequests: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (/\/assets\/catalog-data-/.test(url.pathname) || url.pathname.startsWith('/api/catalog'))
      catalogRequests.push(url.pathname);
  });
  await gotoPlan(page);
  const picker = page.getByRole('combobox', { name: 'Instance type for the plan' });
  await expect(picker).toBeVisible();
  await expect(page.getByRole('button', { name: 'Try an example' })).toBeEnabled();
  // Everything the page asked for has arrived: the catalog was not among it.
  await page.waitForLoadState('networkidle');
  expect(catalogRequests).toEqual([]);

  await picker.click();
  await picker.fill('r6i.4xlarge');
  await picker.press('Tab');
  await expect.poll(() => catalogRequests.some((p) => p.includes('catalog-data-'))).toBe(true);
  await expect(picker).toHaveValue('r6i.4xlarge');
  await expect(picker).not.toHaveAttribute('aria-invalid', 'true');
  // The choice took: the picker describes the instance the plan is now for (its EBS caps).
  await expect(
    page.getByText('16 vCPU · 128 GiB · EBS 5,000 Mbps / 20,000 IOPS (burst 10,000 Mbps / 40,000 IOPS)'),
  ).toBeVisible();
});
