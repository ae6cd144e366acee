import type { Comparison } from '@blockwise/shared/api';
import { getComparison } from '../../../lib/api-client.ts';
import { useApiQuery } from '../../../lib/query.ts';

/** A stored comparison (share link), validated against the contract. */
export function useComparison(id: string) {
  return useApiQuery<Comparison>(`comparison:${id}`, (signal) => getComparison(id, signal));
}
