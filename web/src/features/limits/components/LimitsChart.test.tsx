import { planStorage } from '@blockwise/shared/plan';
import { defaultRateCard, findInstanceType, upgradePool } from '@blockwise/shared/catalog';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COLORS } from '../../../lib/palette.ts';
import { typedProfile } from '../../../test/fixtures.ts';
import { BURST_OPACITY, HUNDRED_PERCENT_DASH } from '../limits-legend.ts';
import { LimitsPanel } from './LimitsPanel.tsx';

/** An IntersectionObserver that never reports: the frame stays "below the fold", as in print. */
class NeverIntersecting {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}

beforeEach(() => vi.stubGlobal('IntersectionObserver', NeverIntersecting));
afterEach(() => vi.unstubAllGlobals());

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

const texts = (root: Element, selector: string) =>
  [...root.querySelectorAll(selector)].map((el) => el.textContent);

describe('LimitsChart: the "What binds" bars as plain SVG', () => {
  it('is drawn with the panel, without waiting to be scrolled to (print draws it too)', () => {
    render(<LimitsPanel plan={burstingPlan()} title="io2 on c6a.xlarge" />);
    const chart = screen.getByRole('img', { name: 'What binds: io2 on c6a.xlarge' });
    expect(chart.tagName.toLowerCase()).toBe('svg');
    // Responsive: drawn in its own coordinates, scaled to the frame (a phone, a printed page).
    expect(chart.getAttribute('viewBox')).toBe('0 0 640 286');
    expect(chart.style.maxWidth).toBe('100%');
    expect(chart.style.height).toBe('auto');
  });

  it('says what it shows: each ceiling, its utilization, the bottleneck, the axis and its unit', () => {
    render(<LimitsPanel plan={burstingPlan()} title="io2 on c6a.xlarge" />);
    const chart = screen.getByRole('img', { name: 'What binds: io2 on c6a.xlarge' });
    const desc = chart.getAttribute('aria-describedby')!;
    expect(chart.querySelector(`[id="${desc}"]`)?.textContent).toMatch(
      /^Utilization of each ceiling .*Instance EBS IOPS \(burst\): 100\.0% \(bottleneck: burst ceiling binds\)/,
    );
    const rows = chart.querySelectorAll('.limits-chart__row');
    expect(rows).toHaveLength(6);
    expect(
      [...rows].map((r) => [...r.querySelectorAll('tspan')].map((t) => t.textContent).join(' ')),
    ).toEqual([
      'Volume IOPS',
      'Volume throughput',
      'Instance EBS IOPS',
      'Instance EBS bandwidth',
      'Instance EBS IOPS (burst)',
      'Instance EBS bandwidth (burst)',
    ]);
    expect(texts(chart, '.limits-chart__value')).toEqual([
      '66.7%',
      '15.6%',
      '666.7%',
      '419.4%',
      '100.0%',
      '52.4%',
    ]);
    expect(texts(chart, '.limits-chart__axis text')).toEqual([
      '0%',
      '50%',
      '100%',
      '150%',
      '200%',
      '250%',
      '300%',
      'utilization = demand ÷ ceiling',
    ]);
    expect(texts(chart, '.limits-chart__hundred text')).toEqual(['100%']);
    expect(chart.querySelector('.limits-chart__hundred line')?.getAttribute('stroke-dasharray')).toBe(
      HUNDRED_PERCENT_DASH,
    );
    // Each row's tooltip: the figures behind the bar.
    const tooltip = rows[4]!.querySelector('title')!.textContent!.split('\n');
    expect(tooltip.slice(0, 2)).toEqual([
      'Instance EBS IOPS (burst) — bottleneck: burst ceiling binds (burst: temporary)',
      'Demand 40,000 IOPS of 40,000 IOPS (AWS quotes 40,000 IOPS (at 16 KiB I/O)): 100.0%',
    ]);
    expect(tooltip[2]).toMatch(/^c6a\.xlarge reaches 40,000 IOPS for 30 minutes/);
  });

  it('colours the bars as the legend says: the bottleneck red and framed, the fallback amber, bursts faded', () => {
    render(<LimitsPanel plan={burstingPlan()} title="io2 on c6a.xlarge" />);
    const chart = screen.getByRole('img', { name: 'What binds: io2 on c6a.xlarge' });
    const bars = [...chart.querySelectorAll('.limits-chart__bar')].map((b) => [
      b.getAttribute('fill'),
      Number(b.getAttribute('fill-opacity')),
      b.getAttribute('stroke'),
    ]);
    expect(bars).toEqual([
      [COLORS.neutral, 1, 'none'],
      [COLORS.neutral, 1, 'none'],
      [COLORS.watch, 1, 'none'],
      [COLORS.concern, 1, 'none'],
      [COLORS.concern, BURST_OPACITY, COLORS.text],
      [COLORS.neutral, BURST_OPACITY, 'none'],
    ]);
    // The held-at-the-end bars reach the last tick; the bottleneck ends on the 100% line.
    const widths = [...chart.querySelectorAll('.limits-chart__bar')].map((b) =>
      Number(b.getAttribute('width')),
    );
    const hundred = Number(chart.querySelector('.limits-chart__hundred line')!.getAttribute('x1'));
    const left = Number(chart.querySelector('.limits-chart__bar')!.getAttribute('x'));
    expect(left + widths[4]!).toBeCloseTo(hundred, 6);
    expect(widths[2]).toBeCloseTo(3 * (hundred - left), 6);
  });
});
