import { Router } from 'express';
import type { Health } from '@blockwise/shared/api';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { APP_VERSION } from '../../config.ts';
import type { RouteContext } from '../../context.ts';
import type { StoreHealth } from '../../store/run-store.ts';
import { checkStoreHealth } from '../../services/store-health.ts';

/**
 * Liveness + store check. Reads are a round trip (`ping`); writes are the store's checkWrites — a
 * write rolled back at once, plus the last real write that failed for a write fault (see
 * WriteCheck) — and the JSON says which of the two decided.
 *
 * The status code is for load balancers, which pull a replica that answers 503: only a failed
 * read check is one. When only writes fail (a read-only database, a full disk) every replica
 * shares the fault, reads still work, and pulling them all would turn a partial outage into a
 * total one: that is 200 with `status: "degraded"` and `store.writable: false` for monitoring.
 */
export function healthRouter(ctx: RouteContext<StoreHealth>): Router {
  const router = Router();
  let lastStatus: Health['status'] = 'ok';

  router.get('/healthz', async (req, res) => {
    const { store, cause } = await checkStoreHealth(ctx.store);
    const status: Health['status'] = store.ok && store.writable ? 'ok' : 'degraded';
    // Logged when the status changes, not on every poll of a load balancer.
    if (status !== lastStatus) {
      if (status === 'degraded') req.log?.warn({ err: cause, store }, 'store degraded');
      else req.log?.info({ store }, 'store healthy again');
      lastStatus = status;
    }
    res.setHeader('Cache-Control', 'no-store');
    const body: Health = {
      status,
      store,
      version: APP_VERSION,
      analysisVersion: ANALYSIS_VERSION,
    };
    res.status(store.ok ? 200 : 503).json(body);
  });
  return router;
}
