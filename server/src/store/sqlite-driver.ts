import { existsSync } from 'node:fs';
import type { DatabaseSync, StatementSync } from 'node:sqlite';

/**
 * The SQLite driver behind the store: better-sqlite3 (a native addon: the monorepo's install
 * compiles it) or Node's built-in `node:sqlite` (no native build: Node 22.13+ and 24 ship it
 * unflagged), whichever loads — better-sqlite3 first where it is installed, as the store was built
 * and is tested on it; node:sqlite measured as fast for the store's work (bench P21d/e:
 * docs/install.md §3). `npx <package>` installs no native addon, so a published install runs on
 * `node:sqlite`.
 *
 * The store, its writer thread and its checkpoint worker use the small part of better-sqlite3's
 * API below (`SqliteConnection`); `NodeSqliteConnection` gives `node:sqlite` that same shape, its
 * errors included (a `SqliteError` whose `code` is SQLite's result code name, as better-sqlite3
 * throws), so everything above this module is the same code on both.
 */
export type SqliteDriverName = 'better-sqlite3' | 'node:sqlite';

export type SqliteRunResult = { changes: number };

export interface SqliteStatement {
  run(...params: unknown[]): SqliteRunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

// better-sqlite3's own transaction type takes any arguments; so must this one, to be the same shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFunction = (...params: any[]) => unknown;
type ArgumentTypes<F extends AnyFunction> = F extends (...args: infer A) => unknown ? A : never;

export type SqliteTransaction<F extends AnyFunction> = {
  (...params: ArgumentTypes<F>): ReturnType<F>;
  immediate(...params: ArgumentTypes<F>): ReturnType<F>;
};

export interface SqliteConnection {
  /** The path it was opened with. */
  readonly name: string;
  readonly memory: boolean;
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  /** `PRAGMA source`: its rows, or with `simple` the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
  /** BEGIN … COMMIT (ROLLBACK on a throw); called inside another transaction: a SAVEPOINT. */
  transaction<F extends AnyFunction>(fn: F): SqliteTransaction<F>;
  close(): unknown;
}

export type SqliteErrorClass = new (message: string, code: string) => Error & { code: string };

export type SqliteDriver = {
  readonly name: SqliteDriverName;
  open(path: string, options?: { fileMustExist?: boolean }): SqliteConnection;
  /** The class of the errors SQLite itself reports (its `code`: `SQLITE_BUSY`, `SQLITE_FULL_…`). */
  readonly SqliteError: SqliteErrorClass;
};

/** better-sqlite3's error shape, for node:sqlite's errors (name and code as better-sqlite3 sets them). */
export class NodeSqliteError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'SqliteError';
    this.code = code;
  }
}

/**
 * SQLite's result code names (sqlite.org/rescode.html), by number: the primary codes (low byte)
 * and the extended codes the store tells apart. The store maps codes by prefix (SQLITE_BUSY…), so
 * an extended code missing here still lands on its primary code's name.
 */
const PRIMARY_CODES: Record<number, string> = {
  1: 'SQLITE_ERROR',
  2: 'SQLITE_INTERNAL',
  3: 'SQLITE_PERM',
  4: 'SQLITE_ABORT',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  7: 'SQLITE_NOMEM',
  8: 'SQLITE_READONLY',
  9: 'SQLITE_INTERRUPT',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  12: 'SQLITE_NOTFOUND',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  15: 'SQLITE_PROTOCOL',
  17: 'SQLITE_SCHEMA',
  18: 'SQLITE_TOOBIG',
  19: 'SQLITE_CONSTRAINT',
  20: 'SQLITE_MISMATCH',
  21: 'SQLITE_MISUSE',
  23: 'SQLITE_AUTH',
  25: 'SQLITE_RANGE',
  26: 'SQLITE_NOTADB',
};
const EXTENDED_CODES: Record<number, string> = {
  517: 'SQLITE_BUSY_SNAPSHOT',
  1032: 'SQLITE_READONLY_DBMOVED',
  778: 'SQLITE_IOERR_WRITE',
  1034: 'SQLITE_IOERR_FSYNC',
  275: 'SQLITE_CONSTRAINT_CHECK',
  787: 'SQLITE_CONSTRAINT_FOREIGNKEY',
  1299: 'SQLITE_CONSTRAINT_NOTNULL',
  1555: 'SQLITE_CONSTRAINT_PRIMARYKEY',
  1811: 'SQLITE_CONSTRAINT_TRIGGER',
  2067: 'SQLITE_CONSTRAINT_UNIQUE',
};

