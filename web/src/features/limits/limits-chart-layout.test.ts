import { planStorage } from '@blockwise/shared/plan';
import { defaultRateCard, findInstanceType, upgradePool } from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { categoryAxisWidth } from '../../components/ChartFrame.tsx';
import { tickTextWidth } from '../../lib/value-axis.ts';
import { typedProfile } from '../../test/fixtures.ts';
import { layoutLimitsChart, limitsChartHeight, limitsChartSummary } from './limits-chart-layout.ts';
import { limitRows } from './limits-rows.ts';

// AWS's benchmark shape on c6a.xlarge: 2 minutes of 16 KiB random writes at 40,000 IOPS on a
// 60,000-IOPS io2. Six ceilings: the instance's sustained 6,000 IOPS is 666.7% (held at the
// axis end, 300%), its 40,000-IOPS burst ceiling binds at 100.0%.
function bursting() {
  const c6a = findInstanceType('c6a.xlarge')!;
  return limitRows(
    planStorage({
      profile: {
        ...typedProfile({ readMiBps: 0, readIops: 0, writeMiBps: 625, writeIops: 40_000, access: 'random' }),
        durationSec: 120,
      },
      target: { kind: 'ebs', volume: { type: 'io2', sizeGiB: 100, iops: 60_000 } },
      instance: c6a,
      rateCard: defaultRateCard(),
      instanceCandidates: upgradePool(c6a),
    }),
  );
}

const layoutAt = (width: number) => {
  const { rows, axisMax } = bursting();
  return {
    rows,
    axisMax,
    g: layoutLimitsChart({ rows, axisMax, width, categoryAxisWidth: categoryAxisWidth(width, 190) }),
  };
};

describe('layoutLimitsChart on the c6a.xlarge burst plan', () => {
  it('the rows and the axis the chart is drawn from', () => {
    const { rows, axisMax } = bursting();
    expect(axisMax).toBe(3);
    expect(rows.map((r) => [r.label, r.utilizationText, r.plotted])).toEqual([
      ['Volume IOPS', '66.7%', 2 / 3],
      ['Volume throughput', '15.6%', 0.15625],
      ['Instance EBS IOPS', '666.7%', 3],
      ['Instance EBS bandwidth', '419.4%', 3],
      ['Instance EBS IOPS (burst)', '100.0%', 1],
      ['Instance EBS bandwidth (burst)', '52.4%', 0.524288],
    ]);
  });

  it('on a desktop (1,180 px): a tick every 50%, bars proportional to utilization, labels on one line but one', () => {
    const { g } = layoutAt(1180);
    expect(g.height).toBe(limitsChartHeight(6));
    expect(g.height).toBe(286);
    // The labels' column is the preferred 190 px (plus the 4 px margin); 666.7% needs 45 px after its bar.
    expect(g.plot).toEqual({ left: 194, right: 1128, top: 22, bottom: 242 });
    expect(g.ticks.map((t) => t.text)).toEqual(['0%', '50%', '100%', '150%', '200%', '250%', '300%']);
    expect(g.ticks[0]!.x).toBe(194);
    expect(g.ticks.at(-1)!.x).toBe(1128);
    // 100% is a third of the way along a 0–300% axis.
    expect(g.hundredX).toBeCloseTo(194 + 934 / 3, 9);
    expect(g.bars.map((b) => Number(b.width.toFixed(2)))).toEqual([207.56, 48.65, 934, 934, 311.33, 163.23]);
    // The bottleneck (burst IOPS at 100%) ends on the 100% line.
    expect(g.bars[4]!.x + g.bars[4]!.width).toBeCloseTo(g.hundredX, 9);
    expect(g.bars.map((b) => b.labelLines)).toEqual([
      ['Volume IOPS'],
      ['Volume throughput'],
      ['Instance EBS IOPS'],
      ['Instance EBS bandwidth'],
      ['Instance EBS IOPS (burst)'],
      ['Instance EBS bandwidth', '(burst)'],
    ]);
    // Six 18 px bars, each centred in its band of 220 / 6 px.
    expect(g.bars.map((b) => b.height)).toEqual([18, 18, 18, 18, 18, 18]);
    expect(g.bars[0]!.centerY).toBeCloseTo(22 + 220 / 12, 9);
    expect(g.bars[5]!.bandTop + g.bars[5]!.bandHeight).toBeCloseTo(242, 9);
  });

  it('on a phone (340 px of plot at 390 px): every 100%, labels in two lines, value labels inside the SVG', () => {
    const { g, rows } = layoutAt(340);
    expect(g.plot).toEqual({ left: 133, right: 288, top: 22, bottom: 242 });
    expect(g.ticks.map((t) => t.text)).toEqual(['0%', '100%', '200%', '300%']);
    // Neighbouring tick labels do not touch.
    for (let i = 1; i < g.ticks.length; i++)
      expect(g.ticks[i]!.x - g.ticks[i - 1]!.x).toBeGreaterThan(tickTextWidth('300%', 12));
    expect(g.bars.map((b) => b.labelLines)).toEqual([
      ['Volume IOPS'],
      ['Volume throughput'],
      ['Instance EBS IOPS'],
      ['Instance EBS', 'bandwidth'],
      ['Instance EBS IOPS', '(burst)'],
      ['Instance EBS', 'bandwidth (burst)'],
    ]);
    g.bars.forEach((b, i) =>
      expect(b.valueX + tickTextWidth(rows[i]!.utilizationText, 12)).toBeLessThanOrEqual(340),
    );
  });

  it('a bar held at the axis end with a long value ("2000.0%") narrows the plot so its label fits', () => {
    const rows = [
      { label: 'Volume IOPS', plotted: 3, utilizationText: '2000.0%' },
      { label: 'Volume throughput', plotted: 0.5, utilizationText: '50.0%' },
    ];
    const g = layoutLimitsChart({ rows, axisMax: 3, width: 800, categoryAxisWidth: 190 });
    // 7 characters ≈ 53 px of label, 5 px from the bar's end, 2 px from the edge.
    expect(g.plot.right).toBe(800 - 2 - 5 - tickTextWidth('2000.0%', 12));
    expect(g.bars[0]!.valueX + tickTextWidth('2000.0%', 12)).toBe(798);
  });

  it('an axis below 150% (all ceilings well within): 0–120%, a tick every 50% up to 100%', () => {
    const rows = [{ label: 'Volume IOPS', plotted: 0.3, utilizationText: '30.0%' }];
    const g = layoutLimitsChart({ rows, axisMax: 1.2, width: 600, categoryAxisWidth: 190 });
    expect(g.ticks.map((t) => t.text)).toEqual(['0%', '50%', '100%']);
    expect(g.hundredX).toBeCloseTo(g.plot.left + (g.plot.right - g.plot.left) / 1.2, 9);
    expect(g.bars[0]!.width).toBeCloseTo((g.plot.right - g.plot.left) * 0.25, 9);
  });
});

describe('limitsChartSummary: the chart in words', () => {
  it('each ceiling with its utilization, bursts and the bottleneck named', () => {
    expect(limitsChartSummary(bursting().rows)).toBe(
      'Utilization of each ceiling (demand ÷ ceiling; 100% is demand at the ceiling): ' +
        'Volume IOPS: 66.7%; Volume throughput: 15.6%; Instance EBS IOPS: 666.7%; ' +
        'Instance EBS bandwidth: 419.4%; Instance EBS IOPS (burst): 100.0% (bottleneck: burst ceiling binds); ' +
        'Instance EBS bandwidth (burst): 52.4%. Burst ceilings hold only while credits last.',
    );
  });
});
