import { profileFromObserved, type ObservedMetrics } from '@blockwise/shared/profile';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ObservedForm } from './ObservedForm.tsx';

async function fill(user: ReturnType<typeof userEvent.setup>, label: string | RegExp, value: string) {
  const field = screen.getByLabelText(label);
  await user.clear(field);
  await user.type(field, value);
}

describe('ObservedForm', () => {
  it('adds the seed’s write-heavy profile with a unit per direction', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn<(m: ObservedMetrics) => void>();
    render(<ObservedForm onSubmit={onSubmit} />);

    await fill(user, 'Label (optional)', 'nosql primary, 90-day peak');
    await fill(user, 'Peak read IOPS', '3,043');
    await fill(user, 'Peak read throughput', '188');
    await fill(user, 'Peak write IOPS', '10000');
    await fill(user, 'Peak write throughput', '4195');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Writes throughput unit' }), 'Mbps');
    // The block size follows the typing: 4,195 Mbps ÷ 10,000 IOPS ≈ 51 KiB, medium I/O.
    expect(screen.getByText(/≈ 51\.2 KiB per I\/O .* medium I\/O/)).toBeDefined();
    await fill(user, 'Reads p99 latency in milliseconds', '133');
    await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));

    expect(onSubmit).toHaveBeenCalledTimes(1);
    const metrics = onSubmit.mock.calls[0]![0];
    expect(metrics).toEqual({
      label: 'nosql primary, 90-day peak',
      read: { iops: 3043, throughput: 188, throughputUnit: 'MiB/s', latencyMs: { '99': 133 } },
      write: { iops: 10000, throughput: 4195, throughputUnit: 'Mbps' },
    });
    // What the form produced is what the domain accepts.
    const profile = profileFromObserved(metrics);
    expect(profile.ok).toBe(true);
    if (profile.ok) expect(profile.value.write.bytesPerSec).toBe((4195 * 1e6) / 8);
    // The form is cleared for the next entry.
    expect((screen.getByLabelText('Peak read IOPS') as HTMLInputElement).value).toBe('');
  });

  it('offers every throughput unit, and says what each means', async () => {
    render(<ObservedForm onSubmit={() => {}} />);
    const select = screen.getByRole('combobox', { name: 'Reads throughput unit' });
    const units = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(units).toEqual(['B/s', 'KiB/s', 'KB/s', 'MiB/s', 'MB/s', 'GiB/s', 'GB/s', 'Mbps', 'Gbps']);
    expect(screen.getAllByText(/mebibytes per second/).length).toBeGreaterThan(0);
  });

  it('explains missing and malformed numbers next to their fields', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<ObservedForm onSubmit={onSubmit} />);
    await fill(user, 'Peak read IOPS', '-5');
    await fill(user, 'Peak write IOPS', '100');
    await fill(user, 'Peak write throughput', '5');
    await fill(user, 'Writes p99.9 latency in milliseconds', 'slow');
    await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));

    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('3 fields need attention.');
    const iops = screen.getByLabelText('Peak read IOPS');
    expect(iops.getAttribute('aria-invalid')).toBe('true');
    expect(iops.getAttribute('aria-describedby')).toContain('error');
    expect(screen.getByText('Peak read IOPS: must be 0 or more (IOPS cannot be negative).')).toBeDefined();
    expect(screen.getByText('Enter the peak read throughput (0 if there were no reads).')).toBeDefined();
    expect(screen.getByText('p99.9: expected milliseconds such as 12.5.')).toBeDefined();

    // Fixing a field clears its message.
    await fill(user, 'Peak read IOPS', '0');
    expect(screen.queryByText('Peak read IOPS: must be 0 or more (IOPS cannot be negative).')).toBeNull();
  });

  it('takes counts as dashboards print them: 10k and 1.5M', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<ObservedForm onSubmit={onSubmit} />);
    await fill(user, 'Peak read IOPS', '10k');
    await fill(user, 'Peak read throughput', '160');
    await fill(user, 'Peak write IOPS', '1.5M');
    await fill(user, 'Peak write throughput', '3,000');
    await fill(user, 'Writes p99.9 latency in milliseconds', 'slow');
    await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));
    // Only the latency is refused: the counts were read.
    expect(screen.getByRole('alert').textContent).toBe('One field needs attention.');
    expect(screen.getByLabelText('Peak read IOPS').getAttribute('aria-invalid')).not.toBe('true');
    expect(screen.getByLabelText('Peak write IOPS').getAttribute('aria-invalid')).not.toBe('true');
  });

  it('refuses k/M beside a unit: "500M" MiB/s and "5m" ms are misread units, not 524 TB/s or 5,000,000 ms', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<ObservedForm onSubmit={onSubmit} />);
    await fill(user, 'Peak read IOPS', '10k');
    await fill(user, 'Peak read throughput', '500M');
    await fill(user, 'Peak write IOPS', '0');
    await fill(user, 'Peak write throughput', '0');
    await fill(user, 'Writes p99.9 latency in milliseconds', '5m');
    await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Peak read throughput').getAttribute('aria-invalid')).toBe('true');
    expect(
      screen.getByText(
        /Peak read throughput: "k" and "M" are only for counts such as IOPS: type the number in MiB\/s/,
      ),
    ).toBeDefined();
    expect(
      screen.getByText(/p99\.9: "k" and "M" are only for counts such as IOPS: type the number in ms/),
    ).toBeDefined();
    expect(screen.getByLabelText('Peak read IOPS').getAttribute('aria-invalid')).not.toBe('true');
  });

  it('applies the domain’s rules: throughput without IOPS is refused on the IOPS field', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<ObservedForm onSubmit={onSubmit} />);
    await fill(user, 'Peak read IOPS', '0');
    await fill(user, 'Peak read throughput', '100');
    await fill(user, 'Peak write IOPS', '0');
    await fill(user, 'Peak write throughput', '0');
    await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Peak read IOPS').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/throughput without any IOPS cannot be right/)).toBeDefined();
  });

  it('the access pattern: unknown by default (random assumed), and stored with the entry when said', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn<(m: ObservedMetrics) => void>();
    render(<ObservedForm onSubmit={onSubmit} />);
    const group = screen.getByRole('group', { name: 'Access pattern' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('value'))).toEqual(['', 'random', 'sequential', 'mixed']);
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).labels?.[0]?.textContent),
    ).toEqual(['Unknown (assume random)', 'Random', 'Sequential', 'Mixed']);
    const unknown = within(group).getByRole('radio', { name: 'Unknown (assume random)' }) as HTMLInputElement;
    expect(unknown.checked).toBe(true);
    // Each choice explains itself through aria-describedby, not through its name.
    const sequential = within(group).getByRole('radio', { name: 'Sequential' });
    const hint = document.getElementById(sequential.getAttribute('aria-describedby')!);
    expect(hint?.textContent).toMatch(/contiguous I\/O of 32 KiB or more merges/);

    // 10,000 sequential 64 KiB writes (625 MiB/s): a log or a backup stream.
    await fill(user, 'Peak read IOPS', '0');
    await fill(user, 'Peak read throughput', '0');
    await fill(user, 'Peak write IOPS', '10000');
    await fill(user, 'Peak write throughput', '625');
    await user.click(sequential);
    await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));
    const metrics = onSubmit.mock.calls[0]![0];
    expect(metrics.access).toBe('sequential');
    const profile = profileFromObserved(metrics);
    expect(profile.ok && profile.value.access).toEqual({
      read: 'sequential',
      write: 'sequential',
      origin: 'stated',
    });
    // Cleared for the next entry: back to unknown.
    expect(unknown.checked).toBe(true);
  });

  it('edits existing metrics', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(
      <ObservedForm
        submitLabel="Save changes"
        initial={{
          read: { iops: 1, throughput: 1, throughputUnit: 'MB/s' },
          write: { iops: 2, throughput: 2, throughputUnit: 'KiB/s' },
          access: 'mixed',
        }}
        onSubmit={onSubmit}
      />,
    );
    expect((screen.getByRole('radio', { name: 'Mixed' }) as HTMLInputElement).checked).toBe(true);
    expect(
      (screen.getByRole('combobox', { name: 'Writes throughput unit' }) as HTMLSelectElement).value,
    ).toBe('KiB/s');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).toHaveBeenCalledWith({
      read: { iops: 1, throughput: 1, throughputUnit: 'MB/s' },
      write: { iops: 2, throughput: 2, throughputUnit: 'KiB/s' },
      access: 'mixed',
    });
    // Back to unknown: the field is dropped (random assumed), not stored as "random".
    await user.click(screen.getByRole('radio', { name: 'Unknown (assume random)' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(onSubmit).toHaveBeenLastCalledWith({
      read: { iops: 1, throughput: 1, throughputUnit: 'MB/s' },
      write: { iops: 2, throughput: 2, throughputUnit: 'KiB/s' },
    });
  });
});
