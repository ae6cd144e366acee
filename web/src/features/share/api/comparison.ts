import type { Comparison } from '@blockwise/shared/api';
import { getComparison } from '../../../lib/api-client.ts';
import { useApiQuery } from '../../../lib/query.ts';

/** The query key of a stored comparison: one entry, read by the page and filled before it (App). */
export const comparisonKey = (id: string) => `comparison:${id}`;

/** A stored comparison (share link), validated against the contract. */
export function useComparison(id: string) {
  // Share links are immutable: the comparison preloaded before the first render is not fetched again.
  return useApiQuery<Comparison>(comparisonKey(id), (signal) => getComparison(id, signal), {
    immutable: true,
  });
}
