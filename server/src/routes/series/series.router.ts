import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { RunRegression, SeriesList } from '@blockwise/shared/api';
import { checkRegression } from '@blockwise/shared/history';
import { baseUrl, comparisonUrl, pairComparisonUrl, runUrl, type RouteContext } from '../../context.ts';
import { HttpError, problemError } from '../../http/errors.ts';
import { rateLimit, writeLimits } from '../../http/rate-limit.ts';
import { mediaTypeOf } from '../../http/read-body.ts';
import { isValidId } from '../../store/ids.ts';
import { pageOrThrow, storeCall } from '../../http/route-helpers.ts';
import { seriesValidators } from '../validators.ts';
import { toListItem, toListPage } from '../../presenters/run.ts';
import { toRegressionRun, toSeriesSettings } from '../../presenters/series.ts';
import { escapeHtml } from '../../presenters/escape-html.ts';
import {
  findFrozenPair,
  freezeBaselineComparison,
  type FrozenPair,
  readGate,
  storedLabels,
  type GateRecords,
} from '../../services/regression-gate.ts';

/**
 * CI benchmark history and the storage regression gate:
 *
 * - `GET /api/series` — the series with their counts, most recently active first (series_stats);
 * - `GET|PUT /api/series/:series/settings` — how a series is judged (SeriesConfigSchema);
 * - `GET /api/series/:series/runs` — its history, newest first (index (series, branch, created_at, id));
 * - `GET /api/runs/:id/regression` — a run against the latest runs of its base branch (read-only);
 * - `GET /c/pair/:baselineId/:runId` — the comparison of a run with its latest baseline, the
 *   regression check's link: frozen the first time it is opened, then 303 to its share link.
 *
 * A series is just a label: the first upload that names it creates it, and an unknown series has
 * an empty history and the default settings. Names with `/` travel URL-encoded (`team%2Fpg`).
 */

