import type { Request } from 'express';
import type { Logger } from 'pino';
import type { TokenGate } from './http/auth.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { ParsePool } from './ingest/parse-pool.ts';
import type { RunStore } from './store/run-store.ts';

/** Server settings, validated once from flags and environment (see config.ts). */
export type AppConfig = {
  /** Largest accepted upload, after decompression (default 50 MiB). */
  maxUploadBytes: number;
  /** Bodies above this are analyzed in a worker thread and admitted only while the pool has room. */
  largeBodyBytes: number;
  /** Absolute base URL for links in responses (`https://blockwise.example.com`); else from the request. */
  publicUrl: string | null;
  /** Built web app (web/dist) to serve; null: API only, with a minimal HTML share page. */
  webDist: string | null;
  /** The bundled CLI to serve at /cli/blockwise.mjs for CI machines (null when running from source). */
  cliBundle: string | null;
};

export type Limiters = {
  writesAnonymous: RateLimiter;
  writesToken: RateLimiter;
  reads: RateLimiter;
  notFound: RateLimiter;
};

export type AppContext = {
  store: RunStore;
  pool: ParsePool;
  tokens: TokenGate;
  limiters: Limiters;
  config: AppConfig;
  logger: Logger;
};

export function baseUrl(ctx: AppContext, req: Request): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

export const runUrl = (base: string, id: string) => `${base}/runs/${id}`;
export const runApiUrl = (base: string, id: string) => `${base}/api/runs/${id}`;
export const rawUrl = (base: string, id: string) => `${base}/api/runs/${id}/raw`;
export const comparisonUrl = (base: string, id: string) => `${base}/c/${id}`;
