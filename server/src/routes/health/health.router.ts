import { Router } from 'express';
import { type Health } from '@blockwise/shared/api';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { APP_VERSION } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { StoreUnavailableError, type StoreFault, type WriteCheck } from '../../store/run-store.ts';

const CHECK_TIMEOUT_MS = 2000;

/** What /healthz says about a fault; the driver's message (host, file, SQLSTATE) goes to the log only. */
const FAULT_TEXT: Record<StoreFault, string> = {
  unreachable: 'the database does not answer',
  busy: 'the database is busy (a lock or statement beyond its timeout, out of connections)',
  read_only: 'the database is read-only',
  disk_full: 'the database disk is full',
  io_error: 'the database has I/O errors',
  closed: 'the store is closed (shutting down)',
};

class CheckTimeout extends Error {}

function withinTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new CheckTimeout(`${what} got no answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

type StoreHealth = Health['store'];

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
export function healthRouter(ctx: AppContext): Router {
  const router = Router();
  let lastStatus: Health['status'] = 'ok';

  async function checkStore(): Promise<{ store: StoreHealth; cause?: unknown }> {
    const kind = ctx.store.dialect;
    const started = performance.now();
    try {
      await withinTimeout(ctx.store.ping(), 'the read check');
    } catch (error) {
      const fault = error instanceof StoreUnavailableError ? error.fault : undefined;
      return {
        store: {
          kind,
          ok: false,
          latencyMs: null,
          writable: false,
          writeCheck: { probe: 'skipped', lastWriteFailureAt: null },
          ...(fault ? { fault } : {}),
          error: fault
            ? FAULT_TEXT[fault]
            : error instanceof CheckTimeout
              ? error.message
              : 'the read check failed',
        },
        cause: error,
      };
    }
    const latencyMs = Math.round((performance.now() - started) * 100) / 100;
    let writes: WriteCheck;
    try {
      writes = await withinTimeout(ctx.store.checkWrites(), 'the write check');
    } catch (error) {
      writes = { writable: false, probe: 'unknown', lastWriteFailure: null, fault: null, cause: error };
    }
    const writeCheck = {
      probe: writes.probe,
      lastWriteFailureAt: writes.lastWriteFailure ? new Date(writes.lastWriteFailure.at).toISOString() : null,
    };
    const store: StoreHealth = { kind, ok: true, latencyMs, writable: writes.writable, writeCheck };
    if (writes.writable) return { store };
    return {
      store: {
        ...store,
        ...(writes.fault ? { fault: writes.fault } : {}),
        error: writes.fault
          ? `writes fail: ${FAULT_TEXT[writes.fault]}`
          : writes.cause instanceof CheckTimeout
            ? writes.cause.message
            : 'writes fail',
      },
      cause: writes.cause,
    };
  }

  router.get('/healthz', async (req, res) => {
    const { store, cause } = await checkStore();
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
