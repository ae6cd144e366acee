import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { AppConfig, AppContext, Limiters } from './context.ts';
import { TokenGate } from './http/auth.ts';
import { compressedAssets } from './http/compressed-assets.ts';
import { HttpError, errorHandler } from './http/errors.ts';
import { createLogger, requestLogging } from './http/logging.ts';
import { RateLimiter, type RateLimitRule } from './http/rate-limit.ts';
import { securityHeaders } from './http/security.ts';
import { ParsePool } from './ingest/parse-pool.ts';
import { comparisonsRouter } from './routes/comparisons/comparisons.router.ts';
import { healthRouter } from './routes/health/health.router.ts';
import { openApiRouter } from './routes/openapi/openapi.ts';
import { runsRouter } from './routes/runs/runs.router.ts';
import { seriesRouter } from './routes/series/series.router.ts';
import { webRouter } from './routes/share/share.router.ts';
import type { RunStore } from './store/run-store.ts';

export const DEFAULT_CONFIG: AppConfig = {
  maxUploadBytes: 50 * 1024 * 1024,
  largeBodyBytes: 1024 * 1024,
  publicUrl: null,
  webDist: null,
  cliBundle: null,
};

/**
 * Rate limits (docs/performance.md R8): anonymous uploads 30/min per address, CI tokens 600/min
 * per token, reads 600/min per address, unknown ids 60/min per address (anti-enumeration).
 */
export const DEFAULT_RATE_LIMITS: Record<keyof Limiters, RateLimitRule> = {
  writesAnonymous: { name: 'uploads without a token', limit: 30, windowMs: 60_000 },
  writesToken: { name: 'uploads per CI token', limit: 600, windowMs: 60_000 },
  reads: { name: 'reads', limit: 600, windowMs: 60_000 },
  notFound: { name: 'unknown ids', limit: 60, windowMs: 60_000 },
};

export type CreateAppOptions = {
  store: RunStore;
  config?: Partial<AppConfig>;
  logger?: Logger;
  rateLimits?: Partial<Record<keyof Limiters, RateLimitRule>>;
  pool?: ParsePool;
  /** Express `trust proxy` (behind a load balancer the client address is in X-Forwarded-For). */
  trustProxy?: boolean | number | string;
};

/** The HTTP application, without listen(): tests drive it through supertest, `serve` listens. */
export function createApp(options: CreateAppOptions): {
  app: Express;
  ctx: AppContext;
  close: () => Promise<void>;
} {
  const config = { ...DEFAULT_CONFIG, ...options.config };
  const rules = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  const logger = options.logger ?? createLogger();
  const ownPool = !options.pool;
  const ctx: AppContext = {
    store: options.store,
    pool: options.pool ?? new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000 }),
    tokens: new TokenGate(options.store),
    limiters: {
      writesAnonymous: new RateLimiter(rules.writesAnonymous),
      writesToken: new RateLimiter(rules.writesToken),
      reads: new RateLimiter(rules.reads),
      notFound: new RateLimiter(rules.notFound),
    },
    config,
    logger,
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy ?? false);
  app.set('query parser', 'simple');
  app.use(requestLogging(logger));
  app.use(securityHeaders());
  app.use(healthRouter(ctx));
  app.use(openApiRouter());
  app.use(runsRouter(ctx));
  app.use(comparisonsRouter(ctx));
  app.use(seriesRouter(ctx));
  app.use('/api', (req, _res, next) =>
    next(new HttpError(404, 'not_found', `no API route ${req.method} ${req.baseUrl}${req.path}`)),
  );
  // Before the web router's express.static: built assets go out gzip'd (P11).
  app.use(compressedAssets(config.webDist));
  app.use(webRouter(ctx));
  app.use((req, _res, next) => next(new HttpError(404, 'not_found', `nothing at ${req.path}`)));
  app.use(errorHandler);

  return {
    app,
    ctx,
    close: async () => {
      if (ownPool) await ctx.pool.close();
    },
  };
}
