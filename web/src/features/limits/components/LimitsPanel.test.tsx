import { planStorage } from '@blockwise/shared/plan';
import { defaultRateCard, findInstanceType, upgradePool } from '@blockwise/shared/catalog';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { typedProfile } from '../../../test/fixtures.ts';
import { LimitsPanel } from './LimitsPanel.tsx';

/** Each title the chart was drawn with, in order: the chart redraws once a drag rests, not every step. */
const drawnTitles = vi.hoisted(() => [] as string[]);
vi.mock('./LimitsChart.tsx', () => ({
  default: ({ title }: { title: string }) => {
    drawnTitles.push(title);
    return <svg data-testid="limits-chart" aria-label={title} />;
  },
}));

const c6a = findInstanceType('c6a.xlarge')!;

/** 2 minutes of 16 KiB random writes at 40,000 IOPS on c6a.xlarge with a 60,000-IOPS io2. */
function burstingPlan() {
  return planStorage({
    profile: {
      ...typedProfile({ readMiBps: 0, readIops: 0, writeMiBps: 625, writeIops: 40_000, access: 'random' }),
      durationSec: 120,
    },
    target: { kind: 'ebs', volume: { type: 'io2', sizeGiB: 100, iops: 60_000 } },
    instance: c6a,
    rateCard: defaultRateCard(),
    instanceCandidates: upgradePool(c6a),
  });
}

describe('LimitsPanel', () => {
  it('bursting: the burst ceiling that binds, the sustained figure, and the fallback row marked', () => {
    render(<LimitsPanel plan={burstingPlan()} title="io2 on c6a.xlarge" />);
    const lead = screen.getByText('Bottleneck (burst ceiling):');
    const callout = lead.closest('.callout')!;
    expect(callout.classList.contains('callout--watch')).toBe(true);
    expect(
      within(callout as HTMLElement).getByText('Binds now (burst ceiling)').nextSibling?.textContent,
    ).toBe('Instance EBS IOPS (burst): 40,000 IOPS (100.0%)');
    expect(
      within(callout as HTMLElement).getByText('Sustained ceiling after the burst').nextSibling?.textContent,
    ).toBe('Instance EBS IOPS: 6,000 IOPS (666.7%)');
    const table = screen.getByRole('table', { name: 'What binds: io2 on c6a.xlarge' });
    const fallback = within(table).getByRole('row', { name: /^Instance EBS IOPS sustained fallback/ });
    expect(within(fallback).getByText('sustained fallback')).toBeDefined();
    const binding = within(table).getByRole('row', {
      name: /^Instance EBS IOPS \(burst\) bottleneck: burst ceiling binds/,
    });
    expect(within(binding).getByText('burst (temporary)')).toBeDefined();
    // No web-made "high" verdict: each utilization is read as the domain's thresholds put it.
    expect(table.textContent).not.toMatch(/\(high\)/);
  });

  it('shows the key to the bar colours on the page, not only in the exported PNG', () => {
    render(<LimitsPanel plan={burstingPlan()} title="io2 on c6a.xlarge" />);
    const key = screen.getByRole('list', { name: 'Key to the bars: What binds: io2 on c6a.xlarge' });
    expect(
      within(key)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'bottleneck (the ceiling that binds)',
      'sustained ceiling after the burst',
      'at or over its ceiling',
      'headroom',
      'faded: burst ceiling (temporary)',
      '100% = demand at the ceiling',
    ]);
  });
});

describe('LimitsPanel during a what-if drag', () => {
  it('a new title alone (a candidate renamed by its size) redraws the chart only once the drag rests', async () => {
    drawnTitles.length = 0;
    // No IntersectionObserver: the chart mounts at once (ChartFrame), as if on screen.
    vi.stubGlobal('IntersectionObserver', undefined);
    onTestFinished(() => {
      vi.unstubAllGlobals();
    });
    const plan = burstingPlan();
    const { rerender } = render(<LimitsPanel plan={plan} title="io2 100 GiB on c6a.xlarge" />);
    await screen.findByTestId('limits-chart');
    expect(drawnTitles).toEqual(['What binds: io2 100 GiB on c6a.xlarge']);
    rerender(<LimitsPanel plan={plan} title="io2 200 GiB on c6a.xlarge" />);
    rerender(<LimitsPanel plan={plan} title="io2 300 GiB on c6a.xlarge" />);
    // The heading and table follow each step; the chart has not been drawn again yet.
    expect(screen.getByRole('table', { name: 'What binds: io2 300 GiB on c6a.xlarge' })).toBeDefined();
    expect(drawnTitles).toHaveLength(1);
    // Once the drag rests, the chart draws once, with the last title.
    await waitFor(() => expect(drawnTitles).toHaveLength(2));
    expect(drawnTitles[1]).toBe('What binds: io2 300 GiB on c6a.xlarge');
  });
});
