import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_FILTER, type FleetFilter } from '../fleet-view.ts';
import { FleetFilters, TEXT_IDLE_MS } from './FleetFilters.tsx';

/**
 * The filters as the fleet page holds them (the address): every applied filter is recorded, and
 * `outside.set` changes it as back/forward does.
 */
function setup(initial: FleetFilter) {
  const applied: FleetFilter[] = [];
  const outside: { set: (f: FleetFilter) => void } = { set: () => {} };
  function Page() {
    const [filter, setFilter] = useState(initial);
    outside.set = setFilter;
    return (
      <FleetFilters
        volumes={[]}
        filter={filter}
        onFilter={(f) => {
          applied.push(f);
          setFilter(f);
        }}
      />
    );
  }
  render(<Page />);
  const field = screen.getByRole('searchbox', { name: 'Volume id or name' }) as HTMLInputElement;
  return { applied, outside, field };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('FleetFilters: the text field and the applied filter agree', () => {
  it('“Clear filters” while text is still being typed (no blur) empties the field too', () => {
    const { applied, field } = setup({ ...NO_FILTER, volumeType: 'gp2' });
    fireEvent.change(field, { target: { value: 'abc' } });
    // A tap that does not take focus from the field (a phone's button): no blur, the text pending.
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(applied.at(-1)).toEqual(NO_FILTER);
    expect(field.value).toBe('');
  });

  it('back/forward within the typing pause is not undone when the pause ends', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { applied, outside, field } = setup(NO_FILTER);
    fireEvent.change(field, { target: { value: 'vol-0a' } });
    // Within the pause, the address changes (back): only the volumes over-provisioned.
    act(() => outside.set({ ...NO_FILTER, status: 'over' }));
    act(() => vi.advanceTimersByTime(TEXT_IDLE_MS));
    // The typed text applies on top of the filter in use now, never on the one it was typed over.
    expect(applied).toEqual([{ ...NO_FILTER, status: 'over', text: 'vol-0a' }]);
  });

  it('back/forward to another text within the pause wins: the typed text is dropped', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { applied, outside, field } = setup(NO_FILTER);
    fireEvent.change(field, { target: { value: 'vol-12' } });
    act(() => outside.set({ ...NO_FILTER, text: 'other' }));
    expect(field.value).toBe('other');
    act(() => vi.advanceTimersByTime(TEXT_IDLE_MS));
    expect(applied).toEqual([]);
    expect(field.value).toBe('other');
  });
});
