import {
  QueryClient,
  useQuery,
  useQueryClient,
  type QueryClientConfig,
  type QueryKey,
  type UseQueryOptions,
} from '@tanstack/react-query';
import { ApiError, describeApiError } from './api-client.ts';

/**
 * Server state for every page: TanStack Query caches each response by key, shares one request
 * among the components that ask for the same key at once, and retries failures that a retry can
 * mend. The fetchers stay the typed, schema-validating ones in api-client.ts.
 */

/** Attempts after the first one, for failures a retry can mend (network, 5xx). */
export const MAX_RETRIES = 2;

/**
 * Whether a failed request is worth sending again: a 4xx (unknown id, bad input, rate limit) or a
 * response that breaks the contract would fail the same way again; a lost connection or a 5xx may not.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (!(error instanceof ApiError)) return false;
  if (error.code === 'bad_response') return false;
  return error.status === 0 || error.status >= 500;
}

/** The app's query client; tests pass `retryDelay: 0` to keep the same policy without the waits. */
export function createQueryClient(overrides: QueryClientConfig['defaultOptions'] = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        // A tab regaining focus is not a reason to reload a report the user is reading.
        refetchOnWindowFocus: false,
        // Offline, a request fails at once with "the server could not be reached" instead of waiting.
        networkMode: 'always',
        ...overrides.queries,
      },
      ...(overrides.mutations ? { mutations: overrides.mutations } : {}),
    },
  });
}

export type AsyncState<T> =
  | { status: 'loading'; data: null; error: null }
  | { status: 'ready'; data: T; error: null }
  | { status: 'error'; data: null; error: string; code: string | null };

/** The stable `code` of an API failure (`run_not_found`, `store_unavailable`…), for pages to branch on. */
export function errorCode(error: unknown): string | null {
  return typeof error === 'object' && error && 'code' in error
    ? String((error as { code: unknown }).code)
    : null;
}

/**
 * What a resource's query options factory returns (`queryOptions` of TanStack Query): its one key,
 * its fetcher and how long a copy stays fresh. Each resource has one factory (`regressionQuery`,
 * `comparisonQuery`, …, in its feature's `api/` folder), used by every hook and prefetch
 * that reads it, so one resource is one cache entry and one request.
 */
export type ApiQueryOptions<T, K extends QueryKey = QueryKey> = UseQueryOptions<T, Error, T, K>;

/**
 * One server resource, as loading / ready / error states for the page to design.
 * `reload()` forgets the failure and asks again (the page shows loading meanwhile).
 */
export function useApiQuery<T, K extends QueryKey>(
  options: ApiQueryOptions<T, K>,
): AsyncState<T> & { reload: () => void } {
  const client = useQueryClient();
  const query = useQuery(options);
  const reload = () => void client.resetQueries({ queryKey: options.queryKey, exact: true });
  if (query.status === 'success') return { status: 'ready', data: query.data, error: null, reload };
  if (query.status === 'error' && !query.isFetching)
    return {
      status: 'error',
      data: null,
      error: describeApiError(query.error),
      code: errorCode(query.error),
      reload,
    };
  return { status: 'loading', data: null, error: null, reload };
}
