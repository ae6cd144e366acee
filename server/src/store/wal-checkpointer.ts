import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { SqliteDriverName } from './sqlite-driver.ts';

/**
 * Copies SQLite's write-ahead log back into the database file from a worker thread, so the event
 * loop never does it.
 *
 * Why: better-sqlite3 is synchronous, and by default the connection that commits also runs the
 * "auto-checkpoint" once the WAL passes 1,000 pages (16 MiB with our 16 KiB pages): that commit
 * then copies every frame into the main file and fsyncs it, on the event loop. Measured on this
 * machine inserting 3 MB runs (1 MB upload + its report) with WAL + synchronous=FULL: commits took
 * 6–7 ms, but every few of them one took 27–34 ms — the checkpoint — and /healthz waited behind
 * it (bench P13, hostile-but-valid uploads). With the auto-checkpoint off and the checkpoint in a
 * thread of its own, every commit took 9–10 ms and the checkpoint's ~130 ms per 120 MB ran beside
 * the event loop.
 *
 * A PASSIVE checkpoint from another connection is safe with concurrent writers and readers
 * (sqlite.org/wal.html §"Checkpointing"): it copies the frames no reader still needs and never
 * waits for a lock; the writer restarts the WAL from its beginning once a checkpoint has copied
 * it all. If the worker cannot start or dies, the connection goes back to auto-checkpointing
 * (`onFallback`), so the WAL never grows without bound.
 */
export const CHECKPOINT_AFTER_BYTES = 4 * 1024 * 1024;

/** SQLite's default auto-checkpoint (pages), restored when the worker is gone. */
export const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;

/** What `PRAGMA wal_checkpoint(PASSIVE)` answered in the worker. */
export type CheckpointResult =
  { ok: true; busy: number; logFrames: number; checkpointedFrames: number } | { ok: false; error: string };

// The worker is a CommonJS script evaluated from this string, so the bundle (dist/blockwise.mjs)
// needs no second entry point; better-sqlite3 is loaded by its resolved path, node:sqlite given
// the two calls used here in better-sqlite3's shape (sqlite-driver.ts does it for the store).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
function openDatabase(path) {
  if (workerData.driver !== 'node:sqlite') return new (require(workerData.driverPath))(path, { fileMustExist: true });
  if (!require('node:fs').existsSync(path)) throw new Error('unable to open database file: ' + path + ' does not exist');
  const db = new (require('node:sqlite').DatabaseSync)(path);
  return { pragma: (source) => db.prepare('PRAGMA ' + source).all(), close: () => db.close() };
}
// Niceness 10 for this thread only, as the parse workers (server/src/ingest/thread-priority.ts).
try {
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) require('node:os').setPriority(tid, 10);
} catch {}
const db = openDatabase(workerData.path);
db.pragma('busy_timeout = 0');
db.pragma('synchronous = FULL');
parentPort.on('message', (message) => {
  if (message === 'close') { db.close(); parentPort.close(); return; }
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, busy: row.busy, logFrames: row.log, checkpointedFrames: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error && error.message || error) });
  }
});
`;

export type WalCheckpointerOptions = {
  /** The database file (the worker opens its own connection to it). */
  path: string;
  /** The store's driver (sqlite-driver.ts): the worker opens the file with the same one. */
  driver: SqliteDriverName;
  /** Called once when checkpoints must go back to the committing connection. */
  onFallback: (reason: string) => void;
  /** Every checkpoint's outcome (tests and logs). */
  onCheckpoint?: (result: CheckpointResult) => void;
  afterBytes?: number;
};

export class WalCheckpointer {
  #worker: Worker | null;
  #pendingBytes = 0;
  #inFlight = false;
  #closed = false;
  readonly #afterBytes: number;

  constructor(private readonly options: WalCheckpointerOptions) {
    this.#afterBytes = options.afterBytes ?? CHECKPOINT_AFTER_BYTES;
    const driverPath =
      options.driver === 'better-sqlite3' ? createRequire(import.meta.url).resolve('better-sqlite3') : null;
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver: options.driver, driverPath, path: options.path },
    });
    this.#worker.unref();
    this.#worker.on('message', (result: CheckpointResult) => {
      this.#inFlight = false;
      this.#worker?.unref();
      options.onCheckpoint?.(result);
    });
    this.#worker.on('error', (error) => this.#fallBack(`the checkpoint worker failed: ${error.message}`));
    this.#worker.on('exit', (code) => {
      if (!this.#closed) this.#fallBack(`the checkpoint worker exited with code ${code}`);
    });
  }

  /** Whether checkpoints run in the worker (false after a fallback or close). */
  get active(): boolean {
    return this.#worker !== null;
  }

  /** A commit wrote about `bytes` to the WAL: checkpoint once enough has gathered. */
  committed(bytes: number): void {
    if (!this.#worker) return;
    this.#pendingBytes += bytes;
    if (this.#inFlight || this.#pendingBytes < this.#afterBytes) return;
    this.#pendingBytes = 0;
    this.#inFlight = true;
    // Referenced while a checkpoint runs, so a short-lived CLI process waits for it.
    this.#worker.ref();
    this.#worker.postMessage('checkpoint');
  }

  #fallBack(reason: string): void {
    if (!this.#worker) return;
    const worker = this.#worker;
    this.#worker = null;
    void worker.terminate();
    this.options.onFallback(reason);
  }

  /**
   * Closes the worker's connection (after a checkpoint in progress, if any) and ends the thread;
   * the store's own close() then checkpoints what is left and removes the WAL.
   */
  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    if (!worker) return;
    // Resolve on exit only: a worker that failed to start (its file deleted) emits 'error' first.
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Referenced until it exits: an unreferenced worker does not keep the process alive, so when
    // nothing else did (a script's last `await store.close()`), Node exited with this promise
    // pending and whatever followed the close never ran (bench P8 and R1 ended without results).
    worker.ref();
    worker.postMessage('close');
    await exited;
  }
}
