import { statSync } from 'node:fs';
import type { SqliteConnection, SqliteStatement } from './sqlite-driver.ts';
import type { QueryObserver, StoreFault } from './run-store.ts';

/**
 * Every write the SQLite store makes, as code that runs on one connection: the writer thread's
 * (write-worker.ts, for a database file) or the store's own (an in-memory database, or a
 * connection a test opened with special settings). The store prepares each write on the event
 * loop — validation, ids, hashing, serialization and the SQL itself — and sends it here as plain
 * data (structured clone: strings, numbers, bytes, plain objects), so the same calls work across
 * the thread boundary; this module only runs statements in transactions. It imports no domain
 * code (type imports aside): the writer thread starts with this module and the driver only.
 *
 * A write is one SQL statement (`run`, `get`; `runIfTokenActive` with its token check) or a group
 * commit of runs and statements (`commitGroup`): a new
 * write method of the store needs no new code here unless it must read and write in one
 * transaction. Reads stay on the store's connection, except a document large enough that reading
 * it would hold the event loop (`select`: a run's report of MBs, docs/performance.md P13).
 */

/** One SQL statement and its parameters (placeholders `?`). */
export type Statement = { sql: string; params: unknown[] };

/**
 * One run of a group commit, as statements (sqlite-store.ts builds them): the INSERT that does
 * nothing for a known idempotency key, the SELECT of the run stored with that key, and what a new
 * run adds — its raw bytes and the series counters. `seriesStats` counts the run in its series;
 * its parameter at `newBranchParam` is set to the number of rows `seriesBranch` inserted (1 when
 * the run's branch is new to the series).
 */
export type RunWrite = {
  /** A row when the run's CI token is still active; null statement for an anonymous upload. */
  tokenActive: Statement | null;
  insert: Statement;
  existing: Statement;
  raw: Statement;
  series: { branch: Statement | null; stats: Statement; newBranchParam: number } | null;
};

/**
 * One write of a group commit: a run (RunWrite), or one statement that rides along — the regression
 * gate's comparison of an upload, which would otherwise take a commit (and an fsync) of its own
 * after the run's (bench P1, P2).
 */
export type GroupWrite = { run: RunWrite; statement?: never } | { statement: Statement; run?: never };

/**
 * What one write of a group commit came to: a run stored (`existing` null), or the earlier
 * identical run's row; a statement's changed rows; or its own failure.
 */
export type GroupOutcome =
  | { ok: true; existing: Record<string, unknown> | null }
  | { ok: true; changes: number }
  | { ok: false; error: WireError };

/** The database file as opened: a write must not go to it once it was deleted or replaced. */
export type FileIdentity = { path: string; dev: number; ino: number };

export function fileIdentity(path: string): FileIdentity | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? { path, dev: stat.dev, ino: stat.ino } : null;
}

/**
 * The connection keeps writing to a database file that was deleted (or replaced by another
 * file) under it, and in WAL mode SQLite does not notice: every run stored after that would be
 * gone at the next start. One stat per write transaction (µs) turns that into a 503.
 */
export function fileIdentityProblem(file: FileIdentity | null): string | null {
  if (!file) return null;
  const now = fileIdentity(file.path);
  if (now && now.dev === file.dev && now.ino === file.ino) return null;
  return `SQLite: the database file ${file.path} was ${now ? 'replaced' : 'deleted'} while open`;
}

/** Thrown by a write to a deleted or replaced file; the store rebuilds it as a StoreUnavailableError. */
class FileGoneError extends Error {
  readonly fault: StoreFault = 'io_error';
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/** An error as it crosses the thread boundary (structured clone keeps neither class nor code). */
export type WireError =
  | { kind: 'sqlite'; message: string; code: string }
  | { kind: 'unavailable'; message: string; fault: StoreFault }
  | { kind: 'error'; name: string; message: string; stack?: string };

export function errorToWire(error: unknown): WireError {
  const { name, message, code, stack, fault } = (error ?? {}) as Partial<Error> & {
    code?: unknown;
    fault?: StoreFault;
  };
  // StoreUnavailableError itself, or FileGoneError: named alike, matched by name (no import).
  if (name === 'StoreUnavailableError' && typeof fault === 'string')
    return { kind: 'unavailable', message: String(message), fault };
  if (name === 'SqliteError' && typeof code === 'string')
    return { kind: 'sqlite', message: String(message), code };
  return { kind: 'error', name: String(name ?? 'Error'), message: String(message ?? error), stack };
}

export class SqliteWrites {
  readonly #db: SqliteConnection;
  readonly #file: FileIdentity | null;
  readonly #observe: QueryObserver | undefined;
  readonly #statements = new Map<string, SqliteStatement>();
  readonly #insertInSavepoint: (run: RunWrite) => Record<string, unknown> | null;
  readonly #execInSavepoint: (statement: Statement) => number;

  constructor(db: SqliteConnection, file: FileIdentity | null, observe?: QueryObserver) {
    this.#db = db;
    this.#file = file;
    this.#observe = observe;
    this.#insertInSavepoint = db.transaction((run: RunWrite) => this.#insertRun(run));
    this.#execInSavepoint = db.transaction((statement: Statement) => this.#exec(statement));
  }

  /** Statements are prepared once per SQL text and reused. */
  #statement(sql: string, params: readonly unknown[]): SqliteStatement {
    this.#observe?.({ sql, params });
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs `body` in an IMMEDIATE transaction: the write lock is taken up front, so a read-then-write
   * transaction cannot fail half-way with SQLITE_BUSY_SNAPSHOT when another process wrote in
   * between. All of it commits, or none of it.
   */
  #transaction<T>(body: () => T): T {
    const problem = fileIdentityProblem(this.#file);
    if (problem) throw new FileGoneError(problem);
    return this.#db.transaction(body).immediate();
  }

