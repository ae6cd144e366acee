import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { metricsFixture } from '../../features/metrics-import/metrics-fixtures.ts';
import sysbenchText from '../../../../fixtures/sysbench/a_rndrw_16k_fsync100.txt?raw';
import PlanPage from '../routes/PlanPage.tsx';
import { SessionProvider } from './SessionProvider.tsx';

/** The planning page with the real session, real parsers and real fixtures: the imports end to end. */
function renderPage() {
  render(
    <SessionProvider>
      <PlanPage />
    </SessionProvider>,
  );
  return userEvent.setup();
}

const fileInput = (name: string) => screen.getByLabelText(name) as HTMLInputElement;

describe('Bring data: metrics exports and sysbench runs', () => {
  it('a CloudWatch export asks its question, then plans on the chosen sizing statistic', async () => {
    const user = renderPage();
    const name = 'console_instance_1min_gaps.csv';
    await user.upload(
      fileInput('Choose metrics files…'),
      new File([metricsFixture(name)], name, { type: 'text/csv' }),
    );
    const group = await screen.findByRole(
      'group',
      { name: 'Which CloudWatch statistic do the values hold?' },
      { timeout: 5000 },
    );
    await user.click(within(group).getByRole('radio', { name: 'Sum' }));
    await user.click(screen.getByRole('button', { name: 'Read the file with these answers' }));

    const region = await screen.findByRole(
      'region',
      { name: `Production metrics: ${name}` },
      { timeout: 5000 },
    );
    expect(
      await within(region).findByRole(
        'table',
        { name: /statistics of 1,422 1-minute points/ },
        { timeout: 5000 },
      ),
    ).toBeDefined();
    expect(await screen.findByRole('region', { name: 'I/O profile' }, { timeout: 5000 })).toBeDefined();
    expect(screen.getByText(/sized on the maximum of the points/)).toBeDefined();
    await user.click(within(region).getByRole('radio', { name: 'P99 of the points (recurring peaks kept)' }));
    await waitFor(() => expect(screen.getByText(/sized on the p99 of the points/)).toBeDefined());
    // The time zone is a question after the fact (the header says UTC; it can still be changed).
    expect(within(region).getByRole('button', { name: /Change how .* is read \(time zone\)/ })).toBeDefined();
    // The fio job generator reproduces the planned profile.
    const job = await screen.findByRole('region', { name: 'Reproduce with fio' });
    await user.click(within(job).getByText('Generate the fio job'));
    expect((await within(job).findByLabelText(/Job file/, {}, { timeout: 5000 })).textContent).toMatch(
      /^rw=randrw$/m,
    );
  }, 30_000);

  it('a sysbench output dropped with the fio files is read as sysbench, with its facts', async () => {
    const user = renderPage();
    await user.upload(fileInput('Choose fio files…'), new File([sysbenchText], 'a_rndrw_16k_fsync100.txt'));
    const list = await screen.findByLabelText(
      'sysbench facts of a_rndrw_16k_fsync100.txt',
      {},
      { timeout: 5000 },
    );
    expect(within(list).getByText('rndrw: random read/write')).toBeDefined();
    expect(within(list).getByText('fsync() every 100 requests; one per file at the end')).toBeDefined();
    expect(await screen.findByText(/read: 6,391 IOPS/, {}, { timeout: 5000 })).toBeDefined();
    // Its trust warnings ride on its card.
    expect(document.querySelector('[data-code="buffered_io"]')).not.toBeNull();
  }, 20_000);
});
