import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../test/fixtures.ts';
import { renderPlanPage } from '../../test/plan-page.tsx';

describe('PlanPage', () => {
  it('starts empty, with a designed empty state', () => {
    renderPlanPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Planning session' })).toBeDefined();
    expect(screen.getByText('Add data to start')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Save & share' }).hasAttribute('disabled')).toBe(true);
  });

  it('the typed-in form takes focus when it opens and gives it back when it closes', async () => {
    const user = renderPlanPage();
    await user.click(screen.getByRole('button', { name: 'Type in metrics…' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Label (optional)'));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Type in metrics…' }));
  });

  it('a bad file shows which file and why; the good one is planned', async () => {
    const user = renderPlanPage();
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    await user.upload(input, [
      new File([FIXTURES.errorOnly], 'windows-error.json', { type: 'application/json' }),
      new File([FIXTURES.grouped], 'grouped.json', { type: 'application/json' }),
    ]);
    const alert = await screen.findByText(/could not be read/);
    expect(alert.closest('[role=alert]')!.textContent).toMatch(
      /windows-error\.json could not be read: no fio JSON/,
    );
    expect(await screen.findByRole('region', { name: 'I/O profile' }, { timeout: 5000 })).toBeDefined();
    expect(screen.getByText(/read: 10,267 IOPS/)).toBeDefined();
  });

  it('typed-in metrics → profile, what binds and right-sizing', async () => {
    const user = renderPlanPage();
    await user.click(screen.getByRole('button', { name: 'Type in metrics…' }));
    await user.type(screen.getByLabelText('Peak read IOPS'), '3043');
    await user.type(screen.getByLabelText('Peak read throughput'), '188');
    await user.type(screen.getByLabelText('Peak write IOPS'), '6018');
    await user.type(screen.getByLabelText('Peak write throughput'), '381');
    // Unknown until said: random is assumed, and the profile says so.
    const access = screen.getByRole('group', { name: 'Access pattern' });
    expect(within(access).getByRole('radio', { name: 'Unknown (assume random)' })).toHaveProperty(
      'checked',
      true,
    );
    await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));
    const profile = await screen.findByRole('region', { name: 'I/O profile' }, { timeout: 5000 });
    expect(within(profile).getByText('Read share of operations')).toBeDefined();
    expect(within(profile).getByText('random (assumed — nobody said)')).toBeDefined();
    expect(
      within(profile)
        .getAllByRole('listitem')
        .some((li) => li.getAttribute('data-code') === 'access_assumed_random'),
    ).toBe(true);
    await waitFor(() => expect(screen.getByRole('region', { name: 'Right-size & what-if' })).toBeDefined());
    // The instance for the plan, through the combobox.
    await user.type(screen.getByRole('combobox', { name: 'Instance type for the plan' }), 'r5d.4xlarge');
    await user.tab();
    await user.click(screen.getByRole('button', { name: '+ gp3' }));
    expect(await screen.findByRole('tab', { name: /gp3 1000 GiB/ })).toBeDefined();
    // 569 MiB/s against gp3's included 125 MiB/s: beyond what the volume delivers at all — never
    // "saturated" or "pinned", and not called a bottleneck it could be tuned against.
    const callout = screen.getByText(/^Not deliverable:/).closest('.callout')!;
    expect(callout.textContent).toMatch(/Volume throughput is asked for 455\.2% of its ceiling/);
    expect(callout.textContent).not.toMatch(/saturated|pinned/);
    // A link can carry this session (typed-in numbers only).
    expect(
      screen.getByRole('button', { name: 'Share as a link without saving' }).hasAttribute('disabled'),
    ).toBe(false);
  });

  it('“Try an example” loads the guide’s NoSQL session in one click; the answer sits on top, linking down', async () => {
    const user = renderPlanPage();
    const answer = screen.getByRole('region', { name: 'The answer' });
    await user.click(within(answer).getByRole('button', { name: 'Try an example' }));
    expect(await screen.findByText('In this session (3)', {}, { timeout: 5000 })).toBeDefined();
    await waitFor(() => expect(within(answer).getByText(/^Needs 13,125 IOPS and 650 MiB\/s/)).toBeDefined(), {
      timeout: 5000,
    });
    expect(
      within(answer).getByText(/Instance EBS bandwidth binds at 87\.2% .* on r6i\.4xlarge/),
    ).toBeDefined();
    expect(
      within(answer).getByText(/^Provision gp3 1,000 GiB, 13,125 IOPS, 596 MiB\/s for \$149\.47\/month/),
    ).toBeDefined();
    expect(
      within(answer).getByText(/The NVMe alternative, r6id\.4xlarge, costs \$147\.17\/month more/),
    ).toBeDefined();
    // Each line links to its detail section, and the sections are there.
    for (const [name, href] of [
      ['What binds', '#limits'],
      ['Right-size', '#right-size'],
      ['NVMe vs EBS', '#compare'],
    ] as const) {
      expect(within(answer).getByRole('link', { name }).getAttribute('href')).toBe(href);
      expect(document.querySelector(href)).not.toBeNull();
    }
    // The instance picker sits with the data, holding the example's instance.
    const data = screen.getByRole('region', { name: 'Bring data' });
    expect(within(data).getByRole('combobox', { name: 'Instance type for the plan' })).toHaveProperty(
      'value',
      'r6i.4xlarge',
    );
    expect(within(answer).queryByRole('button', { name: 'Try an example' })).toBeNull();
  });

  it('after the typed-in form is submitted, focus moves to the answer that appeared', async () => {
    const user = renderPlanPage();
    await user.click(screen.getByRole('button', { name: 'Type in metrics…' }));
    await user.type(screen.getByLabelText('Peak read IOPS'), '3043');
    await user.type(screen.getByLabelText('Peak read throughput'), '188');
    await user.type(screen.getByLabelText('Peak write IOPS'), '6018');
    await user.type(screen.getByLabelText('Peak write throughput'), '381');
    await user.click(screen.getByRole('button', { name: 'Add typed-in metrics' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('The answer'), { timeout: 5000 });
    expect(within(screen.getByRole('region', { name: 'The answer' })).getByText(/^Needs /)).toBeDefined();
  });
});
