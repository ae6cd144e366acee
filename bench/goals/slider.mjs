// P16: main-thread work of one what-if slider step on the planning page, in Chromium: the
// example session ("Try an example": the guide's NoSQL profile on r6i.4xlarge, a gp3 candidate,
// an NVMe and a gp3 fio run), then a 41-step drag of "Headroom above the peak" (0 → 100 % → 0 in
// 5 % steps). Each step is one `input` event on the range; the page is left until it is idle
// (requestIdleCallback) before the next. A Chrome trace (devtools.timeline) sums the renderer
// main thread's tasks (RunTask) between one step's performance mark and the next: what the step
// cost the main thread, whatever React deferred or scheduled. Long tasks (> 50 ms) are counted
// too. Goal: median < 16 ms (one frame at 60 Hz); the worst step is reported beside it.
// Code inside addInitScript and page.evaluate runs in the browser.
/* global window, document, requestIdleCallback, requestAnimationFrame, HTMLInputElement */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { ROOT, goal, info, join, log, main, median, round, skip } from '../lib/common.mjs';
import { importFrom } from '../lib/deps.mjs';
import { APP_SERVER, buildAppBundle } from '../lib/bundle.mjs';
import { startApp } from '../lib/servers.mjs';

const CHROME = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
const STEPS = [
  ...Array.from({ length: 21 }, (_, i) => i * 5),
  ...Array.from({ length: 20 }, (_, i) => 95 - i * 5),
];
const TITLE = 'what-if slider step, main-thread ms';

/** Main-thread busy time per step, from the trace: RunTask durations between consecutive marks. */
function stepCosts(trace, count) {
  const events = trace.traceEvents ?? trace;
  const marks = events.filter((e) => typeof e.name === 'string' && /^bw-step-\d+$/.test(e.name));
  if (marks.length < count + 1)
    throw new Error(`the trace holds ${marks.length} step marks, expected ${count + 1}`);
  const pid = marks[0].pid;
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === pid && e.args?.name === 'CrRendererMain',
  );
  if (!main) throw new Error('no CrRendererMain thread in the trace');
  const tasks = events.filter(
    (e) => e.ph === 'X' && e.name === 'RunTask' && e.pid === pid && e.tid === main.tid,
  );
  const at = (i) => marks.find((m) => m.name === `bw-step-${i}`).ts;
  const costs = [];
  for (let i = 0; i < count; i++) {
    const from = at(i);
    const to = at(i + 1);
    // A task is the step's when it starts in its window (the mark itself is inside the first one).
    let us = 0;
    for (const t of tasks)
      if (t.ts + t.dur > from && t.ts < to) us += Math.min(t.ts + t.dur, to) - Math.max(t.ts, from);
    costs.push(us / 1000);
  }
  return costs;
}

main('slider', async () => {
  if (!existsSync(join(ROOT, 'web', 'dist', 'index.html')))
    return [skip({ id: 'P16', title: TITLE, reason: 'web app not built: run `pnpm build`' })];
  if (!existsSync(CHROME)) return [skip({ id: 'P16', title: TITLE, reason: `no Chromium at ${CHROME}` })];
  const e2eRequire = createRequire(join(ROOT, 'e2e', 'package.json'));
  const { chromium } = await importFrom(e2eRequire, '@playwright/test');
  // Run on its own (`node --import tsx bench/goals/slider.mjs`), the server bundle may be missing.
  if (!existsSync(APP_SERVER)) await buildAppBundle();
  const app = await startApp({ name: 'slider' });
  const browser = await chromium.launch({
    executablePath: CHROME,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => {
      window.__bwLongTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__bwLongTasks.push({ start: e.startTime, ms: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    await page.goto(`${app.url}/`);
    await page.getByRole('button', { name: 'Try an example' }).click();
    await page.getByText(/^Needs 13,125 IOPS/).waitFor();
    const slider = page.getByRole('slider', { name: 'Headroom above the peak (slider)' });
    await slider.scrollIntoViewIfNeeded();
    await page.evaluate(() => new Promise((r) => requestIdleCallback(() => r(), { timeout: 5000 })));
    log('P16', `${STEPS.length} steps of the headroom slider, traced`);
    await browser.startTracing(page, {
      categories: [
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'blink.user_timing',
        'toplevel',
      ],
    });
    const longTasks = await page.evaluate(async (steps) => {
      const input = [...document.querySelectorAll('input[type=range]')].find(
        (el) => el.getAttribute('aria-label') === 'Headroom above the peak (slider)',
      );
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      const idle = () => new Promise((r) => requestIdleCallback(() => r(), { timeout: 5000 }));
      const before = window.__bwLongTasks.length;
      const started = performance.now();
      for (const [i, value] of steps.entries()) {
        performance.mark(`bw-step-${i}`);
        setValue.call(input, String(value));
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await idle();
        // Whatever React deferred to a later task has run once the page is idle twice over.
        await new Promise((r) => requestAnimationFrame(() => r()));
        await idle();
      }
      performance.mark(`bw-step-${steps.length}`);
      return window.__bwLongTasks.slice(before).filter((t) => t.start >= started);
    }, STEPS);
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
    const costs = stepCosts(trace, STEPS.length);
    const sorted = [...costs].sort((a, b) => a - b);
    const med = median(costs);
    const worst = sorted.at(-1);
    const details = {
      steps: costs.length,
      medianMs: round(med, 1),
      worstMs: round(worst, 1),
      p90Ms: round(sorted[Math.floor(sorted.length * 0.9)], 1),
      totalMs: round(
        costs.reduce((a, b) => a + b, 0),
        0,
      ),
      longTasks: longTasks.length,
      longestTaskMs: round(Math.max(0, ...longTasks.map((t) => t.ms)), 0),
      perStepMs: costs.map((c) => round(c, 1)),
    };
    return [
      goal({
        id: 'P16a',
        title: `${TITLE}, median of ${costs.length}`,
        value: med,
        op: '<',
        target: 16,
        unit: ' ms',
        details,
      }),
      info({
        id: 'P16b',
        title: `${TITLE}, worst of ${costs.length}`,
        value: worst,
        unit: ' ms',
        details,
        note: `${longTasks.length} long tasks (> 50 ms), the longest ${details.longestTaskMs} ms; whole drag ${details.totalMs} ms of main-thread work`,
      }),
    ];
  } finally {
    await browser.close();
    await app.cleanup();
  }
});
