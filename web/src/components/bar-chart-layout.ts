import { tickTextWidth } from '../lib/value-axis.ts';

/**
 * Geometry of a horizontal bar chart, as numbers (pure, tested without a browser): where each
 * category's bars go, stacked or side by side, and the value axis' nice ticks. The component
 * (HorizontalBarChart) only turns the result into SVG elements.
 */

export type BarSeriesShape = {
  /** Series sharing a stack id are drawn end to end in one bar; the others get a bar each. */
  stackId?: string;
};

export type BarRect = {
  row: number;
  series: number;
  value: number;
  x: number;
  y: number;
  width: number;
  height: number;
};

export type LegendItem = { series: number; x: number; y: number };

export type BarChartGeometry = {
  /** Value-axis ticks and their x positions. */
  ticks: { value: number; x: number }[];
  /** Where the value 0 sits (the bars' base). */
  zeroX: number;
  /** The vertical centre of each category's band (its label's y). */
  bandCenters: number[];
  rects: BarRect[];
  legend: LegendItem[];
  plot: { left: number; right: number; top: number; bottom: number };
  height: number;
};

const STEPS = [1, 2, 2.5, 5, 10];

/**
 * "Nice" axis ticks covering [min, max] — multiples of 1, 2, 2.5 or 5 × 10^k, about `target`
 * intervals — always including 0 when the range spans it. A zero range gets [0, 1]'s ticks.
 */