/** 405 with Allow for the series resources (they are not immutable, unlike runs: say only what is allowed). */
const allowOnly =
  (allow: string): RequestHandler =>
  (req, res, next) => {
    if (allow.split(', ').includes(req.method)) return next();
    res.setHeader('Allow', allow);
    next(new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here (allowed: ${allow})`));
  };

/** An error of the /c/pair link, for its error handler (a page for people, JSON for programs). */
class PairLinkError extends Error {
  constructor(readonly error: HttpError) {
    super(error.message);
  }
}

/** What a person who opened a /c/pair link sees when it leads nowhere. */
function pairLinkErrorHtml(error: HttpError): string {
  const title =
    error.status === 404
      ? 'No comparison at this link'
      : error.status === 503
        ? 'The comparison cannot be made right now'
        : 'This comparison cannot be made';
  const retry = error.status === 503 ? ' Reload the page in a few seconds.' : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} — Blockwise</title></head><body><h1>${title}</h1><p>${escapeHtml(error.message)}.${retry}</p><p><a href="/history">CI history</a> · <a href="/runs">The archive</a></p></body></html>`;
}

export function seriesRouter(ctx: RouteContext<GateRecords>): Router {
  const router = Router();
  const reads = rateLimit(ctx.limiters.reads);
  const notFound = rateLimit(ctx.limiters.notFound);
  const { writeLimit } = writeLimits(ctx.limiters);
  const json = express.json({ limit: '16kb', strict: true, type: () => true });

  router.get('/api/series', ctx.tokens.middleware(true), reads, seriesValidators.list, async (req, res) => {
    const q = seriesValidators.list.values(req).query;
    const page = pageOrThrow(
      await storeCall(() => ctx.store.listSeries({ limit: q.limit, cursor: q.cursor })),
    );
    const base = baseUrl(ctx);
    const body: SeriesList = {
      items: page.items.map((s) => ({
        series: s.series,
        runCount: s.runCount,
        branchCount: s.branchCount,
        latestRun: toListItem(base, s.latestRun),
      })),
      nextCursor: page.nextCursor,
    };
    res.json(body);
  });

  router.get('/api/series/:series/settings', reads, seriesValidators.settings, async (req, res) => {
    const { series } = seriesValidators.settings.values(req).params;
    const stored = await storeCall(() => ctx.store.getSeriesSettings(series));
    res.json(toSeriesSettings(series, stored));
  });

  router.put(
    '/api/series/:series/settings',
    ctx.tokens.middleware(true),
    writeLimit,
    (req, _res, next) => {
      if (mediaTypeOf(req) !== 'application/json') {
        req.resume();
        return next(new HttpError(415, 'unsupported_media_type', 'send the settings as application/json'));
      }
      next();
    },
    json,
    seriesValidators.putSettings,
    async (req, res) => {
      const { series } = seriesValidators.putSettings.values(req).params;
      // What the team wrote is stored, not the filled-in defaults: a field they never set keeps
      // following the defaults of later versions.
      const stored = await storeCall(() => ctx.store.putSeriesSettings(series, req.body as object));
      res.json(toSeriesSettings(series, stored));
    },
  );

  router.get(
    '/api/series/:series/runs',
    ctx.tokens.middleware(true),
    reads,
    seriesValidators.runs,
    async (req, res) => {
      const { params, query: q } = seriesValidators.runs.values(req);
      const { series } = params;
      const page = pageOrThrow(
        await storeCall(() =>
          ctx.store.listSeriesRuns({ series, branch: q.branch, limit: q.limit, before: q.before }),
        ),
      );
      res.json(toListPage(baseUrl(ctx), page));
    },
  );

  router.get('/api/runs/:id/regression', ctx.tokens.middleware(true), reads, async (req, res, next) => {
    const id = String(req.params.id);
    // Without the report (MBs for a many-job file): the check reads labels and summaries only.
    const run = isValidId(id) ? await storeCall(() => ctx.store.getRunMeta(id)) : null;
    if (!run)
      return notFound(req, res, (err?: unknown) =>
        next(err ?? new HttpError(404, 'run_not_found', 'no run with this id')),
      );
    const series = storedLabels(run).series;
    if (!series)
      throw new HttpError(
        422,
        'no_series',
        'this run has no series label, so it has no history to be compared with: upload it with --series NAME --branch B --commit C',
        'labels.series',
      );
    // Read-only, on every replica alike. The comparison it links is frozen when the link is first
    // opened (GET /c/pair/…); a pair frozen already — at upload, by an earlier version — is linked
    // as it is.
    const gate = await readGate(ctx, run, series);
    const base = baseUrl(ctx);
    const report = checkRegression(
      toRegressionRun(base, run),
      gate.baseline.map((m) => toRegressionRun(base, m)),
      gate.config,
    );
    report.notes.push(...gate.notes);
    const latest = gate.baseline[0];
    const frozen = latest ? await findFrozenPair(ctx, latest.id, run.id) : null;
    const link = frozen
      ? comparisonUrl(base, frozen)
      : latest
        ? pairComparisonUrl(base, latest.id, run.id)
        : null;
    const body: RunRegression = {
      ...report,
      runUrl: runUrl(base, run.id),
      comparisonUrl: link,
    };
    res.json(body);
  });

  // A link for people (a PR comment, the history page), public like the share link it leads to:
  // the two run ids are its capability, and only the run's latest baseline under today's series
  // settings makes a pair, so each run has at most one comparison made this way.
  const pairIds = (req: express.Request) => {
    const baselineId = String(req.params.baselineId);
    const runId = String(req.params.runId);
    return isValidId(baselineId) && isValidId(runId) ? { baselineId, runId } : null;
  };
  const toFrozen = (res: express.Response, comparisonId: string) => {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(303, comparisonUrl(baseUrl(ctx), comparisonId));
  };
  // HEAD (link checkers, previews) never builds: the comparison if it is frozen, else only that
  // the link answers.
  router.head('/c/pair/:baselineId/:runId', reads, async (req, res) => {
    const ids = pairIds(req);
    const frozen = ids ? await findFrozenPair(ctx, ids.baselineId, ids.runId) : null;
    if (frozen) return toFrozen(res, frozen);
    res.setHeader('Cache-Control', 'no-store');
    res
      .status(ids ? 200 : 404)
      .type('html')
      .end();
  });
  router.get('/c/pair/:baselineId/:runId', reads, async (req, res, next) => {
    const ids = pairIds(req);
    // Frozen already (the usual case after the first opening): no run is read.
    const frozen = ids ? await findFrozenPair(ctx, ids.baselineId, ids.runId) : null;
    if (frozen) return toFrozen(res, frozen);
    const failed = (error: HttpError) => next(new PairLinkError(error));
    let made: FrozenPair;
    try {
      made = ids
        ? await freezeBaselineComparison(ctx, ids.baselineId, ids.runId)
        : { ok: false, notFound: { code: 'run_not_found', message: 'no run with this id', path: 'runId' } };
    } catch (error) {
      // A full parse pool or an unavailable archive (503): a page that says to retry.
      if (error instanceof HttpError) return failed(error);
      throw error;
    }
    if (made.ok) return toFrozen(res, made.comparisonId);
    if (made.problem) return failed(problemError(made.problem));
    // Counted against the unknown-id limit, as every 404 of an id is.
    const { code, message, path } = made.notFound;
    return notFound(req, res, (err?: unknown) =>
      err ? next(err) : failed(new HttpError(404, code, message, path)),
    );
  });
  // Its errors reach a person who followed a link: a page saying why, unless JSON is asked for.
  router.use('/c/pair', ((err, req, res, next) => {
    if (!(err instanceof PairLinkError)) return next(err);
    if (req.accepts(['json', 'html']) !== 'html') return next(err.error);
    res.setHeader('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(err.error.headers)) res.setHeader(name, value);
    res.status(err.error.status).type('html').send(pairLinkErrorHtml(err.error));
  }) as ErrorRequestHandler);

  router.all('/api/series', allowOnly('GET, HEAD'));
  router.all('/api/series/:series/settings', allowOnly('GET, HEAD, PUT'));
  router.all('/api/series/:series/runs', allowOnly('GET, HEAD'));
  router.all('/api/runs/:id/regression', allowOnly('GET, HEAD'));
  router.all('/c/pair/:baselineId/:runId', allowOnly('GET, HEAD'));
  return router;
}
