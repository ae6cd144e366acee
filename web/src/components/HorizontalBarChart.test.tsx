import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { barChartHeight } from './ChartFrame.tsx';
import { labelLines, layoutBarChart, niceTicks } from './bar-chart-layout.ts';
import HorizontalBarChart, { usdAxisTick, usdTick } from './HorizontalBarChart.tsx';
import { RegionSelect } from './RegionSelect.tsx';

describe('HorizontalBarChart: one chart for USD per category', () => {
  it.each([
    // A negative saving reads "-$40.00", not "$-40".
    [-40, '-$40.00'],
    [0, '$0.00'],
    [1362.5, '$1,362.50'],
  ])('tick %d → %s', (usd, text) => expect(usdTick(usd)).toBe(text));

  it('one height formula for the chart and its frame: 34 px per bar', () => {
    expect(barChartHeight(1)).toBe(94);
    expect(barChartHeight(5) - barChartHeight(4)).toBe(34);
  });
});

describe('RegionSelect', () => {
  const regions = [
    { code: 'us-east-1', location: 'US East (N. Virginia)' },
    { code: 'eu-central-1', location: 'EU (Frankfurt)' },
  ];

  it('lists the regions given, and reports the code picked', async () => {
    const onChange = vi.fn();
    render(<RegionSelect label="Price region" regions={regions} value="us-east-1" onChange={onChange} />);
    const select = screen.getByLabelText('Price region') as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'us-east-1 — US East (N. Virginia)',
      'eu-central-1 — EU (Frankfurt)',
    ]);
    await userEvent.selectOptions(select, 'eu-central-1');
    expect(onChange).toHaveBeenCalledWith('eu-central-1');
  });

  it('keeps showing a value the list lacks (catalog not loaded yet) instead of another region', () => {
    render(<RegionSelect label="Region (prices)" regions={[]} value="us-east-1" onChange={() => {}} />);
    expect((screen.getByLabelText('Region (prices)') as HTMLSelectElement).value).toBe('us-east-1');
  });
});

describe('niceTicks: the value axis', () => {
  it.each([
    // The monthly cost per node of the example session: $0 … $212.40 → steps of $50.
    [0, 212.4, [0, 50, 100, 150, 200, 250]],
    // A fleet saving by type, one type costing more than it saves.
    [-40, 650, [-200, 0, 200, 400, 600, 800]],
    [0, 1, [0, 0.2, 0.4, 0.6, 0.8, 1]],
    [0, 0.3, [0, 0.1, 0.2, 0.3]],
    // Nothing to plot: an axis from 0 to 1 rather than a division by zero.
    [0, 0, [0, 0.2, 0.4, 0.6, 0.8, 1]],
  ])('[%d, %d] → %j', (min, max, ticks) => expect(niceTicks(min, max)).toEqual(ticks));
});

describe('layoutBarChart: stacks and bars', () => {
  const base = {
    formatTick: usdTick,
    legendLabels: null,
    width: 600,
    rowsHeight: barChartHeight(2),
    categoryAxisWidth: 150,
    fontSize: 12,
  };

  it('stacks the series sharing a stack id end to end from 0, and nothing is drawn for a 0', () => {
    const g = layoutBarChart({
      ...base,
      values: [
        [100, 50, 0],
        [20, 0, 30],
      ],
      series: [{ stackId: 'cost' }, { stackId: 'cost' }, { stackId: 'cost' }],
    });
    expect(g.rects.map((r) => [r.row, r.series, r.value])).toEqual([
      [0, 0, 100],
      [0, 1, 50],
      [1, 0, 20],
      [1, 2, 30],
    ]);
    const [a, b] = g.rects;
    expect(a!.x).toBeCloseTo(g.zeroX);
    expect(b!.x).toBeCloseTo(a!.x + a!.width);
    // One bar per category (the stack), as thick as an unstacked one.
    expect(a!.y).toBe(b!.y);
    expect(a!.height).toBe(b!.height);
  });

  it('draws a negative amount left of 0 and unstacked series side by side', () => {
    const g = layoutBarChart({
      ...base,
      values: [[-40, 650]],
      series: [{}, {}],
    });
    const [neg, pos] = g.rects;
    expect(neg!.x + neg!.width).toBeCloseTo(g.zeroX);
    expect(pos!.x).toBeCloseTo(g.zeroX);
    expect(pos!.y).toBeGreaterThan(neg!.y);
  });

  it('wraps the legend under the axis and grows the chart by its rows', () => {
    const labels = [
      'Storage (GiB-month)',
      'Provisioned IOPS',
      'Provisioned throughput',
      'NVMe d-variant premium',
    ];
    const wide = layoutBarChart({
      ...base,
      width: 1200,
      values: [[1, 1, 1, 1]],
      series: [{}, {}, {}, {}],
      legendLabels: labels,
    });
    const narrow = layoutBarChart({
      ...base,
      width: 360,
      values: [[1, 1, 1, 1]],
      series: [{}, {}, {}, {}],
      legendLabels: labels,
    });
    expect(new Set(wide.legend.map((l) => l.y)).size).toBe(1);
    expect(new Set(narrow.legend.map((l) => l.y)).size).toBeGreaterThan(1);
    expect(wide.height).toBe(base.rowsHeight + 20);
    expect(narrow.height).toBeGreaterThan(wide.height);
    for (const item of narrow.legend) expect(item.x).toBeLessThan(360);
  });
});

