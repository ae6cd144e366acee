import { Area, AreaChart, CartesianGrid, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { fmtInt, fmtNum } from '../../../lib/format.ts';
import { COLORS } from '../../../lib/palette.ts';
import { valueAxisLabel, valueAxisLayout } from '../../../lib/value-axis.ts';
import { fmtUtc, type DemandRow, type LimitLine } from '../series-view.ts';
import { LINE_STYLE, SERIES_COLORS } from './line-style.ts';

/**
 * Demand over time, read and write stacked (the top edge is the read + write demand the limits
 * count), on a numeric UTC time axis, with the volume's and the instance's ceilings drawn across.
 * Rows arrive cut to ≤ 2,000 points. Loaded lazily (Recharts stays out of the first paint).
 */

const tick = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: '2-digit',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

type TooltipProps = { active?: boolean; payload?: readonly { payload?: DemandRow }[] };

function DemandTooltip({ active, payload, unit }: TooltipProps & { unit: string }) {
  const row = active ? payload?.[0]?.payload : undefined;
  if (!row) return null;
  const v = (x: number | null) =>
    x === null ? 'no data' : `${unit === 'IOPS' ? fmtInt(x) : fmtNum(x, 1)} ${unit}`;
  return (
    <div className="chart-tooltip">
      <p className="chart-tooltip__title">{fmtUtc(row.t)}</p>
      <p>Read: {v(row.read)}</p>
      <p>Write: {v(row.write)}</p>
    </div>
  );
}

export default function DemandChart({
  rows,
  unit,
  lines,
  title,
  height,
}: {
  rows: DemandRow[];
  unit: 'IOPS' | 'MiB/s';
  lines: readonly LimitLine[];
  title: string;
  height: number;
}) {
  const top = Math.max(0, ...lines.map((l) => l.value), ...rows.map((r) => (r.read ?? 0) + (r.write ?? 0)));
  const axis = valueAxisLayout(top, (v) => compact.format(v), 11);
  return (
    <AreaChart
      data={rows}
      style={{ width: '100%', height }}
      responsive
      margin={{ top: 16, right: 16, bottom: 4, left: 4 }}
      title={title}
      accessibilityLayer
    >
      <CartesianGrid stroke={COLORS.grid} />
      <XAxis
        type="number"
        dataKey="t"
        scale="time"
        domain={['dataMin', 'dataMax']}
        tickFormatter={(t: number) => tick.format(t)}
        stroke={COLORS.axis}
        tick={{ fill: COLORS.axisText, fontSize: 11 }}
        minTickGap={24}
      />
      <YAxis
        stroke={COLORS.axis}
        tick={{ fill: COLORS.axisText, fontSize: 11 }}
        tickFormatter={(v: number) => compact.format(v)}
        width={axis.width}
        label={valueAxisLabel(unit, axis, COLORS.axisText, 11)}
      />
      <Tooltip content={(props: TooltipProps) => <DemandTooltip {...props} unit={unit} />} />
      <Area
        type="linear"
        dataKey="read"
        name="read"
        stackId="demand"
        stroke={SERIES_COLORS.read}
        fill={SERIES_COLORS.read}
        fillOpacity={0.35}
        isAnimationActive={false}
        connectNulls={false}
        dot={false}
      />
      <Area
        type="linear"
        dataKey="write"
        name="write"
        stackId="demand"
        stroke={SERIES_COLORS.write}
        fill={SERIES_COLORS.write}
        fillOpacity={0.35}
        isAnimationActive={false}
        connectNulls={false}
        dot={false}
      />
      {lines.map((l) => {
        const style = LINE_STYLE[l.kind];
        return (
          <ReferenceLine
            key={l.id}
            y={l.value}
            ifOverflow="extendDomain"
            stroke={style.stroke}
            strokeWidth={1.5}
            strokeDasharray={style.dash}
            label={{ value: style.short, position: style.labelPosition, fill: style.stroke, fontSize: 11 }}
          />
        );
      })}
    </AreaChart>
  );
}
