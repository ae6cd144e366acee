import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig, AuthMode, TrustProxy } from './context.ts';

/**
 * Finds the built web app: BLOCKWISE_WEB_DIST, else `web/dist` found by walking up from this
 * module (server/dist/blockwise.mjs in the bundle, server/src/… from source).
 */
export function findWebDist(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.BLOCKWISE_WEB_DIST)
    return existsSync(join(env.BLOCKWISE_WEB_DIST, 'index.html')) ? resolve(env.BLOCKWISE_WEB_DIST) : null;
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

function positiveNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new ConfigError(`${name}: expected a positive number, got "${raw}"`);
  return n;
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

/** Server configuration from the environment (flags override it in `blockwise serve`). */
export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Partial<AppConfig> & { requestTimeoutMs: number; trustProxy: TrustProxy } {
  const maxMb = positiveNumber(env, 'BLOCKWISE_MAX_UPLOAD_MB');
  return {
    ...(maxMb ? { maxUploadBytes: Math.round(maxMb * 1024 * 1024) } : {}),
    publicUrl: parsePublicUrl(env.BLOCKWISE_PUBLIC_URL),
    auth: parseAuthMode(env.BLOCKWISE_AUTH),
    trustProxy: parseTrustProxy(env.BLOCKWISE_TRUST_PROXY),
    webDist: findWebDist(env),
    cliBundle: findCliBundle(),
    // Slow-body clients (1 byte/s) are cut off after this (Node's default is 300 s; R13).
    requestTimeoutMs: positiveNumber(env, 'BLOCKWISE_REQUEST_TIMEOUT_MS') ?? 60_000,
  };
}
