import {
  MAX_UPLOAD_BYTES,
  fitsUploadLimit,
  CreatedFleetPlanSchema,
  StoredFleetPlanResponseSchema,
  type CreateFleetPlanBody,
  type CreatedFleetPlan,
  type StoredFleetPlanResponse,
} from '@blockwise/shared/api';
import { IdSchema } from '@blockwise/shared/records';
import { ApiError, request } from '../../../lib/api-client.ts';

/**
 * The fleet plan share links: POST /api/fleet/plans and GET /api/fleet/plans/:id. Responses are
 * validated with the shared schemas (shared/src/api/fleet.ts) the server answers with.
 */

export type StoredFleetPlan = StoredFleetPlanResponse;
export type { CreatedFleetPlan };

export const fleetApiPaths = {
  plans: '/api/fleet/plans',
  plan: (id: string) => `/api/fleet/plans/${encodeURIComponent(id)}`,
};

const MiB = 1024 * 1024;

/**
 * The server refuses a fleet body over MAX_UPLOAD_BYTES (measured after decompression, as the
 * JSON text it parses) with a 413: about 88 volumes of 14 days of 5-minute points. Said here,
 * before the upload, with the way out: the CLI plans any size locally.
 */
export function fleetBodyProblem(bodyBytes: number): string | null {
  if (fitsUploadLimit(bodyBytes)) return null;
  return `This fleet is too large to save and share: its files make a ${Math.ceil(bodyBytes / MiB)} MiB request and the server accepts at most ${MAX_UPLOAD_BYTES / MiB} MiB. The plan above is complete; for a document to share, run \`blockwise fleet plan --volumes volumes.json --metrics … --format markdown\` on the same files.`;
}

/** The UTF-8 size of the JSON text the POST would send. */
const jsonBodyBytes = (text: string) => new TextEncoder().encode(text).length;

export function createFleetPlan(body: CreateFleetPlanBody, signal?: AbortSignal): Promise<CreatedFleetPlan> {
  const text = JSON.stringify(body);
  const problem = fleetBodyProblem(jsonBodyBytes(text));
  if (problem) return Promise.reject(new ApiError(413, 'too_large', problem));
  return request(CreatedFleetPlanSchema, fleetApiPaths.plans, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: text,
    signal: signal ?? null,
  });
}

export function getFleetPlan(id: string, signal?: AbortSignal): Promise<StoredFleetPlan> {
  if (!IdSchema.safeParse(id).success)
    return Promise.reject(new ApiError(404, 'fleet_plan_not_found', `"${id}" is not a valid fleet plan id.`));
  return request(StoredFleetPlanResponseSchema, fleetApiPaths.plan(id), { signal: signal ?? null });
}