/** The result code name of an extended result code number. */
export function sqliteCodeName(errcode: number): string {
  return EXTENDED_CODES[errcode] ?? PRIMARY_CODES[errcode & 0xff] ?? `SQLITE_UNKNOWN_${errcode}`;
}

/** node:sqlite's errors (code ERR_SQLITE_ERROR, the number in `errcode`) as better-sqlite3's. */
function asSqliteError(error: unknown): unknown {
  const { code, errcode } = (error ?? {}) as { code?: unknown; errcode?: unknown };
  if (code !== 'ERR_SQLITE_ERROR' || typeof errcode !== 'number') return error;
  const translated = new NodeSqliteError((error as Error).message, sqliteCodeName(errcode));
  translated.cause = error;
  return translated;
}

function guarded<T>(body: () => T): T {
  try {
    return body();
  } catch (error) {
    throw asSqliteError(error);
  }
}

/**
 * BLOBs come back as Uint8Array from node:sqlite, as Buffer from better-sqlite3: Buffer for both
 * (no copy). Also a row from the writer thread, whose Buffers crossed as plain Uint8Arrays
 * (structured clone; write-channel.ts).
 */
export function withBuffers(row: unknown): unknown {
  if (row === null || typeof row !== 'object') return row;
  const record = row as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value instanceof Uint8Array && !Buffer.isBuffer(value))
      record[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  }
  return record;
}

class NodeSqliteStatement implements SqliteStatement {
  constructor(private readonly statement: StatementSync) {}

  run(...params: unknown[]): SqliteRunResult {
    const result = guarded(() => this.statement.run(...(params as never[])));
    return { changes: Number(result.changes) };
  }

  get(...params: unknown[]): unknown {
    return withBuffers(guarded(() => this.statement.get(...(params as never[]))));
  }

  all(...params: unknown[]): unknown[] {
    return guarded(() => this.statement.all(...(params as never[]))).map(withBuffers);
  }
}

/**
 * A `node:sqlite` connection in better-sqlite3's shape. `isOpen` and `isTransaction` arrived in
 * Node 22.15/22.16: on 22.13–22.14 this connection keeps its own account of both (it opens, closes,
 * begins and ends every transaction itself; a transaction SQLite rolled back on its own — a full
 * disk — is seen when COMMIT then fails).
 */
export class NodeSqliteConnection implements SqliteConnection {
  readonly #db: DatabaseSync;
  readonly name: string;
  readonly memory: boolean;
  #open = true;
  #depth = 0;
  #savepoints = 0;

  constructor(
    DatabaseSyncClass: typeof DatabaseSync,
    path: string,
    options: { fileMustExist?: boolean } = {},
  ) {
    this.name = path;
    this.memory = path === ':memory:';
    if (options.fileMustExist && !this.memory && !existsSync(path)) {
      throw new NodeSqliteError(`unable to open database file: ${path} does not exist`, 'SQLITE_CANTOPEN');
    }
    this.#db = guarded(() => new DatabaseSyncClass(path));
  }

