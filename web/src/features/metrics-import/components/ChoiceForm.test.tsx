import type { SeriesImportOptions } from '@blockwise/shared/timeseries';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { adjustQuestions, questionsFor } from '../choice-form.ts';
import { metricsFixture } from '../metrics-fixtures.ts';
import { readMetrics } from '../metrics-reader.ts';
import { ChoiceForm } from './ChoiceForm.tsx';

function ask(name: string, options: SeriesImportOptions = {}) {
  const r = readMetrics(metricsFixture(name), options);
  if (r.ok) throw new Error(`${name} asked nothing`);
  expect(r.error.code).toBe('choice_required');
  return questionsFor(r.choices, 'Europe/Berlin');
}

function renderForm(name: string, questions: ReturnType<typeof ask>, base: SeriesImportOptions = {}) {
  const onSubmit = vi.fn<(o: SeriesImportOptions) => void>();
  render(
    <ChoiceForm
      fileName={name}
      questions={questions}
      base={base}
      submitLabel="Read the file"
      onSubmit={onSubmit}
    />,
  );
  return { onSubmit, user: userEvent.setup() };
}

describe('ChoiceForm: what a metrics export leaves open, answered by the user', () => {
  it('EBS* labels without a statistic: nothing preselected, Sum chosen, the file reads', async () => {
    const name = 'console_instance_1min_gaps.csv';
    const { onSubmit, user } = renderForm(name, ask(name));
    const group = screen.getByRole('group', { name: 'Which CloudWatch statistic do the values hold?' });
    const sum = within(group).getByRole('radio', { name: 'Sum' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => (r as HTMLInputElement).checked),
    ).toEqual([false, false]);
    // Never guessed: submitting without an answer asks for one, next to the question.
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('One question needs an answer.');
    expect(within(group).getByText(/Choose an answer: Sum, Average/)).toBeDefined();
    await user.click(sum);
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    expect(onSubmit).toHaveBeenCalledWith({ statistic: 'Sum' });
    const r = readMetrics(metricsFixture(name), onSubmit.mock.calls[0]![0]);
    expect(r.ok && r.imported.series.conversion).toMatchObject({ statistic: 'Sum', divisorSec: 60 });
  });

  it('Average of instance metrics then asks for the data-point interval (basic or detailed monitoring)', async () => {
    const name = 'console_instance_1min_gaps.csv';
    const { onSubmit, user } = renderForm(name, ask(name, { statistic: 'Average' }), {
      statistic: 'Average',
    });
    const group = screen.getByRole('group', {
      name: 'How often did CloudWatch collect the raw data points?',
    });
    const detailed = within(group).getByRole('radio', { name: '60 seconds (1 minute)' });
    expect(detailed.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(detailed.getAttribute('aria-describedby')!)!.textContent).toMatch(
      /detailed monitoring/,
    );
    await user.click(detailed);
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    expect(onSubmit).toHaveBeenCalledWith({ statistic: 'Average', sourceIntervalSec: 60 });
  });

  it('get-metric-data JSON: the statistic is not in the output', async () => {
    const name = 'get_metric_data_volume_5min.json';
    const { onSubmit, user } = renderForm(name, ask(name));
    await user.click(screen.getByRole('radio', { name: 'Sum' }));
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    const r = readMetrics(metricsFixture(name), onSubmit.mock.calls[0]![0]);
    expect(r.ok && r.imported.summary.read.iops.max).toBe(3000);
  });

  it('a throughput column without a unit: the unit is a choice, with its meaning', async () => {
    const csv = 'Time,Read IOPS,Read throughput\n2026-11-20T00:00:00Z,100,5\n2026-11-20T00:01:00Z,100,6\n';
    const r = readMetrics(csv, {});
    if (r.ok) throw new Error('expected a question');
    const { onSubmit, user } = renderForm('unitless.csv', questionsFor(r.choices, null));
    expect(screen.getByText(/mebibytes per second/)).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'MiB/s' }));
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    expect(onSubmit).toHaveBeenCalledWith({ throughputUnit: 'MiB/s' });
  });

  it('Grafana local times (read as UTC): the zone can be changed after the import, and is checked', async () => {
    const name = 'grafana_node_exporter_1min.csv';
    const first = readMetrics(metricsFixture(name), {});
    if (!first.ok) throw new Error(first.error.message);
    const questions = adjustQuestions(first.imported.series, {}, 'Europe/Berlin');
    expect(questions.map((q) => q.option)).toEqual(['timeZone']);
    const { onSubmit, user } = renderForm(name, questions);
    // The reading in force is shown as the current answer.
    expect((screen.getByRole('radio', { name: 'UTC' }) as HTMLInputElement).checked).toBe(true);
    const other = screen.getByRole('textbox', { name: /Another time zone/ });
    await user.type(other, 'Mars/Base');
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByText(/Unknown time zone “Mars\/Base”/)).toBeDefined();
    await user.click(screen.getByRole('radio', { name: 'Europe/Berlin' }));
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    expect(onSubmit).toHaveBeenCalledWith({ timeZone: 'Europe/Berlin' });
    const again = readMetrics(metricsFixture(name), onSubmit.mock.calls[0]![0]);
    // 08:00 in Berlin = 07:00 UTC.
    expect(again.ok && again.imported.series.timeMs[0]).toBe(Date.UTC(2026, 10, 20, 7, 0));
  });

  it('two volumes in one graph: keep one, or all of them added', async () => {
    const csv = [
      'Timestamp,vol-0aaaaaaaaaaaaaaaa VolumeReadOps (Sum 1 min),vol-0bbbbbbbbbbbbbbbb VolumeReadOps (Sum 1 min)',
      '2026-11-20T00:00:00Z,60,120',
      '2026-11-20T00:01:00Z,60,120',
    ].join('\n');
    const r = readMetrics(csv, {});
    if (!r.ok) throw new Error(r.error.message);
    const questions = adjustQuestions(r.imported.series, {}, null);
    expect(questions.map((q) => q.option)).toEqual(['match']);
    const { onSubmit, user } = renderForm('two-volumes.csv', questions);
    expect((screen.getByRole('radio', { name: 'All of them, added' }) as HTMLInputElement).checked).toBe(
      true,
    );
    await user.click(screen.getByRole('radio', { name: 'Only vol-0bbbbbbbbbbbbbbbb' }));
    await user.click(screen.getByRole('button', { name: 'Read the file' }));
    expect(onSubmit).toHaveBeenCalledWith({ match: 'vol-0bbbbbbbbbbbbbbbb' });
    const one = readMetrics(csv, onSubmit.mock.calls[0]![0]);
    expect(one.ok && one.imported.series.readIops).toEqual([2, 2]);
  });
});
