import express, { Router, type Request, type RequestHandler } from 'express';
import {
  ANALYSIS_VERSION,
  SeriesConfigSchema,
  SeriesNameSchema,
  SeriesRunsQuerySchema,
  checkRegression,
  defaultSeriesConfig,
  pickBaseBranch,
  type RegressionRun,
  type RunLabels,
  type RunRegression,
  type RunSummary,
  type SeriesConfig,
  type SeriesSettingsResponse,
} from '@blockwise/shared';
import { buildComparison, type ComparisonRun } from '@blockwise/shared/catalog';
import { baseUrl, comparisonUrl, runUrl, type AppContext } from '../../context.ts';
import { HttpError } from '../../http/errors.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { mediaTypeOf } from '../../http/read-body.ts';
import { cursorForRun } from '../../store/cursor.ts';
import { isValidId } from '../../store/ids.ts';
import type { Run, RunMeta, SeriesSettings } from '../../store/run-store.ts';
import { pageOrThrow, parseQuery, storeCall } from '../route-helpers.ts';
import { toListItem, toListPage } from '../runs/runs.router.ts';

/**
 * CI benchmark history and the storage regression gate:
 *
 * - `GET|PUT /api/series/:series/settings` — how a series is judged (SeriesConfigSchema);
 * - `GET /api/series/:series/runs` — its history, newest first (index (series, branch, created_at, id));
 * - `GET /api/runs/:id/regression` — a run against the latest runs of its base branch.
 *
 * A series is just a label: the first upload that names it creates it, and an unknown series has
 * an empty history and the default settings. Names with `/` travel URL-encoded (`team%2Fpg`).
 */

/** How many comparison links the gate remembers (content → id) so repeated checks reuse them. */
const COMPARISON_MEMO_SIZE = 2000;

function seriesParam(req: Request): string {
  const parsed = SeriesNameSchema.safeParse(req.params.series);
  if (!parsed.success)
    throw new HttpError(
      400,
      'query_invalid',
      `series: ${parsed.error.issues[0]?.message ?? 'not a series name'}`,
      'series',
    );
  return parsed.data;
}

/**
 * The configuration in force: what was stored, read with today's schema. A stored document that
 * no longer validates (written by another version) must not take the gate down: the defaults
 * apply and the reason is reported.
 */
function effectiveConfig(stored: SeriesSettings | null): { config: SeriesConfig; problem: string | null } {
  if (!stored) return { config: defaultSeriesConfig(), problem: null };
  const parsed = SeriesConfigSchema.safeParse(stored.config);
  if (parsed.success) return { config: parsed.data, problem: null };
  const issue = parsed.error.issues[0];
  return {
    config: defaultSeriesConfig(),
    problem: `the stored series settings do not validate (${issue?.path.join('.') || 'config'}: ${issue?.message ?? 'invalid'}); the defaults were used`,
  };
}

function settingsBody(series: string, stored: SeriesSettings | null): SeriesSettingsResponse {
  return {
    series,
    config: effectiveConfig(stored).config,
    stored: stored !== null,
    updatedAt: stored ? new Date(stored.updatedAt).toISOString() : null,
  };
}

