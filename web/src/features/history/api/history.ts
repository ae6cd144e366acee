import type { RunListItem, RunRegression, SeriesListItem, SeriesSettingsResponse } from '@blockwise/shared';
import {
  describeApiError,
  getRunRegression,
  getSeriesSettings,
  listSeries,
  listSeriesRuns,
} from '../../../lib/api-client.ts';
import { useAsync } from '../../../lib/use-async.ts';
import { useEffect, useRef, useState } from 'react';

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

const INITIAL: PagedState<never> = { status: 'loading', items: [], nextCursor: null, error: null, pages: 0 };

/**
 * A list fetched page by page (`pagesPerLoad` pages per load), in the server's order, with "load
 * more". A new `key` starts over.
 */
export function usePaged<T>(
  key: string,
  fetchPage: (
    cursor: string | null,
    signal: AbortSignal,
  ) => Promise<{ items: T[]; nextCursor: string | null }>,
  pagesPerLoad = 1,
): PagedState<T> & { more: () => void; retry: () => void } {
  const [state, setState] = useState<{ key: string; value: PagedState<T> }>({ key, value: INITIAL });
  const [load, setLoad] = useState<{ key: string; cursor: string | null; attempt: number }>({
    key,
    cursor: null,
    attempt: 0,
  });
  if (state.key !== key) setState({ key, value: INITIAL });
  if (load.key !== key) setLoad({ key, cursor: null, attempt: 0 });

  useEffect(() => {
    if (load.key !== key) return;
    const controller = new AbortController();
    const run = async () => {
      const got: T[] = [];
      let cursor = load.cursor;
      let pages = 0;
      try {
        do {
          const page = await fetchPage(cursor, controller.signal);
          got.push(...page.items);
          cursor = page.nextCursor;
          pages += 1;
        } while (cursor && pages < pagesPerLoad);
        if (controller.signal.aborted) return;
        setState((s) =>
          s.key !== key
            ? s
            : {
                key,
                value: {
                  status: 'ready',
                  items: load.cursor ? [...s.value.items, ...got] : got,
                  nextCursor: cursor,
                  error: null,
                  pages: s.value.pages + pages,
                },
              },
        );
      } catch (error) {
        if (controller.signal.aborted) return;
        setState((s) =>
          s.key !== key ? s : { key, value: { ...s.value, status: 'error', error: describeApiError(error) } },
        );
      }
    };
    void run();
    return () => controller.abort();
    // `fetchPage` is a fresh closure each render; `load` says when to fetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [load, key, pagesPerLoad]);

  const value = state.key === key ? state.value : INITIAL;
  return {
    ...value,
    more: () => {
      if (!value.nextCursor) return;
      setState((s) => ({ ...s, value: { ...s.value, status: 'loading', error: null } }));
      setLoad((l) => ({ key, cursor: value.nextCursor, attempt: l.attempt + 1 }));
    },
    retry: () => {
      setState((s) => ({ ...s, value: { ...s.value, status: 'loading', error: null } }));
      setLoad((l) => ({ ...l, key, attempt: l.attempt + 1 }));
    },
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

export function useSeriesSettings(series: string) {
  return useAsync<SeriesSettingsResponse>(`settings:${series}`, (signal) =>
    getSeriesSettings(series, signal),
  );
}

export type RegressionState =
  { status: 'ready'; report: RunRegression } | { status: 'error'; error: string; code: string | null };

/** At most this many report requests at a time. */
export const REGRESSION_CONCURRENCY = 3;

/**
 * Regression reports for `ids` (the runs on screen, bounded by the caller), fetched lazily with at
 * most 3 requests in flight; each report is fetched once per page view. Ids not in the map yet
 * are pending.
 */
export function useRegressions(ids: readonly string[]): ReadonlyMap<string, RegressionState> {
  const [reports, setReports] = useState<ReadonlyMap<string, RegressionState>>(() => new Map());
  const settled = useRef(new Set<string>());
  const key = ids.join(',');
  useEffect(() => {
    const controller = new AbortController();
    const queue = key.split(',').filter((id) => id !== '' && !settled.current.has(id));
    const worker = async () => {
      while (!controller.signal.aborted) {
        const id = queue.shift();
        if (id === undefined) return;
        let value: RegressionState;
        try {
          value = { status: 'ready', report: await getRunRegression(id, controller.signal) };
        } catch (error) {
          if (controller.signal.aborted) return;
          const code =
            typeof error === 'object' && error && 'code' in error
              ? String((error as { code: unknown }).code)
              : null;
          value = { status: 'error', error: describeApiError(error), code };
        }
        if (controller.signal.aborted) return;
        settled.current.add(id);
        setReports((m) => new Map(m).set(id, value));
      }
    };
    for (let i = 0; i < REGRESSION_CONCURRENCY; i++) void worker();
    return () => controller.abort();
  }, [key]);
  return reports;
}
