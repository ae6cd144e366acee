import { RunLabelsSchema, type RunLabels } from '@blockwise/shared/records';
import { listInstanceTypes, listPriceRegions } from '@blockwise/shared/catalog';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LabelsForm, throughputRoundingNote } from './LabelsForm.tsx';

const types = listInstanceTypes();
const regions = listPriceRegions().filter((r) => r.complete);

function setup(labels: RunLabels = {}) {
  const onChange = vi.fn<(l: RunLabels) => void>();
  render(
    <LabelsForm
      labels={labels}
      onChange={onChange}
      instanceTypes={types}
      regions={regions}
      subject="r6id-gp3.json"
    />,
  );
  return { onChange, user: userEvent.setup() };
}

describe('LabelsForm', () => {
  it('labels an EBS gp3 run on r6id.4xlarge in eu-central-1 (valid for the API)', async () => {
    const { onChange, user } = setup();
    expect(screen.getByRole('group', { name: 'Labels for r6id-gp3.json' })).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'EBS volume' }));
    await user.selectOptions(screen.getByLabelText('Volume type'), 'gp3');
    // gp3's included performance is the starting point.
    expect((screen.getByLabelText('Provisioned IOPS') as HTMLInputElement).value).toBe('3000');
    expect((screen.getByLabelText('Provisioned throughput') as HTMLInputElement).value).toBe('125');
    await user.type(screen.getByLabelText('Size'), '1000');
    await user.clear(screen.getByLabelText('Provisioned IOPS'));
    await user.type(screen.getByLabelText('Provisioned IOPS'), '16000');
    await user.clear(screen.getByLabelText('Provisioned throughput'));
    await user.type(screen.getByLabelText('Provisioned throughput'), '1000');
    await user.type(screen.getByRole('combobox', { name: 'Instance type' }), 'r6id.4xlarge');
    await user.tab();
    await user.selectOptions(screen.getByLabelText(/^Region/), 'eu-central-1');

    const last = onChange.mock.calls.at(-1)![0];
    expect(last).toEqual({
      kind: 'ebs',
      volumeType: 'gp3',
      volumeSizeGiB: 1000,
      volumeIops: 16000,
      volumeThroughputMiBps: 1000,
      instanceType: 'r6id.4xlarge',
      region: 'eu-central-1',
    });
    expect(RunLabelsSchema.safeParse(last).success).toBe(true);
  });

  it('shows the volume rules next to the field and keeps the last valid labels', async () => {
    const { onChange, user } = setup({
      kind: 'ebs',
      volumeType: 'gp3',
      volumeSizeGiB: 10,
      volumeIops: 3000,
      volumeThroughputMiBps: 125,
    });
    const calls = onChange.mock.calls.length;
    await user.clear(screen.getByLabelText('Provisioned IOPS'));
    await user.type(screen.getByLabelText('Provisioned IOPS'), '16000');
    // 16,000 IOPS need 32 GiB at 500 IOPS per GiB.
    expect(
      screen.getByText(/gp3 allows at most 500 IOPS per GiB: 16,000 IOPS needs at least 32 GiB/),
    ).toBeDefined();
    expect(screen.getByLabelText('Provisioned IOPS').getAttribute('aria-invalid')).toBe('true');
    // Invalid drafts never reach the session: no call carried 16,000 IOPS on 10 GiB.
    expect(onChange.mock.calls.slice(calls).every(([l]) => l.volumeIops !== 16000)).toBe(true);
  });

  it.each([
    // typed, note
    ['125', null],
    ['1,000', null],
    ['125.5', 'Rounded up to 126 MiB/s: gp3 throughput is provisioned in whole MiB/s.'],
    ['999.01', 'Rounded up to 1000 MiB/s: gp3 throughput is provisioned in whole MiB/s.'],
    ['', null],
    ['fast', null],
  ])('gp3 throughput %j → note %j', (text, note) => {
    expect(throughputRoundingNote(text)).toBe(note);
  });

  it('a fractional gp3 throughput is rounded up to whole MiB/s, and the field says so', async () => {
    const { onChange, user } = setup({
      kind: 'ebs',
      volumeType: 'gp3',
      volumeSizeGiB: 100,
      volumeIops: 3000,
    });
    const field = screen.getByLabelText(/^Provisioned throughput/);
    await user.clear(field);
    await user.type(field, '125.5');
    expect(
      screen.getByText('Rounded up to 126 MiB/s: gp3 throughput is provisioned in whole MiB/s.'),
    ).toBeDefined();
    expect(onChange.mock.calls.at(-1)![0].volumeThroughputMiBps).toBe(126);
  });

  it('NVMe runs need no volume fields', async () => {
    const { onChange, user } = setup();
    await user.click(screen.getByRole('radio', { name: 'NVMe instance store' }));
    expect(screen.queryByLabelText('Volume type')).toBeNull();
    expect(onChange).toHaveBeenLastCalledWith({ kind: 'nvme' });
  });

  it('asks for type and size when EBS is chosen without them', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('radio', { name: 'EBS volume' }));
    expect(screen.getByText(/Add the volume type and size/)).toBeDefined();
  });
});
