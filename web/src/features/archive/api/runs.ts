import type { Run, RunList } from '@blockwise/shared/api';
import { queryOptions } from '@tanstack/react-query';
import { getRun, listRuns, type RunListFilters } from '../../../lib/api-client.ts';
import { useApiQuery } from '../../../lib/query.ts';

export const PAGE_SIZE = 25;

/** One page of archived runs for the filters and cursor. */
export const runListQuery = (filters: RunListFilters) =>
  queryOptions({
    queryKey: ['runs', JSON.stringify(filters)] as const,
    queryFn: ({ signal }): Promise<RunList> => listRuns({ limit: PAGE_SIZE, ...filters }, signal),
  });

/** One archived run. */
export const runQuery = (id: string) =>
  queryOptions({ queryKey: ['run', id] as const, queryFn: ({ signal }): Promise<Run> => getRun(id, signal) });

export function useRunList(filters: RunListFilters) {
  return useApiQuery(runListQuery(filters));
}

export function useRun(id: string) {
  return useApiQuery(runQuery(id));
}
