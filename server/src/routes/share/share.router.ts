import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';
import { storedAnswerPlan, storedCapacityAnswer } from '@blockwise/shared/answer';
import type { PlanSession } from '@blockwise/shared/records';
import type { Comparison } from '@blockwise/shared/api';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import type { ComparisonResult } from '@blockwise/shared/records';
import { baseUrl, type RouteContext } from '../../context.ts';
import type { ComparisonRecords } from '../../store/run-store.ts';
import { isValidId } from '../../store/ids.ts';
import { comparisonRecordOf } from '../../store/records.ts';
import { storeCall } from '../../http/route-helpers.ts';
import { toComparison } from '../../presenters/comparison.ts';
import { shareAnswerHtml, shareCapacityHtml } from './answer-html.ts';
import { escapeHtml } from '../../presenters/escape-html.ts';

/** Without the built web app: a plain, script-free HTML summary of a comparison. */
function minimalShareHtml(
  title: string | null,
  session: PlanSession | null,
  result: ComparisonResult,
  priceDate: string,
  version: string,
): string {
  const rows = result.runs
    .map((r) => {
      const h = r.summary.headline;
      return `<tr><td>${escapeHtml(r.labels.name ?? r.id)}</td><td>${escapeHtml(r.labels.kind ?? '')}</td><td>${escapeHtml(r.labels.instanceType ?? '')}</td><td>${Math.round(h.readIops)}</td><td>${Math.round(h.writeIops)}</td><td>${(h.readBytesPerSec / 1048576).toFixed(1)}</td><td>${(h.writeBytesPerSec / 1048576).toFixed(1)}</td><td>${escapeHtml(r.summary.plan?.bottleneck?.id ?? '')}</td></tr>`;
    })
    .join('');
  const plans = result.plans
    .map(
      (p) =>
        `<li>${escapeHtml(p.title)}: ${escapeHtml(p.plan.bottleneck?.explanation ?? 'no configuration')}</li>`,
    )
    .join('');
  const capacity = storedCapacityAnswer({ plan: session, result });
  const noDemand = capacity
    ? `<p><strong>${escapeHtml(capacity.lead.strong)}</strong> ${escapeHtml(capacity.lead.text)}</p><ul>${capacity.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>${capacity.comparison ? `<p>${escapeHtml(capacity.comparison)}</p>` : ''}<p>${escapeHtml(capacity.ask)}</p>`
    : '';
  // Comparison warnings (jobs_differ) first: they say whether the numbers below may be compared at all.
  const warnings = (result.warnings ?? [])
    .map(
      (w) => `<p role="alert"><strong>Warning [${escapeHtml(w.code)}]:</strong> ${escapeHtml(w.message)}</p>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title ?? 'Blockwise comparison')}</title></head><body><h1>${escapeHtml(title ?? 'Blockwise comparison')}</h1>${warnings}<table><thead><tr><th>Run</th><th>Kind</th><th>Instance</th><th>Read IOPS</th><th>Write IOPS</th><th>Read MiB/s</th><th>Write MiB/s</th><th>Bottleneck</th></tr></thead><tbody>${rows}</tbody></table>${noDemand}${capacity?.plansNote ? `<p>${escapeHtml(capacity.plansNote)}</p>` : ''}<ul>${plans}</ul><p>Prices as of ${escapeHtml(priceDate)} (${escapeHtml(result.rates.source)}); analysis ${escapeHtml(version)}.</p></body></html>`;
}

/** Routes the single-page app owns (deep links must load index.html). */
const SPA_ROUTES = [
  '/',
  '/c/:id',
  '/runs',
  '/runs/:id',
  '/history',
  '/history/:series',
  '/fleet',
  '/fleet/:id',
];

/**
 * index.html paints a static frame before any script runs (see web/index.html), including the
 * planning page's heading between these markers; a share link gets its own head there
 * (withShareHead), every other page the frame without it, so none flashes "Planning session".
 */
const PLAN_HEAD = /<!--blockwise:plan-head-->[\s\S]*?<!--\/blockwise:plan-head-->/;

/**
 * A share link's page needs the stored comparison before it can draw anything: the browser starts
 * that request with the HTML instead of after the page's scripts ran (one round trip less before
 * the largest paint on a slow network). Only for a valid id (base64url, 22 characters): nothing
 * from the URL reaches the HTML otherwise.
 */
export function withComparisonPreload(html: string, id: string): string {
  const link = `<link rel="preload" href="/api/comparisons/${id}" as="fetch" crossorigin="anonymous" />`;
  return html.replace('</head>', `    ${link}\n  </head>`);
}

export function withoutPlanHead(indexHtml: string): string {
  return indexHtml.replace(PLAN_HEAD, '');
}

/**
 * The top of a share page exactly as SharePage.tsx draws it once the comparison has arrived:
 * heading, facts, the two kinds of buttons, the answer (what binds, what to buy, the monthly cost:
 * in the first viewport of a 390 × 844 phone, issue 27), the info banner and the comparison's
 * warnings. Sent with the HTML, all of it is on screen before any script ran instead of after the
 * app, the page's chunk and the comparison JSON (bench P11). Same elements, classes and text as
 * React's, so nothing moves when React replaces #root.
 */
export function shareHeadHtml(comparison: Comparison): string {
  const { result } = comparison;
  const title = escapeHtml(comparison.title ?? 'Shared comparison');
  const facts: [string, string][] = [
    [
      'Created',
      `<time datetime="${escapeHtml(comparison.createdAt)}">${escapeHtml(new Date(comparison.createdAt).toUTCString())}</time>`,
    ],
    ['Analysis version', escapeHtml(comparison.analysisVersion)],
    ['Prices as of', escapeHtml(comparison.priceTableDate)],
    ['Region', escapeHtml(result.rates.region ?? 'custom rates')],
  ];
  const dl = facts.map(([term, value]) => `<div><dt>${term}</dt><dd>${value}</dd></div>`).join('');
  const actions =
    '<div class="page-head__actions"><button type="button" class="btn btn--primary">Open as a new planning session</button>' +
    '<div class="button-row" role="group" aria-label="Export"><button type="button" class="btn btn--small">Export CSV</button>' +
    '<button type="button" class="btn btn--small">Export JSON</button>' +
    '<button type="button" class="btn btn--small">Print / PDF</button></div></div>';
  const outdated =
    comparison.analysisVersion !== ANALYSIS_VERSION
      ? ` This app now runs analysis version ${escapeHtml(ANALYSIS_VERSION)}; open it as a planning session to recompute.`
      : '';
  const banner = `<p class="banner banner--info">These results were computed once, when the link was created, and never change: later uploads, price updates or rule changes do not alter them.${outdated}</p>`;
  const warnings = result.warnings ?? [];
  const concern =
    warnings.length > 0
      ? `<div class="callout callout--concern"><p><strong>Read this before the numbers:</strong></p><ul class="warnings">${warnings
          .map(
            (w) =>
              `<li class="warning" data-code="${escapeHtml(w.code)}"><span class="warning__icon" aria-hidden="true">⚠</span><span class="visually-hidden">Warning: </span><span>${escapeHtml(w.message)}</span></li>`,
          )
          .join('')}</ul></div>`
      : '';
  const stored = storedAnswerPlan(comparison);
  const capacity = stored ? null : storedCapacityAnswer(comparison);
  const answer = stored
    ? shareAnswerHtml(stored, result.plans.length)
    : capacity
      ? shareCapacityHtml(capacity)
      : '';
  return (
    '<div class="page"><header class="page-head"><div><p class="page-head__kicker">Shared comparison · read-only</p>' +
    `<h1 tabindex="-1" id="page-title">${title}</h1><dl class="facts facts--inline">${dl}</dl></div>${actions}</header>` +
    `${answer}${banner}${concern}</div>`
  );
}

/**
 * index.html with a share page's head in place of the planning heading, and the document title
 * the page sets (usePageTitle: "TITLE — Blockwise").
 */
export function withShareHead(indexHtml: string, comparison: Comparison): string {
  const title = `${escapeHtml(comparison.title ?? 'Shared comparison')} — Blockwise`;
  return indexHtml
    .replace(PLAN_HEAD, () => shareHeadHtml(comparison))
    .replace(/<title>[\s\S]*?<\/title>/, () => `<title>${title}</title>`);
}

/**
 * The stored comparison as the API serves it, or null: unknown, unreadable or a store that is
 * down. The static head is an early paint, not the page: the app's own request reports failures.
 */
async function comparisonForHead(
  ctx: RouteContext<ComparisonRecords>,
  id: string,
): Promise<Comparison | null> {
  try {
    const stored = await ctx.store.getComparison(id);
    return stored ? toComparison(baseUrl(ctx), stored) : null;
  } catch (error) {
    ctx.logger.warn({ err: error, comparisonId: id }, 'share page without its static head');
    return null;
  }
}

/** Without the built web app: a page that does not exist, with the way back (script-free). */
export function minimalNotFoundHtml(path: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Page not found — Blockwise</title></head><body><h1>Page not found</h1><p>Nothing lives at <code>${escapeHtml(path)}</code>. <a href="/">Start a planning session</a> or <a href="/runs">browse the archive</a>.</p></body></html>`;
}

/**
 * A GET for a page that matches no route answers HTML with status 404 (a person followed a link),
 * never the API's JSON error: with the built app, index.html (its NotFound page renders, and the
 * static frame's navigation already links back); without it, a minimal page. Other methods fall
 * through to the JSON 404; /api never reaches this router.
 */
function notFoundPage(html: string | null) {
  return (req: express.Request, res: express.Response, next: express.NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    res.setHeader('Cache-Control', 'no-cache');
    res
      .status(404)
      .type('html')
      .send(html ?? minimalNotFoundHtml(req.path));
  };
}

export function webRouter(ctx: RouteContext<ComparisonRecords>): Router {
  const router = Router();
  const dist = ctx.config.webDist;
  const indexPath = dist ? join(dist, 'index.html') : null;
  const hasWeb = indexPath !== null && existsSync(indexPath);
  const indexHtml = hasWeb ? readFileSync(indexPath, 'utf8') : null;

  if (ctx.config.cliBundle && existsSync(ctx.config.cliBundle)) {
    const bundle = ctx.config.cliBundle;
    // CI machines with only Node: `curl -fsSO $SERVER/cli/blockwise.mjs && node blockwise.mjs upload …`
    router.get('/cli/blockwise.mjs', (_req, res) => {
      res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
      res.setHeader('Content-Disposition', 'attachment; filename="blockwise.mjs"');
      res.sendFile(bundle);
    });
  }

  if (hasWeb) {
    router.use(
      '/assets',
      express.static(join(dist!, 'assets'), {
        immutable: true,
        maxAge: '1y',
        index: false,
        fallthrough: false,
      }),
    );
    router.use(express.static(dist!, { index: false, maxAge: '1h' }));
    const otherHtml = withoutPlanHead(indexHtml!);
    router.get('/c/:id', async (req, res) => {
      res.setHeader('Cache-Control', 'no-cache');
      const id = String(req.params.id);
      if (!isValidId(id)) return void res.type('html').send(otherHtml);
      const comparison = await comparisonForHead(ctx, id);
      const html = comparison ? withShareHead(indexHtml!, comparison) : otherHtml;
      res.type('html').send(withComparisonPreload(html, id));
    });
    for (const route of SPA_ROUTES.filter((r) => r !== '/c/:id')) {
      const html = route === '/' ? indexHtml! : otherHtml;
      router.get(route, (_req, res) => {
        res.setHeader('Cache-Control', 'no-cache');
        res.type('html').send(html);
      });
    }
    router.use(notFoundPage(otherHtml));
    return router;
  }

  router.get('/c/:id', async (req, res) => {
    const id = String(req.params.id);
    const c = isValidId(id) ? await storeCall(() => ctx.store.getComparison(id)) : null;
    if (!c) {
      res
        .status(404)
        .type('html')
        .send(
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>No comparison with this link</h1></body></html>',
        );
      return;
    }
    const record = comparisonRecordOf(c);
    res
      .type('html')
      .send(minimalShareHtml(c.title, record.plan, record.result, c.priceTableDate, c.analysisVersion));
  });
  router.get('/', (_req, res) => {
    res
      .type('html')
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blockwise</title></head><body><h1>Blockwise</h1><p>The web app is not built: run <code>pnpm build</code>. The API is at <a href="/api/openapi.json">/api/openapi.json</a>.</p></body></html>',
      );
  });
  router.use(notFoundPage(null));
  return router;
}