export function niceTicks(min: number, max: number, target = 5): number[] {
  let lo = Math.min(min, 0);
  let hi = Math.max(max, 0);
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi - lo <= 0) {
    lo = 0;
    hi = 1;
  }
  const raw = (hi - lo) / Math.max(1, target);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = (STEPS.find((s) => s * magnitude >= raw) ?? 10) * magnitude;
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const ticks: number[] = [];
  // Multiplying (not adding) keeps 0.1-steps exact enough for labels: 3 × 0.1 → 0.30000000000000004 is rounded.
  for (let i = first; i <= last; i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

/** Which bar (group) of its category each series is drawn in: one per stack id, one per unstacked series. */
export function barGroupsOf(series: readonly BarSeriesShape[]): { groupOf: number[]; count: number } {
  const ids = new Map<string, number>();
  let count = 0;
  const groupOf = series.map((s) => {
    if (s.stackId === undefined) return count++;
    let g = ids.get(s.stackId);
    if (g === undefined) {
      g = count++;
      ids.set(s.stackId, g);
    }
    return g;
  });
  return { groupOf, count };
}

type LayoutInput = {
  /** values[row][series]; a non-finite value draws nothing. */
  values: readonly (readonly number[])[];
  series: readonly BarSeriesShape[];
  /** Legend texts (one per series), or null for no legend. */
  legendLabels: readonly string[] | null;
  width: number;
  /** Height of the plot's rows (the frame's height formula), without the legend band. */
  rowsHeight: number;
  categoryAxisWidth: number;
  fontSize: number;
  /** The value axis' tick text: the last label is centred on the right edge and must fit. */
  formatTick: (value: number) => string;
};

const MARGIN = { top: 8, right: 24, bottom: 28 };
const LEGEND_ROW = 20;
const SWATCH = 10;
const LEGEND_GAP = 16;

/** Everything HorizontalBarChart draws, in pixels. */
export function layoutBarChart(input: LayoutInput): BarChartGeometry {
  const { values, series, width, rowsHeight, categoryAxisWidth, fontSize } = input;
  const { groupOf, count: groups } = barGroupsOf(series);

  // The extent of every stack: positives pile up right of 0, negatives left of it.
  let min = 0;
  let max = 0;
  for (const row of values) {
    const pos = new Array<number>(groups).fill(0);
    const neg = new Array<number>(groups).fill(0);
    row.forEach((v, s) => {
      if (!Number.isFinite(v)) return;
      const g = groupOf[s]!;
      if (v >= 0) pos[g]! += v;
      else neg[g]! += v;
    });
    max = Math.max(max, ...pos);
    min = Math.min(min, ...neg);
  }
  // As many ticks as their labels fit side by side (a phone's plot is ~160 px wide): at most 5.
  const left = categoryAxisWidth;
  const widest = tickTextWidth(input.formatTick(niceTicks(min, max).at(-1)!), fontSize);
  const fit = Math.floor((width - left - MARGIN.right) / (widest + 16));
  const ticks = niceTicks(min, max, Math.max(1, Math.min(5, fit)));
  const lo = ticks[0]!;
  const hi = ticks.at(-1)!;

  const lastLabel = tickTextWidth(input.formatTick(hi), fontSize);
  const right = Math.max(left + 1, width - Math.max(MARGIN.right, Math.ceil(lastLabel / 2) + 4));
  const top = MARGIN.top;
  const bottom = Math.max(top + 1, rowsHeight - MARGIN.bottom);
  const xOf = (v: number) => left + ((v - lo) / (hi - lo)) * (right - left);
  const zeroX = xOf(0);

  const band = values.length > 0 ? (bottom - top) / values.length : 0;
  const barHeight = Math.min(band * 0.7, 26);
  const groupHeight = groups > 0 ? barHeight / groups : 0;
  const rects: BarRect[] = [];
  const bandCenters = values.map((row, r) => {
    const center = top + band * (r + 0.5);
    const pos = new Array<number>(groups).fill(0);
    const neg = new Array<number>(groups).fill(0);
    row.forEach((v, s) => {
      if (!Number.isFinite(v) || v === 0) return;
      const g = groupOf[s]!;
      const from = v > 0 ? pos[g]! : neg[g]!;
      const to = from + v;
      if (v > 0) pos[g] = to;
      else neg[g] = to;
      const x1 = xOf(Math.min(from, to));
      const x2 = xOf(Math.max(from, to));
      rects.push({
        row: r,
        series: s,
        value: v,
        x: x1,
        y: center - barHeight / 2 + g * groupHeight,
        width: x2 - x1,
        height: groupHeight,
      });
    });
    return center;
  });

  // The legend under the axis, wrapped to the width: it is part of the SVG, so a PNG export has it.
  const legend: LegendItem[] = [];
  let x = left;
  let legendRows = 0;
  input.legendLabels?.forEach((label, s) => {
    const itemWidth = SWATCH + 6 + tickTextWidth(label, fontSize) * 0.85 + LEGEND_GAP;
    if (legendRows === 0 || (x > left && x + itemWidth > width)) {
      x = left;
      legendRows += 1;
    }
    legend.push({ series: s, x, y: rowsHeight + LEGEND_ROW * (legendRows - 0.5) });
    x += itemWidth;
  });
  return {
    ticks: ticks.map((value) => ({ value, x: xOf(value) })),
    zeroX,
    bandCenters,
    rects,
    legend,
    plot: { left, right, top, bottom },
    height: rowsHeight + legendRows * LEGEND_ROW,
  };
}

export const LEGEND_SWATCH = SWATCH;

/** The category labels' font size in px (both horizontal bar charts draw them at 12). */
const LABEL_FONT_SIZE = 12;

/**
 * A category label in the lines that fit `px`: one line, else two broken at the last space that
 * fits, the second cut with "…" if it is still too long (the full text stays in its <title>).
 */
export function labelLines(text: string, px: number, fontSize = LABEL_FONT_SIZE): string[] {
  const max = Math.max(4, Math.floor(px / (fontSize * 0.55)));
  if (text.length <= max) return [text];
  // Break after the last space or hyphen that fits (the space is dropped, the hyphen kept).
  const space = text.lastIndexOf(' ', max);
  const hyphen = text.lastIndexOf('-', max - 1);
  const [first, rest] =
    space >= hyphen && space > 0
      ? [text.slice(0, space), text.slice(space + 1)]
      : hyphen > 0
        ? [text.slice(0, hyphen + 1), text.slice(hyphen + 1)]
        : [text.slice(0, max), text.slice(max)];
  return [first, rest.length <= max ? rest : `${rest.slice(0, max - 1)}…`];
}
