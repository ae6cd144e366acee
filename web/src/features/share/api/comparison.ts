import { queryOptions } from '@tanstack/react-query';
import { getComparison } from '../../../lib/api-client.ts';
import { useApiQuery } from '../../../lib/query.ts';

/**
 * A stored comparison (share link): its one cache entry, read by the page and filled before it
 * (App's preload). Share links are immutable: a copy in the cache is never asked for again.
 */
export const comparisonQuery = (id: string) =>
  queryOptions({
    queryKey: ['comparison', id] as const,
    queryFn: ({ signal }) => getComparison(id, signal),
    staleTime: Infinity,
  });

/** A stored comparison (share link), validated against the contract. */
export function useComparison(id: string) {
  return useApiQuery(comparisonQuery(id));
}
