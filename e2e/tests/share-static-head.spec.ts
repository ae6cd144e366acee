import type { Browser, Page } from '@playwright/test';
import { Seeder, uniqueSuffix } from './support/api.ts';
import { EBS_FIXTURE, seedNvmeVsEbs } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * A share link's HTML carries the top of its page (heading, facts, buttons, info banner,
 * warnings), rendered by the server so the largest paint needs no script (bench P11). React then
 * replaces #root with its own rendering of the same comparison. The two must not drift: the same
 * words, and the banner in the same place at a desktop and a phone width (no layout shift).
 */

/** 4k randwrite on an NVMe drive vs a 33 %-read mix on EBS: a jobs_differ warning under the banner. */
const RANDWRITE_FIXTURE = 'fio/public/samyaple_fio-3.33_randwrite_nj16_perjob.json';

const WIDTHS = [1280, 390];

type Head = {
  title: string;
  kicker: string;
  heading: string;
  facts: string;
  buttons: string[];
  banner: string;
  warnings: string;
  bannerBox: { y: number; height: number };
};

const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Text as the DOM holds it (CSS upper-cases the kicker on screen; the words are what must match). */
async function readHead(page: Page): Promise<Head> {
  const head = page.locator('main .page-head');
  const banner = page.locator('main .banner--info');
  const box = await banner.boundingBox();
  expect(box, 'the info banner is laid out').not.toBeNull();
  return {
    title: await page.title(),
    kicker: squash(await head.locator('.page-head__kicker').textContent()),
    heading: squash(await head.getByRole('heading', { level: 1 }).textContent()),
    facts: squash(await head.locator('dl').textContent()),
    buttons: (await head.getByRole('button').allTextContents()).map(squash),
    banner: squash(await banner.textContent()),
    warnings: squash(await page.locator('main .banner--info + .callout--concern').textContent()),
    bannerBox: { y: box!.y, height: box!.height },
  };
}

/** The page as the server sends it, before (here: without) any script. */
async function staticHead(browser: Browser, baseURL: string, path: string, width: number): Promise<Head> {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled: false,
    viewport: { width, height: 900 },
  });
  try {
    const page = await context.newPage();
    await page.goto(path);
    // Nothing of the page's body exists without React: only the head came with the HTML.
    await expect(page.getByRole('region', { name: 'Runs', exact: true })).toHaveCount(0);
    return await readHead(page);
  } finally {
    await context.close();
  }
}

test('a share link paints the same head before and after React takes over, at 1280 and 390 px', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const title = `Static head <b>&amp;</b> "quoted" ${uniqueSuffix()}`;
  const { comparison } = await seedNvmeVsEbs(new Seeder(request), title, {
    nvme: RANDWRITE_FIXTURE,
    ebs: EBS_FIXTURE,
  });
  const path = `/c/${comparison.id}`;

  for (const width of WIDTHS) {
    await test.step(`${width} px wide`, async () => {
      const before = await staticHead(browser, baseURL!, path, width);
      expect(before.heading).toBe(title);
      expect(before.title).toBe(`${title} — Blockwise`);
      expect(before.kicker).toBe('Shared comparison · read-only');
      expect(before.banner).toMatch(/^These results were computed once, when the link was created/);
      expect(before.warnings).toMatch(/^Read this before the numbers:/);
      expect(before.buttons).toEqual([
        'Open as a new planning session',
        'Export CSV',
        'Export JSON',
        'Print / PDF',
      ]);

      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      // React's page, not the static one: the sections under the banner are drawn.
      await expect(page.getByRole('region', { name: 'Runs', exact: true })).toHaveCount(1, {
        timeout: 20_000,
      });
      const after = await readHead(page);
      const { bannerBox: boxBefore, ...textBefore } = before;
      const { bannerBox: boxAfter, ...textAfter } = after;
      expect(textAfter).toEqual(textBefore);
      expect(Math.abs(boxAfter.y - boxBefore.y), 'banner top, px').toBeLessThanOrEqual(1);
      expect(Math.abs(boxAfter.height - boxBefore.height), 'banner height, px').toBeLessThanOrEqual(1);
    });
  }
});
