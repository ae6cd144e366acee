import { useApiQuery } from '../../../lib/query.ts';
import { getFleetPlan, type StoredFleetPlan } from './fleet-api.ts';

/** A stored fleet plan (share link), validated against FleetPlanSchema. */
export function useStoredFleetPlan(id: string) {
  return useApiQuery<StoredFleetPlan>(`fleet-plan:${id}`, (signal) => getFleetPlan(id, signal));
}
