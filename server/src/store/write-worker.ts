import { parentPort, workerData } from 'node:worker_threads';
import { loadNamedSqliteDriver, type SqliteConnection } from './sqlite-driver.ts';
import { SqliteWrites, errorToWire, movableColumns } from './sqlite-writes.ts';
import type { WriteRequest, WriteResponse, WriteWorkerData } from './write-channel.ts';

/**
 * The SQLite writer thread (write-channel.ts): opens its own connection to the database file the
 * store opened (and migrated), and runs every write the store sends, one at a time, in order —
 * and the one read sent the same way (`select`: a report as bytes, moved back with the answer).
 * A write's answer is posted after the COMMIT returned — with synchronous=FULL, after the WAL was
 * fsynced — so a resolved write is durable, as before.
 */
const data = workerData as WriteWorkerData;
const port = parentPort!;

// Default priority, unlike the parse workers (niceness 10): every acknowledged upload waits for this
// thread, and its work is mostly waiting on the disk (fsync), so a lower priority buys /healthz
// little and starves the writes when the cores are busy — measured in CI's busy-machine stage at
// niceness 10: 500 fuzzed uploads took over 30 s where they take ~4 s unloaded.

let db: SqliteConnection;
let writes: SqliteWrites;
let queries: Array<{ sql: string; params: unknown[] }> = [];
try {
  const driver = await loadNamedSqliteDriver(data.driver);
  db = driver.open(data.path, { fileMustExist: true });
  db.pragma(`busy_timeout = ${data.busyTimeoutMs}`);
  db.pragma(`synchronous = ${data.synchronous}`);
  db.pragma('foreign_keys = ON');
  // 0 while the checkpoint worker (wal-checkpointer.ts) copies the WAL back; the store hands
  // checkpoints back to this connection (autocheckpoint) if that worker is gone.
  db.pragma(`wal_autocheckpoint = ${Math.trunc(data.autocheckpointPages)}`);
  writes = new SqliteWrites(
    db,
    data.file,
    data.observe ? (query) => queries.push({ sql: query.sql, params: [...query.params] }) : undefined,
  );
  port.postMessage({
    ready: true,
    journalMode: String(db.pragma('journal_mode', { simple: true })).toLowerCase(),
    synchronous: Number(db.pragma('synchronous', { simple: true })),
    foreignKeys: Number(db.pragma('foreign_keys', { simple: true })),
    busyTimeoutMs: Number(db.pragma('busy_timeout', { simple: true })),
  } satisfies WriteResponse);
} catch (error) {
  port.postMessage({ ready: false, error: errorToWire(error) } satisfies WriteResponse);
  process.exit(1);
}

port.on('message', (message: WriteRequest) => {
  if ('close' in message) {
    db.close();
    port.close();
    return;
  }
  let response: WriteResponse;
  let transfer: ArrayBuffer[] = [];
  try {
    const method = writes[message.name] as (...args: unknown[]) => unknown;
    const value = method.apply(writes, message.args);
    response = { id: message.id, ok: true, value };
    // A report read for the event loop (select) moves to it instead of being copied there.
    transfer = movableColumns(value);
  } catch (error) {
    response = { id: message.id, ok: false, error: errorToWire(error) };
  }
  if (data.observe) {
    response.queries = queries;
    queries = [];
  }
  port.postMessage(response, transfer);
});
