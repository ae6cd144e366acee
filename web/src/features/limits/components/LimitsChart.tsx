import { useId } from 'react';
import { categoryAxisWidth, useChartWidth } from '../../../components/ChartFrame.tsx';
import { COLORS } from '../../../lib/palette.ts';
import { FONT_SIZE, SMALL_FONT_SIZE, layoutLimitsChart, limitsChartSummary } from '../limits-chart-layout.ts';
import { HUNDRED_PERCENT_DASH, limitBarStyle } from '../limits-legend.ts';
import type { LimitRow } from '../limits-rows.ts';

/**
 * Horizontal bars: utilization of each ceiling (demand ÷ capacity, from the domain), a line at
 * 100%, the bottleneck in red.
 *
 * Plain SVG, not Recharts: a what-if drag brought this chart's first Recharts mount into the drag
 * (its chunk parsed, its store set up: one 70–140 ms long task, bench P16), and print needs it
 * drawn without waiting for a chunk. Geometry comes from `layoutLimitsChart`; each row's <title>
 * is its tooltip, the <desc> says the numbers in words, and the table beside the chart
 * (LimitsPanel) holds every figure.
 */

/** Before the first layout the frame's width is unknown: draw at a typical width, then redraw. */
const FALLBACK_WIDTH = 640;

/** A row's tooltip: what the Recharts tooltip said, as the native one. */
function rowTitle(row: LimitRow): string {
  const head = `${row.label}${row.bottleneckBadge ? ` — ${row.bottleneckBadge}` : ''}${
    row.isSustainedFallback ? ' — sustained fallback' : ''
  }${row.sustained ? '' : ' (burst: temporary)'}`;
  const demand = `Demand ${row.demandText} of ${row.capacityText}${
    row.native ? ` (AWS quotes ${row.native.value} ${row.native.unit})` : ''
  }: ${row.utilizationText}${row.offScale ? ' (off the scale)' : ''}`;
  return `${head}\n${demand}\n${row.explanation}`;
}

export default function LimitsChart({
  rows,
  axisMax,
  title,
}: {
  rows: LimitRow[];
  axisMax: number;
  title: string;
}) {
  const measured = useChartWidth();
  const width = measured > 0 ? measured : FALLBACK_WIDTH;
  const g = layoutLimitsChart({ rows, axisMax, width, categoryAxisWidth: categoryAxisWidth(measured, 190) });
  const id = useId();
  return (
    <svg
      className="limits-chart"
      role="img"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-desc`}
      width={g.width}
      height={g.height}
      viewBox={`0 0 ${g.width} ${g.height}`}
      // Scaled down, never overflowing (a printed page is narrower than the screen it was laid out on).
      style={{ display: 'block', maxWidth: '100%', height: 'auto' }}
      fontSize={FONT_SIZE}
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{limitsChartSummary(rows)}</desc>
      <g className="limits-chart__grid">
        {g.ticks.map((t) => (
          <line key={t.value} x1={t.x} x2={t.x} y1={g.plot.top} y2={g.plot.bottom} stroke={COLORS.grid} />
        ))}
      </g>
      <g className="limits-chart__rows">
        {rows.map((row, i) => {
          const bar = g.bars[i]!;
          const style = limitBarStyle(row);
          const labelX = g.plot.left - 8;
          return (
            <g key={row.id} className="limits-chart__row">
              <title>{rowTitle(row)}</title>
              <rect
                className="limits-chart__band"
                x={0}
                y={bar.bandTop}
                width={g.plot.right}
                height={bar.bandHeight}
                fill="transparent"
              />
              <text x={labelX} y={bar.centerY} textAnchor="end" fill={COLORS.text}>
                {bar.labelLines.map((line, n) => (
                  // Two lines sit either side of the bar's centre line.
                  <tspan
                    key={n}
                    x={labelX}
                    dy={n === 0 ? `${0.35 - (bar.labelLines.length - 1) * 0.6}em` : '1.2em'}
                  >
                    {line}
                  </tspan>
                ))}
              </text>
              <rect
                className="limits-chart__bar"
                x={bar.x}
                y={bar.y}
                width={Math.max(bar.width, 0.5)}
                height={bar.height}
                fill={style.fill}
                fillOpacity={style.opacity}
                stroke={style.outline ?? 'none'}
                strokeWidth={style.outline ? 1.5 : 0}
              />
              <text
                className="limits-chart__value"
                x={bar.valueX}
                y={bar.centerY}
                dy="0.35em"
                fill={COLORS.text}
                // A white halo: the 100% line or a grid line under the label does not cross its digits.
                stroke="#fff"
                strokeWidth={3}
                strokeLinejoin="round"
                paintOrder="stroke"
              >
                {row.utilizationText}
              </text>
            </g>
          );
        })}
      </g>
      <g className="limits-chart__axis">
        <line x1={g.plot.left} x2={g.plot.left} y1={g.plot.top} y2={g.plot.bottom} stroke={COLORS.axis} />
        <line x1={g.plot.left} x2={g.plot.right} y1={g.plot.bottom} y2={g.plot.bottom} stroke={COLORS.axis} />
        {g.ticks.map((t) => (
          <g key={t.value}>
            <line x1={t.x} x2={t.x} y1={g.plot.bottom} y2={g.plot.bottom + 6} stroke={COLORS.axis} />
            <text x={t.x} y={g.plot.bottom + 18} textAnchor="middle" fill={COLORS.axisText}>
              {t.text}
            </text>
          </g>
        ))}
        <text
          x={g.plot.right}
          y={g.height - 4}
          textAnchor="end"
          fill={COLORS.axisText}
          fontSize={SMALL_FONT_SIZE}
        >
          utilization = demand ÷ ceiling
        </text>
      </g>
      <g className="limits-chart__hundred">
        <line
          x1={g.hundredX}
          x2={g.hundredX}
          y1={g.plot.top}
          y2={g.plot.bottom}
          stroke={COLORS.text}
          strokeDasharray={HUNDRED_PERCENT_DASH}
        />
        <text
          x={g.hundredX}
          y={g.plot.top - 6}
          textAnchor="middle"
          fill={COLORS.text}
          fontSize={SMALL_FONT_SIZE}
        >
          100%
        </text>
      </g>
    </svg>
  );
}