  /** One statement in a transaction of its own; how many rows it changed. */
  run({ sql, params }: Statement): number {
    return this.#transaction(() => this.#exec({ sql, params }));
  }

  /**
   * One statement in a transaction of its own, after `tokenActive` found its CI token still active
   * in that transaction (a fleet plan: a token revoked while it was planned stores nothing);
   * else throws the TOKEN_REVOKED error and nothing is written.
   */
  runIfTokenActive(tokenActive: Statement, statement: Statement): number {
    return this.#transaction(() => {
      this.#requireTokenActive(tokenActive);
      return this.#exec(statement);
    });
  }

  /** One statement with RETURNING (or a SELECT after nothing) in a transaction of its own. */
  get({ sql, params }: Statement): Record<string, unknown> | null {
    return this.#transaction(
      () => (this.#statement(sql, params).get(...params) as Record<string, unknown> | undefined) ?? null,
    );
  }

  /**
   * One SELECT outside any transaction (a snapshot of what is committed), on this connection: for
   * rows too large to read on the event loop. In the writer thread, a ~2 MB report's overflow pages
   * are read there and its bytes moved back (write-worker.ts), and the event loop only waits. A
   * file deleted or replaced under the connection is refused as for a write (503), not read.
   */
  select({ sql, params }: Statement): Record<string, unknown> | null {
    const problem = fileIdentityProblem(this.#file);
    if (problem) throw new FileGoneError(problem);
    return (this.#statement(sql, params).get(...params) as Record<string, unknown> | undefined) ?? null;
  }

  /**
   * Group commit: the writes in ONE IMMEDIATE transaction (one fsync for all of them), each in its
   * own savepoint so one failing write rolls back alone. An upload racing an identical one in
   * the same batch finds it (same transaction): its outcome carries the stored run's row.
   * Throws when BEGIN or COMMIT failed: then nothing of the batch is stored.
   */
  commitGroup(writes: GroupWrite[]): GroupOutcome[] {
    const outcomes: GroupOutcome[] = [];
    this.#transaction(() => {
      for (const write of writes) {
        try {
          // Nested transaction = SAVEPOINT: a failure undoes this write only.
          outcomes.push(
            write.run
              ? { ok: true, existing: this.#insertInSavepoint(write.run) }
              : { ok: true, changes: this.#execInSavepoint(write.statement) },
          );
        } catch (error) {
          // SQLITE_FULL, IOERR, NOMEM (and BUSY) may roll back the whole transaction, not only
          // the savepoint: then nothing of the batch is stored, and the next write must not go on
          // in a transaction of its own (it would commit while its upload is told it failed).
          // Abort the batch with this error.
          if (!this.#db.inTransaction) throw error;
          outcomes.push({ ok: false, error: errorToWire(error) });
        }
      }
    });
    return outcomes;
  }

  /** The stored run's metadata row when an identical run (same idempotency key) was there; else null. */
  #insertRun(run: RunWrite): Record<string, unknown> | null {
    if (run.tokenActive) this.#requireTokenActive(run.tokenActive);
    if (this.#exec(run.insert) === 0) {
      const existing = this.#statement(run.existing.sql, run.existing.params).get(...run.existing.params);
      if (!existing) throw new Error('idempotency conflict without a matching run');
      return existing as Record<string, unknown>;
    }
    this.#exec(run.raw);
    if (run.series) {
      const { branch, stats, newBranchParam } = run.series;
      const newBranch = branch ? this.#exec(branch) : 0;
      this.#exec({ sql: stats.sql, params: stats.params.with(newBranchParam, newBranch) });
    }
    return null;
  }

  #requireTokenActive({ sql, params }: Statement): void {
    if (this.#statement(sql, params).get(...params)) return;
    // Named, not a class: this module imports no domain code; the store rebuilds TokenRevokedError.
    const error = new Error("the write's token was revoked before it committed");
    error.name = TOKEN_REVOKED;
    throw error;
  }

  #exec({ sql, params }: Statement): number {
    return this.#statement(sql, params).run(...params).changes;
  }

  /** Hands WAL checkpoints back to this connection (the checkpoint worker is gone). */
  autocheckpoint(pages: number): void {
    if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${Math.trunc(pages)}`);
  }
}

/** The error name of a run whose CI token was revoked before it committed (run-store.ts TokenRevokedError). */
export const TOKEN_REVOKED = 'TokenRevokedError';

/** The names of the writes, for the channel that carries them (write-channel.ts). */
export type WriteName = 'run' | 'runIfTokenActive' | 'get' | 'select' | 'commitGroup' | 'autocheckpoint';

/**
 * The ArrayBuffers of a row's byte columns that can be moved with the answer instead of copied:
 * those that own all of their memory (a Buffer cut from Node's shared pool cannot be moved).
 */
export function movableColumns(value: unknown): ArrayBuffer[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const buffers: ArrayBuffer[] = [];
  for (const column of Object.values(value)) {
    if (!(column instanceof Uint8Array) || !(column.buffer instanceof ArrayBuffer)) continue;
    const whole = column.byteOffset === 0 && column.byteLength === column.buffer.byteLength;
    if (whole && !buffers.includes(column.buffer)) buffers.push(column.buffer);
  }
  return buffers;
}
