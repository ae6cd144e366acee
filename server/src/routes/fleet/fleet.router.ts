import { Router, type Request } from 'express';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { baseUrl, type RouteContext, type StorelessContext } from '../../context.ts';
import { HttpError, problemCode } from '../../http/errors.ts';
import { chargeBodyBytes, rateLimit, writeLimits } from '../../http/rate-limit.ts';
import { mediaTypeOf, readRawBody } from '../../http/read-body.ts';
import { busy, type Reservation } from '../../ingest/parse-pool.ts';
import { isValidId } from '../../store/ids.ts';
import type { FleetPlanRecords, StoredFleetPlanRef } from '../../store/run-store.ts';
import { methodNotAllowed, storeCall } from '../../http/route-helpers.ts';
import { sendFleetPlan, type FleetPlanHead } from '../../presenters/fleet-plan.ts';

/** The share page of a stored fleet plan. */
export const fleetPlanUrl = (base: string, id: string) => `${base}/fleet/${id}`;

function headOf(base: string, stored: StoredFleetPlanRef): FleetPlanHead {
  return {
    id: stored.id,
    url: fleetPlanUrl(base, stored.id),
    createdAt: new Date(stored.createdAt).toISOString(),
    analysisVersion: stored.analysisVersion,
  };
}

/**
 * Room in the parse pool for the request, held from before its body is read until its plan is
 * stored (as run uploads: ParsePool), or 503 busy at once without buffering anything. A gzip
 * body declares its compressed length: the room grows with the body as it is inflated.
 */
function admit(ctx: StorelessContext, req: Request): Reservation {
  const declared = Number(req.headers['content-length']);
  const known = Number.isFinite(declared) && declared >= 0;
  const reservation = ctx.pool.reserve(
    known ? Math.min(declared, ctx.config.maxUploadBytes) : ctx.config.maxUploadBytes,
  );
  if (!reservation) {
    req.resume();
    throw busy();
  }
  return reservation;
}

/**
 * Fleet right-sizing share links (issue 17). A plan is computed once, here, from the uploaded
 * AWS CLI outputs, and frozen: every later GET returns the stored document (with its price date
 * and analysis version), whatever happens to prices or rules afterwards. Uploads are limited like
 * run uploads: the body size (after decompression), the write rate and the byte budget.
 */
export function fleetRouter(ctx: RouteContext<FleetPlanRecords>): Router {
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
    const reservation = admit(ctx, req);
    try {
      const bytes = await readRawBody(req, ctx.config.maxUploadBytes, (n) => {
        if (!reservation.grow(n)) throw busy();
      });
      await chargeBodyBytes(bytesLimiter(req), req, bytes.length);
      // Parsing, planning, serializing and compressing: all in a worker (services/fleet-plan-request.ts).
      const planned = await ctx.pool.planFleet(bytes, reservation);
      if (!planned.ok) {
        const { code, message, path } = planned.problem;
        throw new HttpError(planned.status, problemCode(code), message, path);
      }
      const { plan, created } = await storeCall(() =>
        ctx.store.insertFleetPlan({
          document: planned.document,
          analysisVersion: ANALYSIS_VERSION,
          idempotencyKey: planned.idempotencyKey,
          // Checked again when the plan commits: a token revoked while it was planned stores nothing (401).
          tokenId: req.tokenId ?? null,
        }),
      );
      // The same body again (a retry) is the plan stored first: 200 with its link, not a new one.
      const head = headOf(baseUrl(ctx), plan);
      if (created) return sendFleetPlan(req, res, 201, head, planned.document);
      const stored = await storeCall(() => ctx.store.getFleetPlanDocument(plan.id));
      if (!stored) throw new Error(`fleet plan ${plan.id} vanished after its insert conflicted`);
      return sendFleetPlan(req, res, 200, head, stored.body);
    } finally {
      reservation.release();
    }
  });

  router.get('/api/fleet/plans/:id', rateLimit(ctx.limiters.reads), async (req, res, next) => {
    const id = String(req.params.id);
    const stored = isValidId(id) ? await storeCall(() => ctx.store.getFleetPlanDocument(id)) : null;
    if (!stored)
      return rateLimit(ctx.limiters.notFound)(req, res, (err?: unknown) =>
        next(err ?? new HttpError(404, 'fleet_plan_not_found', 'no fleet plan with this id')),
      );
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    return sendFleetPlan(req, res, 200, headOf(baseUrl(ctx), stored), stored.body);
  });

  router.all('/api/fleet/plans/:id', methodNotAllowed('GET, HEAD'));
  router.all('/api/fleet/plans', methodNotAllowed('POST'));
  return router;
}
