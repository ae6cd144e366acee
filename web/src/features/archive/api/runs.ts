import type { Run, RunList } from '@blockwise/shared';
import { getRun, listRuns, type RunListFilters } from '../../../lib/api-client.ts';
import { useAsync } from '../../../lib/use-async.ts';

export const PAGE_SIZE = 25;

/** One page of archived runs for the filters and cursor. */
export function useRunList(filters: RunListFilters) {
  const key = JSON.stringify(filters);
  return useAsync<RunList>(`runs:${key}`, (signal) => listRuns({ limit: PAGE_SIZE, ...filters }, signal));
}

export function useRun(id: string) {
  return useAsync<Run>(`run:${id}`, (signal) => getRun(id, signal));
}
