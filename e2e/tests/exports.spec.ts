import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { artifactPath, fixtureBytes } from './support/fixtures.ts';
import { chartsDrawn, gotoPlan } from './support/planning.ts';
import { expect, test } from './support/test.ts';

/**
 * Journey (issue 14): every chart of the example session exports a PNG a slide can use on its own —
 * the chart's title above it and a legend that tells its colours apart. The proof is read from the
 * exported image itself: it is decoded in the browser, and each legend colour must have swatch
 * pixels in the legend band under the plot (where no bar or line is drawn), under a title band of
 * dark text.
 */

/** The palette colours a legend may name (web/src/lib/palette.ts). */
const C = {
  text: '#1b1f24',
  ebs: '#0969da',
  nvme: '#8250df',
  watch: '#9a6700',
  concern: '#cf222e',
  neutral: '#57606a',
  /** Neutral at 45 % opacity on white: a burst ceiling's faded bar. */
  fadedNeutral: '#b3b7bc',
  storage: '#0969da',
  iops: '#bc4c00',
  throughput: '#1a7f37',
} as const;

/** The exported PNG is drawn at 2× (chartToPngBlob) under a 28 px title band (composeExportSvg). */
const SCALE = 2;
const TITLE_BAND = 28;

type Blob2D = { color: string; x: number; y: number; width: number; height: number; pixels: number };
type Analysis = {
  width: number;
  height: number;
  /** Dark (title-coloured) pixels in the title band. */
  titleInk: number;
  /** Connected areas of each asked colour, in image pixels. */
  blobs: Blob2D[];
};

/**
 * Decodes a PNG in the page (createImageBitmap → canvas) and finds, for each asked colour, the
 * connected areas of pixels within a small tolerance of it (anti-aliased edges aside).
 */
async function analyzePng(page: Page, png: Buffer, colors: readonly string[]): Promise<Analysis> {
  return page.evaluate(
    async ({ b64, colors, titleBand }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = document.createElement('canvas');
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const { data, width, height } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
      const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      const near = (p: number, [r, g, b]: number[]) =>
        Math.abs(data[p]! - r!) <= 20 &&
        Math.abs(data[p + 1]! - g!) <= 20 &&
        Math.abs(data[p + 2]! - b!) <= 20;
      const ink = rgb('#1b1f24');
      let titleInk = 0;
      for (let y = 0; y < Math.min(height, titleBand); y++)
        for (let x = 0; x < width; x++) if (near((y * width + x) * 4, ink)) titleInk++;
      const blobs: { color: string; x: number; y: number; width: number; height: number; pixels: number }[] =
        [];
      for (const color of colors) {
        const target = rgb(color);
        const seen = new Uint8Array(width * height);
        for (let start = 0; start < width * height; start++) {
          if (seen[start] || !near(start * 4, target)) continue;
          let [x0, y0, x1, y1, pixels] = [width, height, 0, 0, 0];
          const stack = [start];
          seen[start] = 1;
          while (stack.length > 0) {
            const i = stack.pop()!;
            const x = i % width;
            const y = (i - x) / width;
            pixels++;
            x0 = Math.min(x0, x);
            y0 = Math.min(y0, y);
            x1 = Math.max(x1, x);
            y1 = Math.max(y1, y);
            for (const [dx, dy] of [
              [1, 0],
              [-1, 0],
              [0, 1],
              [0, -1],
            ] as const) {
              const nx = x + dx;
              const ny = y + dy;
              if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
              const n = ny * width + nx;
              if (!seen[n] && near(n * 4, target)) {
                seen[n] = 1;
                stack.push(n);
              }
            }
          }
          blobs.push({ color, x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, pixels });
        }
      }
      return { width, height, titleInk, blobs };
    },
    { b64: png.toString('base64'), colors: [...colors], titleBand: TITLE_BAND * SCALE },
  );
}

/** The chart's figure on the page, found by its export button. */
function figureOf(page: Page, title: RegExp): Locator {
  return page.locator('figure.chart-frame').filter({
    has: page.getByRole('button', { name: title }),
  });
}

/** Clicks "Download PNG" of one chart; returns the PNG and the plot's height on the page. */
async function exportChart(
  page: Page,
  title: RegExp,
  file: string,
): Promise<{ png: Buffer; plotHeight: number; name: string }> {
  const figure = figureOf(page, title);
  await expect(figure).toHaveCount(1);
  const download = page.waitForEvent('download');
  await figure.getByRole('button', { name: title }).click();
  const got = await download;
  // Charts mount only near the viewport: the button mounts one first, so measure it after.
  const plotHeight = await figure.evaluate((f) =>
    Math.max(
      0,
      ...[...f.querySelectorAll('.chart-frame__plot svg')].map((s) => s.getBoundingClientRect().height),
    ),
  );
  const png = readFileSync((await got.path())!);
  writeFileSync(artifactPath(file), png);
  return { png, plotHeight, name: got.suggestedFilename() };
}

