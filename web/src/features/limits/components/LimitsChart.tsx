import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { categoryAxisWidth, useChartWidth } from '../../../components/ChartFrame.tsx';
import { fmtPct } from '../../../lib/format.ts';
import { COLORS } from '../../../lib/palette.ts';
import { HUNDRED_PERCENT_DASH, limitBarStyle } from '../limits-legend.ts';
import type { LimitRow } from '../limits-rows.ts';

/**
 * Horizontal bars: utilization of each ceiling (demand ÷ capacity, from the domain), a line at
 * 100%, the bottleneck in red. Loaded lazily (Recharts stays out of the first paint).
 */

type TooltipProps = { active?: boolean; payload?: readonly { payload?: LimitRow }[] };

function LimitTooltip({ active, payload }: TooltipProps) {
  const row = active ? payload?.[0]?.payload : undefined;
  if (!row) return null;
  return (
    <div className="chart-tooltip">
      <p className="chart-tooltip__title">
        {row.label}
        {row.bottleneckBadge ? ` — ${row.bottleneckBadge}` : ''}
        {row.isSustainedFallback ? ' — sustained fallback' : ''}
        {row.sustained ? '' : ' (burst: temporary)'}
      </p>
      <p>
        Demand {row.demandText} of {row.capacityText}
        {row.native ? ` (AWS quotes ${row.native.value} ${row.native.unit})` : ''}:{' '}
        <strong>{row.utilizationText}</strong>
      </p>
      <p className="chart-tooltip__note">{row.explanation}</p>
    </div>
  );
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
  const height = 58 + rows.length * 38;
  const axisWidth = categoryAxisWidth(useChartWidth(), 190);
  const ticks = Array.from({ length: Math.round(axisMax / 0.5) + 1 }, (_, i) => i * 0.5);
  return (
    <BarChart
      data={rows}
      layout="vertical"
      style={{ width: '100%', height }}
      responsive
      margin={{ top: 22, right: 56, bottom: 8, left: 4 }}
      title={title}
      accessibilityLayer
    >
      <CartesianGrid horizontal={false} stroke={COLORS.grid} />
      <XAxis
        type="number"
        domain={[0, axisMax]}
        ticks={ticks}
        tickFormatter={(v: number) => fmtPct(v, 0)}
        stroke={COLORS.axis}
        tick={{ fill: COLORS.axisText, fontSize: 12 }}
        label={{
          value: 'utilization = demand ÷ ceiling',
          position: 'insideBottomRight',
          offset: -4,
          fill: COLORS.axisText,
          fontSize: 11,
        }}
        height={36}
      />
      <YAxis
        type="category"
        dataKey="label"
        width={axisWidth}
        stroke={COLORS.axis}
        tick={{ fill: COLORS.text, fontSize: 12 }}
        interval={0}
      />
      <Tooltip content={LimitTooltip} cursor={{ fill: COLORS.cursor }} />
      <ReferenceLine
        x={1}
        stroke={COLORS.text}
        strokeDasharray={HUNDRED_PERCENT_DASH}
        label={{ value: '100%', position: 'top', fill: COLORS.text, fontSize: 11 }}
      />
      <Bar dataKey="plotted" name="utilization" isAnimationActive={false} barSize={18}>
        {rows.map((r) => {
          const style = limitBarStyle(r);
          return (
            <Cell
              key={r.id}
              fill={style.fill}
              fillOpacity={style.opacity}
              stroke={style.outline ?? 'none'}
              strokeWidth={style.outline ? 1.5 : 0}
            />
          );
        })}
        <LabelList
          dataKey="utilizationText"
          position="right"
          fill={COLORS.text}
          fontSize={12}
          formatter={(v: unknown) => String(v)}
        />
      </Bar>
    </BarChart>
  );
}
