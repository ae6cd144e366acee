import { createHash } from 'node:crypto';
import express, { Router } from 'express';
import { FioReportSchema } from '@blockwise/shared/fio';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { buildComparison, type ComparisonRun } from '@blockwise/shared/analysis';
import { baseUrl, comparisonUrl, type RouteContext } from '../../context.ts';
import { HttpError, problemCode } from '../../http/errors.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { mediaTypeOf } from '../../http/read-body.ts';
import { isValidId } from '../../store/ids.ts';
import { StoredRecordError, runWithReportOf } from '../../store/records.ts';
import type { ComparisonRecords, RunRecords, Run as StoredRun } from '../../store/run-store.ts';
import { toComparison } from '../../presenters/comparison.ts';
import { currentAnalysis } from '../../services/current-analysis.ts';
import { methodNotAllowed, storeCall } from '../../http/route-helpers.ts';
import { comparisonsValidators } from '../validators.ts';

/** A strong ETag of one comparison body: the analysis version, then a digest of the bytes. */
const comparisonEtag = (body: string): string =>
  `"analysis-${ANALYSIS_VERSION}-${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/**
 * A stored run as a comparison reads it, under today's rules: a run of an earlier analysis version
 * is analyzed again from its raw bytes (currentAnalysis), so a new comparison never freezes an
 * earlier version's numbers under today's version.
 */
async function comparisonRunOf(ctx: RouteContext<RunRecords>, stored: StoredRun): Promise<ComparisonRun> {
  if (stored.analysisVersion === ANALYSIS_VERSION) {
    const { id, labels, report, summary } = runWithReportOf(stored);
    return { id, labels, report, summary };
  }
  const current = await currentAnalysis(ctx, stored, {
    reportJson: JSON.stringify(stored.report),
    summaryJson: JSON.stringify(stored.summary),
  });
  const report = FioReportSchema.safeParse(JSON.parse(current.reportJson));
  if (!report.success)
    throw new StoredRecordError(
      `run ${stored.id}`,
      `report: ${report.error.issues[0]?.message ?? 'invalid'}`,
    );
  return { id: stored.id, labels: stored.labels, report: report.data, summary: current.summary };
}

/**
 * Share links. A comparison is computed once, here, and frozen: the stored result (with the price
 * table's date and the analysis version) is what every later GET returns, whatever happens to
 * prices, rules or code afterwards.
 */
export function comparisonsRouter(ctx: RouteContext<RunRecords & ComparisonRecords>): Router {
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
    comparisonsValidators.create,
    async (req, res) => {
      const body = comparisonsValidators.create.values(req).body;
      const { title, runIds } = body;
      // A session stored from now on always holds its replay marks (none when the client sent
      // none): an absent field then means only "stored before the marks were kept", and a client
      // naming a run at saturation as its profile is answered with the plan it chose.
      const plan = body.plan ? { ...body.plan, replaysLoad: body.plan.replaysLoad ?? [] } : body.plan;
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
        runs.push(await comparisonRunOf(ctx, run));
      }
      // A share link is read in the web app: its warnings name the page's controls (settingHint).
      const result = buildComparison(runs, plan ?? null, { audience: 'web' });
      if (!result.ok)
        throw new HttpError(422, problemCode(result.error.code), result.error.message, result.error.path);
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
      if (!stored.ok)
        throw new HttpError(422, problemCode(stored.error.code), stored.error.message, stored.error.path);
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
    // The comparison is frozen, but its JSON is what this release reads it as: fields added since
    // are derived on reading (rate caps from older settings' text, withRateCaps), without a new
    // analysis version. A year-long immutable copy would leave a browser reading a pre-upgrade body
    // with today's web app, so caches revalidate (as GET /api/runs/:id does) against an ETag that
    // names the analysis version and the bytes: any change of representation is a new tag.
    const body = JSON.stringify(toComparison(baseUrl(ctx), c));
    res.setHeader('Cache-Control', 'public, no-cache');
    res.setHeader('ETag', comparisonEtag(body));
    if (req.fresh) return void res.status(304).end();
    res.type('json').send(body);
  });

  router.all('/api/comparisons/:id', methodNotAllowed('GET, HEAD'));
  router.all('/api/comparisons', methodNotAllowed('POST'));
  return router;
}
