import type { Logger } from 'pino';
import { createApp } from '../app.ts';
import { ConfigError, configFromEnv, parseAuthMode } from '../config.ts';
import type { AuthMode, MetricsMode } from '../context.ts';
import { createHttpServer } from '../http/http-server.ts';
import { createLogger } from '../http/logging.ts';
import { openStore } from '../store/open-store.ts';
import { StoreConfigError, StoreUnavailableError, type RunStore } from '../store/run-store.ts';
import { parseCount } from './flags.ts';
import { CATALOG_FLAG, applyCatalogFlag, catalogNote } from './catalog-flag.ts';
import { EXIT, UsageError, parseFlags, type CliIo, type Command } from './io.ts';

const usage = `Usage: blockwise serve [--port 8080] [--host 127.0.0.1] [--db sqlite:PATH | postgres://…]
                       [--auth required|open] [--catalog FILE]

  Serves the web app and the API on one port. With no --db, everything is kept in
  ./data/blockwise.db (SQLite, no other service needed). Several replicas can share one
  PostgreSQL database (--db postgres://… or DATABASE_URL).

  --auth (or BLOCKWISE_AUTH) decides who may upload and list runs. Unset: open while the
  archive has never held a CI token, then required for good (revoking every token does not
  re-open it). required: a token always (with none yet, create one with \`blockwise token
  create\`). open: anonymous uploads too, even once tokens exist. Share links stay public.

  --catalog (or BLOCKWISE_CATALOG): the prices and instance types to plan with, a file written
  by \`blockwise catalog update\`; default: the built-in catalog. The server analyses uploads
  with it and serves it to the web app (GET /api/catalog), which shows its date beside costs.

  Environment: PORT, HOST, DATABASE_URL, BLOCKWISE_AUTH, BLOCKWISE_CATALOG, BLOCKWISE_MAX_UPLOAD_MB (MiB; default and minimum 50),
  BLOCKWISE_PUBLIC_URL (absolute links in responses; unset: relative links),
  BLOCKWISE_ALLOWED_HOSTS (names browsers reach this server under, besides localhost and the
  public URL's, e.g. blockwise.internal: the web app's writes from any other name are refused),
  BLOCKWISE_TRUST_PROXY (behind a load balancer: the number of proxies, e.g. 1, or their
  addresses/CIDRs, e.g. 10.0.0.0/8,loopback — never true), BLOCKWISE_REQUEST_TIMEOUT_MS
  (default 60000), BLOCKWISE_LOG_LEVEL, BLOCKWISE_METRICS (who may read GET /metrics, Prometheus's
  format: token — the default, a CI token —, open or off; docs/operations.md).`;

export const serveCommand: Command = {
  summary: 'Serve the web app and the HTTP API (SQLite by default, PostgreSQL for replicas).',
  usage,
  async run(argv, io) {
    const { values } = parseFlags(
      argv,
      {
        port: { type: 'string' },
        host: { type: 'string' },
        db: { type: 'string' },
        auth: { type: 'string' },
        ...CATALOG_FLAG,
      },
      false,
    );
    // Before anything is opened: a catalog that cannot be read exits 2 naming it.
    await applyCatalogFlag(values.catalog, io);
    // Settings first: a refused setting exits 2 before anything is opened.
    let settings: ReturnType<typeof configFromEnv>;
    try {
      settings = configFromEnv(io.env);
      if (values.auth !== undefined) settings.auth = parseAuthMode(values.auth, '--auth');
    } catch (error) {
      if (error instanceof ConfigError) throw new UsageError(error.message);
      throw error;
    }
    const { requestTimeoutMs, trustProxy, logLevel, ...config } = settings;
    const port = parseCount(values.port ?? io.env.PORT ?? '8080', '--port', { min: 0, max: 65535 });
    const host = values.host ?? io.env.HOST ?? '127.0.0.1';
    const logger = createLogger({ level: logLevel });
    let store;
    try {
      store = await openStore(values.db ?? io.env.DATABASE_URL);
    } catch (error) {
      if (error instanceof StoreConfigError || error instanceof StoreUnavailableError) {
        io.stderr(`blockwise serve: cannot open the archive: ${error.message}\n`);
        return EXIT.failed;
      }
      throw error;
    }
    const { app, close } = createApp({ store, config, logger, trustProxy });
    const server = createHttpServer(app, { requestTimeoutMs });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address();
    const actualPort = typeof address === 'object' && address ? address.port : port;
    const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
    logger.info({ port: actualPort, host, store: store.dialect, web: config.webDist ?? null }, 'listening');
    io.stdout(
      `Blockwise is listening on http://${shownHost}:${actualPort} (archive: ${store.dialect}${'driverName' in store && store.driverName ? ` on ${store.driverName}` : ''}${config.webDist ? '' : '; web app not built — API only'})\n`,
    );
    await announceAuth(config.auth ?? 'auto', store, logger, io);
    io.stdout(`${catalogNote()}\n`);
    io.stdout(`${METRICS_NOTE[config.metrics ?? 'token']}\n`);

    await new Promise<void>((resolve) => {
      const stop = (signal: string) => {
        logger.info({ signal }, 'shutting down');
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      };
      process.once('SIGINT', () => stop('SIGINT'));
      process.once('SIGTERM', () => stop('SIGTERM'));
    });
    await close();
    await store.close();
    return EXIT.ok;
  },
};

/** What BLOCKWISE_METRICS means, in the start-up lines. */
const METRICS_NOTE: Record<MetricsMode, string> = {
  token:
    'Metrics: GET /metrics needs a CI token (BLOCKWISE_METRICS=token; Prometheus setup: docs/operations.md).',
  open: 'Metrics: GET /metrics is open to anyone who reaches this server (BLOCKWISE_METRICS=open).',
  off: 'Metrics: off (BLOCKWISE_METRICS=off).',
};

/** What `--auth` means for this archive right now, in one line an operator reads at start-up. */
export function authNote(mode: AuthMode, heldToken: boolean): { level: 'info' | 'warn'; text: string } {
  if (mode === 'open')
    return heldToken
      ? {
          level: 'warn',
          text: 'Auth: open (--auth open) although CI tokens exist: tokens authenticate, but anyone who can reach this server may upload and list runs.',
        }
      : {
          level: 'info',
          text: 'Auth: open (--auth open): anyone who can reach this server may upload and list runs.',
        };
  if (mode === 'required')
    return heldToken
      ? { level: 'info', text: 'Auth: required: uploads and listings need a CI token.' }
      : {
          level: 'warn',
          text: 'Auth: required, and no CI token exists yet: uploads and listings answer 401 until you run `blockwise token create --name ci` on this archive.',
        };
  return heldToken
    ? { level: 'info', text: 'Auth: required (this archive holds CI tokens): uploads and listings need one.' }
    : {
        level: 'info',
        text: 'Auth: open until the first `blockwise token create`; from then on uploads and listings need a token (set --auth to choose).',
      };
}

async function announceAuth(mode: AuthMode, store: RunStore, logger: Logger, io: CliIo): Promise<void> {
  let heldToken: boolean;
  try {
    heldToken = await store.hasHeldToken();
  } catch (error) {
    // The gate asks again on every request; at start-up an unreachable database only costs the note.
    logger.warn({ err: error }, 'could not read the token state for the start-up note');
    return;
  }
  const note = authNote(mode, heldToken);
  logger[note.level]({ auth: mode, heldToken }, note.text);
  io.stdout(`${note.text}\n`);
}
