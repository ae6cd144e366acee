import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { barChartHeight } from './ChartFrame.tsx';
import { usdTick } from './HorizontalBarChart.tsx';
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
