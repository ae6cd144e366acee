import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * What the golden tests share (parse-fio.golden.test.ts, the server's pair-comparison.golden.test.ts):
 * the fio files they run over, how an output is digested, and how a golden file is read — or
 * rewritten for an intended change of output with BLOCKWISE_WRITE_GOLDEN=1.
 */

export const FIO_FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');

/** Every fio output in fixtures/fio ("generated/….json", fio's text too), oracles left out. */
export const goldenFioFiles = (): string[] =>
  ['generated', 'public', 'derived', 'settings'].flatMap((dir) =>
    readdirSync(join(FIO_FIXTURES, dir))
      .filter((f) => /\.(json|txt)$/.test(f) && !f.endsWith('.oracle.json'))
      .map((f) => `${dir}/${f}`),
  );

/** The first 64 bits of the SHA-256 of the texts, each followed by a newline: ample to tell two outputs apart. */
export function digestTexts(texts: readonly string[]): string {
  const hash = createHash('sha256');
  for (const text of texts) hash.update(text).update('\n');
  return hash.digest('hex').slice(0, 16);
}

/** The recorded digests at `path`; with BLOCKWISE_WRITE_GOLDEN=1, `actual` is written there first. */
export function readGolden(path: string, actual: Record<string, string>): Record<string, string> {
  if (process.env.BLOCKWISE_WRITE_GOLDEN === '1') writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
}
