import { gotoPlan } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey (issue 14, "instant what-ifs"): a headroom step redraws what it changes — the answer
 * and right-sizing — and leaves every other part of the page as it was. What a step costs in
 * milliseconds is measured by the bench (`pnpm bench`, goal P16: median main-thread time of a
 * 41-step drag in Chromium, bench/goals/slider.mjs), never by a timed test; this journey pins the
 * reason it is cheap: the DOM outside the answer and the right-sizing region is not touched.
 */

test.use({ viewport: { width: 1280, height: 800 } });

declare global {
  interface Window {
    __whatIfMutations?: Record<string, number>;
  }
}

test('a headroom step updates the answer, right-sizing and the share link, and touches nothing else', async ({
  page,
}) => {
  await gotoPlan(page);
  const answer = page.getByRole('region', { name: 'The answer' });
  await answer.getByRole('button', { name: 'Try an example' }).click();
  // The guide's write-heavy NoSQL profile: a peak of 10,500 IOPS and 520 MiB/s, +25 % headroom.
  await expect(answer.getByText(/^Needs 13,125 IOPS and 650 MiB\/s/)).toBeVisible();

  const slider = page.getByRole('slider', { name: 'Headroom above the peak (slider)' });
  await slider.scrollIntoViewIfNeeded();
  // Charts mount when scrolled near: let whatever the scroll brought in finish drawing (the DOM
  // quiet for half a second) before counting starts.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let timer = setTimeout(done, 500);
        const observer = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(done, 500);
        });
        function done() {
          observer.disconnect();
          resolve();
        }
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
      }),
  );

  // Count DOM mutations by the page region they happen in, from here on.
  await page.evaluate(() => {
    const counts: Record<string, number> = {};
    window.__whatIfMutations = counts;
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target instanceof Element ? r.target : r.target.parentElement;
        const region = el?.closest('#answer, section.region--l2[id]')?.id ?? 'elsewhere';
        counts[region] = (counts[region] ?? 0) + 1;
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });

  // Each step's demand is the peak × (1 + headroom), as the answer says.
  for (const [percent, iops, mibps] of [
    [35, '14,176', '702'],
    [50, '15,750', '780'],
    [0, '10,500', '520'],
  ] as const) {
    await slider.fill(String(percent));
    await expect(answer.getByText(new RegExp(`^Needs ${iops} IOPS and ${mibps} MiB/s`))).toBeVisible();
  }

  const counts = await page.evaluate(() => window.__whatIfMutations ?? {});
  // What a step changes: the answer, and the right-sizing region (its slider, tables, cost chart);
  // "Share & export" holds the session's link, which carries the headroom.
  expect(counts['answer']).toBeGreaterThan(0);
  expect(counts['right-size']).toBeGreaterThan(0);
  const changes = new Set(['answer', 'right-size', 'share']);
  // Everything else stays as it was: the inputs, the profile, what binds, NVMe vs EBS, the rate card.
  const untouched = Object.fromEntries(Object.entries(counts).filter(([region]) => !changes.has(region)));
  expect(untouched).toEqual({});
});
