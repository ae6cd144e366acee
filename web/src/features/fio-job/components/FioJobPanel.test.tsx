import { profileFromFio } from '@blockwise/shared/profile';
import { profileFromSysbench, parseSysbench } from '@blockwise/shared/sysbench';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureReport } from '../../../test/fixtures.ts';
import type { SessionTarget } from '../fio-job-form.ts';
import FioJobPanel, { type JobProfile } from './FioJobPanel.tsx';
import sysbenchRun from '../../../../../fixtures/sysbench/d_rndwr_4k_direct_nofsync.txt?raw';

const downloadText = vi.hoisted(() => vi.fn());
vi.mock('../../../lib/download.ts', () => ({ downloadText, downloadBlob: vi.fn() }));

function profiles(): JobProfile[] {
  const fio = profileFromFio(fixtureReport('grouped'), { label: null });
  const sb = parseSysbench(sysbenchRun);
  if (!fio.ok || !sb.ok) throw new Error('fixtures do not parse');
  const sysbench = profileFromSysbench(sb.value);
  if (!sysbench.ok) throw new Error(sysbench.error.message);
  return [
    { key: 'run:a', title: 'grouped.json', kindLabel: 'fio', profile: fio.value },
    { key: 'observed:s', title: 'd_rndwr_4k.txt', kindLabel: 'sysbench', profile: sysbench.value },
  ];
}

const SESSION: SessionTarget = {
  instanceType: 'r6i.4xlarge',
  region: 'us-east-1',
  candidates: [{ type: 'gp3', sizeGiB: 1000, iops: 6000, throughputMiBps: 500, count: 1 }],
  kind: null,
};

function renderPanel(target = SESSION) {
  render(<FioJobPanel profiles={profiles()} initialKey="run:a" target={target} />);
  return userEvent.setup();
}

afterEach(() => downloadText.mockReset());

describe('FioJobPanel', () => {
  it('the measured fio run (randrw 4k–16k/64k mix) as a 30-minute paced job, labelled from the session', () => {
    renderPanel();
    const job = screen.getByLabelText(/Job file \(blockwise-grouped-json\.fio\)/).textContent!;
    expect(job).toMatch(/^rw=randrw$/m);
    expect(job).toMatch(/^rwmixread=\d+$/m);
    expect(job).toMatch(/^runtime=1800$/m);
    expect(job).toMatch(/^ioengine=libaio$/m);
    expect(job).toMatch(/^rate_iops=\d+,\d+$/m);
    expect(job).toMatch(/^filename=CHANGE_ME$/m);
    expect(screen.getByLabelText('Command line').textContent).toBe(
      'fio --output-format=json+ --output=result.json blockwise-grouped-json.fio',
    );
    expect(screen.getByLabelText('Upload command').textContent).toBe(
      // The user has the web app, not the CLI: fetched from this server (happy-dom's origin).
      `curl -fsSO ${window.location.origin}/cli/blockwise.mjs && node blockwise.mjs upload result.json --server ${window.location.origin} --label kind=ebs --label instanceType=r6i.4xlarge --label volumeType=gp3 --label volumeSizeGiB=1000 --label volumeIops=6000 --label volumeThroughputMiBps=500 --label region=us-east-1`,
    );
  });

  it('options: io_uring, a device target, no pacing, a longer runtime; shorter than 30 minutes is refused', async () => {
    const user = renderPanel();
    await user.click(screen.getByRole('radio', { name: 'io_uring' }));
    await user.type(screen.getByRole('textbox', { name: 'Target device or file' }), '/dev/nvme1n1');
    expect(screen.queryByRole('textbox', { name: 'Test file size' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: /Pace at the profile’s IOPS/ }));
    const runtime = screen.getByRole('textbox', { name: 'Runtime' });
    await user.clear(runtime);
    await user.type(runtime, '10m');
    expect(screen.getByText(/Runtime: at least 30 minutes/)).toBeDefined();
    expect(runtime.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByLabelText(/Job file/)).toBeNull();
    await user.clear(runtime);
    await user.type(runtime, '1h');
    const job = screen.getByLabelText(/Job file/).textContent!;
    expect(job).toMatch(/^ioengine=io_uring$/m);
    expect(job).toMatch(/^filename=\/dev\/nvme1n1$/m);
    expect(job).toMatch(/^runtime=3600$/m);
    expect(job).not.toMatch(/^rate_iops/m);
  });

  it('a file target asks for its size; a sysbench profile can be picked instead', async () => {
    const user = renderPanel();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Profile to reproduce' }), 'observed:s');
    await user.type(screen.getByRole('textbox', { name: 'Target device or file' }), '/data/fio.test');
    await user.type(screen.getByRole('textbox', { name: 'Test file size' }), '100GiB');
    const job = screen.getByLabelText(/Job file \(blockwise-d-rndwr-4k-txt\.fio\)/).textContent!;
    expect(job).toMatch(/^rw=randwrite$/m);
    expect(job).toMatch(/^bs=4k$/m);
    expect(job).toMatch(/^size=102400m$/m); // 100 GiB, written in fio's MiB
  });

  it('downloads the job file as .fio and copies the command', async () => {
    const user = renderPanel();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(screen.getByRole('button', { name: 'Download .fio (blockwise-grouped-json.fio)' }));
    expect(downloadText).toHaveBeenCalledWith(
      expect.stringMatching(/^; Blockwise fio job/),
      'blockwise-grouped-json.fio',
      'text/plain',
    );
    await user.click(screen.getByRole('button', { name: 'Copy upload command' }));
    expect(writeText).toHaveBeenCalledWith(
      expect.stringMatching(
        /^curl -fsSO \S+\/cli\/blockwise\.mjs && node blockwise\.mjs upload result\.json/,
      ),
    );
    expect(screen.getByText('Upload command copied to the clipboard.')).toBeDefined();
  });

  it('without an instance or volume in the session the labels say CHANGE_ME', () => {
    renderPanel({ instanceType: null, region: null, candidates: [], kind: 'nvme' });
    expect(
      within(screen.getByRole('group', { name: 'Labels for the upload' })).getByRole('radio', {
        name: 'Local NVMe',
      }),
    ).toHaveProperty('checked', true);
    expect(screen.getByLabelText('Upload command').textContent).toContain(
      '--label kind=nvme --label instanceType=CHANGE_ME',
    );
  });
});
