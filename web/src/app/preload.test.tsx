import { type Comparison } from '@blockwise/shared/api';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { buildComparison, summarizeRun } from '@blockwise/shared/analysis';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { planSession } from '../../../shared/src/test-support/plan-session.ts';
import { fixtureReport } from '../test/fixtures.ts';
import { App, preloadPage } from './App.tsx';

const ID = 'DDDDDDDDDDDDDDDDDDDDDD';

/** A stored comparison of one real fio run (the grouped randrw fixture) on a gp3 volume. */
function stored(): Comparison {
  const report = fixtureReport('grouped');
  const labels = { name: 'gp3 run', kind: 'ebs' as const, instanceType: 'r6i.4xlarge' };
  const plan = planSession({
    profileRef: 'run:AAAAAAAAAAAAAAAAAAAAA1',
    instanceType: 'r6i.4xlarge',
    candidates: [{ type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000, count: 1 }],
  });
  const result = buildComparison(
    [{ id: 'AAAAAAAAAAAAAAAAAAAAA1', labels, report, summary: summarizeRun(report, labels) }],
    plan,
  );
  if (!result.ok) throw new Error(result.error.message);
  return {
    id: ID,
    url: `/c/${ID}`,
    createdAt: '2026-11-20T10:00:00.000Z',
    title: 'orders-db on gp3',
    runIds: ['AAAAAAAAAAAAAAAAAAAAA1'],
    plan,
    result: result.value,
    priceTableDate: result.value.rates.date,
    analysisVersion: ANALYSIS_VERSION,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('preloadPage: what the first render needs arrives before it', () => {
  it('a share link: the page code and its comparison, so React first draws the page, not a loading state', async () => {
    const fetch = vi.fn(
      async (_url: RequestInfo | URL) => new Response(JSON.stringify(stored()), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetch);
    window.history.replaceState(null, '', `/c/${ID}`);
    await preloadPage(`/c/${ID}`);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]![0])).toContain(`/api/comparisons/${ID}`);

    render(<App />);
    // In the first commit: no waiting (findBy) for the heading, and no loading state.
    expect(screen.getByRole('heading', { level: 1, name: 'orders-db on gp3' })).toBeDefined();
    expect(screen.queryByText(/Loading the shared comparison/)).toBeNull();
    // The document is named after the comparison, even though it was in the cache at the first render.
    expect(document.title).toBe('orders-db on gp3 — Blockwise');
    // A share link never changes: the page does not ask for the comparison a second time.
    await screen.findByRole('region', { name: 'Rate card' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
