import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAX_UPLOAD_BYTES } from '@blockwise/shared/api';
import { z } from 'zod';
import {
  METRICS_MODES,
  type AppConfig,
  type AuthMode,
  type MetricsMode,
  type TrustProxy,
} from './context.ts';

/**
 * The server's version: the bundle's package.json version, written in by the build (esbuild
 * `define` of this very expression, server/scripts/build.mjs); from source, 0.1.0.
 */
export const APP_VERSION: string = process.env.BLOCKWISE_VERSION ?? '0.1.0';

/**
 * Finds the built web app: BLOCKWISE_WEB_DIST, else `web/dist` found by walking up from this
 * module (server/dist/blockwise.mjs in the bundle, server/src/… from source).
 */
export function findWebDist(explicit: string | undefined): string | null {
  if (explicit) return existsSync(join(explicit, 'index.html')) ? resolve(explicit) : null;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i += 1) {
    const candidate = join(dir, 'web', 'dist');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    dir = dirname(dir);
  }
  return null;
}

/** The bundled CLI, when running from the bundle (served to CI machines at /cli/blockwise.mjs). */
export function findCliBundle(): string | null {
  const self = fileURLToPath(import.meta.url);
  return self.endsWith('.mjs') && existsSync(self) ? self : null;
}

/** A setting that cannot be used as given: `serve` prints the message and exits 2. */
export class ConfigError extends Error {}

function parsePositiveNumber(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new ConfigError(`${name}: expected a positive number, got "${raw}"`);
  return n;
}

const MiB = 1024 * 1024;

/**
 * BLOCKWISE_MAX_UPLOAD_MB, in MiB (2^20 bytes, like MAX_UPLOAD_BYTES), as bytes. It may raise the
 * limit but never go below MAX_UPLOAD_BYTES: the web app accepts files up to that size before
 * asking the server, so a lower limit would fail "Save & share" for a file it already planned with.
 */
export function parseMaxUploadBytes(raw: string | undefined): number | undefined {
  const name = 'BLOCKWISE_MAX_UPLOAD_MB';
  const mib = parsePositiveNumber(raw, name);
  if (mib === undefined) return undefined;
  const bytes = Math.round(mib * MiB);
  if (bytes < MAX_UPLOAD_BYTES)
    throw new ConfigError(
      `${name}: expected at least ${MAX_UPLOAD_BYTES / MiB} (MiB, the web app's limit), got "${raw}"`,
    );
  return bytes;
}

/**
 * `--auth` / BLOCKWISE_AUTH. Unset (or `auto`): open while the archive has never held a token,
 * required from the first `token create` on, for good (see http/auth.ts).
 */
export function parseAuthMode(raw: string | undefined, source = 'BLOCKWISE_AUTH'): AuthMode {
  if (raw === undefined || raw === '' || raw === 'auto') return 'auto';
  if (raw === 'required' || raw === 'open') return raw;
  throw new ConfigError(`${source}: expected required or open (unset: automatic), got "${raw}"`);
}

/**
 * BLOCKWISE_METRICS: who may read GET /metrics. Unset: `token` — the metrics say how busy the
 * server is, which routes fail and which Node version it runs, so a server reachable from the
 * internet (share links are public) does not show them to anyone; Prometheus sends a CI token
 * as easily as no token. `open` for a server only a private network reaches, `off` for none.
 */
export function parseMetricsMode(raw: string | undefined): MetricsMode {
  if (raw === undefined || raw.trim() === '') return 'token';
  const mode = METRICS_MODES.find((m) => m === raw.trim().toLowerCase());
  if (!mode)
    throw new ConfigError(`BLOCKWISE_METRICS: expected one of ${METRICS_MODES.join(', ')}, got "${raw}"`);
  return mode;
}

/** proxy-addr's named ranges, which Express's `trust proxy` accepts beside addresses and CIDRs. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 10;

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * BLOCKWISE_TRUST_PROXY → Express's `trust proxy`: a hop count (the client address is the one the
 * N-th proxy from us saw, so addresses a client prepends to X-Forwarded-For are ignored) or the
 * proxies' addresses/CIDRs. `true` is refused: it trusts every hop, so each client could choose
 * its own address and with it its rate-limit key.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined || raw.trim() === '') return false;
  const value = raw.trim();
  const fix = `set the number of proxies in front of Blockwise (e.g. BLOCKWISE_TRUST_PROXY=1 behind one load balancer) or their addresses (e.g. BLOCKWISE_TRUST_PROXY=10.0.0.0/8,loopback)`;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops >= 1 && hops <= MAX_HOPS) return hops;
    throw new ConfigError(
      `BLOCKWISE_TRUST_PROXY: a hop count must be 1–${MAX_HOPS}, got "${raw}" (unset it when no proxy is in front)`,
    );
  }
  if (/^(true|yes|on|all|\*)$/i.test(value))
    throw new ConfigError(
      `BLOCKWISE_TRUST_PROXY="${raw}" would trust every X-Forwarded-For hop, so any client could choose its address and escape the rate limits: ${fix}`,
    );
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.find((e) => !isProxyAddress(e));
  if (bad !== undefined)
    throw new ConfigError(
      `BLOCKWISE_TRUST_PROXY: "${bad}" is neither a hop count nor an IP address, CIDR or loopback/linklocal/uniquelocal: ${fix}`,
    );
  return entries;
}

/**
 * BLOCKWISE_PUBLIC_URL: the absolute base of links in responses (`https://blockwise.example.com`),
 * without a trailing slash. Unset, links are relative (`/runs/ID`): never built from the Host
 * header, which any client chooses.
 */
