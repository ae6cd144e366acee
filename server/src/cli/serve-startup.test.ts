import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PG_URL, probePg } from '../testing/pg-archive.ts';
import { runCli } from '../testing/run-cli.ts';

/**
 * `blockwise serve` with an archive it cannot open exits 1 with one line that says why — never a
 * stack trace, never the URL (it may carry a password).
 */
const dir = mkdtempSync(join(tmpdir(), 'bw-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function expectOneLine(stderr: string, pattern: RegExp): void {
  expect(stderr).toMatch(pattern);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at |internal error/);
}

const reachable = (await probePg()).ok;

describe('blockwise serve: an archive that cannot be opened', () => {
  it('SQLite under a path that is a file: one line naming the file', async () => {
    const file = join(dir, 'not-a-directory');
    writeFileSync(file, 'x');
    const r = await runCli(['serve', '--port', '0', '--db', `sqlite:${join(file, 'blockwise.db')}`]);
    expect(r.code).toBe(1);
    expectOneLine(
      r.stderr,
      /^blockwise serve: cannot open the archive: cannot create the directory .*not-a-directory.*not-a-directory is not a directory$/m,
    );
  });

  it('SQLite at a directory: one line', async () => {
    const r = await runCli(['serve', '--port', '0', '--db', `sqlite:${dir}`]);
    expect(r.code).toBe(1);
    expectOneLine(
      r.stderr,
      /^blockwise serve: cannot open the archive: the SQLite archive .* cannot be opened/,
    );
  });

  it('a PostgreSQL URL that is not a URL (port 99999): one line, without the password', async () => {
    const r = await runCli([
      'serve',
      '--port',
      '0',
      '--db',
      'postgres://bw:hunter2-secret@127.0.0.1:99999/x',
    ]);
    expect(r.code).toBe(1);
    expectOneLine(
      r.stderr,
      /^blockwise serve: cannot open the archive: the PostgreSQL URL is not a valid URL/,
    );
    expect(r.stderr).not.toContain('hunter2');
  });

  it.skipIf(!reachable)(
    'a PostgreSQL database that does not exist: one line with PostgreSQL’s reason',
    async () => {
      const url = new URL(PG_URL);
      url.password = 'hunter2-secret';
      url.pathname = `/bw_missing_${randomBytes(6).toString('hex')}`;
      const r = await runCli(['serve', '--port', '0', '--db', url.toString()]);
      expect(r.code).toBe(1);
      expectOneLine(
        r.stderr,
        /^blockwise serve: cannot open the archive: PostgreSQL refused to open the archive: database "bw_missing_[0-9a-f]+" does not exist \(SQLSTATE 3D000\)/,
      );
      expect(r.stderr).not.toContain('hunter2');
    },
  );
});
