import HorizontalBarChart from '../../../components/HorizontalBarChart.tsx';
import { COLORS } from '../../../lib/palette.ts';
import { fmtUsdMonth, type SavingsBar } from '../fleet-view.ts';

/**
 * Monthly saving per volume type, as the planner totalled it (a negative bar: fixing the risks
 * of that type costs more than it saves). The chart plots the numbers as they are.
 */
export default function SavingsChart({ bars, title }: { bars: SavingsBar[]; title: string }) {
  return (
    <HorizontalBarChart
      rows={bars}
      categoryKey="type"
      series={[
        {
          dataKey: 'savingUsdPerMonth',
          name: 'Saving',
          fill: COLORS.ok,
          fillOf: (b) => (b.savingUsdPerMonth < 0 ? COLORS.concern : COLORS.ok),
        },
      ]}
      title={title}
      labelWidth={80}
      formatValue={fmtUsdMonth}
    />
  );
}