export function parsePublicUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  const url = URL.canParse(raw.trim()) ? new URL(raw.trim()) : null;
  if (
    !url ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash
  )
    throw new ConfigError(
      `BLOCKWISE_PUBLIC_URL: expected an http(s) URL without credentials, query or fragment, such as https://blockwise.example.com, got "${raw}"`,
    );
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * BLOCKWISE_ALLOWED_HOSTS: the names browsers use to reach this server when they are neither a
 * loopback name nor BLOCKWISE_PUBLIC_URL's host, comma-separated (`blockwise.internal,10.0.0.5:8080`;
 * a name without a port matches any port). Writes without a token from a browser that addressed
 * the server under another name are refused (a DNS rebinding page; http/origin.ts). Wildcards are
 * refused: they would let any name in.
 */
export function parseAllowedHosts(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((entry) => {
    const text = entry.trim().toLowerCase();
    const url =
      text && !text.includes('*') && URL.canParse(`http://${text}`) ? new URL(`http://${text}`) : null;
    // `x:80` is read as `x` by the http parser (80 is its default port); the port stays as written.
    if (
      !url ||
      (url.host !== text && `${url.host}:80` !== text) ||
      url.pathname !== '/' ||
      url.username ||
      url.password
    )
      throw new ConfigError(
        `BLOCKWISE_ALLOWED_HOSTS: "${entry.trim()}" is not a host name with an optional port (expected e.g. blockwise.internal or 10.0.0.5:8080, comma-separated)`,
      );
    return text;
  });
}

/** pino's levels: what BLOCKWISE_LOG_LEVEL may be. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function parseLogLevel(raw: string | undefined): LogLevel {
  if (raw === undefined || raw.trim() === '') return 'info';
  const level = LOG_LEVELS.find((l) => l === raw.trim().toLowerCase());
  if (!level)
    throw new ConfigError(`BLOCKWISE_LOG_LEVEL: expected one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
  return level;
}

/**
 * An environment variable through its parser, as a Zod schema: unset and empty mean the default,
 * and the parser's ConfigError (which names the variable and what it expects) is the issue.
 */
function envVar<T>(parse: (raw: string | undefined) => T) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): T => {
      try {
        return parse(raw);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message });
        return z.NEVER;
      }
    });
}

/**
 * Every environment variable the server reads, validated in one place (`blockwise serve` reads
 * them once, at start-up, and exits 2 naming the first one it cannot use). PORT, HOST,
 * DATABASE_URL and BLOCKWISE_CATALOG sit beside their flags in the CLI (cli/serve.ts, catalog/load.ts).
 */
export const ServerEnvSchema = z.object({
  BLOCKWISE_MAX_UPLOAD_MB: envVar(parseMaxUploadBytes), // MiB in, bytes out
  BLOCKWISE_REQUEST_TIMEOUT_MS: envVar((raw) => parsePositiveNumber(raw, 'BLOCKWISE_REQUEST_TIMEOUT_MS')),
  BLOCKWISE_PUBLIC_URL: envVar(parsePublicUrl),
  BLOCKWISE_ALLOWED_HOSTS: envVar(parseAllowedHosts),
  BLOCKWISE_AUTH: envVar((raw) => parseAuthMode(raw)),
  BLOCKWISE_TRUST_PROXY: envVar(parseTrustProxy),
  BLOCKWISE_LOG_LEVEL: envVar(parseLogLevel),
  BLOCKWISE_METRICS: envVar(parseMetricsMode),
  BLOCKWISE_WEB_DIST: z.string().optional(),
});
export type ServerEnv = z.output<typeof ServerEnvSchema>;

/** The environment through ServerEnvSchema; the first problem is a ConfigError naming the variable. */
export function readServerEnv(env: NodeJS.ProcessEnv = process.env): ServerEnv {
  const parsed = ServerEnvSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = issue.path.join('.');
  throw new ConfigError(issue.message.startsWith(name) ? issue.message : `${name}: ${issue.message}`);
}

/** The log level of the environment, for loggers made without one (an invalid one: `serve` refused it already). */
export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel {
  try {
    return parseLogLevel(env.BLOCKWISE_LOG_LEVEL);
  } catch {
    return 'info';
  }
}

/** Server configuration from the environment (flags override it in `blockwise serve`). */
export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Partial<AppConfig> & { requestTimeoutMs: number; trustProxy: TrustProxy; logLevel: LogLevel } {
  const e = readServerEnv(env);
  const maxUploadBytes = e.BLOCKWISE_MAX_UPLOAD_MB;
  return {
    ...(maxUploadBytes ? { maxUploadBytes } : {}),
    publicUrl: e.BLOCKWISE_PUBLIC_URL,
    allowedHosts: e.BLOCKWISE_ALLOWED_HOSTS,
    auth: e.BLOCKWISE_AUTH,
    trustProxy: e.BLOCKWISE_TRUST_PROXY,
    webDist: findWebDist(e.BLOCKWISE_WEB_DIST),
    cliBundle: findCliBundle(),
    // Slow-body clients (1 byte/s) are cut off after this (Node's default is 300 s; R13).
    requestTimeoutMs: e.BLOCKWISE_REQUEST_TIMEOUT_MS ?? 60_000,
    logLevel: e.BLOCKWISE_LOG_LEVEL,
    metrics: e.BLOCKWISE_METRICS,
  };
}
