import type { Comparison } from '@blockwise/shared';
import { getComparison } from '../../../lib/api-client.ts';
import { useAsync } from '../../../lib/use-async.ts';

/** A stored comparison (share link), validated against the contract. */
export function useComparison(id: string) {
  return useAsync<Comparison>(`comparison:${id}`, (signal) => getComparison(id, signal));
}
