import express, { Router } from 'express';
import {
  ANALYSIS_VERSION,
  CreateComparisonSchema,
  type Comparison,
  type ComparisonResult,
  type PlanSession,
  type RunLabels,
  type RunSummary,
} from '@blockwise/shared';
import { buildComparison, type ComparisonRun } from '@blockwise/shared/catalog';
import { baseUrl, comparisonUrl, type AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { mediaTypeOf } from '../../http/read-body.ts';
import { isValidId } from '../../store/ids.ts';
import type { Comparison as StoredComparison } from '../../store/run-store.ts';
import { methodNotAllowed, storeCall } from '../route-helpers.ts';

export function toComparison(base: string, c: StoredComparison): Comparison {
  return {
    id: c.id,
    url: comparisonUrl(base, c.id),
    createdAt: new Date(c.createdAt).toISOString(),
    title: c.title,
    runIds: c.runIds,
    plan: c.plan as PlanSession | null,
    result: c.result as ComparisonResult,
    priceTableDate: c.priceTableDate,
    analysisVersion: c.analysisVersion,
  };
}

/**
 * Share links. A comparison is computed once, here, and frozen: the stored result (with the price
 * table's date and the analysis version) is what every later GET returns, whatever happens to
 * prices, rules or code afterwards.
 */
export function comparisonsRouter(ctx: AppContext): Router {
  const router = Router();
  const json = express.json({ limit: '1mb', strict: true, type: () => true });
  const writeLimit = rateLimit(ctx.limiters.writesAnonymous, {
    key: (req) => (req.tokenId ? `token:${req.tokenId}` : `ip:${req.ip}`),
  });

  router.post(
    '/api/comparisons',
    ctx.tokens.middleware(true),
    (req, res, next) =>
      req.tokenId ? rateLimit(ctx.limiters.writesToken)(req, res, next) : writeLimit(req, res, next),
    (req, _res, next) => {
      const type = mediaTypeOf(req);
      if (type !== 'application/json') {
        req.resume();
        return next(new HttpError(415, 'unsupported_media_type', 'send the comparison as application/json'));
      }
      next();
    },
    json,
    async (req, res) => {
      const body = CreateComparisonSchema.safeParse(req.body);
      if (!body.success) {
        const issue = body.error.issues[0]!;
        const path = issue.path.join('.');
        throw new HttpError(422, 'body_invalid', `${path || 'body'}: ${issue.message}`, path || undefined);
      }
      const { title, runIds, plan } = body.data;
      if (runIds.length === 0 && !plan)
        throw new HttpError(
          422,
          'body_invalid',
          'runIds: give at least one run, or a plan session',
          'runIds',
        );
      if (new Set(runIds).size !== runIds.length)
        throw new HttpError(422, 'body_invalid', 'runIds: each run at most once', 'runIds');
      const runs: ComparisonRun[] = [];
      for (const [i, id] of runIds.entries()) {
        const run = await storeCall(() => ctx.store.getRun(id));
        if (!run)
          throw new HttpError(422, 'run_not_found', `runIds.${i}: no run with id ${id}`, `runIds.${i}`);
        runs.push({
          id,
          labels: run.labels as RunLabels,
          report: run.report as ComparisonRun['report'],
          summary: run.summary as RunSummary,
        });
      }
      const result = buildComparison(runs, plan ?? null);
      if (!result.ok) throw new HttpError(422, result.error.code, result.error.message, result.error.path);
      const stored = await storeCall(() =>
        ctx.store.insertComparison({
          title: title ?? null,
          runIds,
          plan: plan ?? null,
          result: result.value,
          priceTableDate: result.value.rates.date,
          analysisVersion: ANALYSIS_VERSION,
        }),
      );
      if (!stored.ok) throw new HttpError(422, stored.error.code, stored.error.message, stored.error.path);
      const base = baseUrl(ctx);
      res.status(201).json({ id: stored.value.id, url: comparisonUrl(base, stored.value.id) });
    },
  );

  router.get('/api/comparisons/:id', rateLimit(ctx.limiters.reads), async (req, res, next) => {
    const id = String(req.params.id);
    const c = isValidId(id) ? await storeCall(() => ctx.store.getComparison(id)) : null;
    if (!c)
      return rateLimit(ctx.limiters.notFound)(req, res, (err?: unknown) =>
        next(err ?? new HttpError(404, 'comparison_not_found', 'no comparison with this id')),
      );
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.json(toComparison(baseUrl(ctx), c));
  });

  router.all('/api/comparisons/:id', methodNotAllowed('GET, HEAD'));
  router.all('/api/comparisons', methodNotAllowed('POST'));
  return router;
}
