import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { categoryAxisWidth, useChartWidth } from '../../../components/ChartFrame.tsx';
import { fmtUsd } from '../../../lib/format.ts';
import { COLORS } from '../../../lib/palette.ts';
import type { CostBar } from '../right-size-view.ts';

/** Stacked monthly cost per node: storage, IOPS, throughput (and the NVMe premium). */
export default function CostChart({ bars, title }: { bars: CostBar[]; title: string }) {
  const height = 60 + bars.length * 34;
  const axisWidth = categoryAxisWidth(useChartWidth(), 200);
  const hasPremium = bars.some((b) => b.premium > 0);
  const hasThroughput = bars.some((b) => b.throughput > 0);
  return (
    <BarChart
      data={bars}
      layout="vertical"
      style={{ width: '100%', height }}
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
        tickFormatter={(v: number) => `$${v.toLocaleString('en-US')}`}
      />
      <YAxis
        type="category"
        dataKey="name"
        width={axisWidth}
        interval={0}
        stroke={COLORS.axis}
        tick={{ fill: COLORS.text, fontSize: 12 }}
      />
      <Tooltip
        formatter={(value, name) => [fmtUsd(Number(value)), String(name)]}
        cursor={{ fill: COLORS.cursor }}
      />
      <Legend wrapperStyle={{ fontSize: 12 }} />
      <Bar
        dataKey="storage"
        name="Storage (GiB-month)"
        stackId="cost"
        fill={COLORS.storage}
        isAnimationActive={false}
      />
      <Bar
        dataKey="iops"
        name="Provisioned IOPS"
        stackId="cost"
        fill={COLORS.iops}
        isAnimationActive={false}
      />
      {hasThroughput ? (
        <Bar
          dataKey="throughput"
          name="Provisioned throughput"
          stackId="cost"
          fill={COLORS.throughput}
          isAnimationActive={false}
        />
      ) : null}
      {hasPremium ? (
        <Bar
          dataKey="premium"
          name="NVMe d-variant premium"
          stackId="cost"
          fill={COLORS.nvme}
          isAnimationActive={false}
        />
      ) : null}
    </BarChart>
  );
}
