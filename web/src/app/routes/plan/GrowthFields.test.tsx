import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { GrowthFields } from './GrowthFields.tsx';

function setup(growth: { percentPerYear: number; horizonMonths: number } | null = null) {
  const dispatch = vi.fn();
  render(<GrowthFields id="g" growth={growth} dispatch={dispatch} />);
  const percent = screen.getByLabelText<HTMLInputElement>('Dataset growth (compounded yearly)');
  const months = screen.getByLabelText<HTMLInputElement>('Planning horizon');
  return { dispatch, percent, months };
}

const lastGrowth = (dispatch: ReturnType<typeof vi.fn>) =>
  (dispatch.mock.calls.at(-1)?.[0] as { settings: { datasetGrowth: unknown } } | undefined)?.settings
    .datasetGrowth;

describe('GrowthFields: how fast the dataset grows, over how many months', () => {
  it.each([
    // growth typed, horizon typed → the session's growth
    ['20', '12', { percentPerYear: 20, horizonMonths: 12 }],
    ['30', '', { percentPerYear: 30, horizonMonths: 12 }], // an empty horizon is a year
    ['12.5', '18', { percentPerYear: 12.5, horizonMonths: 18 }],
    ['0', '60', { percentPerYear: 0, horizonMonths: 60 }],
    ['1,000', '1', { percentPerYear: 1000, horizonMonths: 1 }],
  ])('%s %%/year over "%s" months → %j', (pct, months, growth) => {
    const f = setup();
    fireEvent.change(f.months, { target: { value: months } });
    fireEvent.change(f.percent, { target: { value: pct } });
    expect(lastGrowth(f.dispatch)).toEqual(growth);
    expect(f.percent.getAttribute('aria-invalid')).toBeNull();
    expect(f.months.getAttribute('aria-invalid')).toBeNull();
  });

  it.each([
    ['1001', '12', 'percent', /growth in %\/year \(0 to 1,000\)/],
    ['-5', '12', 'percent', /growth in %\/year/],
    ['fast', '12', 'percent', /growth in %\/year/],
    ['20', '61', 'months', /whole months \(1 to 60\)/],
    ['20', '1.5', 'months', /whole months/],
    ['20', '0', 'months', /whole months/],
  ])(
    '%s %%/year over %s months is refused beside the %s field, the session untouched',
    (pct, months, field, message) => {
      const f = setup();
      fireEvent.change(f.months, { target: { value: months } });
      fireEvent.change(f.percent, { target: { value: pct } });
      const input = field === 'percent' ? f.percent : f.months;
      expect(input.getAttribute('aria-invalid')).toBe('true');
      // The error is the field's description: read with it.
      expect(document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
        message,
      );
      expect(
        f.dispatch.mock.calls.every(
          (c) => (c[0] as { settings: { datasetGrowth: unknown } }).settings.datasetGrowth === null,
        ),
      ).toBe(true);
    },
  );

  it('emptying the growth plans for today’s size again, and clears the error', () => {
    const f = setup({ percentPerYear: 20, horizonMonths: 12 });
    expect(f.percent.value).toBe('20');
    expect(f.months.value).toBe('12');
    fireEvent.change(f.percent, { target: { value: '2000' } });
    expect(f.percent.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(f.percent, { target: { value: '' } });
    expect(lastGrowth(f.dispatch)).toBeNull();
    expect(f.percent.getAttribute('aria-invalid')).toBeNull();
  });

  it('follows the session’s growth when it changes elsewhere (another form, a session loaded), keeping what was typed otherwise', () => {
    const dispatch = vi.fn();
    const view = (growth: { percentPerYear: number; horizonMonths: number } | null) => (
      <GrowthFields id="g" growth={growth} dispatch={dispatch} />
    );
    const { rerender } = render(view(null));
    const percent = screen.getByLabelText<HTMLInputElement>('Dataset growth (compounded yearly)');
    const months = screen.getByLabelText<HTMLInputElement>('Planning horizon');
    // Typed here: the session holds it, and the empty horizon stays empty (12 months is the placeholder).
    fireEvent.change(percent, { target: { value: '20' } });
    expect(lastGrowth(dispatch)).toEqual({ percentPerYear: 20, horizonMonths: 12 });
    rerender(view({ percentPerYear: 20, horizonMonths: 12 }));
    expect([percent.value, months.value]).toEqual(['20', '']);
    // Changed elsewhere: the fields show the session's growth, the error of a refused text cleared.
    fireEvent.change(percent, { target: { value: '5000' } });
    expect(percent.getAttribute('aria-invalid')).toBe('true');
    rerender(view({ percentPerYear: 35, horizonMonths: 24 }));
    expect([percent.value, months.value]).toEqual(['35', '24']);
    expect(percent.getAttribute('aria-invalid')).toBeNull();
    // Back to what was typed here before, from elsewhere (a session reloaded): shown as the session holds it.
    rerender(view({ percentPerYear: 20, horizonMonths: 12 }));
    expect([percent.value, months.value]).toEqual(['20', '12']);
    // A session without growth (a new one, a link without it): empty fields.
    rerender(view(null));
    expect([percent.value, months.value]).toEqual(['', '']);
  });
});
