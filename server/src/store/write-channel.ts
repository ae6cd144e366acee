import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { StoreUnavailableError, type QueryObserver } from './run-store.ts';
import { withBuffers, type SqliteDriverName, type SqliteErrorClass } from './sqlite-driver.ts';
import type { FileIdentity, SqliteWrites, WireError, WriteName } from './sqlite-writes.ts';

/**
 * How the SQLite store's writes reach the connection that makes them (sqlite-writes.ts): in a
 * writer thread for a database file (WorkerWriteChannel), or on the store's own connection
 * (InlineWriteChannel: an in-memory database, which no other connection can open, or a
 * connection a test prepared). Either way a write resolves only after its COMMIT returned (a
 * `select`, the one read sent this way, when its row was read).
 */
export type WriteArgs = { [K in WriteName]: Parameters<SqliteWrites[K]> };
export type WriteResults = { [K in WriteName]: ReturnType<SqliteWrites[K]> };

export interface WriteChannel {
  call<K extends WriteName>(name: K, ...args: WriteArgs[K]): Promise<WriteResults[K]>;
  /**
   * As call, handing the writer the ArrayBuffers in `transfer` (which the caller gives up: they
   * are detached here) instead of copying them: a run's raw bytes and its documents as UTF-8.
   */
  move<K extends WriteName>(name: K, args: WriteArgs[K], transfer: ArrayBuffer[]): Promise<WriteResults[K]>;
  /** Writes sent and not answered yet (tests: a write is pending in the writer). */
  readonly pending: number;
  close(): Promise<void>;
}

/** Rebuilds an error from the writer: a SqliteError (translated by the store as before), or its kind. */
export function errorFromWire(wire: WireError, SqliteError: SqliteErrorClass): Error {
  if (wire.kind === 'sqlite') return new SqliteError(wire.message, wire.code);
  if (wire.kind === 'unavailable') return new StoreUnavailableError(wire.message, { fault: wire.fault });
  const error = new Error(wire.message);
  error.name = wire.name;
  if (wire.stack) error.stack = wire.stack;
  return error;
}

/** Runs each write at once on the store's connection (the event loop waits for it). */
export class InlineWriteChannel implements WriteChannel {
  constructor(private readonly writes: SqliteWrites) {}

  readonly pending = 0;

  call<K extends WriteName>(name: K, ...args: WriteArgs[K]): Promise<WriteResults[K]> {
    return new Promise((resolve) => {
      const method = this.writes[name] as (...a: WriteArgs[K]) => WriteResults[K];
      resolve(method.apply(this.writes, args));
    });
  }