/** Swatch-sized areas (a legend swatch is 12 CSS px; marks 2–24 px) of a colour inside a band of rows. */
function swatchesIn(a: Analysis, color: string, fromY: number, toY = a.height): Blob2D[] {
  return a.blobs.filter(
    (b) =>
      b.color === color &&
      b.y >= fromY &&
      b.y + b.height <= toY &&
      b.pixels >= 12 &&
      b.width <= 24 * SCALE &&
      b.height <= 24 * SCALE,
  );
}

/**
 * The image holds the title band, the plot and, under it, a legend band: each colour has a swatch
 * there. Returns the analysis for further checks.
 */
async function expectLegendBand(page: Page, title: RegExp, file: string, colors: readonly string[]) {
  const { png, plotHeight, name } = await exportChart(page, title, file);
  expect(name).toMatch(/^[a-z0-9-]+\.png$/);
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  const a = await analyzePng(page, png, colors);
  expect(plotHeight).toBeGreaterThan(100);
  const legendTop = (TITLE_BAND + plotHeight) * SCALE;
  expect(a.titleInk, `${file}: title text in the title band`).toBeGreaterThan(200);
  expect(a.height, `${file}: taller than the plot by a title and a legend band`).toBeGreaterThan(
    legendTop + 12 * SCALE,
  );
  for (const color of colors)
    expect(swatchesIn(a, color, legendTop).length, `${file}: a legend swatch in ${color}`).toBeGreaterThan(0);
  return { a, legendTop };
}

test('every chart of the example session exports a PNG with its title and a legend', async ({ page }) => {
  await gotoPlan(page);
  const answer = page.getByRole('region', { name: 'The answer' });
  await answer.getByRole('button', { name: 'Try an example' }).click();
  await expect(answer.getByText(/^Needs 13,125 IOPS and 650 MiB\/s/)).toBeVisible();
  // Each chart below is checked: a new one on this page belongs in this journey too. (The
  // comparison's panels load once there is a plan: the count waits for them.)
  const downloads = page.getByRole('button', { name: /^Download PNG: / });
  await expect(downloads, 'the charts on the page').toHaveCount(5);
  await chartsDrawn(page);

  // What binds on r6i.4xlarge: the bottleneck's red, the grey of a ceiling with headroom, and
  // that grey faded as the burst ceilings are drawn.
  await expectLegendBand(page, /^Download PNG: What binds/, 'export-limits.png', [
    C.concern,
    C.neutral,
    C.fadedNeutral,
  ]);

  // Latency: one entry per run in its colour, and the red ring of the example's p95 → p99 cliff.
  await expect(page.getByText('Cliffs (stalls: queuing, throttling or credit exhaustion):')).toBeVisible();
  await expectLegendBand(page, /^Download PNG: .*completion latency/, 'export-latency.png', [
    C.nvme,
    C.ebs,
    C.concern,
  ]);

  // Rates: EBS and NVMe.
  await expectLegendBand(page, /^Download PNG: IOPS: NVMe vs EBS/, 'export-iops.png', [C.ebs, C.nvme]);
  await expectLegendBand(page, /^Download PNG: Bandwidth: NVMe vs EBS/, 'export-bandwidth.png', [
    C.ebs,
    C.nvme,
  ]);

  // Monthly cost: drawn by another chart (its legend may sit inside the SVG), so only generic
  // checks: a title band, and at least two distinct colours with swatch-shaped marks.
  const cost = await exportChart(page, /^Download PNG: Monthly cost/, 'export-cost.png');
  const palette = [C.storage, C.iops, C.throughput, C.nvme];
  const a = await analyzePng(page, cost.png, palette);
  expect(a.titleInk, 'cost: title text in the title band').toBeGreaterThan(200);
  expect(a.height).toBeGreaterThan((TITLE_BAND + cost.plotHeight) * SCALE - 2);
  const square = palette.filter((color) =>
    swatchesIn(a, color, TITLE_BAND * SCALE).some(
      (b) => b.width >= 6 * SCALE && Math.abs(b.width - b.height) <= 2 * SCALE,
    ),
  );
  expect(square.length, 'cost: at least two legend swatch colours').toBeGreaterThanOrEqual(2);
});

test('the demand-over-time chart of an iostat capture exports its legend: read, write, each ceiling', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const file = 'metrics/iostat_12.6.1_x_t_C.txt';
  await gotoPlan(page);
  const answer = page.getByRole('region', { name: 'The answer' });
  await answer.getByRole('button', { name: 'Try an example' }).click();
  await expect(answer.getByText(/^Needs 13,125 IOPS and 650 MiB\/s/)).toBeVisible();
  await page.getByLabel('Choose metrics files…').setInputFiles({
    name: basename(file),
    mimeType: 'text/plain',
    buffer: fixtureBytes(file),
  });
  await expect(page.getByRole('region', { name: `Production metrics: ${basename(file)}` })).toBeVisible();
  await chartsDrawn(page);
  // Read (blue) and write (orange) areas, and the example's gp3 ceiling as a red dashed line.
  await expectLegendBand(page, /^Download PNG: .*IOPS over time/, 'export-demand-iops.png', [
    C.ebs,
    C.iops,
    C.concern,
  ]);
});
