import type {
  RunListItem,
  RunRegression,
  SeriesListItem,
  SeriesSettingsResponse,
} from '@blockwise/shared/api';
import {
  queryOptions,
  useInfiniteQuery,
  useQueries,
  useQueryClient,
  type UseQueryResult,
} from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import {
  describeApiError,
  getRunRegression,
  getSeriesSettings,
  listSeries,
  listSeriesRuns,
} from '../../../lib/api-client.ts';
import { errorCode, useApiQuery } from '../../../lib/query.ts';

/**
 * The CI history's data: the archive's series (GET /api/series), one series' runs page by page,
 * its settings, and regression reports fetched lazily — a few at a time, for the runs on screen only.
 */

export type PagedState<T = RunListItem> = {
  status: 'loading' | 'ready' | 'error';
  items: T[];
  nextCursor: string | null;
  error: string | null;
  /** Pages fetched so far. */
  pages: number;
};

type Page<T> = { items: T[]; nextCursor: string | null };
/** One "load": up to `pagesPerLoad` server pages, and how many it took. */
type Load<T> = Page<T> & { pages: number };

/**
 * A list fetched page by page (`pagesPerLoad` pages per load), in the server's order, with "load
 * more". A new `key` starts over.
 */
export function usePaged<T>(
  key: string,
  fetchPage: (cursor: string | null, signal: AbortSignal) => Promise<Page<T>>,
  pagesPerLoad = 1,
): PagedState<T> & { more: () => void; retry: () => void } {
  const query = useInfiniteQuery({
    queryKey: ['paged', key, pagesPerLoad],
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam, signal }): Promise<Load<T>> => {
      const items: T[] = [];
      let cursor = pageParam;
      let pages = 0;
      do {
        const page = await fetchPage(cursor, signal);
        items.push(...page.items);
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor && pages < pagesPerLoad);
      return { items, nextCursor: cursor, pages };
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const loads = query.data?.pages ?? [];
  // The cache keeps `data` while it is unchanged: the list keeps its identity between renders.
  const items = useMemo(() => (query.data?.pages ?? []).flatMap((l) => l.items), [query.data]);
  const failed = query.status === 'error' && !query.isFetching;
  return {
    status: failed ? 'error' : query.status === 'pending' || query.isFetchingNextPage ? 'loading' : 'ready',
    items,
    nextCursor: loads.at(-1)?.nextCursor ?? null,
    error: failed ? describeApiError(query.error) : null,
    pages: loads.reduce((sum, l) => sum + l.pages, 0),
    more: () => {
      if (query.hasNextPage && !query.isFetching) void query.fetchNextPage();
    },
    // A failed "more" asks for that page again; a failed first load starts over.
    retry: () => void (loads.length > 0 ? query.fetchNextPage() : query.refetch()),
  };
}

/** Series per page of the series list. */
export const SERIES_LIST_PAGE_SIZE = 50;

/**
 * The archive's series with their counts, most recently active first (GET /api/series: one row
 * per series, whatever the number of runs), 50 per page.
 */
export function useSeriesList() {
  return usePaged<SeriesListItem>('series-list', (cursor, signal) =>
    listSeries({ limit: SERIES_LIST_PAGE_SIZE, ...(cursor ? { cursor } : {}) }, signal),
  );
}

export const SERIES_PAGE_SIZE = 200;

/** One series' runs (optionally one branch), newest first, 200 per page. */
export function useSeriesRuns(series: string, branch: string | null) {
  return usePaged<RunListItem>(`series:${series}|${branch ?? ''}`, (cursor, signal) =>
    listSeriesRuns(
      series,
      { limit: SERIES_PAGE_SIZE, ...(branch ? { branch } : {}), ...(cursor ? { before: cursor } : {}) },
      signal,
    ),
  );
}

/** A series' settings (GET /api/series/:name/settings). */
export const seriesSettingsQuery = (series: string) =>
  queryOptions({
    queryKey: ['series-settings', series] as const,
    queryFn: ({ signal }): Promise<SeriesSettingsResponse> => getSeriesSettings(series, signal),
  });

export function useSeriesSettings(series: string) {
  return useApiQuery(seriesSettingsQuery(series));
}

/**
 * A run's regression report (GET /api/runs/:id/regression): one cache entry for the run page's
 * gate and the history's verdict column, fetched once per tab (the report of a stored run does
 * not change).
 */
export const regressionQuery = (runId: string) =>
  queryOptions({
    queryKey: ['regression', runId] as const,
    queryFn: ({ signal }): Promise<RunRegression> => getRunRegression(runId, signal),
    staleTime: Infinity,
  });

export type RegressionState =
  { status: 'ready'; report: RunRegression } | { status: 'error'; error: string; code: string | null };

/** At most this many report requests at a time. */
export const REGRESSION_CONCURRENCY = 3;

/**
 * Regression reports for `ids` (the runs on screen, bounded by the caller), fetched lazily with at
 * most 3 requests in flight. A report is fetched once per tab (cached); a failure is asked again
 * on the next page view. Ids not in the map yet are pending.
 */
export function useRegressions(ids: readonly string[]): ReadonlyMap<string, RegressionState> {
  const client = useQueryClient();
  // A stored report is cached for the session; a failure from an earlier page view is asked again.
  const [viewStart] = useState(() => Date.now());
  // TanStack Query has no concurrency limit: only the first few unsettled reports are enabled;
  // each one that settles re-renders this hook, which enables the next.
  let slots = REGRESSION_CONCURRENCY;
  const key = ids.join(',');
  // The map keeps its identity until a report settles (useQueries memoizes a stable `combine`).
  const combine = useCallback(
    (results: UseQueryResult<RunRegression>[]) => {
      const wanted = key.split(',');
      const reports = new Map<string, RegressionState>();
      results.forEach((r, i) => {
        if (r.isFetching) return;
        if (r.status === 'success') reports.set(wanted[i]!, { status: 'ready', report: r.data });
        else if (r.status === 'error')
          reports.set(wanted[i]!, {
            status: 'error',
            error: describeApiError(r.error),
            code: errorCode(r.error),
          });
      });
      return reports;
    },
    [key],
  );
  return useQueries({
    queries: ids.map((id) => {
      const query = regressionQuery(id);
      const state = client.getQueryState(query.queryKey);
      const settled =
        state?.fetchStatus === 'idle' &&
        (state.status === 'success' || (state.status === 'error' && state.errorUpdatedAt >= viewStart));
      return { ...query, enabled: !settled && slots-- > 0 };
    }),
    combine,
  });
}
