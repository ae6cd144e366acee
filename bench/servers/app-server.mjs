// The server under test: the REAL app, wired exactly as `blockwise serve` wires it (server/src/
// cli/serve.ts: createApp + createHttpServer with the request timeouts from the environment,
// pino request logs at info), bundled by bench/lib/bundle.mjs with the same esbuild settings as
// server/scripts/build.mjs. Differences from `serve`, all for measurement:
// - Rate limits are raised (BENCH_RATE_LIMITS=real keeps the shipped ones): the limiter still runs
//   on every request, but a load test must measure ingest, not the 429 path.
// - BENCH_SQLITE_SYNC=NORMAL opens the store with its writer's connection at synchronous=NORMAL
//   (openSqliteStore's bench-only option; P9 measures what FULL costs).
// - The port is reported over IPC; `{type:'mem'}` over IPC answers process.memoryUsage() after a
//   forced GC when run with --expose-gc (R12 soak), instead of a debug HTTP route.
import { createApp } from '../../server/src/app.ts';
import { configFromEnv } from '../../server/src/config.ts';
import { createHttpServer } from '../../server/src/http/http-server.ts';
import { createLogger } from '../../server/src/http/logging.ts';
import { openStore } from '../../server/src/store/open-store.ts';
import { openSqliteStore } from '../../server/src/store/sqlite-store.ts';

const env = process.env;

// synchronous=NORMAL for the writer thread's connection, the one that commits (the store opens
// with FULL otherwise, and asserts it).
const sync = env.BENCH_SQLITE_SYNC;
const sqlitePath = env.BENCH_DB?.startsWith('sqlite:') ? env.BENCH_DB.slice('sqlite:'.length) : null;
if (sync && (sync !== 'NORMAL' || !sqlitePath))
  throw new Error(`BENCH_SQLITE_SYNC=${sync}: only NORMAL, on a sqlite: BENCH_DB`);
const store = sync
  ? await openSqliteStore({ path: sqlitePath, synchronous: 'NORMAL' })
  : await openStore(env.BENCH_DB);
if (sync && store.pragmas().synchronous !== 1)
  throw new Error(`could not set synchronous=${sync} (read back ${store.pragmas().synchronous})`);

const unlimited = (name) => ({ name, limit: Number.MAX_SAFE_INTEGER, windowMs: 60_000 });
const { requestTimeoutMs, ...config } = configFromEnv(env);
const { app } = createApp({
  store,
  config,
  logger: createLogger(),
  ...(env.BENCH_RATE_LIMITS === 'real'
    ? {}
    : {
        rateLimits: {
          writesAnonymous: unlimited('uploads without a token'),
          writesToken: unlimited('uploads per CI token'),
          bytesAnonymous: unlimited('upload bytes without a token'),
          bytesToken: unlimited('upload bytes per CI token'),
          reads: unlimited('reads'),
          notFound: unlimited('unknown ids'),
        },
      }),
});
const server = createHttpServer(app, { requestTimeoutMs });
server.listen(Number(env.PORT ?? 0), '127.0.0.1', () => {
  process.send?.({ type: 'listening', port: server.address().port, pid: process.pid });
});

process.on('message', (message) => {
  if (message?.type === 'mem') {
    globalThis.gc?.();
    process.send?.({ type: 'mem', ...process.memoryUsage() });
  }
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void store.close().finally(() => process.exit(0));
});
