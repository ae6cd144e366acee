import type { Health } from '@blockwise/shared/api';
import {
  StoreUnavailableError,
  type StoreFault,
  type StoreHealth,
  type WriteCheck,
} from '../store/run-store.ts';

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

type StoreCheck = Health['store'];

/**
 * The store check of /healthz (and of /metrics' store gauges): reads are a round trip (`ping`);
 * writes are the store's checkWrites — a write rolled back at once, plus the last real write that
 * failed for a write fault (see WriteCheck). Each step gives up after 2 s. Never rejects.
 */
export async function checkStoreHealth(
  runStore: StoreHealth,
): Promise<{ store: StoreCheck; cause?: unknown }> {
  const kind = runStore.dialect;
  const started = performance.now();
  try {
    await withinTimeout(runStore.ping(), 'the read check');
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
    writes = await withinTimeout(runStore.checkWrites(), 'the write check');
  } catch (error) {
    writes = { writable: false, probe: 'unknown', lastWriteFailure: null, fault: null, cause: error };
  }
  const writeCheck = {
    probe: writes.probe,
    lastWriteFailureAt: writes.lastWriteFailure ? new Date(writes.lastWriteFailure.at).toISOString() : null,
  };
  const store: StoreCheck = { kind, ok: true, latencyMs, writable: writes.writable, writeCheck };
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
