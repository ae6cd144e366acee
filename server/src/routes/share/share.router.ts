import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';
import type { ComparisonResult } from '@blockwise/shared/records';
import type { AppContext } from '../../context.ts';
import { isValidId } from '../../store/ids.ts';
import { comparisonRecordOf } from '../../store/records.ts';
import { storeCall } from '../route-helpers.ts';

/** HTML escaping for the few server-rendered strings (titles, labels: all user input). */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** Without the built web app: a plain, script-free HTML summary of a comparison. */
function minimalShareHtml(
  title: string | null,
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
  // Comparison warnings (jobs_differ) first: they say whether the numbers below may be compared at all.
  const warnings = (result.warnings ?? [])
    .map(
      (w) => `<p role="alert"><strong>Warning [${escapeHtml(w.code)}]:</strong> ${escapeHtml(w.message)}</p>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title ?? 'Blockwise comparison')}</title></head><body><h1>${escapeHtml(title ?? 'Blockwise comparison')}</h1>${warnings}<table><thead><tr><th>Run</th><th>Kind</th><th>Instance</th><th>Read IOPS</th><th>Write IOPS</th><th>Read MiB/s</th><th>Write MiB/s</th><th>Bottleneck</th></tr></thead><tbody>${rows}</tbody></table><ul>${plans}</ul><p>Prices as of ${escapeHtml(priceDate)} (${escapeHtml(result.rates.source)}); analysis ${escapeHtml(version)}.</p></body></html>`;
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
 * planning page's heading between these markers; every other page gets the frame without it, so
 * a share link never flashes "Planning session".
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

export function webRouter(ctx: AppContext): Router {
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
    for (const route of SPA_ROUTES) {
      const html = route === '/' ? indexHtml! : otherHtml;
      router.get(route, (req, res) => {
        res.setHeader('Cache-Control', 'no-cache');
        const id = route === '/c/:id' ? String(req.params.id) : null;
        res.type('html').send(id && isValidId(id) ? withComparisonPreload(html, id) : html);
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
    res
      .type('html')
      .send(minimalShareHtml(c.title, comparisonRecordOf(c).result, c.priceTableDate, c.analysisVersion));
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