  /** Same thread: nothing to move. */
  move<K extends WriteName>(name: K, args: WriteArgs[K]): Promise<WriteResults[K]> {
    return this.call(name, ...args);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** What the writer thread starts with. */
export type WriteWorkerData = {
  path: string;
  /** The driver the store opened the file with (sqlite-driver.ts): the writer loads the same one. */
  driver: SqliteDriverName;
  busyTimeoutMs: number;
  /** The file as the store opened it: the writer refuses to write once it was deleted or replaced. */
  file: FileIdentity | null;
  /** `PRAGMA synchronous` (2 FULL ships; 1 NORMAL only for bench P9's comparison). */
  synchronous: 1 | 2;
  /** Send every statement back for the store's QueryObserver (tests). */
  observe: boolean;
  /**
   * `PRAGMA wal_autocheckpoint`: 0 while the checkpoint worker (wal-checkpointer.ts) copies the
   * WAL back; SQLite's default once it is gone (kept here for a writer started again).
   */
  autocheckpointPages: number;
};

export type WriteRequest = { id: number; name: WriteName; args: unknown[] } | { close: true };
export type WriteResponse =
  | { ready: true; synchronous: number; foreignKeys: number; journalMode: string; busyTimeoutMs: number }
  | { ready: false; error: WireError }
  | {
      id: number;
      ok: true;
      value: unknown;
      queries?: Array<{ sql: string; params: unknown[] }>;
    }
  | { id: number; ok: false; error: WireError; queries?: Array<{ sql: string; params: unknown[] }> };

export type WriterPragmas = Omit<Extract<WriteResponse, { ready: true }>, 'ready'>;

/** Differences between a writer's pragmas and the ones the store needs (sqlite-store.ts pragmaMismatches). */
export type PragmaCheck = (pragmas: WriterPragmas) => string[];

const closedError = () => new StoreUnavailableError('SQLite store is closed', { fault: 'closed' });

let devWorker: Promise<URL> | undefined;

/**
 * Where the writer's code is: beside the bundle (dist/write-worker.mjs), or the TypeScript source
 * compiled once per process (write-worker.dev.mjs: tests, `pnpm dev`).
 */
function workerEntry(): URL | Promise<URL> {
  const bundled = new URL('./write-worker.mjs', import.meta.url);
  if (existsSync(fileURLToPath(bundled))) return bundled;
  devWorker ??= (
    import(new URL('./write-worker.dev.mjs', import.meta.url).href) as Promise<{
      compileWriteWorker: () => Promise<URL>;
    }>
  )
    .then((dev) => dev.compileWriteWorker())
    .catch((error: unknown) => {
      // A failed compile (a syntax error being fixed under `pnpm dev`, a full disk) is not kept:
      // the next store open compiles again instead of failing for the life of the process.
      devWorker = undefined;
      throw error;
    });
  return devWorker;
}

type Call = { resolve: (value: unknown) => void; reject: (error: unknown) => void };

/**
 * The writer thread: owns the only connection that writes to the database file, so a slow or
 * frozen disk (an fsync that takes seconds, a lock another process holds) delays writes, never
 * the event loop — /healthz and reads go on on the store's own connection (all but a report read
 * as bytes: sqlite-writes.ts `select`). Writes are answered in
 * the order they were sent (one connection, one at a time).
 *
 * If the thread dies (it should not: errors of a write are answers, not crashes), the writes it
 * had not answered are rejected as unavailable (503: the client retries, and idempotency makes a
 * retried upload that did commit come back as the same run), and the next write starts a new one.
 */
export class WorkerWriteChannel implements WriteChannel {
  #worker: Worker | null = null;
  #nextId = 1;
  readonly #calls = new Map<number, Call>();
  #closed = false;
  #starting: Promise<WriterPragmas> | null = null;

  private constructor(
    private readonly data: WriteWorkerData,
    private readonly SqliteError: SqliteErrorClass,
    private readonly observe: QueryObserver | undefined,
    private readonly checkPragmas: PragmaCheck,
  ) {}

  /**
   * Starts the writer and waits until its connection is open and configured (its pragmas). A
   * writer started again after a crash is checked with the same `checkPragmas`: the connection
   * that commits is what "201" rests on, the first one or a later one.
   */
  static async start(
    data: Omit<WriteWorkerData, 'observe' | 'autocheckpointPages'>,
    SqliteError: SqliteErrorClass,
    checkPragmas: PragmaCheck,
    observe?: QueryObserver,
  ): Promise<{ channel: WorkerWriteChannel; pragmas: WriterPragmas; mismatches: string[] }> {
    const channel = new WorkerWriteChannel(
      { ...data, observe: observe !== undefined, autocheckpointPages: 0 },
      SqliteError,
      observe,
      checkPragmas,
    );
    const pragmas = await channel.#spawn();
    return { channel, pragmas, mismatches: checkPragmas(pragmas) };
  }

  /** Tests: ends the writer thread as a crash would; the next write starts a new one. */
  async crashWriterForTest(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    const exited = once(worker, 'exit');
    await worker.terminate();
    await exited;
  }

  get pending(): number {
    return this.#calls.size;
  }

  async #spawn(): Promise<WriterPragmas> {
    const worker = new Worker(await workerEntry(), { workerData: this.data });
    this.#worker = worker;
    return new Promise((resolve, reject) => {
      let started = false;
      worker.on('message', (message: WriteResponse) => {
        if ('ready' in message) {
          started = true;
          // Unreferenced while idle: a CLI command that forgot close() still exits.
          if (this.#calls.size === 0) worker.unref();
          if (message.ready) {
            const { ready: _, ...pragmas } = message;
            resolve(pragmas);
          } else {
            reject(errorFromWire(message.error, this.SqliteError));
            void worker.terminate();
          }
          return;
        }
        this.#answer(message);
      });
      const gone = (error: unknown) => {
        if (this.#worker === worker) this.#worker = null;
        if (!started) reject(error);
        this.#failAll(error);
      };
      worker.on('error', (error) =>
        gone(new StoreUnavailableError(`SQLite writer thread failed: ${error.message}`, { cause: error })),
      );
      worker.on('exit', (code) => {
        if (this.#closed) return;
        gone(new StoreUnavailableError(`SQLite writer thread exited with code ${code}`));
      });
    });
  }

  #answer(message: Exclude<WriteResponse, { ready: boolean }>): void {
    for (const query of message.queries ?? []) this.observe?.(query);
    const call = this.#calls.get(message.id);
    if (!call) return;
    this.#calls.delete(message.id);
    if (this.#calls.size === 0) this.#worker?.unref();
    if (message.ok) call.resolve(withBuffers(message.value));
    else call.reject(errorFromWire(message.error, this.SqliteError));
  }

  #failAll(error: unknown): void {
    const calls = [...this.#calls.values()];
    this.#calls.clear();
    for (const call of calls) call.reject(error);
  }

  call<K extends WriteName>(name: K, ...args: WriteArgs[K]): Promise<WriteResults[K]> {
    return this.move(name, args, []);
  }

  async move<K extends WriteName>(
    name: K,
    args: WriteArgs[K],
    transfer: ArrayBuffer[],
  ): Promise<WriteResults[K]> {
    if (this.#closed) throw closedError();
    if (name === 'autocheckpoint') this.data.autocheckpointPages = Number(args[0]);
    if (!this.#worker) {
      // The writer died: one new one for every write that arrives meanwhile.
      this.#starting ??= this.#restart().finally(() => {
        this.#starting = null;
      });
      await this.#starting;
      // close() ran while the writer started: it waited for the start and ended that thread, and
      // nothing may commit after the store said it was closed.
      if (this.#closed) throw closedError();
    }
    const worker = this.#worker;
    if (!worker) throw new StoreUnavailableError('SQLite writer thread is not running');
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // Referenced while a write is pending: the process waits for its COMMIT.
      worker.ref();
      try {
        worker.postMessage({ id, name, args } satisfies WriteRequest, transfer);
      } catch (error) {
        // Not sent (a buffer that cannot be moved or cloned: a bug of the caller): not pending.
        this.#calls.delete(id);
        if (this.#calls.size === 0) worker.unref();
        reject(error);
      }
    });
  }

  /** A writer started again, held to the pragmas the first one was: else no write goes to it. */
  async #restart(): Promise<WriterPragmas> {
    const pragmas = await this.#spawn();
    const mismatches = this.checkPragmas(pragmas);
    if (mismatches.length === 0) return pragmas;
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await this.#end(worker);
    throw new StoreUnavailableError(
      `SQLite writer thread started again is not durable as configured: ${mismatches.join('; ')}`,
    );
  }

  /** Closes a writer's connection after the writes already sent, and waits for its thread to end. */
  async #end(worker: Worker): Promise<void> {
    const exited = once(worker, 'exit');
    // Referenced until it has exited: the process waits for the writes before the close.
    worker.ref();
    worker.postMessage({ close: true } satisfies WriteRequest);
    await exited;
  }

  /** Waits for the writes already sent, then closes the writer's connection and ends the thread. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // A writer being started again (after a crash) is waited for, then ended like any other.
    await this.#starting?.catch(() => {
      // It did not start (or was refused): there is no thread to end.
    });
    const worker = this.#worker;
    this.#worker = null;
    if (!worker) return;
    await this.#end(worker);
    this.#failAll(closedError());
  }
}
