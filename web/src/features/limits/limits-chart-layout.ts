import { labelLines } from '../../components/bar-chart-layout.ts';
import { fmtPct } from '../../lib/format.ts';
import { tickTextWidth } from '../../lib/value-axis.ts';
import type { LimitRow } from './limits-rows.ts';

/**
 * Geometry of the "What binds" chart, as numbers (pure, tested without a browser): one horizontal
 * bar per ceiling on a utilization axis from 0 to `axisMax`, the 100% line, each bar's value
 * label, the category labels. LimitsChart only turns the result into SVG elements.
 */

/** Height in CSS pixels of the chart for `rows` ceilings: the chart and its frame use this one formula. */
export const limitsChartHeight = (rows: number) => 58 + rows * 38;

export const FONT_SIZE = 12;
/** The 100% line's label and the axis title are a size smaller than the ticks. */
export const SMALL_FONT_SIZE = 11;

/** Room above the plot for the "100%" label; below it, the tick band and the axis title. */
const MARGIN = { top: 22, bottom: 44, left: 4 };
const BAR_HEIGHT = 18;
/** Space between a bar's end and its value label. */
const LABEL_GAP = 5;
/** Axis step candidates, in utilization (0.5 = 50%): the finest whose labels do not touch. */
const TICK_STEPS = [0.5, 1, 1.5, 3];
const TICK_PADDING = 8;

export type LimitsBar = {
  x: number;
  y: number;
  width: number;
  height: number;
  /** The band of the row (for the hover highlight and the row's tooltip). */
  bandTop: number;
  bandHeight: number;
  /** Centre line of the row: the category label and the value label sit on it. */
  centerY: number;
  /** Left edge of the value label, right of the bar's end. */
  valueX: number;
  /** The category label in the lines that fit left of the plot. */
  labelLines: string[];
};

export type LimitsChartGeometry = {
  width: number;
  height: number;
  plot: { left: number; right: number; top: number; bottom: number };
  ticks: { value: number; x: number; text: string }[];
  /** Where 100% (demand at the ceiling) sits. */
  hundredX: number;
  bars: LimitsBar[];
};

type Input = {
  rows: readonly Pick<LimitRow, 'label' | 'plotted' | 'utilizationText'>[];
  axisMax: number;
  width: number;
  /** Width of the category labels' column (ChartFrame's categoryAxisWidth). */
  categoryAxisWidth: number;
};

/**
 * Everything LimitsChart draws, in pixels. The plot's right edge leaves each bar's value label
 * room to be read (a bar held at the axis end says "2000.0%" beyond it) and the last tick label
 * room to be centred on its tick; ticks are every 50% where their labels fit, coarser on a phone.
 */
export function layoutLimitsChart({ rows, axisMax, width, categoryAxisWidth }: Input): LimitsChartGeometry {
  const height = limitsChartHeight(rows.length);
  const max = axisMax > 0 && Number.isFinite(axisMax) ? axisMax : 1;
  const left = MARGIN.left + categoryAxisWidth;
  const edge = width - 2;
  // The last tick label is centred on its tick, which is at most the axis end.
  let right = edge - Math.ceil(tickTextWidth(fmtPct(max, 0), FONT_SIZE) / 2);
  // A bar reaching `fraction` of the axis ends at left + fraction × (right − left); its label after it must fit.
  for (const row of rows) {
    const fraction = Math.min(1, Math.max(0, row.plotted / max));
    const room = edge - LABEL_GAP - tickTextWidth(row.utilizationText, FONT_SIZE) - left;
    if (fraction > 0) right = Math.min(right, left + room / fraction);
  }
  // Never a plot narrower than a third of what is left of the labels (a label then runs over the edge).
  right = Math.max(right, left + Math.max(1, (edge - left) / 3));
  const top = MARGIN.top;
  const bottom = Math.max(top + 1, height - MARGIN.bottom);
  const xOf = (v: number) => left + (Math.min(Math.max(v, 0), max) / max) * (right - left);

  const widest = tickTextWidth(fmtPct(max, 0), FONT_SIZE) + TICK_PADDING;
  const step =
    TICK_STEPS.find((s) => (s / max) * (right - left) >= widest) ?? TICK_STEPS[TICK_STEPS.length - 1]!;
  const ticks: LimitsChartGeometry['ticks'] = [];
  for (let i = 0; i * step <= max + 1e-9; i++) {
    const value = Number((i * step).toPrecision(12));
    ticks.push({ value, x: xOf(value), text: fmtPct(value, 0) });
  }

  const band = rows.length > 0 ? (bottom - top) / rows.length : 0;
  const barHeight = Math.min(BAR_HEIGHT, band * 0.8);
  const bars = rows.map((row, i): LimitsBar => {
    const centerY = top + band * (i + 0.5);
    const end = xOf(Number.isFinite(row.plotted) ? row.plotted : max);
    return {
      x: left,
      y: centerY - barHeight / 2,
      width: end - left,
      height: barHeight,
      bandTop: top + band * i,
      bandHeight: band,
      centerY,
      valueX: end + LABEL_GAP,
      labelLines: labelLines(row.label, categoryAxisWidth - 12, FONT_SIZE),
    };
  });
  return { width, height, plot: { left, right, top, bottom }, ticks, hundredX: xOf(1), bars };
}

/**
 * What the chart shows, in words (its <desc>, read by screen readers with the image): each
 * ceiling's utilization, which one binds, and that burst ceilings are temporary (their labels
 * say "burst").
 */
export function limitsChartSummary(
  rows: readonly Pick<LimitRow, 'label' | 'utilizationText' | 'bottleneckBadge' | 'sustained'>[],
): string {
  const parts = rows.map(
    (r) => `${r.label}: ${r.utilizationText}${r.bottleneckBadge ? ` (${r.bottleneckBadge})` : ''}`,
  );
  const burst = rows.some((r) => !r.sustained) ? ' Burst ceilings hold only while credits last.' : '';
  return `Utilization of each ceiling (demand ÷ ceiling; 100% is demand at the ceiling): ${parts.join('; ')}.${burst}`;
}
