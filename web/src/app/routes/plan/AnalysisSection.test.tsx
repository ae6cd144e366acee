import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { metricsFixture } from '../../../features/metrics-import/metrics-fixtures.ts';
import { renderPlanPage } from '../../../test/plan-page.tsx';

/** The profile's "Measured for" line, once the plan is shown. */
async function measuredFor(): Promise<string> {
  const profile = await screen.findByRole('region', { name: 'I/O profile' }, { timeout: 5000 });
  const term = within(profile).getByText('Measured for');
  return term.nextElementSibling?.textContent ?? '';
}

describe('the planned profile names where its peaks came from', () => {
  it('a CloudWatch CSV import: its file and sizing statistic', async () => {
    const user = renderPlanPage();
    const name = 'console_volume_sum_5min.csv';
    await user.upload(
      screen.getByLabelText('Choose metrics files…'),
      new File([metricsFixture(name)], name, { type: 'text/csv' }),
    );
    await waitFor(async () => expect(await measuredFor()).toMatch(/^peak values from CloudWatch CSV/), {
      timeout: 5000,
    });
    expect(await measuredFor()).toContain(name);
    expect(await measuredFor()).toMatch(/max of the points$/);
  }, 20_000);

  it('typed-in numbers the user named: “typed in”, never “from”', async () => {
    const user = renderPlanPage();
    await user.click(screen.getByRole('button', { name: 'Type in metrics…' }));
    await user.type(screen.getByLabelText('Label (optional)'), 'orders-db peak');
    await user.type(screen.getByLabelText('Peak read IOPS'), '3043');
    await user.type(screen.getByLabelText('Peak read throughput'), '188');
    await user.type(screen.getByLabelText('Peak write IOPS'), '6018');
    await user.type(screen.getByLabelText('Peak write throughput'), '381');
    await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));
    expect(await measuredFor()).toBe('typed in: orders-db peak');
  }, 20_000);
});
