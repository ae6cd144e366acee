/**
 * Room for a vertical value axis: its tick labels and, left of them, its rotated unit title.
 * Recharts gives the axis a fixed width and draws an `insideLeft` label over whatever ticks are
 * there, so a fixed 56–64 px width printed "IOPS" across "120,000". The width here is the widest
 * tick label (estimated from its characters: there is no layout before the chart draws) plus a
 * band for the title, and the title sits centered in that band.
 */

/** Average glyph width of digits and separators in the UI font, as a fraction of the font size. */
const GLYPH_EM = 0.62;
/** Recharts' tick line (6 px) and the gap between it and the label (2 px). */
const TICK_SPACE = 8;
/** Space between the title band and the widest tick label. */
const GAP = 4;

export type ValueAxisLayout = {
  width: number;
  /** For YAxis `label`: the title's center sits `offset` px right of the axis' left edge. */
  labelOffset: number;
};

/** Estimated pixel width of a tick label. */
export function tickTextWidth(text: string, fontSize: number): number {
  return Math.ceil(text.length * fontSize * GLYPH_EM);
}

/**
 * The width of a value axis whose largest value is `max`, formatted by `format`. Nice tick values
 * can round above the data (95,000 → 100,000), so the label of max × 1.25 is measured too.
 */
export function valueAxisLayout(
  max: number,
  format: (v: number) => string,
  fontSize: number,
): ValueAxisLayout {
  const top = Number.isFinite(max) && max > 0 ? max : 0;
  const widest = Math.max(tickTextWidth(format(top), fontSize), tickTextWidth(format(top * 1.25), fontSize));
  const band = fontSize + 2;
  return { width: band + GAP + widest + TICK_SPACE, labelOffset: Math.round(band / 2) };
}

/** The rotated unit title of a value axis laid out by valueAxisLayout. */
export function valueAxisLabel(unit: string, layout: ValueAxisLayout, fill: string, fontSize: number) {
  return {
    value: unit,
    angle: -90,
    position: 'insideLeft' as const,
    offset: layout.labelOffset,
    textAnchor: 'middle' as const,
    fill,
    fontSize,
  };
}
