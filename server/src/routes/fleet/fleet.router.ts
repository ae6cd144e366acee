import { Router } from 'express';
import {
  FLEET_DEFAULTS,
  addMetricData,
  concurrencyGroupsOf,
  createFleetMetrics,
  parseFleetInstances,
  parseFleetVolumes,
  planFleet,
  type FleetPlan,
} from '@blockwise/shared/fleet';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import type { Problem } from '@blockwise/shared/problem';
import { fleetCatalogFor } from '@blockwise/shared/analysis';
import { baseUrl, type AppContext } from '../../context.ts';
import { HttpError, problemError } from '../../http/errors.ts';
import { chargeBodyBytes, rateLimit, writeLimits } from '../../http/rate-limit.ts';
import { mediaTypeOf, readRawBody } from '../../http/read-body.ts';
import { parsePart } from '../../http/validate.ts';
import { isValidId } from '../../store/ids.ts';
import type { StoredFleetPlan } from '../../store/run-store.ts';
import { methodNotAllowed, storeCall } from '../route-helpers.ts';
import { CreateFleetPlanBodySchema, type CreateFleetPlanBody } from '@blockwise/shared/api';

/** The share page of a stored fleet plan. */
export const fleetPlanUrl = (base: string, id: string) => `${base}/fleet/${id}`;

/** A parser's problem as the client's 4xx, its path prefixed with the body field it came from. */
function fieldProblem(field: string, problem: Problem): HttpError {
  const path = problem.path ? `${field}.${problem.path}` : field;
  const message = problem.message.startsWith(`${field}:`) ? problem.message : `${field}: ${problem.message}`;
  return problemError({ ...problem, message, path });
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new HttpError(400, 'invalid_json', `the body is not JSON: ${(error as Error).message}`);
  }
}

/** The body is read raw (gzip, byte budget), so it goes through the validator's parser here. */
function readBody(json: unknown): CreateFleetPlanBody {
  return parsePart('body', CreateFleetPlanBodySchema, json);
}

/**
 * The plan of a request body, computed by the shared planner exactly as the web page and
 * `blockwise fleet plan` compute it. Expected failures (a file that is not the CLI output it
 * should be, a region without prices) are 4xx naming the field.
 */
export function planFromBody(body: CreateFleetPlanBody): FleetPlan {
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
  });
}

function toResponse(base: string, stored: StoredFleetPlan) {
  return {
    id: stored.id,
    url: fleetPlanUrl(base, stored.id),
    createdAt: new Date(stored.createdAt).toISOString(),
    analysisVersion: stored.analysisVersion,
    plan: stored.plan,
  };
}

/**
 * Fleet right-sizing share links (issue 17). A plan is computed once, here, from the uploaded
 * AWS CLI outputs, and frozen: every later GET returns the stored document (with its price date
 * and analysis version), whatever happens to prices or rules afterwards. Uploads are limited like
 * run uploads: the body size (after decompression), the write rate and the byte budget.
 */
export function fleetRouter(ctx: AppContext): Router {
  const router = Router();
  const { writeLimit, bytesLimiter, byteBudget } = writeLimits(ctx.limiters);

  router.post('/api/fleet/plans', ctx.tokens.middleware(true), writeLimit, byteBudget, async (req, res) => {
    const type = mediaTypeOf(req);
    if (type !== 'application/json') {
      req.resume();
      throw new HttpError(
        415,
        'unsupported_media_type',
        `Content-Type ${type ? `"${type}"` : '(missing)'} is not accepted: send the fleet as application/json (gzip allowed)`,
      );
    }
    const bytes = await readRawBody(req, ctx.config.maxUploadBytes);
    await chargeBodyBytes(bytesLimiter(req), req, bytes.length);
    const plan = planFromBody(readBody(parseJson(bytes)));
    const stored = await storeCall(() =>
      ctx.store.insertFleetPlan({ plan, analysisVersion: ANALYSIS_VERSION }),
    );
    const { id, url } = toResponse(baseUrl(ctx), stored);
    res.status(201).json({ id, url, plan: stored.plan });
  });

  router.get('/api/fleet/plans/:id', rateLimit(ctx.limiters.reads), async (req, res, next) => {
    const id = String(req.params.id);
    const stored = isValidId(id) ? await storeCall(() => ctx.store.getFleetPlan(id)) : null;
    if (!stored)
      return rateLimit(ctx.limiters.notFound)(req, res, (err?: unknown) =>
        next(err ?? new HttpError(404, 'fleet_plan_not_found', 'no fleet plan with this id')),
      );
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.json(toResponse(baseUrl(ctx), stored));
  });

  router.all('/api/fleet/plans/:id', methodNotAllowed('GET, HEAD'));
  router.all('/api/fleet/plans', methodNotAllowed('POST'));
  return router;
}
