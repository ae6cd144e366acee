import type { Logger } from 'pino';
import type { AuthMode, TokenGate } from './http/auth.ts';
import type { AppMetrics } from './http/metrics.ts';
import type { RateLimiter } from './http/rate-limit.ts';
import type { ParsePool } from './ingest/parse-pool.ts';
import type { RunStore } from './store/run-store.ts';

/** Server settings, validated once from flags and environment (see config.ts). */
export type AppConfig = {
  /** Largest accepted upload, after decompression (default 50 MiB). */
  maxUploadBytes: number;
  /** Bodies above this (128 KiB) are analyzed in a worker thread and admitted only while the pool has room. */
  largeBodyBytes: number;
  /**
   * Absolute base of links in responses (`https://blockwise.example.com`, no trailing slash);
   * null: links are relative (`/runs/ID`), never built from the client-chosen Host header.
   */
  publicUrl: string | null;
  /**
   * BLOCKWISE_ALLOWED_HOSTS: names (`host` or `host:port`) browsers reach this server under,
   * besides loopback names and publicUrl's host; writes without a token from a browser that
   * addressed it under any other name are refused (http/origin.ts).
   */
  allowedHosts: readonly string[];
  /** Who may write and list: `auto` (the default) is open until the archive holds a token. */
  auth: AuthMode;
  /** Built web app (web/dist) to serve; null: API only, with a minimal HTML share page. */
  webDist: string | null;
  /** The bundled CLI to serve at /cli/blockwise.mjs for CI machines (null when running from source). */
  cliBundle: string | null;
  /** Who may read GET /metrics (BLOCKWISE_METRICS; see MetricsMode). */
  metrics: MetricsMode;
};

/**
 * BLOCKWISE_METRICS: `off` (no metrics are kept; GET /metrics answers 404), `open` (anyone who
 * reaches the server may scrape), `token` (the default: a CI token in `Authorization: Bearer`,
 * which Prometheus sends from `authorization.credentials_file`). See docs/operations.md.
 */
export const METRICS_MODES = ['off', 'open', 'token'] as const;
export type MetricsMode = (typeof METRICS_MODES)[number];

export type Limiters = {
  writesAnonymous: RateLimiter;
  writesToken: RateLimiter;
  /** Upload body bytes (inflated) per window, charged after the body is read and before it is parsed. */
  bytesAnonymous: RateLimiter;
  bytesToken: RateLimiter;
  reads: RateLimiter;
  notFound: RateLimiter;
};

export type AppContext = {
  /** The whole archive; a route or service is typed by the part(s) it uses (RouteContext). */
  store: RunStore;
  pool: ParsePool;
  tokens: TokenGate;
  limiters: Limiters;
  config: AppConfig;
  logger: Logger;
  /** This app's Prometheus metrics; null when BLOCKWISE_METRICS is off. */
  metrics: AppMetrics | null;
};

/** The context without the archive: what a route that reads no record receives (catalog, metrics). */
export type StorelessContext = Omit<AppContext, 'store'>;

/**
 * What a route or service receives: the app's context with only the store parts it uses
 * (`RouteContext<RunRecords & ComparisonRecords>`), so its signature says which records it touches
 * and a test can hand it a store of those parts alone.
 */
export type RouteContext<S> = StorelessContext & { readonly store: S };

/**
 * `required`: every write and listing needs a token. `open`: tokens authenticate, anonymous
 * requests are allowed too. `auto`: open while the archive has never held a token, required from
 * the first one on (revoking them all does not re-open it).
 */
export type { AuthMode } from './http/auth.ts';

/** Express `trust proxy`: off, a hop count, or the proxies' addresses/CIDRs (never `true`). */
export type TrustProxy = false | number | string[];

/**
 * The prefix of links in responses: BLOCKWISE_PUBLIC_URL, else '' (relative links). Responses
 * such as GET /api/runs/:id are cached for a year, so nothing in them may come from the request.
 */
export function baseUrl(ctx: StorelessContext): string {
  return ctx.config.publicUrl ?? '';
}

export const runUrl = (base: string, id: string) => `${base}/runs/${id}`;
export const rawUrl = (base: string, id: string) => `${base}/api/runs/${id}/raw`;
export const comparisonUrl = (base: string, id: string) => `${base}/c/${id}`;
/**
 * The regression check's link to the comparison of a run with its baseline before it exists:
 * opening it freezes that comparison once and redirects to its comparisonUrl (series.router.ts).
 */
export const pairComparisonUrl = (base: string, baselineId: string, runId: string) =>
  `${base}/c/pair/${baselineId}/${runId}`;
