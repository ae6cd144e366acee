import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newId } from './ids.ts';
import { StoreUnavailableError } from './run-store.ts';
import { loadSqliteDriver } from './sqlite-driver.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { fileIdentity } from './sqlite-writes.ts';
import { WorkerWriteChannel, type PragmaCheck } from './write-channel.ts';

const dir = mkdtempSync(join(tmpdir(), 'blockwise-write-channel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A migrated database file, closed again: the writer opens only a file that exists. */
async function migratedFile(): Promise<string> {
  const path = join(dir, `${newId()}.db`);
  await (await openSqliteStore({ path })).close();
  return path;
}

// The driver the store picks here (BLOCKWISE_SQLITE_DRIVER=node:sqlite runs this file on Node's own).
const driver = await loadSqliteDriver();

const startWriter = (path: string, check: PragmaCheck = () => []) =>
  WorkerWriteChannel.start(
    { path, busyTimeoutMs: 5000, file: fileIdentity(path), synchronous: 2, driver: driver.name },
    driver.SqliteError,
    check,
  );

const tokenInsert = (name: string) => ({
  sql: 'INSERT INTO tokens (id, name, token_sha256, created_at) VALUES (?, ?, ?, ?)',
  params: [newId(), name, 'a'.repeat(64), 1],
});

function tokenNames(path: string): string[] {
  const db = driver.open(path);
  try {
    return (db.prepare('SELECT name FROM tokens').all() as Array<{ name: string }>).map((row) => row.name);
  } finally {
    db.close();
  }
}

/** Whether some other connection still has the file open (leaving WAL mode needs it alone). */
function fileHeldOpen(path: string): boolean {
  const db = driver.open(path);
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('journal_mode = DELETE');
    return db.pragma('journal_mode', { simple: true }) !== 'delete';
  } catch {
    return true;
  } finally {
    db.close();
  }
}

describe('WorkerWriteChannel: a writer started again after a crash', () => {
  it('serves the next write', async () => {
    const path = await migratedFile();
    const { channel } = await startWriter(path);
    await channel.crashWriterForTest();
    expect(await channel.call('run', tokenInsert('after-crash'))).toBe(1);
    await channel.close();
    expect(tokenNames(path)).toEqual(['after-crash']);
  });

  it('close() while it starts: the write is refused as closed, nothing commits, no thread is left', async () => {
    const path = await migratedFile();
    const { channel } = await startWriter(path);
    await channel.crashWriterForTest();
    const write = channel.call('run', tokenInsert('after-close'));
    const closing = channel.close();
    await expect(write).rejects.toMatchObject({ name: 'StoreUnavailableError', fault: 'closed' });
    await closing;
    expect(tokenNames(path)).toEqual([]);
    expect(fileHeldOpen(path)).toBe(false);
  });

  it('is held to the pragmas the first one was: a mismatch refuses the write (503), nothing commits', async () => {
    const path = await migratedFile();
    let starts = 0;
    const { channel, mismatches } = await startWriter(path, () =>
      starts++ === 0 ? [] : ['synchronous is 1, expected 2 (FULL)'],
    );
    expect(mismatches).toEqual([]);
    await channel.crashWriterForTest();
    const refused = channel.call('run', tokenInsert('on-a-misconfigured-writer'));
    await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(refused).rejects.toThrow(/not durable as configured: synchronous is 1/);
    expect(starts).toBe(2);
    await channel.close();
    expect(tokenNames(path)).toEqual([]);
    expect(fileHeldOpen(path)).toBe(false);
  });
});

describe('WorkerWriteChannel: what crosses to the writer', () => {
  it('a write that cannot be sent (one buffer moved twice) is refused, not left pending; the next one goes', async () => {
    const path = await migratedFile();
    const { channel } = await startWriter(path);
    try {
      const buffer = new ArrayBuffer(8);
      await expect(channel.move('run', [tokenInsert('never')], [buffer, buffer])).rejects.toThrow();
      expect(channel.pending).toBe(0);
      expect(await channel.call('run', tokenInsert('next'))).toBe(1);
    } finally {
      await channel.close();
    }
    expect(tokenNames(path)).toEqual(['next']);
  });

  it('select reads on the writer’s connection; a BLOB comes back moved, a Buffer again', async () => {
    const path = await migratedFile();
    const { channel } = await startWriter(path);
    try {
      const row = await channel.call('select', {
        sql: "SELECT CAST(? AS BLOB) AS bytes, 'x' AS text",
        params: [Buffer.from('{"a":"é"}')],
      });
      expect(Buffer.isBuffer(row?.bytes)).toBe(true);
      expect((row?.bytes as Buffer).toString('utf8')).toBe('{"a":"é"}');
      expect(row?.text).toBe('x');
      expect(await channel.call('select', { sql: 'SELECT 1 AS one WHERE 0', params: [] })).toBeNull();
    } finally {
      await channel.close();
    }
  });
});
