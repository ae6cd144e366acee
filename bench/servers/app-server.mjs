// The server under test: the REAL app, wired exactly as `blockwise serve` wires it (server/src/
// cli/serve.ts: createApp + createHttpServer with the request timeouts from the environment,
// pino request logs at info), bundled by bench/lib/bundle.mjs with the same esbuild settings as
// server/scripts/build.mjs. Differences from `serve`, all for measurement:
// - Rate limits are raised (BENCH_RATE_LIMITS=real keeps the shipped ones): the limiter still runs
//   on every request, but a load test must measure ingest, not the 429 path.
// - BENCH_SQLITE_SYNC=NORMAL switches the store's connection to synchronous=NORMAL AFTER the store
//   opened with FULL and passed its start-up assertion (P9 measures what FULL costs).
// - The port is reported over IPC; `{type:'mem'}` over IPC answers process.memoryUsage() after a
//   forced GC when run with --expose-gc (R12 soak), instead of a debug HTTP route.
import Database from 'better-sqlite3';
import { createApp } from '../../server/src/app.ts';
import { configFromEnv } from '../../server/src/config.ts';
import { createHttpServer } from '../../server/src/http/http-server.ts';
import { createLogger } from '../../server/src/http/logging.ts';
import { openStore } from '../../server/src/store/open-store.ts';

const env = process.env;

// Remember the connections better-sqlite3 opens, to flip one pragma below.
const connections = [];
const pragma = Database.prototype.pragma;
Database.prototype.pragma = function (source, options) {
  if (!connections.includes(this)) connections.push(this);
  return pragma.call(this, source, options);
};

const store = await openStore(env.BENCH_DB);
Database.prototype.pragma = pragma;
if (env.BENCH_SQLITE_SYNC) {
  for (const db of connections) pragma.call(db, `synchronous = ${env.BENCH_SQLITE_SYNC}`);
  const actual = connections.map((db) => pragma.call(db, 'synchronous', { simple: true }));
  if (actual.length === 0 || actual.some((v) => v !== { NORMAL: 1, FULL: 2, OFF: 0 }[env.BENCH_SQLITE_SYNC]))
    throw new Error(`could not set synchronous=${env.BENCH_SQLITE_SYNC} (read back ${actual})`);
}

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
