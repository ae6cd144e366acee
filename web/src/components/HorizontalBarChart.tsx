import { Bar, BarChart, CartesianGrid, Cell, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { fmtUsdSigned } from '../lib/format.ts';
import { COLORS } from '../lib/palette.ts';
import { barChartHeight, categoryAxisWidth, useChartWidth } from './ChartFrame.tsx';

/**
 * One horizontal bar chart for USD amounts per category (monthly cost per node, saving per volume
 * type): categories down the side, dollars along the bottom, ticks and tooltips in the shared USD
 * format ("-$40.00", never "$-40"). Bars stack when they share `stackId`; a bar's colour can
 * depend on its row (a negative saving in red). Loaded lazily (recharts) inside a ChartFrame sized
 * with `barChartHeight`.
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
  /** Tooltip value text; the USD format by default. */
  formatValue?: (usd: number) => string;
};

/** The dollar ticks: the shared USD format, the sign before the dollar sign. */
export const usdTick = (usd: number) => fmtUsdSigned(usd);

export default function HorizontalBarChart<Row extends object>({
  rows,
  categoryKey,
  series,
  title,
  labelWidth,
  legend = false,
  formatValue = fmtUsdSigned,
}: Props<Row>) {
  const axisWidth = categoryAxisWidth(useChartWidth(), labelWidth);
  return (
    <BarChart
      data={rows}
      layout="vertical"
      style={{ width: '100%', height: barChartHeight(rows.length) }}
      responsive
      margin={{ top: 8, right: 24, bottom: 8, left: 8 }}
      title={title}
      accessibilityLayer
    >
      <CartesianGrid horizontal={false} stroke={COLORS.grid} />
      <XAxis
        type="number"
        stroke={COLORS.axis}
        tick={{ fill: COLORS.axisText, fontSize: 12 }}
        tickFormatter={usdTick}
      />
      <YAxis
        type="category"
        dataKey={categoryKey as string}
        width={axisWidth}
        interval={0}
        stroke={COLORS.axis}
        tick={{ fill: COLORS.text, fontSize: 12 }}
      />
      <Tooltip
        formatter={(value, name) => [formatValue(Number(value)), String(name)]}
        cursor={{ fill: COLORS.cursor }}
      />
      {legend ? <Legend wrapperStyle={{ fontSize: 12 }} /> : null}
      {series.map((s) => (
        <Bar
          key={s.dataKey}
          dataKey={s.dataKey as string}
          name={s.name}
          fill={s.fill}
          {...(s.stackId ? { stackId: s.stackId } : {})}
          isAnimationActive={false}
        >
          {s.fillOf ? rows.map((row, i) => <Cell key={i} fill={s.fillOf!(row)} />) : null}
        </Bar>
      ))}
    </BarChart>
  );
}
