import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_UPLOAD_BYTES } from '@blockwise/shared/api';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { AppConfig, AppContext, Limiters, TrustProxy } from './context.ts';
import { TokenGate } from './http/auth.ts';
import { compressedAssets } from './http/compressed-assets.ts';
import { HttpError, errorHandler } from './http/errors.ts';
import { createLogger, requestLogging } from './http/logging.ts';
import { AppMetrics } from './http/metrics.ts';
import { sameOriginWrites } from './http/origin.ts';
import { RateLimiter, memoryCounter, storeCounter, type RateLimitRule } from './http/rate-limit.ts';
import { securityHeaderSetter, securityHeaders } from './http/security.ts';
import { ParsePool } from './ingest/parse-pool.ts';
import { catalogRouter } from './routes/catalog/catalog.router.ts';
import { comparisonsRouter } from './routes/comparisons/comparisons.router.ts';
import { fleetRouter } from './routes/fleet/fleet.router.ts';
import { healthRouter } from './routes/health/health.router.ts';
import { metricsRouter } from './routes/metrics/metrics.router.ts';
import { openApiRouter } from './routes/openapi/openapi.ts';
import { RUN_READ_ROUTE, cachedRunReads } from './routes/runs/cached-run-reads.ts';
import { RunAnswers } from './routes/runs/run-answers.ts';
import { runAnswerEtag, runsRouter } from './routes/runs/runs.router.ts';
import { refuseRepeatedQuery } from './http/route-helpers.ts';
import { seriesRouter } from './routes/series/series.router.ts';
import { webRouter } from './routes/share/share.router.ts';
import type { RateLimitRecords, RunStore } from './store/run-store.ts';

export const DEFAULT_CONFIG: AppConfig = {
  // The API contract's limit, which the web app checks before reading a file (shared/src/api/limits.ts).
  maxUploadBytes: MAX_UPLOAD_BYTES,
  // Analyzed inline, a 128 KiB fio file holds the event loop for at most a few ms (~1 ms for a
  // real 104 KB file, ~5 ms for one built to cost the most); the warm parse worker holds it for
  // < 1 ms but costs ~0.7 ms more CPU per upload (docs/performance.md P13). Every body above is
  // analyzed off the loop.
  largeBodyBytes: 128 * 1024,
  publicUrl: null,
  allowedHosts: [],
  auth: 'auto',
  webDist: null,
  cliBundle: null,
  metrics: 'token',
};

/**
 * Rate limits (docs/performance.md R8): anonymous uploads 30/min per address, CI tokens 600/min
 * per token, reads 600/min per address, unknown ids 60/min per address (anti-enumeration).
 *
 * Bytes parsed, per minute (inflated size: what the parser reads): 100 MiB per address without a
 * token — two uploads at the 50 MiB size limit, or hundreds of ordinary fio files (10 KB–1 MB) —
 * and 2 GiB per CI token, 40 maximal uploads a minute, far above what a CI fleet posts. A request
 * limit alone lets 30 anonymous 50 MiB bodies through a minute (1.5 GB of JSON to parse); the
 * budget caps what one client makes the server parse, whatever the file sizes.
 */
export const DEFAULT_RATE_LIMITS: Record<keyof Limiters, RateLimitRule> = {
  writesAnonymous: { name: 'uploads without a token', limit: 30, windowMs: 60_000 },
  writesToken: { name: 'uploads per CI token', limit: 600, windowMs: 60_000 },
  bytesAnonymous: {
    name: 'upload bytes without a token',
    limit: 100 * 1024 * 1024,
    windowMs: 60_000,
    unit: 'bytes',
  },
  bytesToken: { name: 'upload bytes per CI token', limit: 2 * 1024 ** 3, windowMs: 60_000, unit: 'bytes' },
  reads: { name: 'reads', limit: 600, windowMs: 60_000 },
  notFound: { name: 'unknown ids', limit: 60, windowMs: 60_000 },
};

export type CreateAppOptions = {
  store: RunStore;
  config?: Partial<AppConfig>;
  logger?: Logger;
  rateLimits?: Partial<Record<keyof Limiters, RateLimitRule>>;
  pool?: ParsePool;
  /**
   * Express `trust proxy` (behind a load balancer the client address is in X-Forwarded-For): a hop
   * count or the proxies' addresses, never `true` (config.ts parseTrustProxy).
   */
  trustProxy?: TrustProxy;
};

/**
 * The byte budgets never refuse an upload the size limit allows: at least two maximal uploads a
 * minute without a token, forty with one (BLOCKWISE_MAX_UPLOAD_MB may raise the limit past 50 MiB).
 */
export function byteBudgetsFor(
  maxUploadBytes: number,
): Record<'bytesAnonymous' | 'bytesToken', RateLimitRule> {
  const { bytesAnonymous, bytesToken } = DEFAULT_RATE_LIMITS;
  return {
    bytesAnonymous: { ...bytesAnonymous, limit: Math.max(bytesAnonymous.limit, 2 * maxUploadBytes) },
    bytesToken: { ...bytesToken, limit: Math.max(bytesToken.limit, 40 * maxUploadBytes) },
  };
}