/** 405 with Allow for the series resources (they are not immutable, unlike runs: say only what is allowed). */
const allowOnly =
  (allow: string): RequestHandler =>
  (req, res, next) => {
    if (allow.split(', ').includes(req.method)) return next();
    res.setHeader('Allow', allow);
    next(new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here (allowed: ${allow})`));
  };

const regressionRun = (base: string, meta: RunMeta): RegressionRun => {
  const item = toListItem(base, meta);
  return { id: item.id, labels: item.labels, headline: item.headline };
};

const comparisonRun = (run: Run): ComparisonRun => ({
  id: run.id,
  labels: run.labels as RunLabels,
  report: run.report as ComparisonRun['report'],
  summary: run.summary as RunSummary,
});

const shortCommit = (labels: RunLabels) => (labels.commit ? `@${labels.commit.slice(0, 12)}` : '');

export function seriesRouter(ctx: AppContext): Router {
  const router = Router();
  const reads = rateLimit(ctx.limiters.reads);
  const notFound = rateLimit(ctx.limiters.notFound);
  const writeLimit: RequestHandler = (req, res, next) =>
    rateLimit(req.tokenId ? ctx.limiters.writesToken : ctx.limiters.writesAnonymous)(req, res, next);
  const json = express.json({ limit: '16kb', strict: true, type: () => true });

  /**
   * Comparison links are immutable, and the gate's [latest baseline run, this run] pair always
   * yields the same content, so one link per pair is reused instead of a new one per CI retry.
   * In-flight promises are shared, so concurrent checks of one run create one link. The memo is
   * per process (bounded): after a restart an equal comparison is created once more — equal in
   * content, so every link ever printed stays valid.
   */
  const comparisons = new Map<string, Promise<string>>();
  async function comparisonFor(baselineId: string, run: Run, series: string, baseBranch: string) {
    const key = `${ANALYSIS_VERSION}\n${baselineId}\n${run.id}`;
    let pending = comparisons.get(key);
    if (!pending) {
      pending = (async () => {
        const baseline = await storeCall(() => ctx.store.getRun(baselineId));
        if (!baseline) throw new Error(`baseline run ${baselineId} vanished (runs are append-only)`);
        const runs = [comparisonRun(baseline), comparisonRun(run)];
        const result = buildComparison(runs, null);
        if (!result.ok) throw new Error(`comparison of stored runs failed: ${result.error.message}`);
        const labels = run.labels as RunLabels;
        const title = `${series}: ${baseBranch}${shortCommit(baseline.labels as RunLabels)} vs ${labels.branch ?? 'run'}${shortCommit(labels)}`;
        const stored = await storeCall(() =>
          ctx.store.insertComparison({
            title: title.slice(0, 200),
            runIds: runs.map((r) => r.id),
            plan: null,
            result: result.value,
            priceTableDate: result.value.rates.date,
            analysisVersion: ANALYSIS_VERSION,
          }),
        );
        if (!stored.ok) throw new Error(`comparison of stored runs refused: ${stored.error.message}`);
        return stored.value.id;
      })();
      comparisons.set(key, pending);
      pending.catch(() => comparisons.delete(key));
      if (comparisons.size > COMPARISON_MEMO_SIZE) {
        const oldest = comparisons.keys().next().value;
        if (oldest !== undefined) comparisons.delete(oldest);
      }
    }
    return pending;
  }

  router.get('/api/series/:series/settings', reads, async (req, res) => {
    const series = seriesParam(req);
    const stored = await storeCall(() => ctx.store.getSeriesSettings(series));
    res.json(settingsBody(series, stored));
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
    async (req, res) => {
      const series = seriesParam(req);
      const parsed = SeriesConfigSchema.safeParse(req.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const path = issue.path.join('.');
        throw new HttpError(422, 'body_invalid', `${path || 'body'}: ${issue.message}`, path || undefined);
      }
      // What the team wrote is stored, not the filled-in defaults: a field they never set keeps
      // following the defaults of later versions.
      const stored = await storeCall(() => ctx.store.putSeriesSettings(series, req.body as object));
      res.json(settingsBody(series, stored));
    },
  );

  router.get('/api/series/:series/runs', ctx.tokens.middleware(true), reads, async (req, res) => {
    const series = seriesParam(req);
    const q = parseQuery(SeriesRunsQuerySchema, req.query);
    const page = pageOrThrow(
      await storeCall(() =>
        ctx.store.listSeriesRuns({ series, branch: q.branch, limit: q.limit, before: q.before }),
      ),
    );
    res.json(toListPage(baseUrl(ctx, req), page));
  });

  router.get('/api/runs/:id/regression', ctx.tokens.middleware(true), reads, async (req, res, next) => {
    const id = String(req.params.id);
    const run = isValidId(id) ? await storeCall(() => ctx.store.getRun(id)) : null;
    if (!run)
      return notFound(req, res, (err?: unknown) =>
        next(err ?? new HttpError(404, 'run_not_found', 'no run with this id')),
      );
    const labels = run.labels as RunLabels;
    const series = labels.series;
    if (!series)
      throw new HttpError(
        422,
        'no_series',
        'this run has no series label, so it has no history to be compared with: upload it with --series NAME --branch B --commit C',
        'labels.series',
      );
    const { config, problem } = effectiveConfig(await storeCall(() => ctx.store.getSeriesSettings(series)));
    const pick = pickBaseBranch(labels, config);
    let baseline: RunMeta[] = [];
    if (pick.ok) {
      // Strictly older than the run: the run itself is never in its own baseline, and a run on
      // the base branch is compared with the ones before it.
      const page = await storeCall(() =>
        ctx.store.listSeriesRuns({
          series,
          branch: pick.baseBranch,
          limit: config.baselineRuns,
          before: cursorForRun(run),
        }),
      );
      if (!page.ok) throw new Error(`listing a stored run's history failed: ${page.error.message}`);
      baseline = page.value.items;
    }
    const base = baseUrl(ctx, req);
    const report = checkRegression(
      regressionRun(base, run),
      baseline.map((m) => regressionRun(base, m)),
      config,
    );
    if (problem) report.notes.push(problem);
    const latest = baseline[0];
    const comparisonId =
      latest && pick.ok ? await comparisonFor(latest.id, run, series, pick.baseBranch) : null;
    const body: RunRegression = {
      ...report,
      runUrl: runUrl(base, run.id),
      comparisonUrl: comparisonId ? comparisonUrl(base, comparisonId) : null,
    };
    res.json(body);
  });

  router.all('/api/series/:series/settings', allowOnly('GET, HEAD, PUT'));
  router.all('/api/series/:series/runs', allowOnly('GET, HEAD'));
  router.all('/api/runs/:id/regression', allowOnly('GET, HEAD'));
  return router;
}
