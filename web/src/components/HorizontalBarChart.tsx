import { fmtUsdSigned } from '../lib/format.ts';
import { COLORS } from '../lib/palette.ts';
import { labelLines, layoutBarChart, LEGEND_SWATCH } from './bar-chart-layout.ts';
import { barChartHeight, categoryAxisWidth, useChartWidth } from './ChartFrame.tsx';

/**
 * One horizontal bar chart for USD amounts per category (monthly cost per node, saving per volume
 * type): categories down the side, dollars along the bottom, ticks and bar titles in the shared
 * USD format ("-$40.00", never "$-40"). Bars stack when they share `stackId`; a bar's colour can
 * depend on its row (a negative saving in red).
 *
 * Plain SVG, not Recharts: the monthly-cost chart redraws on every what-if slider step, and
 * Recharts spent ≈ 16 ms of main thread per step on it (bench P16) — a whole frame's budget.
 * This draws the same chart in well under a millisecond. The legend is inside the SVG, so a PNG
 * export carries it; each bar's <title> is its tooltip, and ChartFrame's data table the
 * accessible alternative.
 */

export type BarSeries<Row> = {
  dataKey: keyof Row & string;
  name: string;
  fill: string;
  stackId?: string;
  /** A colour per row, e.g. red for a negative amount. */
  fillOf?: (row: Row) => string;
};

type Props<Row> = {
  rows: Row[];
  /** The field naming each bar's category. */
  categoryKey: keyof Row & string;
  series: BarSeries<Row>[];
  title: string;
  /** Preferred width of the category labels (narrowed on small screens). */
  labelWidth: number;
  legend?: boolean;
  /** Bar title (tooltip) value text; the USD format by default. */
  formatValue?: (usd: number) => string;
};

/** Dollar amounts: the shared USD format, the sign before the dollar sign. */
export const usdTick = (usd: number) => fmtUsdSigned(usd);

/** The value axis' ticks: whole dollars without cents ("$1,000", "-$40"), a fraction with them. */
export const usdAxisTick = (usd: number) => {
  const text = fmtUsdSigned(usd);
  return Number.isInteger(usd) ? text.replace(/\.00$/, '') : text;
};

const FONT_SIZE = 12;
/** Before the first layout the frame's width is unknown: draw at a typical width, then redraw. */
const FALLBACK_WIDTH = 640;

export default function HorizontalBarChart<Row extends object>({
  rows,
  categoryKey,
  series,
  title,
  labelWidth,
  legend = false,
  formatValue = fmtUsdSigned,
}: Props<Row>) {
  const measured = useChartWidth();
  const width = measured > 0 ? measured : FALLBACK_WIDTH;
  const axisWidth = categoryAxisWidth(measured, labelWidth);
  const values = rows.map((row) => series.map((s) => Number(row[s.dataKey])));
  const g = layoutBarChart({
    values,
    series,
    legendLabels: legend ? series.map((s) => s.name) : null,
    width,
    rowsHeight: barChartHeight(rows.length),
    categoryAxisWidth: axisWidth,
    fontSize: FONT_SIZE,
    formatTick: usdAxisTick,
  });
  const labelOf = (row: Row) => String(row[categoryKey]);
  return (
    <svg
      className="bar-chart"
      role="img"
      aria-label={title}
      width={width}
      height={g.height}
      viewBox={`0 0 ${width} ${g.height}`}
      // Scaled down, never overflowing, while the first layout's width is not known yet.
      style={{ display: 'block', maxWidth: '100%', height: 'auto' }}
      fontSize={FONT_SIZE}
    >
      <g className="bar-chart__grid">
        {g.ticks.map((t) => (
          <line
            key={t.value}
            x1={t.x}
            x2={t.x}
            y1={g.plot.top}
            y2={g.plot.bottom}
            stroke={t.value === 0 ? COLORS.axis : COLORS.grid}
          />
        ))}
      </g>
      <g className="bar-chart__value-axis">
        <line x1={g.plot.left} x2={g.plot.right} y1={g.plot.bottom} y2={g.plot.bottom} stroke={COLORS.axis} />
        {g.ticks.map((t) => (
          <text key={t.value} x={t.x} y={g.plot.bottom + 16} textAnchor="middle" fill={COLORS.axisText}>
            {usdAxisTick(t.value)}
          </text>
        ))}
      </g>
      <g className="bar-chart__categories">
        <line x1={g.plot.left} x2={g.plot.left} y1={g.plot.top} y2={g.plot.bottom} stroke={COLORS.axis} />
        {rows.map((row, r) => {
          const lines = labelLines(labelOf(row), g.plot.left - 12);
          const x = g.plot.left - 8;
          return (
            <text key={r} x={x} y={g.bandCenters[r]} textAnchor="end" fill={COLORS.text}>
              <title>{labelOf(row)}</title>
              {lines.map((line, i) => (
                // Two lines sit either side of the bar's centre line.
                <tspan key={i} x={x} dy={i === 0 ? `${0.35 - (lines.length - 1) * 0.6}em` : '1.2em'}>
                  {line}
                </tspan>
              ))}
            </text>
          );
        })}
      </g>
      <g className="bar-chart__bars">
        {g.rects.map((b) => {
          const s = series[b.series]!;
          const row = rows[b.row]!;
          return (
            <rect
              key={`${b.row}:${b.series}`}
              x={b.x}
              y={b.y}
              width={Math.max(b.width, 0.5)}
              height={b.height}
              fill={s.fillOf ? s.fillOf(row) : s.fill}
            >
              <title>{`${labelOf(row)} — ${s.name}: ${formatValue(b.value)}`}</title>
            </rect>
          );
        })}
      </g>
      {g.legend.length > 0 ? (
        <g className="bar-chart__legend">
          {g.legend.map((item) => {
            const s = series[item.series]!;
            return (
              <g key={s.dataKey}>
                <rect
                  x={item.x}
                  y={item.y - LEGEND_SWATCH / 2}
                  width={LEGEND_SWATCH}
                  height={LEGEND_SWATCH}
                  fill={s.fill}
                />
                <text x={item.x + LEGEND_SWATCH + 6} y={item.y} dy="0.35em" fill={COLORS.text}>
                  {s.name}
                </text>
              </g>
            );
          })}
        </g>
      ) : null}
    </svg>
  );
}
