import { Router } from 'express';
import type { StorelessContext } from '../../context.ts';
import { bearer, hashToken } from '../../http/auth.ts';
import { HttpError } from '../../http/errors.ts';
import { rateLimit } from '../../http/rate-limit.ts';
import { methodNotAllowed } from '../../http/route-helpers.ts';

/** How long a token that scraped once keeps scraping while the store cannot check it. */
const OUTAGE_GRACE_MS = 10 * 60_000;
/** Tokens remembered for that (Prometheus servers scraping this replica: a handful). */
const REMEMBERED_TOKENS = 16;

/**
 * GET /metrics in Prometheus's text exposition format (http/metrics.ts), per BLOCKWISE_METRICS:
 * `off` 404, `open` anyone, `token` a CI token (401 without one; docs/operations.md).
 *
 * In `token` mode the token is checked in the store, which is down exactly when the metrics
 * matter most: a token that was accepted in the last 10 minutes keeps being accepted while the
 * store answers "unavailable" (no revocation can have been stored meanwhile), so Prometheus
 * still sees `blockwise_store_up 0` rather than a failed scrape.
 */
export function metricsRouter(ctx: StorelessContext): Router {
  const router = Router();
  const accepted = new Map<string, number>();

  async function authorize(header: string | undefined): Promise<void> {
    const token = bearer(header);
    if (token === null)
      throw new HttpError(
        401,
        'unauthorized',
        'GET /metrics needs a CI token (BLOCKWISE_METRICS=token): send Authorization: Bearer <token>; create one with `blockwise token create --name prometheus`',
        undefined,
        { 'WWW-Authenticate': 'Bearer realm="blockwise"' },
      );
    const digest = hashToken(token);
    try {
      await ctx.tokens.verify(token);
    } catch (error) {
      const storeDown = error instanceof HttpError && error.code === 'store_unavailable';
      if (storeDown && (accepted.get(digest) ?? 0) > Date.now()) return;
      throw error;
    }
    accepted.delete(digest);
    accepted.set(digest, Date.now() + OUTAGE_GRACE_MS);
    if (accepted.size > REMEMBERED_TOKENS) accepted.delete(accepted.keys().next().value!);
  }

  router.get('/metrics', rateLimit(ctx.limiters.reads), async (req, res) => {
    const metrics = ctx.metrics;
    if (!metrics)
      throw new HttpError(404, 'not_found', 'metrics are off on this server (BLOCKWISE_METRICS=off)');
    if (ctx.config.metrics === 'token') await authorize(req.headers.authorization);
    const text = await metrics.exposition();
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', metrics.contentType);
    res.send(text);
  });
  router.all('/metrics', methodNotAllowed('GET, HEAD'));
  return router;
}
