import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createApp, type CreateAppOptions } from '../app.ts';
import { ParsePool } from '../ingest/parse-pool.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import type { RunStore } from '../store/run-store.ts';

const FIXTURES = new URL('../../../fixtures/', import.meta.url);

/** A real fixture file's bytes: `fio/generated/a_….json`. */
export function fixture(path: string): Buffer {
  return readFileSync(new URL(path, FIXTURES));
}

export type TestApp = Awaited<ReturnType<typeof makeTestApp>>;

/**
 * The real app on a real SQLite file in a temp directory (no mocks): what `blockwise serve` runs,
 * minus listen(). Logs are discarded unless BLOCKWISE_TEST_LOGS=1.
 */
export async function makeTestApp(
  options: Partial<Omit<CreateAppOptions, 'store'>> & { store?: RunStore; dir?: string } = {},
) {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'bw-app-'));
  const store = options.store ?? (await openSqliteStore({ path: join(dir, 'blockwise.db') }));
  const pool = options.pool ?? new ParsePool({ size: 1, maxQueue: 2, timeoutMs: 60_000 });
  const logger = options.logger ?? pino({ level: process.env.BLOCKWISE_TEST_LOGS ? 'debug' : 'silent' });
  const { app, ctx, close } = createApp({ ...options, store, pool, logger });
  return {
    app,
    ctx,
    store,
    dir,
    async close({ keepDir = false } = {}) {
      await close();
      await pool.close();
      if (!options.store) await store.close(); // a store passed in belongs to the caller
      if (!keepDir && !options.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