/**
 * Limits that guard the shared archive count in the store (one budget across PostgreSQL
 * replicas); reads guard this process's own event loop, so each replica counts its own.
 */
function limitersFor(
  store: RateLimitRecords,
  rules: Record<keyof Limiters, RateLimitRule>,
  logger: Logger,
): Limiters {
  const shared = storeCounter(store, logger);
  const local = memoryCounter();
  const limiter = (name: keyof Limiters, counter = shared) => new RateLimiter(rules[name], counter, name);
  return {
    writesAnonymous: limiter('writesAnonymous'),
    writesToken: limiter('writesToken'),
    bytesAnonymous: limiter('bytesAnonymous'),
    bytesToken: limiter('bytesToken'),
    reads: limiter('reads', local),
    notFound: limiter('notFound'),
  };
}

/**
 * `req.ip` of a request Express has not seen: Express's own getter (its `trust proxy` setting and
 * X-Forwarded-For parsing), read through an object that sees the request's headers and socket and
 * the app. The setting is read from the app on each request, as Express reads it, so an
 * `app.set('trust proxy', …)` after creation changes both alike. cached-run-reads.test.ts checks
 * it against Express's limits behind a proxy.
 */
function expressClientAddress(app: Express): (req: IncomingMessage) => string | undefined {
  const request = app.request as object;
  return (req) => {
    // Trusting no proxy, Express's answer is the socket's address (proxy-addr with nothing
    // trusted), without the getter's ~5–13 µs a request.
    if (app.get('trust proxy') === false) return req.socket.remoteAddress;
    const view = Object.create(req, { app: { value: app } }) as object;
    return Reflect.get(request, 'ip', view) as string | undefined;
  };
}

/** The HTTP application, without listen(): tests drive it through supertest, `serve` listens. */
export function createApp(options: CreateAppOptions): {
  app: Express;
  ctx: AppContext;
  close: () => Promise<void>;
} {
  const config = { ...DEFAULT_CONFIG, ...options.config };
  const rules = {
    ...DEFAULT_RATE_LIMITS,
    ...byteBudgetsFor(config.maxUploadBytes),
    ...options.rateLimits,
  };
  const logger = options.logger ?? createLogger();
  const ownPool = !options.pool;
  const pool = options.pool ?? new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000 });
  // A server's own pool has its worker started before the first large upload needs it. A worker
  // plans with the catalog installed when it starts: `serve` applies --catalog before this.
  if (ownPool) pool.keepWarm();
  const ctx: AppContext = {
    store: options.store,
    pool,
    tokens: new TokenGate(options.store, config.auth),
    limiters: limitersFor(options.store, rules, logger),
    config,
    logger,
    // Its own registry per app: tests create many apps in one process.
    metrics: config.metrics === 'off' ? null : new AppMetrics(options.store, pool),
  };
  const metrics = ctx.metrics;

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.set('query parser', 'simple');
  app.use(requestLogging(logger, metrics ? (req, res, s) => metrics.observeRequest(req, res, s) : undefined));
  app.use(securityHeaders());
  app.use(sameOriginWrites(config));
  app.use('/api', refuseRepeatedQuery);
  app.use(healthRouter(ctx));
  app.use(metricsRouter(ctx));
  app.use(openApiRouter());
  const answers = new RunAnswers();
  app.use(runsRouter(ctx, answers));
  app.use(comparisonsRouter(ctx));
  app.use(seriesRouter(ctx));
  app.use(catalogRouter(ctx));
  app.use(fleetRouter(ctx));
  app.use('/api', (req, _res, next) =>
    next(new HttpError(404, 'not_found', `no API route ${req.method} ${req.baseUrl}${req.path}`)),
  );
  // Before the web router's express.static: built assets go out gzip'd (P11).
  app.use(compressedAssets(config.webDist));
  app.use(webRouter(ctx));
  app.use((req, _res, next) => next(new HttpError(404, 'not_found', `nothing at ${req.path}`)));
  app.use(errorHandler);

  // A run's answer this process holds is sent before Express sees the request (bench P3): the
  // same bytes and headers, through the same log, limit and metrics (cached-run-reads.ts).
  const serveCached = cachedRunReads({
    answers,
    limiter: ctx.limiters.reads,
    logger,
    clientAddress: expressClientAddress(app),
    securityHeaders: securityHeaderSetter(),
    etag: runAnswerEtag,
    observe: metrics
      ? (status, seconds) => metrics.observeRoute('GET', RUN_READ_ROUTE, status, seconds)
      : undefined,
  });
  // The Express app, called as a function, hands every request to its `handle` (express/lib/
  // express.js createApplication), for `serve`'s node:http server and supertest alike. Not in
  // Express's types: cached-run-reads.test.ts fails if a request stops coming through it.
  const dispatch = app as unknown as {
    handle: (req: IncomingMessage, res: ServerResponse, next?: unknown) => void;
  };
  const expressHandle = dispatch.handle.bind(app);
  dispatch.handle = (req, res, next) => {
    if (!serveCached(req, res)) expressHandle(req, res, next);
  };

  return {
    app,
    ctx,
    close: async () => {
      if (ownPool) await ctx.pool.close();
    },
  };
}
