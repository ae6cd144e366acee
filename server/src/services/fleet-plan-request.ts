import {
  FLEET_DEFAULTS,
  FleetPlanSchema,
  MAX_FLEET_PLAN_TO_REQUEST,
  FLEET_PLAN_BYTES_SLACK,
  addMetricData,
  checkFleetRequestSize,
  concurrencyGroupsOf,
  createFleetMetrics,
  maxFleetPlanBytes,
  parseFleetInstances,
  parseFleetVolumes,
  planFleet,
  type FleetPlan,
} from '@blockwise/shared/fleet';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import type { Problem } from '@blockwise/shared/problem';
import { fleetCatalogFor } from '@blockwise/shared/analysis';
import { CreateFleetPlanBodySchema, type CreateFleetPlanBody } from '@blockwise/shared/api';
import { HttpError, problemCode, problemError } from '../http/errors.ts';
import { parsePart } from '../http/validate.ts';
import { fleetPlanDocumentOf, fleetPlanIdempotencyKey } from '../store/fleet-plan-document.ts';
import type { FleetPlanDocument } from '../store/run-store.ts';

/**
 * What a fleet plan request becomes before it is stored (in a worker thread: ParsePool.planFleet):
 * the plan serialized and compressed, with the request's idempotency key — or the client's error.
 */
export type PlannedFleetRequest =
  | { ok: true; document: FleetPlanDocument; idempotencyKey: string }
  | { ok: false; status: number; problem: Problem };

/** A parser's problem as the client's 4xx, its path prefixed with the body field it came from. */
function fieldProblem(field: string, problem: Problem): HttpError {
  const path = problem.path ? `${field}.${problem.path}` : field;
  const message = problem.message.startsWith(`${field}:`) ? problem.message : `${field}: ${problem.message}`;
  return problemError({ ...problem, message, path });
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `the body is not JSON: ${(error as Error).message}`);
  }
}

/**
 * The plan of a request body, computed by the shared planner exactly as the web page and
 * `blockwise fleet plan` compute it. Expected failures (a file that is not the CLI output it
 * should be, a region without prices) are 4xx naming the field.
 */
function planFromBody(body: CreateFleetPlanBody): FleetPlan {
  const volumes = parseFleetVolumes(body.volumes);
  if (!volumes.ok) throw fieldProblem('volumes', volumes.error);
  // File by file, so a problem names the response it is in (`metrics.2.MetricDataResults.0.Label`).
  const metrics = createFleetMetrics();
  const concurrency = concurrencyGroupsOf(volumes.value);
  for (const [i, file] of body.metrics.entries()) {
    const added = addMetricData(metrics, file, {
      fileName: `metrics.${i}`,
      volumeIds: volumes.value.map((v) => v.volumeId),
      concurrency,
    });
    if (!added.ok) throw fieldProblem(`metrics.${i}`, added.error);
  }
  let instances;
  if (body.instances !== undefined) {
    const parsed = parseFleetInstances(body.instances);
    if (!parsed.ok) throw fieldProblem('instances', parsed.error);
    instances = parsed.value;
  }
  const catalog = fleetCatalogFor(body.region ?? FLEET_DEFAULTS.region);
  if (!catalog.ok) throw problemError(catalog.error);
  return planFleet({
    volumes: volumes.value,
    metrics,
    ...(instances ? { instances } : {}),
    catalog: catalog.value,
    headroom: body.headroom ?? FLEET_DEFAULTS.headroom,
    statistic: body.statistic ?? FLEET_DEFAULTS.statistic,
    region: catalog.value.rateCard.region,
    ...(body.ignoreRecurring === true ? { ignoreRecurring: true } : {}),
    ...(body.audience !== undefined ? { audience: body.audience } : {}),
  });
}

/**
 * The plan as stored: checked against FleetPlanSchema (a number the planner made non-finite would
 * become null in JSON and break every reader: refused naming it, though the input bounds of
 * shared/src/fleet/limits.ts should leave none), serialized, bounded, compressed.
 */
function documentOf(plan: FleetPlan, requestBytes: number): FleetPlanDocument {
  const parsed = FleetPlanSchema.safeParse(plan);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['plan', ...(issue?.path ?? [])].map(String).join('.');
    throw new HttpError(
      422,
      problemCode('fleet_plan_invalid'),
      `${path}: ${issue?.message ?? 'invalid'} (a number out of range in the request: check its sizes, IOPS and metric values)`,
      path,
    );
  }
  const json = Buffer.from(JSON.stringify(parsed.data));
  const limit = maxFleetPlanBytes(requestBytes);
  if (json.length > limit)
    throw new HttpError(
      422,
      problemCode('fleet_plan_too_large'),
      `the plan of this ${requestBytes}-byte request would take ${json.length} bytes to store, more than ${MAX_FLEET_PLAN_TO_REQUEST} × the request + ${FLEET_PLAN_BYTES_SLACK} (${limit}); a real request carries the CloudWatch points of its volumes, which take far more room than their plan`,
    );
  return fleetPlanDocumentOf(json, parsed.data.priceDate);
}

/**
 * One POST /api/fleet/plans body (decompressed bytes) → its stored document, or the client's
 * error. Pure CPU work without I/O: it runs in the parse pool's workers, so neither the JSON
 * parse of a 50 MB body nor planning 10,000 volumes nor serializing their plan holds the event
 * loop (issue 24: 9.0 s of `/healthz` silence for 150,000 volumes when it did).
 */
export function planFleetRequest(bytes: Uint8Array): PlannedFleetRequest {
  try {
    const body = parsePart('body', CreateFleetPlanBodySchema, parseJson(bytes));
    const size = checkFleetRequestSize(body);
    if (!size.ok) throw problemError(size.error);
    const document = documentOf(planFromBody(body), bytes.length);
    return {
      ok: true,
      document,
      idempotencyKey: fleetPlanIdempotencyKey(bytes, ANALYSIS_VERSION, document.priceDate),
    };
  } catch (error) {
    if (error instanceof HttpError) return { ok: false, status: error.status, problem: error.toProblem() };
    throw error;
  }
}
