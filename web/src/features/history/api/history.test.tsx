import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestQueryProvider } from '../../../test/query-client.tsx';
import { fixtureReport } from '../../../test/fixtures.ts';
import { regressionOf, seriesHistory } from '../history-fixtures.ts';
import { useApiQuery } from '../../../lib/query.ts';
import { REGRESSION_CONCURRENCY, regressionQuery, useRegressions } from './history.ts';

afterEach(() => vi.unstubAllGlobals());

const items = seriesHistory(fixtureReport('grouped'));

describe('useRegressions', () => {
  it('fetches each report once, never more than 3 at a time; a 404 is settled, not retried', async () => {
    let inFlight = 0;
    let most = 0;
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(url);
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight -= 1;
        const id = /\/api\/runs\/([^/]+)\/regression$/.exec(url)![1];
        const index = items.findIndex((i) => i.id === id);
        return index === 0
          ? Response.json({ error: { code: 'no_baseline', message: 'first run' } }, { status: 404 })
          : Response.json(regressionOf(items, index));
      }),
    );
    const ids = items.map((i) => i.id);
    const { result } = renderHook(() => useRegressions(ids), { wrapper: TestQueryProvider });
    await waitFor(() => expect(result.current.size).toBe(ids.length));
    expect(most).toBe(REGRESSION_CONCURRENCY);
    expect(calls).toHaveLength(ids.length);
    expect(new Set(calls).size).toBe(ids.length);
    expect(result.current.get(ids[0]!)).toMatchObject({ status: 'error', code: 'no_baseline' });
    expect(result.current.get(ids[1]!)?.status).toBe('ready');
  });
});

describe('a regression report is one resource', () => {
  it("the run page's gate and the history's verdict column for the same run send one request", async () => {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(url);
        const id = /\/api\/runs\/([^/]+)\/regression$/.exec(url)![1];
        return Response.json(
          regressionOf(
            items,
            items.findIndex((i) => i.id === id),
          ),
        );
      }),
    );
    const id = items[3]!.id;
    const { result } = renderHook(
      () => ({ gate: useApiQuery(regressionQuery(id)), column: useRegressions([id]) }),
      { wrapper: TestQueryProvider },
    );
    await waitFor(() => expect(result.current.gate.status).toBe('ready'));
    await waitFor(() => expect(result.current.column.get(id)?.status).toBe('ready'));
    expect(calls).toEqual([`/api/runs/${id}/regression`]);
  });
});
