import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AppConfig } from './context.ts';

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

function positiveNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}: expected a positive number, got "${raw}"`);
  return n;
}

/** Server configuration from the environment (flags override it in `blockwise serve`). */
export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
): Partial<AppConfig> & { requestTimeoutMs: number } {
  const maxMb = positiveNumber(env, 'BLOCKWISE_MAX_UPLOAD_MB');
  return {
    ...(maxMb ? { maxUploadBytes: Math.round(maxMb * 1024 * 1024) } : {}),
    publicUrl: env.BLOCKWISE_PUBLIC_URL ?? null,
    webDist: findWebDist(env),
    cliBundle: findCliBundle(),
    // Slow-body clients (1 byte/s) are cut off after this (Node's default is 300 s; R13).
    requestTimeoutMs: positiveNumber(env, 'BLOCKWISE_REQUEST_TIMEOUT_MS') ?? 60_000,
  };
}
