import { listInstanceTypes } from '@blockwise/shared/catalog';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { InstanceCombobox, MAX_OPTIONS } from './InstanceCombobox.tsx';
import { filterInstanceTypes } from './instance-suggest.ts';

const types = listInstanceTypes();

function Harness({ onChange = () => {} }: { onChange?: (v: string | null) => void }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <>
      <InstanceCombobox
        label="Instance type"
        value={value}
        types={types}
        onChange={(v) => {
          setValue(v);
          onChange(v);
        }}
      />
      <p>chosen: {value ?? 'none'}</p>
      <button type="button">elsewhere</button>
    </>
  );
}

/** The field while the catalog is still loading (types null); `catalogArrives` hands it the types. */
function renderBeforeCatalog() {
  const onChange = vi.fn();
  const onInterest = vi.fn();
  const field = (loaded: boolean) => (
    <InstanceCombobox
      label="Instance type"
      value={null}
      types={loaded ? types : null}
      onInterest={onInterest}
      onChange={onChange}
    />
  );
  const { rerender } = render(field(false));
  const input = screen.getByRole('combobox', { name: 'Instance type' });
  return { input, onChange, onInterest, catalogArrives: () => rerender(field(true)) };
}

describe('filterInstanceTypes', () => {
  it('searches all 1,390 types, prefix matches first', () => {
    expect(types.length).toBe(1390);
    const r = filterInstanceTypes(types, 'R5D.4X');
    expect(r[0]!.instanceType).toBe('r5d.4xlarge');
    const sub = filterInstanceTypes(types, '4xlarge');
    expect(sub.length).toBeGreaterThan(50);
    expect(sub.every((t) => t.instanceType.includes('4xlarge'))).toBe(true);
  });
});

describe('InstanceCombobox (keyboard, WAI-ARIA combobox)', () => {
  it('opens with ArrowDown, moves with arrows, picks with Enter', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Instance type' });
    expect(input.getAttribute('aria-expanded')).toBe('false');

    await user.click(input);
    await user.keyboard('r6id.4x');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    const listbox = screen.getByRole('listbox');
    expect(listbox.id).toBe(input.getAttribute('aria-controls'));
    expect(screen.getAllByRole('option')[0]!.textContent).toContain('r6id.4xlarge');

    await user.keyboard('{ArrowDown}');
    const first = screen.getAllByRole('option')[0]!;
    expect(input.getAttribute('aria-activedescendant')).toBe(first.id);
    expect(first.getAttribute('aria-selected')).toBe('true');

    await user.keyboard('{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('r6id.4xlarge');
    expect(screen.getByText('chosen: r6id.4xlarge')).toBeDefined();
    expect(input.getAttribute('aria-expanded')).toBe('false');
    // The chosen type's limits are shown with their units.
    expect(
      screen.getByText(/EBS 5,000 Mbps \/ 20,000 IOPS \(burst 10,000 Mbps \/ 40,000 IOPS\)/),
    ).toBeDefined();
  });

  it('ArrowUp wraps to the last option; Escape closes, then clears', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Instance type' });
    await user.click(input);
    await user.keyboard('m5.');
    await user.keyboard('{ArrowDown}{ArrowUp}');
    const options = screen.getAllByRole('option');
    expect(input.getAttribute('aria-activedescendant')).toBe(options.at(-1)!.id);
    await user.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect((input as HTMLInputElement).value).toBe('m5.');
    await user.keyboard('{Escape}');
    expect((input as HTMLInputElement).value).toBe('');
  });

  it('caps the list and says how many more match', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('combobox', { name: 'Instance type' }));
    await user.keyboard('{ArrowDown}');
    expect(screen.getAllByRole('option')).toHaveLength(MAX_OPTIONS);
    expect(screen.getByText(/Showing 50 of 1,390 matches/)).toBeDefined();
  });

  it('accepts an exact name typed in, and explains an unknown one on blur', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Instance type' });
    await user.click(input);
    await user.keyboard('m5.8xlarge');
    await user.tab();
    expect(screen.getByText('chosen: m5.8xlarge')).toBeDefined();

    await user.clear(input);
    await user.type(input, 'r5x.huge');
    await user.tab();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/not one of the 1,390 instance types/)).toBeDefined();
  });

  it('says the catalog is loading instead of showing an empty list', async () => {
    const user = userEvent.setup();
    render(<InstanceCombobox label="Instance type" value={null} types={null} onChange={() => {}} />);
    await user.click(screen.getByRole('combobox', { name: 'Instance type' }));
    await user.keyboard('{ArrowDown}');
    expect(screen.getByText('Loading the instance catalog…')).toBeDefined();
  });

  it('asks for the catalog on focus, and applies a name typed before it arrived once it does', async () => {
    const user = userEvent.setup();
    const { input, onChange, onInterest, catalogArrives } = renderBeforeCatalog();
    await user.click(input);
    expect(onInterest).toHaveBeenCalledTimes(1);
    await user.keyboard('r6i.4xlarge');
    await user.tab();
    // Nothing to check the name against yet: not applied, not refused.
    expect(onChange).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-invalid')).toBeNull();
    catalogArrives();
    expect(onChange).toHaveBeenCalledWith('r6i.4xlarge');
  });

  it('refuses a name typed before the catalog arrived once it does, with suggestions', async () => {
    const user = userEvent.setup();
    const { input, onChange, catalogArrives } = renderBeforeCatalog();
    await user.type(input, 'r6i.4xlargee');
    await user.tab();
    catalogArrives();
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText(/not one of the 1,390 instance types.*did you mean/)).toBeDefined();
  });

  it('drops a queued name once the user types again: what they type next is checked on its own blur', async () => {
    const user = userEvent.setup();
    const { input, onChange, catalogArrives } = renderBeforeCatalog();
    await user.type(input, 'r6i.4xlarge');
    await user.tab();
    await user.click(input);
    await user.keyboard('{Backspace>7}'); // "r6i." — half-typed when the catalog arrives
    catalogArrives();
    expect(onChange).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-invalid')).toBeNull();
    await user.keyboard('2xlarge');
    await user.tab();
    expect(onChange).toHaveBeenCalledWith('r6i.2xlarge');
  });
});

describe('InstanceCombobox (abbreviations, Enter on one match, did you mean)', () => {
  it('Enter picks the single match of an abbreviation without choosing it in the list', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('combobox', { name: 'Instance type' }));
    await user.keyboard('r6id.4xl{Enter}');
    expect(screen.getByText('chosen: r6id.4xlarge')).toBeDefined();
  });

  it('a missing size offers the same family first', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Instance type' });
    await user.type(input, 'r6id.5xlarge');
    await user.tab();
    expect(screen.getByText(/did you mean r6id\.\w+, r6id\.\w+, r6id\.\w+\?/)).toBeDefined();
  });
});
