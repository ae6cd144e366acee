import { DEFAULT_SQLITE_PATH, StoreConfigError, type RunStore } from './run-store.ts';
import type { Problem, Result } from '@blockwise/shared/problem';

/** Where the archive lives, from the `BLOCKWISE_DATABASE`-style URL the server is given. */
export type StoreTarget = { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string };

export const ACCEPTED_STORE_URLS =
  'nothing (SQLite at ./data/blockwise.db), sqlite:PATH, sqlite::memory:, a file path, ' +
  'postgres://… or postgresql://…';

/**
 * Reads a store URL. Accepted: undefined → SQLite at ./data/blockwise.db; `sqlite:PATH` (also
 * `sqlite://PATH`, so `sqlite:///var/lib/x.db` is an absolute path); a plain path (`./x.db`,
 * `/var/lib/x.db`, `:memory:`); `postgres://…` / `postgresql://…`. Anything else with a scheme
 * (mysql://, file:, http://) is refused rather than taken for a file name. Messages never echo
 * the URL, which may carry a password.
 */
export function parseStoreUrl(url: string | undefined): Result<StoreTarget, Problem> {
  if (url === undefined) return { ok: true, value: { dialect: 'sqlite', path: DEFAULT_SQLITE_PATH } };
  const trimmed = url.trim();
  const problem = (message: string) => ({
    ok: false as const,
    error: { code: 'invalid_store_url', message: `${message}; accepted: ${ACCEPTED_STORE_URLS}` },
  });
  if (trimmed === '') return problem('the store URL is empty');
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return { ok: true, value: { dialect: 'postgres', url: trimmed } };
  const sqlite = /^sqlite:(?:\/\/)?(.*)$/i.exec(trimmed);
  if (sqlite) {
    const path = sqlite[1] ?? '';
    if (path === '') return problem('sqlite: needs a path');
    return { ok: true, value: { dialect: 'sqlite', path } };
  }
  // A scheme is letters, digits, + - . followed by ':' — two letters at least, so a Windows drive
  // letter (C:\…) is still a path.
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(trimmed);
  if (scheme) return problem(`unsupported store URL scheme "${scheme[1]}:"`);
  return { ok: true, value: { dialect: 'sqlite', path: trimmed } };
}

/**
 * Opens the store a URL names, running migrations. The driver modules load lazily, so a SQLite
 * deployment never loads `pg` and a PostgreSQL one never loads the native SQLite addon.
 * Rejects with StoreConfigError for an unusable URL, StoreUnavailableError when the database
 * cannot be reached.
 */
export async function openStore(
  url: string | undefined,
  options: { now?: () => number } = {},
): Promise<RunStore> {
  const target = parseStoreUrl(url);
  if (!target.ok) throw new StoreConfigError(target.error.message);
  if (target.value.dialect === 'postgres') {
    const { openPostgresStore } = await import('./postgres-store.ts');
    return openPostgresStore({ url: target.value.url, ...options });
  }
  const { openSqliteStore } = await import('./sqlite-store.ts');
  return openSqliteStore({ path: target.value.path, ...options });
}
