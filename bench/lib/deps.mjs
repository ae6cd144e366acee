// The bench uses the exact dependency versions the packages ship with (express, better-sqlite3,
// pg, fast-check and esbuild from server/, vite and recharts from web/) instead of its own copies:
// pnpm keeps each package's dependencies private, so they are resolved from that package.
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './common.mjs';

export const serverRequire = createRequire(join(ROOT, 'server', 'package.json'));
export const webRequire = createRequire(join(ROOT, 'web', 'package.json'));

/**
 * A package's directory as installed for `from` (pnpm links each direct dependency into the
 * package's own node_modules; this also works for packages whose `exports` hide package.json).
 */
export function packageDir(from, name) {
  return realpathSync(join(dirname(from.resolve.paths('x')[0]), 'node_modules', name));
}

/** Imports an ESM package installed for `from`, by its package.json `exports["."]` (or main). */
export async function importFrom(from, name) {
  const dir = packageDir(from, name);
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  let entry = pkg.exports?.['.'] ?? pkg.exports ?? pkg.module ?? pkg.main;
  while (entry && typeof entry === 'object') entry = entry.import ?? entry.default ?? entry.node;
  return import(pathToFileURL(join(dir, entry ?? 'index.js')).href);
}
