import { test as unguarded } from '@playwright/test';
import { artifactPath } from './support/fixtures.ts';
import { gotoPlan } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey (issue 14): a first visit → "Try an example" → the answer on one screen (in the first
 * 1280×800 viewport, no scrolling) → a reload keeps the session → "New session" clears it. And a
 * page that does not exist answers an HTML page with a way back, while the API keeps JSON.
 */

test.use({ viewport: { width: 1280, height: 800 } });

test('example → the answer on one screen → reload keeps it → New session clears it', async ({ page }) => {
  await gotoPlan(page);
  const answer = page.getByRole('region', { name: 'The answer' });
  await answer.getByRole('button', { name: 'Try an example' }).click();

  // The guide's write-heavy NoSQL profile on r6i.4xlarge: what it needs, what binds, what to buy.
  await expect(answer.getByText(/^Needs 13,125 IOPS and 650 MiB\/s/)).toBeVisible();
  await expect(answer.getByText(/Instance EBS bandwidth binds at 87\.2% .* on r6i\.4xlarge/)).toBeVisible();
  await expect(
    answer.getByText(/^Provision gp3 1,000 GiB, 13,125 IOPS, 596 MiB\/s for \$149\.47\/month/),
  ).toBeVisible();
  await expect(
    answer.getByText(/The NVMe alternative, r6id\.4xlarge, costs \$147\.17\/month more/),
  ).toBeVisible();
  await expect(page.getByText('In this session (3)')).toBeVisible();

  // One screen: the whole answer inside the first viewport, the page not scrolled.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const box = (await answer.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(800);

  await page.screenshot({ path: artifactPath('session-answer-1280.png') });

  // Each line links down to its detail.
  await answer.getByRole('link', { name: 'What binds' }).click();
  await expect(page).toHaveURL(/#limits$/);
  await expect(page.getByRole('region', { name: 'What binds', exact: true })).toBeInViewport();

  // A reload keeps the session (restored from this browser's storage before the first paint).
  await page.goto('/');
  await expect(page.getByText('In this session (3)')).toBeVisible();
  await expect(answer.getByText(/^Needs 13,125 IOPS and 650 MiB\/s/)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Instance type for the plan' })).toHaveValue('r6i.4xlarge');
  await page.reload();
  await expect(page.getByText('In this session (3)')).toBeVisible();

  // New session: an empty page, and nothing comes back on the next reload.
  await answer.getByRole('button', { name: 'New session' }).click();
  await expect(answer.getByRole('button', { name: 'Try an example' })).toBeVisible();
  await expect(page.getByText(/In this session/)).toHaveCount(0);
  await page.reload();
  await expect(answer.getByRole('button', { name: 'Try an example' })).toBeVisible();
  await expect(page.getByText(/In this session/)).toHaveCount(0);
});

test('typed-in numbers → the address carries `#session=` → a fresh browser opens the same session', async ({
  page,
  browser,
  guard,
}) => {
  await gotoPlan(page);
  await page.getByRole('button', { name: 'Type in metrics…' }).click();
  const form = page.getByRole('region', { name: 'Bring data' });
  await form.getByRole('textbox', { name: 'Label (optional)' }).fill('orders-db peak');
  await form.getByRole('textbox', { name: 'Peak read IOPS' }).fill('3k');
  await form.getByRole('textbox', { name: 'Peak read throughput' }).fill('188');
  await form.getByRole('textbox', { name: 'Peak write IOPS' }).fill('6018');
  await form.getByRole('textbox', { name: 'Peak write throughput' }).fill('381');
  await form.getByRole('button', { name: 'Add typed-in metrics' }).click();
  await expect(page.getByText('In this session (1)')).toBeVisible();

  // The address follows the session (a moment after the change), without a history step.
  await expect(page).toHaveURL(/\/#session=[A-Za-z0-9_-]+$/);
  const address = page.url();
  // The link carries all of it: made, the session is shared, so a reload does not ask.
  await page.getByRole('button', { name: 'Share as a link without saving' }).click();
  await expect(page.getByRole('textbox', { name: 'Session link' })).toHaveValue(address);
  await page.reload();
  await expect(page.getByText('In this session (1)')).toBeVisible();
  expect(page.url()).toBe(address);

  // Another browser (nothing stored): the address alone brings the session back.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const fresh = await context.newPage();
    await guard.watch(fresh);
    await fresh.goto(address);
    await expect(fresh.getByText('Opened the planning session from the link.')).toBeVisible();
    await expect(fresh.getByText('In this session (1)')).toBeVisible();
    await expect(fresh.getByText(/read: 3,000 IOPS/)).toBeVisible();
    const profile = fresh.getByRole('region', { name: 'I/O profile' });
    await expect(profile.getByText('typed in: orders-db peak')).toBeVisible();
    await expect(fresh).toHaveURL(address);
  } finally {
    await context.close();
  }
});

// Not guarded: the browser logs the document's 404 status as a console error, which is the point.
unguarded(
  'a page that does not exist: an HTML 404 with a way back; the API keeps JSON',
  async ({ page, request }) => {
    const response = await page.goto('/nope');
    expect(response?.status()).toBe(404);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'browse the archive' }).click();
    await expect(page).toHaveURL(/\/runs$/);

    const api = await request.get('/api/nope');
    expect(api.status()).toBe(404);
    expect(api.headers()['content-type']).toMatch(/^application\/json/);
    expect((await api.json()).error.code).toBe('not_found');
  },
);
