import { defaultSeriesConfig } from '@blockwise/shared/history';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { regressionOf, runId, seriesHistory } from '../../features/history/history-fixtures.ts';
import { fixtureReport } from '../../test/fixtures.ts';
import HistoryPage from './HistoryPage.tsx';
import HistorySeriesPage from './HistorySeriesPage.tsx';

const items = seriesHistory(fixtureReport('grouped'));
const newestFirst = [...items].reverse();

type Handler = (url: URL) => { status: number; body: unknown } | null;

function serve(...handlers: Handler[]) {
  const fetch = vi.fn(async (input: string) => {
    const url = new URL(input, 'http://localhost');
    for (const h of handlers) {
      const r = h(url);
      if (r)
        return new Response(JSON.stringify(r.body), {
          status: r.status,
          headers: { 'Content-Type': 'application/json' },
        });
    }
    return new Response(
      JSON.stringify({ error: { code: 'not_found', message: `no route ${url.pathname}` } }),
      {
        status: 404,
      },
    );
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const seriesApi: Handler = (url) => {
  if (url.pathname === '/api/series/pg-data-volume/settings')
    return {
      status: 200,
      body: { series: 'pg-data-volume', config: defaultSeriesConfig(), stored: false, updatedAt: null },
    };
  if (url.pathname === '/api/series/pg-data-volume/runs') {
    const branch = url.searchParams.get('branch');
    return {
      status: 200,
      body: { items: newestFirst.filter((i) => !branch || i.labels.branch === branch), nextCursor: null },
    };
  }
  const m = /^\/api\/runs\/([^/]+)\/regression$/.exec(url.pathname);
  if (m) {
    const index = items.findIndex((i) => i.id === m[1]);
    return index >= 0 ? { status: 200, body: regressionOf(items, index) } : null;
  }
  return null;
};

const regressionCalls = (fetch: ReturnType<typeof serve>) =>
  fetch.mock.calls.filter(([u]) => String(u).endsWith('/regression')).map(([u]) => String(u));

beforeEach(() => window.history.replaceState(null, '', '/history/pg-data-volume'));
afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

describe('/history/:series', () => {
  it(
    'runs over time, the gate’s verdicts fetched once per run, a flagged run opened to its report',
    { timeout: 20_000 },
    async () => {
      const fetch = serve(seriesApi);
      const user = userEvent.setup();
      render(<HistorySeriesPage series="pg-data-volume" />);
      expect(screen.getByRole('heading', { level: 1, name: 'pg-data-volume' })).toBeDefined();
      const table = await screen.findByRole('table', { name: 'Runs of pg-data-volume, newest first' });
      expect(within(table).getAllByRole('row')).toHaveLength(1 + items.length);
      // Every run shown is checked (8 ≤ the first batch of 20), exactly once, and one is flagged.
      await waitFor(() => expect(within(table).getAllByText('pass')).toHaveLength(4));
      expect(within(table).getByText('regression')).toBeDefined();
      expect(regressionCalls(fetch)).toHaveLength(items.length);
      expect(new Set(regressionCalls(fetch)).size).toBe(items.length);
      expect(screen.getByRole('region', { name: 'Metrics over time' }).textContent).toMatch(
        /8 of the 8 runs shown checked so far, 1 flagged/,
      );
      expect(screen.getByText('Base branch').nextSibling!.textContent).toBe('main');

      await user.click(
        screen.getByRole('button', {
          name: 'Details of the run of 2026-11-16 10:00 UTC on feature/xfs-nobarrier @ dead0001',
        }),
      );
      const details = await screen.findByRole('region', { name: 'Selected run' });
      expect(within(details).getByText(/^regression: read IOPS -29\.\d%/)).toBeDefined();
      expect(
        within(details).getByRole('link', { name: 'Compare with its baseline' }).getAttribute('href'),
      ).toBe(`/c/${'C'.repeat(21)}7`);
      expect(within(details).getByRole('link', { name: 'Open this run' }).getAttribute('href')).toBe(
        `/runs/${runId(8)}`,
      );
      expect(window.location.search).toBe(`?run=${runId(8)}`);
      // Opening a report asks for nothing new.
      expect(regressionCalls(fetch)).toHaveLength(items.length);
    },
  );

  it(
    'a branch filter goes to the server; an unknown series is a designed empty state',
    { timeout: 20_000 },
    async () => {
      const fetch = serve(seriesApi, (url) =>
        url.pathname.startsWith('/api/series/')
          ? { status: 200, body: { items: [], nextCursor: null } }
          : null,
      );
      const user = userEvent.setup();
      const { unmount } = render(<HistorySeriesPage series="pg-data-volume" />);
      await screen.findByRole('table', { name: /Runs of pg-data-volume/ });
      await user.selectOptions(screen.getByRole('combobox', { name: 'Branch' }), 'main');
      await screen.findByRole('table', { name: 'Runs of pg-data-volume on main, newest first' });
      expect(
        fetch.mock.calls.some(([u]) => String(u) === '/api/series/pg-data-volume/runs?limit=200&branch=main'),
      ).toBe(true);
      unmount();
      window.history.replaceState(null, '', '/history/nobody');
      render(<HistorySeriesPage series="nobody" />);
      expect(await screen.findByText('No runs in the series nobody yet')).toBeDefined();
    },
  );

  it('a server error is shown with a retry', async () => {
    serve(() => ({ status: 503, body: { error: { code: 'store_unavailable', message: 'database down' } } }));
    render(<HistorySeriesPage series="pg-data-volume" />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/The history could not be loaded.*temporarily unavailable/);
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeDefined();
  });
});

describe('/history', () => {
  const latest = newestFirst[0]!;
  const summary = (series: string, runCount: number, branchCount: number) => ({
    series,
    runCount,
    branchCount,
    latestRun: { ...latest, labels: { ...latest.labels, series } },
  });

  it('lists the series the server counted, linking each to its history; more on demand', async () => {
    const fetch = serve((url) => {
      if (url.pathname !== '/api/series') return null;
      return url.searchParams.get('cursor') === 'page-2'
        ? { status: 200, body: { items: [summary('logs-volume', 2, 0)], nextCursor: null } }
        : { status: 200, body: { items: [summary('pg-data-volume', 8, 3)], nextCursor: 'page-2' } };
    });
    const user = userEvent.setup();
    window.history.replaceState(null, '', '/history');
    render(<HistoryPage />);
    const table = await screen.findByRole('table', { name: '1 series, most recently active first' });
    expect(within(table).getByRole('link', { name: 'pg-data-volume' }).getAttribute('href')).toBe(
      '/history/pg-data-volume',
    );
    const [, row] = within(table).getAllByRole('row');
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['8', '3', '2026-11-16 10:00 UTC feature/xfs-nobarrier @ dead0001']);
    await user.click(screen.getByRole('button', { name: 'Show 50 more series' }));
    const both = await screen.findByRole('table', { name: '2 series, most recently active first' });
    expect(within(both).getAllByRole('row')).toHaveLength(3);
    expect(within(both).getByText('none labelled')).toBeDefined();
    // The counts come from the server: the page never scans the archive's runs.
    expect(fetch.mock.calls.map(([u]) => String(u))).toEqual([
      '/api/series?limit=50',
      '/api/series?limit=50&cursor=page-2',
    ]);
  });

  it('says how to make a series when there is none', async () => {
    serve((url) =>
      url.pathname === '/api/series' ? { status: 200, body: { items: [], nextCursor: null } } : null,
    );
    render(<HistoryPage />);
    expect(await screen.findByText('No CI series yet')).toBeDefined();
    expect(screen.getByText(/--series pg-data-volume --branch main/)).toBeDefined();
  });
});
