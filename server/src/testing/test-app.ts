import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll } from 'vitest';
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

/** Rate limits loose enough for a file that uploads many runs anonymously. */
export const MANY_UPLOADS = {
  writesAnonymous: { name: 'uploads without a token', limit: 1000, windowMs: 60_000 },
} satisfies CreateAppOptions['rateLimits'];

/**
 * One test app shared by a whole file: made before its first test, closed after its last. Read
 * `app` and `store` inside tests (they exist only once beforeAll has run).
 */
export function testAppPerFile(
  options: Parameters<typeof makeTestApp>[0] = {},
): Pick<TestApp, 'app' | 'store'> {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await makeTestApp(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  const made = (): TestApp => {
    if (!current) throw new Error('testAppPerFile: read app/store inside a test, not at collection time');
    return current;
  };
  return {
    get app() {
      return made().app;
    },
    get store() {
      return made().store;
    },
  };
}

/** An info-level logger whose lines the test reads (causes must be logged, never sent). */
export function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines, text: () => lines.join('') };
}
