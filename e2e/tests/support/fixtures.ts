import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Real fio outputs from /fixtures, by path below it. */
export function fixturePath(path: string): string {
  return fileURLToPath(new URL(`../../../fixtures/${path}`, import.meta.url));
}

export function fixtureBytes(path: string): Buffer {
  return readFileSync(fixturePath(path));
}

/** Screenshots kept as test artifacts (e2e/artifacts/, uploaded by CI when it keeps artifacts). */
export function artifactPath(name: string): string {
  return fileURLToPath(new URL(`../../artifacts/${name}`, import.meta.url));
}
