import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { initialSession, type SessionState } from '../../session/session-state.ts';
import { PeaksForm } from './PeaksForm.tsx';

function setup(settings: Partial<SessionState['settings']> = {}) {
  const dispatch = vi.fn();
  const state: SessionState = { ...initialSession, settings: { ...initialSession.settings, ...settings } };
  const onAdded = vi.fn();
  const view = (s: SessionState) => <PeaksForm session={{ state: s, dispatch }} onAdded={onAdded} />;
  const { rerender } = render(view(state));
  const form = screen.getByRole('form', { name: 'The workload’s peaks' });
  return {
    dispatch,
    onAdded,
    form,
    rerender: (s: Partial<SessionState['settings']>) =>
      rerender(view({ ...state, settings: { ...state.settings, ...s } })),
  };
}

describe('PeaksForm: the peaks asked in the answer when the session holds capacity evidence only', () => {
  it('asks the dataset size with its growth, as the answer’s dataset fields do', () => {
    const f = setup();
    const q = within(f.form);
    fireEvent.change(q.getByLabelText('Workload read IOPS'), { target: { value: '3043' } });
    fireEvent.change(q.getByLabelText('Workload write IOPS'), { target: { value: '6018' } });
    fireEvent.change(q.getByLabelText('Workload read throughput'), { target: { value: '188' } });
    fireEvent.change(q.getByLabelText('Workload write throughput'), { target: { value: '381' } });
    fireEvent.change(q.getByLabelText('Dataset size'), { target: { value: '1500' } });
    fireEvent.change(q.getByLabelText('Dataset growth (compounded yearly)'), { target: { value: '20' } });
    fireEvent.change(q.getByLabelText('Planning horizon'), { target: { value: '18' } });
    fireEvent.click(q.getByRole('button', { name: 'Plan for these peaks' }));
    const settings = f.dispatch.mock.calls
      .map((c) => c[0] as { type: string; settings?: Record<string, unknown> })
      .filter((a) => a.type === 'settings-changed')
      .reduce<Record<string, unknown>>((all, a) => ({ ...all, ...a.settings }), {});
    expect(settings).toEqual({ datasetGiB: 1500, datasetGrowth: { percentPerYear: 20, horizonMonths: 18 } });
    expect(f.dispatch.mock.calls.some((c) => (c[0] as { type: string }).type === 'observed-added')).toBe(
      true,
    );
    expect(f.onAdded).toHaveBeenCalledOnce();
  });

  it('shows the session’s growth, and follows it when it changes elsewhere', () => {
    const f = setup({ datasetGrowth: { percentPerYear: 10, horizonMonths: 12 } });
    const percent = within(f.form).getByLabelText<HTMLInputElement>('Dataset growth (compounded yearly)');
    expect(percent.value).toBe('10');
    f.rerender({ datasetGrowth: { percentPerYear: 30, horizonMonths: 12 } });
    expect(percent.value).toBe('30');
  });
});