  get open(): boolean {
    const native = (this.#db as { isOpen?: boolean }).isOpen;
    return typeof native === 'boolean' ? native : this.#open;
  }

  get inTransaction(): boolean {
    const native = (this.#db as { isTransaction?: boolean }).isTransaction;
    return typeof native === 'boolean' ? native : this.#depth > 0;
  }

  prepare(sql: string): SqliteStatement {
    return new NodeSqliteStatement(guarded(() => this.#db.prepare(sql)));
  }

  exec(sql: string): void {
    guarded(() => this.#db.exec(sql));
  }

  pragma(source: string, options: { simple?: boolean } = {}): unknown {
    const rows = guarded(() => this.#db.prepare(`PRAGMA ${source}`).all());
    if (!options.simple) return rows;
    const first = rows[0];
    return first === undefined ? undefined : Object.values(first)[0];
  }

  transaction<F extends AnyFunction>(fn: F): SqliteTransaction<F> {
    const run = (begin: string, params: ArgumentTypes<F>): ReturnType<F> => {
      if (this.inTransaction) return this.#inSavepoint(fn, params);
      this.exec(begin);
      this.#depth += 1;
      try {
        const result = fn(...params) as ReturnType<F>;
        this.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.inTransaction) this.#quietly('ROLLBACK');
        throw error;
      } finally {
        this.#depth -= 1;
      }
    };
    const transaction = (...params: ArgumentTypes<F>) => run('BEGIN', params);
    transaction.immediate = (...params: ArgumentTypes<F>) => run('BEGIN IMMEDIATE', params);
    return transaction;
  }

  #inSavepoint<F extends AnyFunction>(fn: F, params: ArgumentTypes<F>): ReturnType<F> {
    const name = `bw_savepoint_${(this.#savepoints += 1)}`;
    this.exec(`SAVEPOINT ${name}`);
    try {
      const result = fn(...params) as ReturnType<F>;
      this.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      // The whole transaction may be gone already (SQLITE_FULL): then there is nothing to undo.
      if (this.inTransaction) {
        this.#quietly(`ROLLBACK TO ${name}`);
        this.#quietly(`RELEASE ${name}`);
      }
      throw error;
    } finally {
      this.#savepoints -= 1;
    }
  }

  /** Undoing after a failure: SQLite may have undone it already; the failure is what the caller sees. */
  #quietly(sql: string): void {
    try {
      this.#db.exec(sql);
    } catch {
      // Nothing left to undo (on Node 22.13–22.14, where isTransaction cannot tell).
    }
  }

  close(): void {
    if (!this.open) return;
    this.#open = false;
    this.#db.close();
  }
}

/** Loads a named driver; throws when it is not there or does not load under this Node. */
export async function loadNamedSqliteDriver(name: SqliteDriverName): Promise<SqliteDriver> {
  if (name === 'node:sqlite') {
    const { DatabaseSync } = await import('node:sqlite');
    return {
      name,
      open: (path, options) => new NodeSqliteConnection(DatabaseSync, path, options),
      SqliteError: NodeSqliteError,
    };
  }
  const Database = (await import('better-sqlite3')).default;
  // Its binary loads with the first database, not on import: a build for another Node fails here.
  new Database(':memory:').close();
  return {
    name,
    open: (path, options) => new Database(path, options) as SqliteConnection,
    SqliteError: Database.SqliteError as unknown as SqliteErrorClass,
  };
}

const DRIVER_NAMES: readonly SqliteDriverName[] = ['better-sqlite3', 'node:sqlite'];

/**
 * The driver the store uses: `BLOCKWISE_SQLITE_DRIVER` when set (`better-sqlite3` or
 * `node:sqlite`; a wrong name or a driver that does not load is an error saying so), else
 * better-sqlite3 when installed and built for this Node, else node:sqlite. Throws with every
 * driver's reason when none loads (Node 20 without better-sqlite3).
 */
export async function loadSqliteDriver(
  requested: string | undefined = process.env.BLOCKWISE_SQLITE_DRIVER,
): Promise<SqliteDriver> {
  if (requested !== undefined && requested !== '') {
    const name = DRIVER_NAMES.find((n) => n === requested);
    if (!name) {
      throw new Error(
        `BLOCKWISE_SQLITE_DRIVER: expected one of ${DRIVER_NAMES.join(', ')}, got "${requested}"`,
      );
    }
    return loadNamedSqliteDriver(name);
  }
  const reasons: string[] = [];
  for (const name of DRIVER_NAMES) {
    try {
      return await loadNamedSqliteDriver(name);
    } catch (error) {
      reasons.push(`${name}: ${String((error as Error).message).split('\n')[0]}`);
    }
  }
  throw new Error(
    `no SQLite driver loads under Node ${process.version} (${reasons.join('; ')}). ` +
      'Use Node 22.13+ or 24 (built-in node:sqlite), or install better-sqlite3.',
  );
}
