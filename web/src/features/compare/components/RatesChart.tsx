import { Bar, BarChart, CartesianGrid, LabelList, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { fmtInt, fmtNum } from '../../../lib/format.ts';
import { COLORS } from '../../../lib/palette.ts';
import { valueAxisLabel, valueAxisLayout } from '../../../lib/value-axis.ts';
import type { RateRow } from '../compare-rows.ts';

/** Grouped bars, EBS beside NVMe, per direction; the delta (from compareRunPair) labels the EBS bar, unless withheld. */
export default function RatesChart({
  rows,
  unit,
  ebsName,
  nvmeName,
  title,
}: {
  rows: RateRow[];
  unit: 'MiB/s' | 'IOPS';
  ebsName: string;
  nvmeName: string;
  title: string;
}) {
  const format = (v: number) => (unit === 'IOPS' ? fmtInt(v) : fmtNum(v, 0));
  const axis = valueAxisLayout(Math.max(0, ...rows.flatMap((r) => [r.ebs, r.nvme])), format, 12);
  return (
    <BarChart
      data={rows}
      style={{ width: '100%', height: 260 }}
      responsive
      margin={{ top: 24, right: 16, bottom: 4, left: 8 }}
      title={title}
      accessibilityLayer
    >
      <CartesianGrid vertical={false} stroke={COLORS.grid} />
      <XAxis dataKey="metric" stroke={COLORS.axis} tick={{ fill: COLORS.text, fontSize: 12 }} />
      <YAxis
        stroke={COLORS.axis}
        tick={{ fill: COLORS.axisText, fontSize: 12 }}
        tickFormatter={format}
        width={axis.width}
        label={valueAxisLabel(unit, axis, COLORS.axisText, 12)}
      />
      <Tooltip
        formatter={(value, name) => [`${format(Number(value))} ${unit}`, String(name)]}
        labelFormatter={(label) => `${String(label)} ${unit === 'IOPS' ? 'IOPS' : 'throughput'}`}
        cursor={{ fill: COLORS.cursor }}
      />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      <Bar dataKey="ebs" name={`EBS: ${ebsName}`} fill={COLORS.ebs} isAnimationActive={false}>
        <LabelList dataKey="deltaText" position="top" fill={COLORS.text} fontSize={12} />
      </Bar>
      <Bar dataKey="nvme" name={`NVMe: ${nvmeName}`} fill={COLORS.nvme} isAnimationActive={false} />
    </BarChart>
  );
}
