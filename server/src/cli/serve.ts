import { createApp } from '../app.ts';
import { configFromEnv } from '../config.ts';
import { createHttpServer } from '../http/http-server.ts';
import { createLogger } from '../http/logging.ts';
import { openStore } from '../store/open-store.ts';
import { StoreConfigError, StoreUnavailableError } from '../store/run-store.ts';
import { parseCount } from './flags.ts';
import { EXIT, parseFlags, type Command } from './io.ts';

const usage = `Usage: blockwise serve [--port 8080] [--host 127.0.0.1] [--db sqlite:PATH | postgres://…]

  Serves the web app and the API on one port. With no --db, everything is kept in
  ./data/blockwise.db (SQLite, no other service needed). Several replicas can share one
  PostgreSQL database (--db postgres://… or DATABASE_URL).

  Environment: PORT, HOST, DATABASE_URL, BLOCKWISE_MAX_UPLOAD_MB (default 50),
  BLOCKWISE_PUBLIC_URL (links in responses), BLOCKWISE_TRUST_PROXY (behind a load balancer),
  BLOCKWISE_REQUEST_TIMEOUT_MS (default 60000), BLOCKWISE_LOG_LEVEL.`;

export const serveCommand: Command = {
  summary: 'Serve the web app and the HTTP API (SQLite by default, PostgreSQL for replicas).',
  usage,
  async run(argv, io) {
    const { values } = parseFlags(
      argv,
      { port: { type: 'string' }, host: { type: 'string' }, db: { type: 'string' } },
      false,
    );
    const port = parseCount(values.port ?? io.env.PORT ?? '8080', '--port', { min: 0, max: 65535 });
    const host = values.host ?? io.env.HOST ?? '127.0.0.1';
    const logger = createLogger();
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
    const { requestTimeoutMs, ...config } = configFromEnv(io.env);
    const trust = io.env.BLOCKWISE_TRUST_PROXY;
    const { app, close } = createApp({
      store,
      config,
      logger,
      ...(trust ? { trustProxy: /^\d+$/.test(trust) ? Number(trust) : trust === 'true' ? true : trust } : {}),
    });
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
      `Blockwise is listening on http://${shownHost}:${actualPort} (archive: ${store.dialect}${config.webDist ? '' : '; web app not built — API only'})\n`,
    );

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
