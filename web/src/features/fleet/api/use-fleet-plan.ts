import { queryOptions } from '@tanstack/react-query';
import { useApiQuery } from '../../../lib/query.ts';
import { getFleetPlan, type StoredFleetPlan } from './fleet-api.ts';

/** A stored fleet plan (share link), validated against FleetPlanSchema. */
export const fleetPlanQuery = (id: string) =>
  queryOptions({
    queryKey: ['fleet-plan', id] as const,
    queryFn: ({ signal }): Promise<StoredFleetPlan> => getFleetPlan(id, signal),
  });

export function useStoredFleetPlan(id: string) {
  return useApiQuery(fleetPlanQuery(id));
}
