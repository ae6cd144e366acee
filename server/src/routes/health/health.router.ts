import { Router } from 'express';
import { ANALYSIS_VERSION } from '@blockwise/shared';
import type { AppContext } from '../../context.ts';

const PING_TIMEOUT_MS = 2000;

/** Liveness + store check: 200 when the archive answers, 503 "degraded" while it does not (the server keeps serving). */
export function healthRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    const started = performance.now();
    let error: string | undefined;
    try {
      await Promise.race([
        ctx.store.ping(),
        new Promise((_, reject) =>
          setTimeout(
            () => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)),
            PING_TIMEOUT_MS,
          ).unref(),
        ),
      ]);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const ok = error === undefined;
    res.setHeader('Cache-Control', 'no-store');
    res.status(ok ? 200 : 503).json({
      status: ok ? 'ok' : 'degraded',
      store: {
        kind: ctx.store.dialect,
        ok,
        latencyMs: ok ? Math.round((performance.now() - started) * 100) / 100 : null,
        ...(error ? { error } : {}),
      },
      version: process.env.BLOCKWISE_VERSION ?? '0.1.0',
      analysisVersion: ANALYSIS_VERSION,
    });
  });
  return router;
}
