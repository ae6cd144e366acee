import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceDot,
  ReferenceLine,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { fmtInt, fmtMs, fmtNum } from '../../../lib/format.ts';
import { COLORS, SERIES } from '../../../lib/palette.ts';
import { formatTimeTick, timeTickPrecision } from '../../../lib/time-ticks.ts';
import { valueAxisLabel, valueAxisLayout } from '../../../lib/value-axis.ts';
import type { FamilyChart, HistoryRow, RegressionMarker } from '../history-view.ts';

/**
 * One metric family over time (IOPS, MiB/s or clat ms), one line per metric, on a numeric UTC
 * time axis. Runs the regression gate flagged are ringed in red. Clicking a run (anywhere in its
 * column, or its point) selects it; the runs table below is the keyboard way to do the same.
 * Loaded lazily.
 */

const when = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

export function formatValue(unit: FamilyChart['unit'], v: number): string {
  if (unit === 'ms') return fmtMs(v);
  if (unit === 'IOPS') return `${fmtInt(v)} IOPS`;
  return `${fmtNum(v, 1)} MiB/s`;
}

type DotProps = { cx?: number; cy?: number; index?: number; payload?: HistoryRow; value?: unknown };

export default function HistoryChart({
  rows,
  chart,
  metrics,
  markers,
  selected,
  onSelect,
  title,
  height,
}: {
  rows: HistoryRow[];
  chart: FamilyChart;
  metrics: FamilyChart['metrics'];
  markers: readonly RegressionMarker[];
  selected: { id: string; t: number } | null;
  onSelect: (id: string) => void;
  title: string;
  height: number;
}) {
  const log = chart.unit === 'ms';
  // Runs in the same minute (a CI matrix) get second-precision ticks instead of identical labels.
  const precision = timeTickPrecision(rows.map((r) => r.t));
  const yTick = (v: number) => (chart.unit === 'ms' ? `${v}` : fmtNum(v, 0));
  const top = Math.max(0, ...rows.flatMap((r) => metrics.map((m) => r[m.id] ?? 0)));
  const axis = valueAxisLayout(top, yTick, 11);
  return (
    <LineChart
      data={rows}
      style={{ width: '100%', height, cursor: 'pointer' }}
      responsive
      margin={{ top: 12, right: 16, bottom: 4, left: 4 }}
      title={title}
      accessibilityLayer
      onClick={(state) => {
        const i = Number(state?.activeTooltipIndex);
        const row = Number.isInteger(i) ? rows[i] : undefined;
        if (row) onSelect(row.id);
      }}
    >
      <CartesianGrid stroke={COLORS.grid} />
      <XAxis
        type="number"
        dataKey="t"
        scale="time"
        domain={['dataMin', 'dataMax']}
        tickFormatter={(t: number) => formatTimeTick(t, precision)}
        stroke={COLORS.axis}
        tick={{ fill: COLORS.axisText, fontSize: 11 }}
        minTickGap={32}
      />
      <YAxis
        scale={log ? 'log' : 'auto'}
        domain={log ? ['auto', 'auto'] : [0, 'auto']}
        allowDataOverflow={log}
        stroke={COLORS.axis}
        tick={{ fill: COLORS.axisText, fontSize: 11 }}
        tickFormatter={yTick}
        width={axis.width}
        label={valueAxisLabel(chart.unit, axis, COLORS.axisText, 11)}
      />
      <Tooltip
        labelFormatter={(t) => when.format(Number(t))}
        formatter={(value, name) => [
          value === null || value === undefined ? '—' : formatValue(chart.unit, Number(value)),
          String(name),
        ]}
      />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      {selected ? (
        <ReferenceLine x={selected.t} stroke={COLORS.ebs} strokeDasharray="4 3" ifOverflow="extendDomain" />
      ) : null}
      {metrics.map((m, i) => {
        const color = SERIES[i % SERIES.length]!;
        const dashed = m.id.startsWith('write');
        return (
          <Line
            key={m.id}
            dataKey={m.id}
            name={m.name}
            stroke={color}
            strokeWidth={2}
            strokeDasharray={dashed ? '6 3' : undefined}
            connectNulls={false}
            isAnimationActive={false}
            dot={(p: DotProps) =>
              p.cx === undefined || p.cy === undefined || p.payload === undefined || p.value === null ? (
                <g key={`${m.id}-${p.index}`} />
              ) : (
                <circle
                  key={`${m.id}-${p.index}`}
                  cx={p.cx}
                  cy={p.cy}
                  r={p.payload.id === selected?.id ? 5 : 3}
                  fill={p.payload.id === selected?.id ? color : '#ffffff'}
                  stroke={color}
                  strokeWidth={1.5}
                />
              )
            }
          />
        );
      })}
      {markers.map((mk) => (
        <ReferenceDot
          key={`${mk.id}-${mk.metric}`}
          x={mk.t}
          y={mk.value}
          r={8}
          fill="none"
          stroke={COLORS.concern}
          strokeWidth={2}
          ifOverflow="extendDomain"
        />
      ))}
    </LineChart>
  );
}
