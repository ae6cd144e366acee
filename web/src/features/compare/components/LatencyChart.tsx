import { CartesianGrid, Legend, Line, LineChart, ReferenceDot, Tooltip, XAxis, YAxis } from 'recharts';
import { fmtMs } from '../../../lib/format.ts';
import { COLORS } from '../../../lib/palette.ts';
import type { LatencyRow, LatencySeries } from '../compare-rows.ts';

/**
 * Completion latency by percentile (p50 … p99.99) on a log axis, one line per run; cliffs — sudden
 * jumps between successive percentiles (detectCliffs) — are ringed in red.
 */
export default function LatencyChart({
  rows,
  series,
  ticks,
  domain,
  cliffs,
  title,
}: {
  rows: LatencyRow[];
  series: readonly LatencySeries[];
  ticks: number[];
  domain: [number, number];
  cliffs: { key: string; label: string; ms: number; text: string }[];
  title: string;
}) {
  return (
    <LineChart
      data={rows}
      style={{ width: '100%', height: 300 }}
      responsive
      margin={{ top: 12, right: 24, bottom: 4, left: 8 }}
      title={title}
      accessibilityLayer
    >
      <CartesianGrid stroke={COLORS.grid} />
      <XAxis
        dataKey="label"
        stroke={COLORS.axis}
        tick={{ fill: COLORS.text, fontSize: 12 }}
        interval="preserveStartEnd"
      />
      <YAxis
        scale="log"
        domain={domain}
        ticks={ticks}
        allowDataOverflow
        stroke={COLORS.axis}
        tick={{ fill: COLORS.axisText, fontSize: 12 }}
        tickFormatter={(v: number) => `${v} ms`}
        width={72}
      />
      <Tooltip formatter={(value, name) => [value === null ? '—' : fmtMs(Number(value)), String(name)]} />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      {series
        .filter((s) => s.percentiles)
        .map((s, i) => (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.name}
            stroke={s.color}
            strokeWidth={2}
            // The legend icon repeats the dashes, so a grey print still tells the runs apart. A
            // solid line gets no strokeDasharray key at all: Recharts' legend prints an undefined one as "undefined".
            legendType="plainline"
            {...(i % 2 === 1 ? { strokeDasharray: '6 3' } : {})}
            dot={{ r: 3, fill: s.color }}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
      {cliffs.map((c) => (
        <ReferenceDot
          key={`${c.key}-${c.label}`}
          x={c.label}
          y={c.ms}
          r={8}
          fill="none"
          stroke={COLORS.concern}
          strokeWidth={2}
          label={{ value: 'cliff', position: 'top', fill: COLORS.concern, fontSize: 11 }}
        />
      ))}
    </LineChart>
  );
}
