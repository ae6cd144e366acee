import HorizontalBarChart, { type BarSeries } from '../../../components/HorizontalBarChart.tsx';
import { COLORS } from '../../../lib/palette.ts';
import type { CostBar } from '../right-size-view.ts';

/** Stacked monthly cost per node: storage, IOPS, throughput (and the NVMe premium). */
export default function CostChart({ bars, title }: { bars: CostBar[]; title: string }) {
  const series: BarSeries<CostBar>[] = [
    { dataKey: 'storage', name: 'Storage (GiB-month)', stackId: 'cost', fill: COLORS.storage },
    { dataKey: 'iops', name: 'Provisioned IOPS', stackId: 'cost', fill: COLORS.iops },
  ];
  if (bars.some((b) => b.throughput > 0))
    series.push({
      dataKey: 'throughput',
      name: 'Provisioned throughput',
      stackId: 'cost',
      fill: COLORS.throughput,
    });
  if (bars.some((b) => b.premium > 0))
    series.push({ dataKey: 'premium', name: 'NVMe d-variant premium', stackId: 'cost', fill: COLORS.nvme });
  return (
    <HorizontalBarChart
      rows={bars}
      categoryKey="name"
      series={series}
      title={title}
      labelWidth={200}
      legend
    />
  );
}
