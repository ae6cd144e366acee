import type { Run, RunList } from '@blockwise/shared/api';
import { getRun, listRuns, type RunListFilters } from '../../../lib/api-client.ts';
import { useApiQuery } from '../../../lib/query.ts';

export const PAGE_SIZE = 25;

/** One page of archived runs for the filters and cursor. */
export function useRunList(filters: RunListFilters) {
  const key = JSON.stringify(filters);
  return useApiQuery<RunList>(`runs:${key}`, (signal) => listRuns({ limit: PAGE_SIZE, ...filters }, signal));
}

export function useRun(id: string) {
  return useApiQuery<Run>(`run:${id}`, (signal) => getRun(id, signal));
}
