import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DatasetField } from './DatasetField.tsx';

describe('DatasetField: the dataset size beside the answer', () => {
  it('follows the session’s size when it changes elsewhere (the peaks form, a session loaded), keeping what was typed otherwise', () => {
    const dispatch = vi.fn();
    const view = (gib: number | null) => <DatasetField id="d" datasetGiB={gib} dispatch={dispatch} />;
    const { rerender } = render(view(null));
    const field = screen.getByLabelText<HTMLInputElement>('Dataset size (the data the storage must hold)');
    fireEvent.change(field, { target: { value: '1,500' } });
    expect(dispatch).toHaveBeenLastCalledWith({ type: 'settings-changed', settings: { datasetGiB: 1500 } });
    // Its own echo: the text stays as typed.
    rerender(view(1500));
    expect(field.value).toBe('1,500');
    // Changed elsewhere: shown, the error of a refused text cleared.
    fireEvent.change(field, { target: { value: 'big' } });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    rerender(view(2000));
    expect(field.value).toBe('2000');
    expect(field.getAttribute('aria-invalid')).toBeNull();
    rerender(view(null));
    expect(field.value).toBe('');
  });
});
