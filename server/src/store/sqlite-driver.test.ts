import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadNamedSqliteDriver,
  loadSqliteDriver,
  sqliteCodeName,
  type SqliteDriver,
} from './sqlite-driver.ts';

const dir = mkdtempSync(join(tmpdir(), 'blockwise-sqlite-driver-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** node:sqlite is unflagged from Node 22.13 (the package's engines); Node 20 runs only the rest. */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const hasNodeSqlite = major > 22 || (major === 22 && minor >= 13);

describe('sqliteCodeName: node:sqlite’s numeric codes as better-sqlite3 names them', () => {
  it.each([
    [5, 'SQLITE_BUSY'],
    [517, 'SQLITE_BUSY_SNAPSHOT'],
    [13, 'SQLITE_FULL'],
    [8, 'SQLITE_READONLY'],
    [1032, 'SQLITE_READONLY_DBMOVED'],
    [778, 'SQLITE_IOERR_WRITE'],
    // An extended code not in the table keeps its primary code's name (the store maps by prefix).
    [3850, 'SQLITE_IOERR'],
    [2067, 'SQLITE_CONSTRAINT_UNIQUE'],
  ])('%i → %s', (errcode, name) => {
    expect(sqliteCodeName(errcode)).toBe(name);
  });
});

describe('loadSqliteDriver', () => {
  it('refuses a driver name it does not know, naming the variable and the choices', async () => {
    await expect(loadSqliteDriver('sqlite3')).rejects.toThrow(
      'BLOCKWISE_SQLITE_DRIVER: expected one of better-sqlite3, node:sqlite, got "sqlite3"',
    );
  });
});

describe.runIf(hasNodeSqlite)('node:sqlite in better-sqlite3’s shape', () => {
  // Loaded in a hook: the body of a skipped describe still runs (on Node 20 the import would throw).
  let driver: SqliteDriver;
  beforeAll(async () => {
    driver = await loadNamedSqliteDriver('node:sqlite');
  });
  const open = () => {
    const db = driver.open(join(dir, `${Math.random().toString(36).slice(2)}.db`));
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body BLOB)');
    return db;
  };

  it('a transaction commits; a throw rolls it back; a nested one is a savepoint undone alone', () => {
    const db = open();
    const insert = db.prepare('INSERT INTO t (id, body) VALUES (?, ?)');
    db.transaction(() => insert.run(1, Buffer.from('a'))).immediate();
    expect(() =>
      db.transaction(() => {
        insert.run(2, Buffer.from('b'));
        throw new Error('undo');
      })(),
    ).toThrow('undo');
    db.transaction(() => {
      insert.run(3, Buffer.from('c'));
      expect(() => db.transaction(() => insert.run(1, Buffer.from('dup')))()).toThrow();
      expect(db.inTransaction).toBe(true);
    }).immediate();
    expect(db.inTransaction).toBe(false);
    expect(db.prepare('SELECT id FROM t ORDER BY id').all()).toEqual([{ id: 1 }, { id: 3 }]);
    db.close();
    expect(db.open).toBe(false);
  });

  it('errors are SqliteErrors with the result code name; BLOBs come back as Buffer', () => {
    const db = open();
    db.prepare('INSERT INTO t (id, body) VALUES (?, ?)').run(1, Buffer.from([1, 2, 3]));
    let error: unknown;
    try {
      db.prepare('INSERT INTO t (id, body) VALUES (?, ?)').run(1, null);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(driver.SqliteError);
    expect(error).toMatchObject({ name: 'SqliteError', code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    const row = db.prepare('SELECT body FROM t WHERE id = ?').get(1) as { body: Buffer };
    expect(Buffer.isBuffer(row.body)).toBe(true);
    expect([...row.body]).toEqual([1, 2, 3]);
    expect(db.pragma('journal_mode = WAL', { simple: true })).toBe('wal');
    db.close();
  });

  it('a write lock another connection holds is SQLITE_BUSY once busy_timeout passes', () => {
    const db = open();
    const other = driver.open(db.name);
    other.exec('BEGIN IMMEDIATE');
    db.pragma('busy_timeout = 0');
    expect(() => db.transaction(() => db.exec('DELETE FROM t')).immediate()).toThrow(
      expect.objectContaining({ code: 'SQLITE_BUSY' }),
    );
    other.exec('COMMIT');
    other.close();
    db.close();
  });

  it('fileMustExist: a missing file is SQLITE_CANTOPEN, not a new empty database', () => {
    expect(() => driver.open(join(dir, 'missing.db'), { fileMustExist: true })).toThrow(
      expect.objectContaining({ code: 'SQLITE_CANTOPEN' }),
    );
  });
});