describe('HorizontalBarChart: the SVG', () => {
  type Bar = { name: string; storage: number; iops: number };
  const rows: Bar[] = [
    { name: 'gp3 1,000 GiB', storage: 80, iops: 45 },
    { name: 'io2 1,000 GiB', storage: 125, iops: 650 },
  ];

  it('draws one rect per non-zero amount with its category, series and amount as its title, and the legend inside the SVG', () => {
    const { container } = render(
      <HorizontalBarChart
        rows={rows}
        categoryKey="name"
        series={[
          { dataKey: 'storage', name: 'Storage (GiB-month)', stackId: 'c', fill: '#111111' },
          { dataKey: 'iops', name: 'Provisioned IOPS', stackId: 'c', fill: '#222222' },
        ]}
        title="Monthly cost per node"
        labelWidth={200}
        legend
      />,
    );
    const svg = screen.getByRole('img', { name: 'Monthly cost per node' });
    const bars = [...container.querySelectorAll('.bar-chart__bars rect')];
    expect(bars.map((b) => b.querySelector('title')?.textContent)).toEqual([
      'gp3 1,000 GiB — Storage (GiB-month): $80.00',
      'gp3 1,000 GiB — Provisioned IOPS: $45.00',
      'io2 1,000 GiB — Storage (GiB-month): $125.00',
      'io2 1,000 GiB — Provisioned IOPS: $650.00',
    ]);
    expect(bars.map((b) => b.getAttribute('fill'))).toEqual(['#111111', '#222222', '#111111', '#222222']);
    expect([...svg.querySelectorAll('.bar-chart__legend text')].map((t) => t.textContent)).toEqual([
      'Storage (GiB-month)',
      'Provisioned IOPS',
    ]);
    expect([...svg.querySelectorAll('.bar-chart__value-axis text')].map((t) => t.textContent)).toContain(
      '$800',
    );
  });

  it('colours a bar by its row (a negative saving in red)', () => {
    const { container } = render(
      <HorizontalBarChart
        rows={[
          { type: 'gp2', saving: 120 },
          { type: 'io2', saving: -40 },
        ]}
        categoryKey="type"
        series={[
          {
            dataKey: 'saving',
            name: 'Saving',
            fill: 'green',
            fillOf: (r) => (r.saving < 0 ? 'red' : 'green'),
          },
        ]}
        title="Saving"
        labelWidth={80}
      />,
    );
    expect(
      [...container.querySelectorAll('.bar-chart__bars rect')].map((b) => b.getAttribute('fill')),
    ).toEqual(['green', 'red']);
    expect(container.querySelector('.bar-chart__legend')).toBeNull();
  });
});

describe('labelLines: category labels that fit', () => {
  it.each([
    ['gp3 1,000 GiB', 200, ['gp3 1,000 GiB']],
    // A phone: 38 % of 360 px for the labels.
    ['io2 Block Express 1,000 GiB × 2', 120, ['io2 Block Express', '1,000 GiB × 2']],
    ['io2 Block Express 1,000 GiB × 2 volumes striped', 120, ['io2 Block Express', '1,000 GiB × 2 vol…']],
    ['r6id.4xlarge-instance-store', 100, ['r6id.4xlarge-', 'instance-store']],
  ])('%s in %d px → %j', (text, px, lines) => expect(labelLines(text, px)).toEqual(lines));
});

describe('the value axis fits its last label', () => {
  it('leaves room right of the plot for half of "$3,000.00"', () => {
    const g = layoutBarChart({
      formatTick: usdTick,
      legendLabels: null,
      width: 600,
      rowsHeight: barChartHeight(1),
      categoryAxisWidth: 150,
      fontSize: 12,
      values: [[2900]],
      series: [{}],
    });
    expect(g.ticks.at(-1)!.value).toBe(3000);
    expect(600 - g.plot.right).toBeGreaterThanOrEqual(Math.ceil((9 * 12 * 0.62) / 2));
  });
});

describe('the value axis on a phone', () => {
  it.each([
    [1000, 3],
    [360 - 137, 1],
  ])('a %d px wide chart of $0 … $2,900 has %d intervals or fewer, labels not overlapping', (width, most) => {
    const g = layoutBarChart({
      formatTick: usdAxisTick,
      legendLabels: null,
      width,
      rowsHeight: barChartHeight(1),
      categoryAxisWidth: Math.round(width * 0.38),
      fontSize: 12,
      values: [[2900]],
      series: [{}],
    });
    expect(g.ticks.length - 1).toBeLessThanOrEqual(most);
    const labelWidth = Math.ceil('$3,000'.length * 12 * 0.62);
    for (let i = 1; i < g.ticks.length; i++)
      expect(g.ticks[i]!.x - g.ticks[i - 1]!.x).toBeGreaterThanOrEqual(labelWidth);
  });

  it.each([
    [1000, '$1,000'],
    [-40, '-$40'],
    [2.5, '$2.50'],
  ])('tick %d → %s', (usd, text) => expect(usdAxisTick(usd)).toBe(text));
});
