import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Real fio outputs from /fixtures, by path below it. */
export function fixturePath(path: string): string {
  return fileURLToPath(new URL(`../../../fixtures/${path}`, import.meta.url));
}

export function fixtureBytes(path: string): Buffer {
  return readFileSync(fixturePath(path));
}

/**
 * Screenshots and exported files kept as test artifacts (e2e/artifacts/, uploaded by CI when it
 * keeps artifacts). The folder is gitignored, so a fresh clone lacks it: made here, whichever
 * spec writes first.
 */
export function artifactPath(name: string): string {
  const path = fileURLToPath(new URL(`../../artifacts/${name}`, import.meta.url));
  mkdirSync(dirname(path), { recursive: true });
  return path;
}
