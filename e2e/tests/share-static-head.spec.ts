import type { Browser, Page } from '@playwright/test';
import { Seeder, uniqueSuffix } from './support/api.ts';
import { artifactPath } from './support/fixtures.ts';
import { EBS_FIXTURE, seedNvmeVsEbs } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * A share link's HTML carries the top of its page (heading, facts, buttons, the answer, info
 * banner, warnings), rendered by the server so the largest paint needs no script (bench P11) and
 * the answer is in a phone's first viewport (issue 27). React then replaces #root with its own
 * rendering of the same comparison. The two must not drift: the same words, and the answer and
 * the banner in the same place at a desktop and a phone width (no layout shift).
 */

/** 4k randwrite on an NVMe drive vs a 33 %-read mix on EBS: a jobs_differ warning under the banner. */
const RANDWRITE_FIXTURE = 'fio/public/samyaple_fio-3.33_randwrite_nj16_perjob.json';

const WIDTHS = [1280, 390];
/** A phone's first viewport is 844 px high (390 × 844); the desktop's here is as tall. */
const HEIGHT = 844;

type Head = {
  title: string;
  kicker: string;
  heading: string;
  facts: string;
  buttons: string[];
  answer: string;
  answerLinks: string[];
  banner: string;
  warnings: string;
  answerBox: Box;
  bannerBox: Box;
};

type Box = { y: number; height: number };

const squash = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

/** Text as the DOM holds it (CSS upper-cases the kicker on screen; the words are what must match). */
async function readHead(page: Page): Promise<Head> {
  const head = page.locator('main .page-head');
  const banner = page.locator('main .banner--info');
  const box = await banner.boundingBox();
  expect(box, 'the info banner is laid out').not.toBeNull();
  const answer = page.getByRole('region', { name: 'The answer' });
  const answerBox = await answer.boundingBox();
  expect(answerBox, 'the answer is laid out').not.toBeNull();
  return {
    title: await page.title(),
    kicker: squash(await head.locator('.page-head__kicker').textContent()),
    heading: squash(await head.getByRole('heading', { level: 1 }).textContent()),
    facts: squash(await head.locator('dl').textContent()),
    buttons: (await head.getByRole('button').allTextContents()).map(squash),
    answer: squash(await answer.textContent()),
    answerLinks: await answer
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? '')),
    banner: squash(await banner.textContent()),
    warnings: squash(await page.locator('main .banner--info + .callout--concern').textContent()),
    answerBox: { y: answerBox!.y, height: answerBox!.height },
    bannerBox: { y: box!.y, height: box!.height },
  };
}

/** The page as the server sends it, before (here: without) any script. */
async function staticHead(browser: Browser, baseURL: string, path: string, width: number): Promise<Head> {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled: false,
    viewport: { width, height: HEIGHT },
  });
  try {
    const page = await context.newPage();
    await page.goto(path);
    // Nothing of the page's body exists without React: only the head came with the HTML.
    await expect(page.getByRole('region', { name: 'Runs', exact: true })).toHaveCount(0);
    await page.screenshot({ path: artifactPath(`share-static-head-${width}-before-react.png`) });
    // What to buy and its monthly cost, the answer's last decisive line, ends in the first viewport.
    const buy = await page
      .getByRole('region', { name: 'The answer' })
      .getByRole('listitem')
      .filter({ hasText: /^Provision / })
      .boundingBox();
    expect(buy, 'what to buy: laid out').not.toBeNull();
    expect(buy!.y + buy!.height, `${width} px: what to buy ends within ${HEIGHT} px`).toBeLessThanOrEqual(
      HEIGHT,
    );
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

      // The answer's lines, as React words them (shared/answer), in the HTML before any script.
      expect(before.answer).toMatch(
        /^The answer ?For .+Needs [\d,]+ IOPS .+What binds.*Provision gp3 .+\/month/,
      );

      await page.setViewportSize({ width, height: HEIGHT });
      await page.goto(path);
      // React's page, not the static one: the sections under the banner are drawn.
      await expect(page.getByRole('region', { name: 'Runs', exact: true })).toHaveCount(1, {
        timeout: 20_000,
      });
      const after = await readHead(page);
      await page.screenshot({ path: artifactPath(`share-static-head-${width}-after-react.png`) });
      const { bannerBox: boxBefore, answerBox: answerBefore, ...textBefore } = before;
      const { bannerBox: boxAfter, answerBox: answerAfter, ...textAfter } = after;
      expect(textAfter).toEqual(textBefore);
      expect(Math.abs(answerAfter.y - answerBefore.y), 'answer top, px').toBeLessThanOrEqual(1);
      expect(Math.abs(answerAfter.height - answerBefore.height), 'answer height, px').toBeLessThanOrEqual(1);
      expect(Math.abs(boxAfter.y - boxBefore.y), 'banner top, px').toBeLessThanOrEqual(1);
      expect(Math.abs(boxAfter.height - boxBefore.height), 'banner height, px').toBeLessThanOrEqual(1);
    });
  }
});
