import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  loadSqliteDriver,
  type SqliteConnection,
  type SqliteDriver,
  type SqliteDriverName,
  type SqliteErrorClass,
  type SqliteStatement,
} from './sqlite-driver.ts';

/**
 * The driver (better-sqlite3 or node:sqlite: sqlite-driver.ts), loaded on first open:
 * `blockwise analyze` and `upload` live in the same bundle and must run on CI machines that have
 * only Node, without the native addon.
 */
let driver: SqliteDriver | undefined;
import { pendingMigrations, migrationChecksum, type AppliedMigration } from './migrations/migrations.ts';
import { SQLITE_MIGRATIONS } from './migrations/sqlite.ts';
import {
  DEFAULT_SQLITE_PATH,
  StoreConfigError,
  StoreUnavailableError,
  storeFail,
  storeOk,
  type ActiveToken,
  type Comparison,
  type CreateTokenInput,
  type InsertComparisonInput,
  type InsertFleetPlanInput,
  type InsertRunInput,
  type InsertRunResult,
  type ListRunsQuery,
  type ListSeriesQuery,
  type ListSeriesRunsQuery,
  type PairComparison,
  type PairComparisonRef,
  type QueryObserver,
  type Run,
  type RunJson,
  type RunJsonBytes,
  type RunMeta,
  type RunPage,
  type RunRaw,
  type RunStore,
  type SeriesPage,
  type SeriesSettings,
  type StoreFault,
  type StoreResult,
  type StoredFleetPlan,
  type StoredFleetPlanDocument,
  type StoredFleetPlanRef,
  type TokenInfo,
  type TokenRef,
  type WindowCount,
  type WriteCheck,
  TokenRevokedError,
} from './run-store.ts';
import {
  FLEET_PLAN_COLUMNS,
  fleetPlanByKeyStatement,
  fleetPlanDocumentFromRow,
  fleetPlanFromRow,
  fleetPlanInsertStatement,
  fleetPlanRefFromPrepared,
  fleetPlanRefFromRow,
  prepareFleetPlan,
} from './fleet-plans.ts';
import { isValidId } from './ids.ts';
import { isSha256Hex, OFF_LOOP_SHA256_MIN_BYTES, sha256HexOffLoop } from './idempotency.ts';
import { DEFAULT_AUTOCHECKPOINT_PAGES, WalCheckpointer, type CheckpointResult } from './wal-checkpointer.ts';
import {
  SqliteWrites,
  TOKEN_REVOKED,
  fileIdentity,
  fileIdentityProblem,
  type FileIdentity,
  type GroupOutcome,
  type GroupWrite,
  type RunWrite,
  type Statement,
  type WriteName,
} from './sqlite-writes.ts';
import {
  InlineWriteChannel,
  errorFromWire,
  WorkerWriteChannel,
  type WriteArgs,
  type WriteChannel,
  type WriteResults,
  type WriterPragmas,
} from './write-channel.ts';
import {
  MemoryWindowCounters,
  PAIR_REF_COLUMNS,
  SERIES_BRANCH_INSERT,
  SERIES_STATS_UPSERT,
  checkRateLimitHit,
  listSeriesStatement,
  newestPairRefsFirst,
  pairKeyOf,
  pairRefFromRow,
  planListSeries,
  seriesPageFromRows,
} from './replica-state.ts';
import {
  COMPARISON_COLUMNS,
  MonotonicClock,
  PAIR_COMPARISON_SELECT,
  ROLLBACK_PROBE,
  RUN_INSERT_COLUMNS,
  WriteHealth,
  RUN_META_COLUMNS,
  TOKEN_COLUMNS,
  TOKEN_TOUCH_INTERVAL_MS,
  checkSeriesKey,
  comparisonFromPrepared,
  comparisonFromRow,
  comparisonInsertStatement,
  int,
  isSeriesKey,
  listRunsStatement,
  pageFromRows,
  planListRuns,
  planListSeriesRuns,
  prepareComparison,
  prepareRun,
  prepareToken,
  runFromRow,
  runJsonBytesFromRow,
  runJsonFromRow,
  bytesColumn,
  RUN_JSON_COLUMNS,
  runInsertValues,
  runMetaFromPrepared,
  runMetaFromRow,
  serializeJsonObject,
  seriesSettingsFromRow,
  tokenFromRow,
  tokenRefColumn,
  TOKEN_ACTIVE,
  unknownRunOf,
  type ListPlan,
  type PreparedRun,
  type ProbeOutcome,
} from './store-core.ts';

export interface SqliteStoreOptions {
  /** A file path (its directory is created) or `:memory:` (tests only: nothing is durable). */
  path?: string;
  /** Wall clock for createdAt (ms epoch); tests pass a fake one. */
  now?: () => number;
  /** How long a write waits for another connection's write lock before failing (503). */
  busyTimeoutMs?: number;
  onQuery?: QueryObserver;
  /** Each WAL checkpoint the worker ran (tests). */
  onCheckpoint?: (result: CheckpointResult) => void;
  /**
   * The writer's `PRAGMA synchronous`. FULL ships (and is asserted at start-up); NORMAL exists
   * only for bench P9, which measures what FULL costs against it.
   */
  synchronous?: 'FULL' | 'NORMAL';
}

/** The durability settings the store runs with, read back from the connection. */
export interface SqlitePragmas {
  journalMode: string;
  /** 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA. */
  synchronous: number;
  foreignKeys: number;
  busyTimeoutMs: number;
}

/**
 * Sets the connection's durability pragmas. Why these:
 * - journal_mode=WAL: readers never block the writer and vice versa; a commit appends to the WAL.
 * - synchronous=FULL: in WAL mode, fsync the WAL on every commit. With NORMAL a commit survives a
 *   process crash (kill -9) but may roll back after power loss or an OS crash (sqlite.org,
 *   PRAGMA synchronous). Our 201 hands out a share link people use at once, so "acknowledged"
 *   must mean durable; measured cost ≈ 0.91× ingest throughput (docs/performance.md, P9).
 * - busy_timeout: a second connection (CLI, another process) waits for the write lock instead of
 *   failing at once with SQLITE_BUSY.
 * - foreign_keys=ON: run_raw.run_id must reference a run (off by default in SQLite builds).
 * - page_size=16384 (new databases only; an existing file keeps its size): a run is ≈ 150 KB
 *   (raw fio bytes + normalized report + analysis), all overflow pages. With 16 KiB pages a
 *   commit writes a quarter as many pages and WAL frames: measured on this machine inserting
 *   150 KB rows in WAL + FULL, 402 µs instead of 586 µs wall and 249 instead of 396 µs CPU per run
 *   (64 KiB pages: no better than 16).
 */
function configure(db: SqliteConnection, busyTimeoutMs: number): void {
  db.pragma('page_size = 16384');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
}

export function readPragmas(db: SqliteConnection): SqlitePragmas {
  return {
    journalMode: String(db.pragma('journal_mode', { simple: true })).toLowerCase(),
    synchronous: Number(db.pragma('synchronous', { simple: true })),
    foreignKeys: Number(db.pragma('foreign_keys', { simple: true })),
    busyTimeoutMs: Number(db.pragma('busy_timeout', { simple: true })),
  };
}

/**
 * Differences between the pragmas read back and the ones the store needs; empty when all good.
 * Pragmas fail silently — `journal_mode = WAL` just returns the old mode on a filesystem without
 * shared-memory support (network mounts) — so reading them back is the only way to know. An
 * in-memory database has no journal to put in WAL mode and nothing to make durable.
 */
export function pragmaMismatches(
  actual: SqlitePragmas,
  expected: { memory: boolean; busyTimeoutMs: number; synchronous?: 1 | 2 },
): string[] {
  const synchronous = expected.synchronous ?? 2;
  const problems: string[] = [];
  const journal = expected.memory ? 'memory' : 'wal';
  if (actual.journalMode !== journal)
    problems.push(`journal_mode is ${actual.journalMode}, expected ${journal}`);
  if (actual.synchronous !== synchronous) {
    const name = synchronous === 2 ? 'FULL' : 'NORMAL';
    problems.push(`synchronous is ${actual.synchronous}, expected ${synchronous} (${name})`);
  }
  if (actual.foreignKeys !== 1) problems.push(`foreign_keys is ${actual.foreignKeys}, expected 1 (ON)`);
  if (actual.busyTimeoutMs !== expected.busyTimeoutMs) {
    problems.push(`busy_timeout is ${actual.busyTimeoutMs}, expected ${expected.busyTimeoutMs}`);
  }
  return problems;
}

/**
 * Applies pending migrations, each in its own IMMEDIATE transaction together with its
 * schema_migrations row: a crash mid-migration leaves the previous version, never half of one.
 * IMMEDIATE takes the write lock before reading which versions are applied, so two processes
 * starting on the same file apply each migration once.
 */
function migrate(db: SqliteConnection, now: () => number, observe: QueryObserver | undefined): void {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
  version    INTEGER NOT NULL PRIMARY KEY,
  name       TEXT    NOT NULL,
  checksum   TEXT    NOT NULL,
  applied_at INTEGER NOT NULL
) STRICT`);
  const readApplied = 'SELECT version, name, checksum FROM schema_migrations ORDER BY version';
  const record = 'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)';
  for (;;) {
    const applied = db.transaction(() => {
      observe?.({ sql: readApplied, params: [] });
      const rows = db.prepare(readApplied).all() as AppliedMigration[];
      const next = pendingMigrations(SQLITE_MIGRATIONS, rows)[0];
      if (!next) return false;
      db.exec(next.sql);
      const params = [next.version, next.name, migrationChecksum(next), now()];
      observe?.({ sql: record, params });
      db.prepare(record).run(...params);
      return true;
    });
    if (!applied.immediate()) return;
  }
}

/** SQLite result codes (extended codes share the prefix: SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED…). */
const SQLITE_FAULTS: ReadonlyArray<[RegExp, StoreFault]> = [
  [/^SQLITE_(BUSY|LOCKED|NOMEM)/, 'busy'],
  [/^SQLITE_FULL/, 'disk_full'],
  [/^SQLITE_READONLY/, 'read_only'],
  [/^SQLITE_(IOERR|CANTOPEN)/, 'io_error'],
];

/**
 * Database trouble the caller can only wait out becomes StoreUnavailableError (→ 503): the write
 * lock held beyond busy_timeout, a full disk, a read-only file, an I/O error, a file that cannot
 * be opened. Everything else (constraint violations, SQL errors) is a bug and propagates unchanged.
 */
/** better-sqlite3's error class, to rebuild the writer thread's errors (loaded by the first open). */
function sqliteErrorClass(): SqliteErrorClass {
  if (!driver) throw new Error('the SQLite driver is not loaded');
  return driver.SqliteError;
}

function translate(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  // Either driver's SqliteError (sqlite-driver.ts gives node:sqlite's errors better-sqlite3's name and code).
  if (error instanceof Error && error.name === 'SqliteError' && typeof code === 'string') {
    const fault = SQLITE_FAULTS.find(([pattern]) => pattern.test(code))?.[1];
    if (fault)
      return new StoreUnavailableError(`SQLite: ${error.message} (${code})`, { cause: error, fault });
  }
  return error;
}

/**
 * A write that changes nothing: user_version written over itself, in a transaction rolled back.
 * It needs no table, so it also runs before the migrations.
 *
 * `lockWait: 'none'` (/healthz): busy_timeout is 0 meanwhile — the driver is synchronous, and
 * /healthz must not block the event loop while another connection holds the write lock (that is
 * `busy`, which says writes do go through). `lockWait: 'busy_timeout'` (start-up): the probe waits
 * for the lock as every other write does. Another process on the same file (a replica's writer
 * committing a token's last_used_at, its /healthz probe, a checkpoint's fsync) holds the write
 * lock for a moment at any time; with no wait, a CLI command or a replica starting in that moment
 * failed with "database is locked (SQLITE_BUSY)" at once — the flake of auth.test.ts under load.
 * The wait costs the probe nothing else: a read-only file is SQLITE_READONLY before any lock.
 */
function probeWrite(db: SqliteConnection, lockWait: 'none' | 'busy_timeout'): ProbeOutcome {
  if (!db.open) return { ok: false, error: closedError() };
  const busyTimeoutMs = Number(db.pragma('busy_timeout', { simple: true }));
  try {
    if (lockWait === 'none') db.pragma('busy_timeout = 0');
    const version = Number(db.pragma('user_version', { simple: true }));
    db.transaction(() => {
      db.pragma(`user_version = ${version}`);
      throw ROLLBACK_PROBE;
    }).immediate();
    return { ok: true };
  } catch (error) {
    return error === ROLLBACK_PROBE ? { ok: true } : { ok: false, error: translate(error) };
  } finally {
    if (db.open) db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  }
}

const closedError = () => new StoreUnavailableError('SQLite store is closed', { fault: 'closed' });

/**
 * What stops the store at start-up, as one line naming the file: a configuration problem
 * (StoreConfigError: read-only, not openable, no directory) or, when another process holds the
 * write lock, StoreUnavailableError. Bugs propagate unchanged.
 */
function startupError(path: string, error: unknown): unknown {
  if (error instanceof StoreConfigError) return error;
  const translated = translate(error);
  if (!(translated instanceof StoreUnavailableError)) return error;
  if (translated.fault === 'busy') return translated;
  const what: Record<StoreFault, string> = {
    read_only: 'is read-only (the server needs write access to the file and its directory)',
    disk_full: 'is on a full disk',
    io_error: 'cannot be opened or read (is the path a directory, or the disk failing?)',
    unreachable: 'cannot be opened',
    busy: 'is locked',
    closed: 'is closed',
  };
  return new StoreConfigError(`the SQLite archive ${path} ${what[translated.fault]}: ${translated.message}`, {
    cause: error,
  });
}

export async function openSqliteStore(options: SqliteStoreOptions = {}): Promise<SqliteRunStore> {
  const path = options.path ?? DEFAULT_SQLITE_PATH;
  if (path.trim() === '') throw new StoreConfigError('SQLite path is empty');
  const memory = path === ':memory:';
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (!memory) {
    const directory = dirname(resolve(path));
    try {
      mkdirSync(directory, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === 'EEXIST' ? `${directory} is not a directory` : (error as Error).message;
      throw new StoreConfigError(`cannot create the directory of the SQLite archive ${path}: ${reason}`, {
        cause: error,
      });
    }
  }
  try {
    driver ??= await loadSqliteDriver();
  } catch (error) {
    throw new StoreConfigError(`cannot open the SQLite archive ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  let db: SqliteConnection;
  try {
    db = driver.open(path);
  } catch (error) {
    throw startupError(path, error);
  }
  try {
    configure(db, busyTimeoutMs);
    // SQLite opens a file it may not write read-only, silently: say so before anything else
    // fails on it (journal_mode would just stay "delete").
    const probe = probeWrite(db, 'busy_timeout');
    if (!probe.ok) throw probe.error;
    const mismatches = pragmaMismatches(readPragmas(db), { memory, busyTimeoutMs });
    if (mismatches.length > 0) {
      throw new StoreConfigError(`SQLite at ${path} is not durable as configured: ${mismatches.join('; ')}`);
    }
    migrate(db, options.now ?? Date.now, options.onQuery);
  } catch (error) {
    db.close();
    throw startupError(path, error);
  }
  const clock = new MonotonicClock(options.now);
  if (memory) return new SqliteRunStore(db, clock, options.onQuery, options.now);
  // A database file: its writes go to the writer thread's connection (write-channel.ts).
  const synchronous = options.synchronous === 'NORMAL' ? 1 : 2;
  let writer: { channel: WorkerWriteChannel; pragmas: WriterPragmas; mismatches: string[] };
  try {
    writer = await WorkerWriteChannel.start(
      {
        path: resolve(path),
        busyTimeoutMs,
        file: fileIdentity(resolve(path)),
        synchronous,
        driver: driver.name,
      },
      sqliteErrorClass(),
      // The writer's connection is the one that commits: its durability is what "201" rests on
      // (a writer started again after a crash is checked the same way).
      (pragmas) => pragmaMismatches(pragmas, { memory, busyTimeoutMs, synchronous }),
      options.onQuery,
    );
  } catch (error) {
    db.close();
    throw startupError(path, error);
  }
  if (writer.mismatches.length > 0) {
    await writer.channel.close();
    db.close();
    throw new StoreConfigError(
      `SQLite at ${path} is not durable as configured: ${writer.mismatches.join('; ')}`,
    );
  }
  const checkpointer = startCheckpointer(db, driver.name, writer.channel, options.onCheckpoint);
  return new SqliteRunStore(db, clock, options.onQuery, options.now, checkpointer, writer);
}

/**
 * Moves WAL checkpoints off the event loop (see WalCheckpointer): the committing connection (the
 * writer thread's) does not auto-checkpoint, a worker's connection checkpoints instead; if that
 * worker cannot run, the writer's connection auto-checkpoints again as SQLite does by default.
 */
function startCheckpointer(
  db: SqliteConnection,
  driverName: SqliteDriverName,
  writer: WriteChannel,
  onCheckpoint: ((result: CheckpointResult) => void) | undefined,
): WalCheckpointer | null {
  const restore = () => {
    // Remembered by the channel: a writer started again later auto-checkpoints too.
    writer.call('autocheckpoint', DEFAULT_AUTOCHECKPOINT_PAGES).catch(() => {
      // The store is closed: nothing is written any more.
    });
  };
  try {
    // The store's own connection commits nothing (its write probe is rolled back), but it must
    // not checkpoint on the event loop either.
    db.pragma('wal_autocheckpoint = 0');
    return new WalCheckpointer({
      path: resolve(db.name),
      driver: driverName,
      onFallback: restore,
      onCheckpoint,
    });
  } catch {
    restore();
    return null;
  }
}

/** Bytes one group commit writes at most (one write always goes, whatever its size). */
export const GROUP_COMMIT_MAX_BYTES = 8 * 1024 * 1024;

/** About what a run appends to the WAL: its bytes and its JSON documents. */
function runBytes(run: PreparedRun): number {
  return run.rawSize + run.reportJson.length + run.summaryJson.length + run.labelsJson.length;
}

const comparisonBytes = (c: { resultJson: string; planJson: string | null }) =>
  c.resultJson.length + (c.planJson?.length ?? 0);

const sumOf = <T>(items: readonly T[], size: (item: T) => number) =>
  items.reduce((total, item) => total + size(item), 0);

/** Removes and returns the first queued writes that fit in `maxBytes` (at least one). */
export function takeBatch<T extends { bytes: number }>(queue: T[], maxBytes: number): T[] {
  let count = 0;
  let bytes = 0;
  while (count < queue.length) {
    bytes += queue[count]!.bytes;
    if (count > 0 && bytes > maxBytes) break;
    count += 1;
  }
  return queue.splice(0, count);
}

/**
 * `text` as UTF-8 in a buffer of its own, whose memory goes to the writer thread (`transfer`)
 * instead of being copied there: a structured clone copies a string into the message and out
 * again in the writer, and the driver then encodes it to UTF-8 — for a run's report and summary
 * (~65 KB for a 16-job file) and a comparison's result (~56 KB), after every CI upload (bench P2).
 * The SQL takes it back as TEXT (`CAST(? AS TEXT)`: the same bytes, read as UTF-8). JSON.stringify
 * writes no lone surrogate, so the bytes are exactly the string.
 */
function movedUtf8(text: string, transfer: ArrayBuffer[]): Buffer {
  // allocUnsafeSlow: never a slice of Buffer's shared pool, which must not be detached.
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  transfer.push(bytes.buffer as ArrayBuffer);
  return bytes;
}

/**
 * `bytes` moved to the writer thread: their own memory when the caller gave it (InsertRunInput
 * giveBytes) and they own all of it, else a copy in memory of its own (the caller keeps `bytes`;
 * a slice of Buffer's shared pool cannot be moved).
 */
function moved(bytes: Uint8Array, transfer: ArrayBuffer[], given: boolean): Uint8Array {
  const { buffer } = bytes;
  if (
    given &&
    buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength &&
    !transfer.includes(buffer)
  ) {
    transfer.push(buffer);
    return bytes;
  }
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  copy.set(bytes);
  transfer.push(copy.buffer as ArrayBuffer);
  return copy;
}

/** The run columns sent to the writer as UTF-8 bytes (movedUtf8, or `moved` for a report given as bytes). */
const RUN_TEXT_AS_BYTES: ReadonlySet<string> = new Set(['summary', 'report']);

/** The comparison column sent to the writer as UTF-8 bytes (movedUtf8), 1-based. */
const COMPARISON_RESULT_POSITION = COMPARISON_COLUMNS.split(', ').indexOf('result') + 1;

/**
 * A prepared run as the statements the writer runs for it (sqlite-writes.ts RunWrite), and the
 * buffers moved to the writer with them.
 */
function runWriteOf(run: PreparedRun): { write: RunWrite; transfer: ArrayBuffer[] } {
  const { series, branch } = run.labels;
  const transfer: ArrayBuffer[] = [];
  const values = runInsertValues(run);
  const placeholders = RUN_INSERT_COLUMNS.map((column, i) => {
    if (!RUN_TEXT_AS_BYTES.has(column)) return '?';
    const value = values[i] as string | Buffer;
    // A report that came as bytes (from the parse worker) is moved or copied, never encoded again.
    values[i] =
      typeof value === 'string' ? movedUtf8(value, transfer) : moved(value, transfer, run.giveBytes);
    return 'CAST(? AS TEXT)';
  }).join(', ');
  const write: RunWrite = {
    insert: {
      sql:
        `INSERT INTO runs (${RUN_INSERT_COLUMNS.join(', ')}) VALUES (${placeholders}) ` +
        'ON CONFLICT (idempotency_key) DO NOTHING',
      params: values,
    },
    existing: {
      sql: `SELECT ${RUN_META_COLUMNS} FROM runs WHERE idempotency_key = ?`,
      params: [run.idempotencyKey],
    },
    raw: {
      sql: 'INSERT INTO run_raw (run_id, bytes) VALUES (?, ?)',
      params: [run.id, moved(run.rawBytes, transfer, run.giveBytes)],
    },
    // In the run's savepoint of the write transaction: no revoke can commit between this check and
    // the insert.
    tokenActive: run.tokenId === null ? null : { sql: TOKEN_ACTIVE(() => '?'), params: [run.tokenId] },
    // series_stats and series_branches (GET /api/series) are kept in the run's transaction.
    series:
      series === undefined
        ? null
        : {
            branch:
              branch === undefined
                ? null
                : { sql: SERIES_BRANCH_INSERT(() => '?'), params: [series, branch] },
            // Parameters: series, new-branch increment (set by the writer), created_at, id.
            stats: { sql: SERIES_STATS_UPSERT(() => '?'), params: [series, 0, run.createdAt, run.id] },
            newBranchParam: 1,
          },
  };
  return { write, transfer };
}

/** A write waiting for the next group commit: what it appends to the WAL, and who waits for it. */
type PendingWrite = {
  write: GroupWrite;
  bytes: number;
  /** Buffers of `write` moved to the writer (movedUtf8, moved). */
  transfer: ArrayBuffer[];
  settle: (outcome: GroupOutcome) => void;
  reject: (error: unknown) => void;
};

/**
 * RunStore on SQLite (better-sqlite3 or node:sqlite: sqlite-driver.ts). Both drivers are synchronous, so the store splits the work: reads run
 * on the store's own connection, on the event loop (µs for index lookups); writes go to the
 * writer thread's connection (write-channel.ts), which commits them beside the event loop — a
 * 3 MB insert, its fsync, a disk that stalls or a write lock another process holds delay the
 * write, not /healthz or the reads (bench P13). One read goes to the writer's connection too: a
 * report as bytes (getRunJsonBytes, what the regression gate compares), whose ~2 MB of overflow
 * pages held the event loop for milliseconds; it waits behind the writes sent before it. An
 * in-memory database (tests) has no second connection: its writes run on the store's connection
 * (InlineWriteChannel).
 *
 * Every write is prepared here (validation, ids, createdAt, hashing, serialization) and sent as
 * one SQL statement or a group commit of runs (sqlite-writes.ts): the writer thread only runs
 * SQL. A write resolves after its COMMIT returned (synchronous=FULL: the WAL fsynced); a read
 * after that sees it (WAL: a new read transaction reads the newest commit).
 *
 * The SQL in this class is SQLite's dialect (`?` placeholders, `CAST(? AS TEXT)` for documents
 * sent as UTF-8 bytes, INTEGER ms, JSON as TEXT); the statements both dialects share live in
 * store-core.ts and fleet-plans.ts. One section per part of RunStore, in run-store.ts's order.
 */
export class SqliteRunStore implements RunStore {
  readonly dialect = 'sqlite' as const;
  readonly #db: SqliteConnection;
  readonly #clock: MonotonicClock;
  readonly #observe: QueryObserver | undefined;
  readonly #statements = new Map<string, SqliteStatement>();
  /** Runs (and the statements that ride along) waiting for the next group commit (see insertRun). */
  readonly #pending: PendingWrite[] = [];
  /** The group commit the writer is running, if any: the next one waits for it. */
  #committing: Promise<void> | null = null;

  readonly #writes: WriteChannel;
  readonly #writerPragmas: WriterPragmas | null;
  readonly #writeHealth: WriteHealth;
  /** The database file as opened: a write must not go to it once it was deleted or replaced. */
  readonly #file: FileIdentity | null;

  /** Checkpoints the WAL in a worker thread; null for in-memory databases. */
  readonly #checkpointer: WalCheckpointer | null;

  /**
   * Without `writer`, writes run on `db` itself (in-memory databases, and tests that hand in a
   * connection opened read-only or capped in size).
   */
  constructor(
    db: SqliteConnection,
    clock: MonotonicClock,
    observe?: QueryObserver,
    now: () => number = Date.now,
    checkpointer: WalCheckpointer | null = null,
    writer: { channel: WriteChannel; pragmas: WriterPragmas } | null = null,
  ) {
    this.#db = db;
    this.#checkpointer = checkpointer;
    this.#writeHealth = new WriteHealth(now);
    this.#file = db.memory ? null : fileIdentity(resolve(db.name));
    this.#writes = writer?.channel ?? new InlineWriteChannel(new SqliteWrites(db, this.#file, observe));
    this.#writerPragmas = writer?.pragmas ?? null;
    this.#clock = clock;
    this.#observe = observe;
  }

  /** The durability pragmas of the connection that commits (the writer's), for /healthz and tests. */
  pragmas(): SqlitePragmas {
    return this.#writerPragmas ? { ...this.#writerPragmas } : readPragmas(this.#db);
  }

  /** The SQLite driver the store opened its file with (`blockwise serve` says which at start-up). */
  get driverName(): SqliteDriverName | null {
    return driver?.name ?? null;
  }

  /** Writes sent to the writer thread and not answered yet (GET /metrics; tests: a write is stalled). */
  pendingWrites(): number {
    return this.#writes.pending;
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

  #get(sql: string, ...params: unknown[]): Record<string, unknown> | undefined {
    return this.#statement(sql, params).get(...params) as Record<string, unknown> | undefined;
  }

  #all(sql: string, ...params: unknown[]): Record<string, unknown>[] {
    return this.#statement(sql, params).all(...params) as Record<string, unknown>[];
  }

  /**
   * Sends one write to the writer and waits for its COMMIT. `walBytes` is about what the commit
   * appends to the WAL (the large documents), for the checkpointer. A write fault (disk full,
   * read-only, I/O) is remembered for /healthz, a success clears it.
   */
  async #write<K extends WriteName>(
    name: K,
    args: WriteArgs[K],
    walBytes = 0,
    transfer: ArrayBuffer[] = [],
  ): Promise<WriteResults[K]> {
    if (!this.#db.open) throw closedError();
    let result: WriteResults[K];
    try {
      result = await this.#writes.move(name, args, transfer);
    } catch (error) {
      throw this.#translate(error);
    }
    this.#writeHealth.succeeded();
    this.#checkpointer?.committed(walBytes);
    return result;
  }

  /** Whether WAL checkpoints run off the event loop (false for :memory: or after a fallback). */
  get checkpointsInWorker(): boolean {
    return this.#checkpointer?.active ?? false;
  }

  /** translate(), remembering write faults for /healthz. */
  #translate(error: unknown): unknown {
    const translated = translate(error);
    this.#writeHealth.observe(translated);
    return translated;
  }

  async #guard<T>(body: () => T | Promise<T>): Promise<T> {
    // better-sqlite3 throws a TypeError on a closed connection: that is a 503, not a bug.
    if (!this.#db.open) throw closedError();
    try {
      return await body();
    } catch (error) {
      throw this.#translate(error);
    }
  }

  // ── RunRecords · SQLite SQL ────────────────────────────────────────────────────────────────────

  /**
   * Group commit. With synchronous=FULL every COMMIT waits for an fsync of the WAL: measured under
   * 10 concurrent uploads, FULL ran at 0.66× the ingest rate of NORMAL (bench P9; the goal is
   * ≥ 0.85×). Inserts that arrive while the writer is busy (or in the same turn of the event loop)
   * are therefore written in ONE transaction — one fsync for all of them — each inside its own
   * savepoint, so one failing insert rolls back alone. Every promise still resolves only after the
   * COMMIT that made its run durable ("201 means committed"); an upload racing an identical one in
   * the same batch finds it (same transaction) and gets created:false.
   */
  insertRun(input: InsertRunInput): Promise<InsertRunResult> {
    // A large upload is hashed in the thread pool first (a 1 MB body: ~3–4 ms less on the loop).
    if (input.rawBytes instanceof Uint8Array && input.rawBytes.byteLength >= OFF_LOOP_SHA256_MIN_BYTES)
      return sha256HexOffLoop(input.rawBytes).then((rawSha256) => this.#insertRun(input, rawSha256));
    return this.#insertRun(input);
  }

  #insertRun(input: InsertRunInput, rawSha256?: string): Promise<InsertRunResult> {
    let run: PreparedRun;
    try {
      // Validation, hashing and JSON serialization happen before the write is sent.
      run = prepareRun(input, this.#clock, rawSha256);
    } catch (error) {
      return Promise.reject(this.#translate(error));
    }
    const { write, transfer } = runWriteOf(run);
    return new Promise((resolve, reject) =>
      this.#enqueue({
        write: { run: write },
        transfer,
        bytes: runBytes(run),
        reject,
        settle: (outcome) => {
          if (!outcome.ok && outcome.error.kind === 'error' && outcome.error.name === TOKEN_REVOKED)
            reject(new TokenRevokedError(run.tokenId ?? 'unknown'));
          else if (!outcome.ok) reject(this.#translate(errorFromWire(outcome.error, sqliteErrorClass())));
          else if (!('existing' in outcome)) reject(new Error('the writer answered a run as a statement'));
          else if (outcome.existing) resolve({ run: runMetaFromRow(outcome.existing), created: false });
          else resolve({ run: runMetaFromPrepared(run), created: true });
        },
      }),
    );
  }

  /**
   * One statement in the next group commit (its own savepoint), instead of a commit of its own:
   * the regression gate's comparison, frozen when its link is opened, rides with the uploads
   * committing then instead of costing an fsync of its own (bench P1, P2). Resolves with the rows
   * it changed, after the COMMIT.
   */
  #inGroupCommit(statement: Statement, bytes: number, transfer: ArrayBuffer[]): Promise<number> {
    if (!this.#db.open) return Promise.reject(closedError());
    return new Promise((resolve, reject) =>
      this.#enqueue({
        write: { statement },
        transfer,
        bytes,
        reject,
        settle: (outcome) => {
          if (!outcome.ok) reject(this.#translate(errorFromWire(outcome.error, sqliteErrorClass())));
          else if (!('changes' in outcome)) reject(new Error('the writer answered a statement as a run'));
          else resolve(outcome.changes);
        },
      }),
    );
  }

  #enqueue(pending: PendingWrite): void {
    this.#pending.push(pending);
    if (this.#pending.length === 1 && !this.#committing) setImmediate(() => this.#commitPending());
  }

  /**
   * Sends the queued writes as one group commit (at most GROUP_COMMIT_MAX_BYTES, at least one
   * write), then settles each promise; writes queued meanwhile go in the next one. The cap bounds
   * what one commit copies and holds in memory twice (here and in the writer) when a burst of
   * large uploads arrives.
   */
  #commitPending(): void {
    if (this.#committing) return;
    const batch = takeBatch(this.#pending, GROUP_COMMIT_MAX_BYTES);
    if (batch.length === 0) return;
    this.#committing = this.#write(
      'commitGroup',
      [batch.map((b) => b.write)],
      sumOf(batch, (b) => b.bytes),
      batch.flatMap((b) => b.transfer),
    ).then(
      (outcomes) => {
        for (const [i, { settle, reject }] of batch.entries()) {
          const outcome = outcomes[i];
          if (outcome) settle(outcome);
          else reject(new Error('the writer answered fewer writes than it was sent'));
        }
      },
      // BEGIN or COMMIT failed (lock held beyond busy_timeout, disk full, I/O error): nothing of
      // the batch is stored, and every write in it is told so.
      (error: unknown) => {
        for (const { reject } of batch) reject(error);
      },
    );
    void this.#committing.finally(() => {
      this.#committing = null;
      this.#commitPending();
    });
  }

  getRun(id: string): Promise<Run | null> {
    return this.#guard(() => {
      if (!isValidId(id)) return null;
      const row = this.#get(`SELECT ${RUN_META_COLUMNS}, report FROM runs WHERE id = ?`, id);
      return row ? runFromRow(row) : null;
    });
  }

  getRunMeta(id: string): Promise<RunMeta | null> {
    return this.#guard(() => {
      if (!isValidId(id)) return null;
      const row = this.#get(`SELECT ${RUN_META_COLUMNS} FROM runs WHERE id = ?`, id);
      return row ? runMetaFromRow(row) : null;
    });
  }

  getRunJson(id: string): Promise<RunJson | null> {
    return this.#guard(() => {
      if (!isValidId(id)) return null;
      // TEXT columns hold the JSON exactly as serializeJsonObject wrote it.
      const row = this.#get(
        `SELECT ${RUN_JSON_COLUMNS}, summary AS summary_json, report AS report_json FROM runs WHERE id = ?`,
        id,
      );
      return row ? runJsonFromRow(row) : null;
    });
  }

  getRunJsonBytes(id: string): Promise<RunJsonBytes | null> {
    return this.#guard(async () => {
      if (!isValidId(id)) return null;
      // CAST AS BLOB hands out the TEXT's UTF-8 bytes as stored: the driver copies them into a
      // Buffer without decoding them into a JS string. Read by the writer's connection, in its
      // thread: a ~2 MB report's overflow pages held the event loop for milliseconds (P13).
      const row = await this.#writes.call('select', {
        sql: `SELECT ${RUN_JSON_COLUMNS}, summary AS summary_json, CAST(report AS BLOB) AS report_json FROM runs WHERE id = ?`,
        params: [id],
      });
      return row ? runJsonBytesFromRow(row) : null;
    });
  }

  getRunRaw(id: string): Promise<RunRaw | null> {
    return this.#guard(() => {
      if (!isValidId(id)) return null;
      const row = this.#get(
        'SELECT runs.media_type, runs.file_name, runs.raw_sha256, run_raw.bytes ' +
          'FROM runs JOIN run_raw ON run_raw.run_id = runs.id WHERE runs.id = ?',
        id,
      );
      if (!row) return null;
      return {
        bytes: bytesColumn(row.bytes, 'bytes'),
        mediaType: row.media_type as string,
        fileName: (row.file_name as string | null) ?? null,
        sha256: row.raw_sha256 as string,
      };
    });
  }

  #list(plan: StoreResult<ListPlan>): Promise<StoreResult<RunPage>> {
    return this.#guard(() => {
      if (!plan.ok) return plan;
      const { sql, params } = listRunsStatement(plan.value, () => '?');
      return storeOk(pageFromRows(this.#all(sql, ...params), plan.value.limit));
    });
  }

  listRuns(query: ListRunsQuery = {}): Promise<StoreResult<RunPage>> {
    return this.#list(planListRuns(query));
  }

  listSeriesRuns(query: ListSeriesRunsQuery): Promise<StoreResult<RunPage>> {
    return this.#list(planListSeriesRuns(query));
  }

  // ── ComparisonRecords · SQLite SQL ─────────────────────────────────────────────────────────────

  insertComparison(input: InsertComparisonInput): Promise<StoreResult<Comparison>> {
    return this.#guard(async () => {
      const prepared = prepareComparison(input, this.#clock);
      if (!prepared.ok) return prepared;
      const comparison = prepared.value;
      // Read here, before the write: runs are never deleted, so a run found stays there.
      const unknown = unknownRunOf(comparison, this.#runExists);
      if (unknown) return unknown;
      await this.#write(
        'run',
        [comparisonInsertStatement(comparison, () => '?')],
        comparisonBytes(comparison),
      );
      return storeOk(comparisonFromPrepared(comparison));
    });
  }

  /** For unknownRunOf: one primary-key probe per run (acknowledged runs are committed, so visible). */
  readonly #runExists = (runId: string): boolean =>
    this.#get('SELECT 1 AS found FROM runs WHERE id = ?', runId) !== undefined;

  getComparison(id: string): Promise<Comparison | null> {
    return this.#guard(() => {
      if (!isValidId(id)) return null;
      const row = this.#get(`SELECT ${COMPARISON_COLUMNS} FROM comparisons WHERE id = ?`, id);
      return row ? comparisonFromRow(row) : null;
    });
  }

  ensurePairComparison(input: InsertComparisonInput): Promise<StoreResult<PairComparison>> {
    return this.#guard(async () => {
      const pairKey = pairKeyOf(input.runIds);
      const prepared = prepareComparison(input, this.#clock);
      if (!prepared.ok) return prepared;
      const comparison = prepared.value;
      const unknown = unknownRunOf(comparison, this.#runExists);
      if (unknown) return unknown;
      const insert = comparisonInsertStatement(
        comparison,
        (position) => (position === COMPARISON_RESULT_POSITION ? 'CAST(? AS TEXT)' : '?'),
        pairKey,
      );
      const transfer: ArrayBuffer[] = [];
      insert.params[COMPARISON_RESULT_POSITION - 1] = movedUtf8(comparison.resultJson, transfer);
      const changes = await this.#inGroupCommit(insert, comparisonBytes(comparison), transfer);
      if (changes === 1) return storeOk({ comparison: comparisonFromPrepared(comparison), created: true });
      // The pair has one (committed, as comparisons are never deleted): read it here.
      const existing = this.#get(
        PAIR_COMPARISON_SELECT(() => '?'),
        pairKey,
        comparison.analysisVersion,
      );
      if (!existing) throw new Error('pair conflict without a matching comparison');
      return storeOk({ comparison: comparisonFromRow(existing), created: false });
    });
  }

  findPairComparisons(runIds: readonly [string, string]): Promise<PairComparisonRef[]> {
    return this.#guard(() => {
      if (!isValidId(runIds[0]) || !isValidId(runIds[1])) return [];
      // INDEXED BY: after ANALYZE of an archive with few comparisons, SQLite would rather scan them
      // all (cheaper on 3 rows, not on 300,000); the lookup is always one index seek.
      const rows = this.#all(
        `SELECT ${PAIR_REF_COLUMNS} FROM comparisons INDEXED BY comparisons_pair WHERE pair_key = ?`,
        `${runIds[0]}:${runIds[1]}`,
      );
      return newestPairRefsFirst(rows.map(pairRefFromRow));
    });
  }

  // ── FleetPlanRecords · SQLite SQL ──────────────────────────────────────────────────────────────

  insertFleetPlan(input: InsertFleetPlanInput): Promise<{ plan: StoredFleetPlanRef; created: boolean }> {
    return this.#guard(async () => {
      const plan = prepareFleetPlan(input, this.#clock);
      const insert = fleetPlanInsertStatement(plan, () => '?');
      const { tokenId } = plan;
      let changes: number;
      if (tokenId === null) changes = await this.#write('run', [insert], plan.gzip.length);
      else {
        // In the insert's transaction: a token revoked while the plan was computed stores nothing.
        const tokenActive = { sql: TOKEN_ACTIVE(() => '?'), params: [tokenId] };
        changes = await this.#write('runIfTokenActive', [tokenActive, insert], plan.gzip.length).catch(
          (error: unknown) => {
            throw error instanceof Error && error.name === TOKEN_REVOKED
              ? new TokenRevokedError(tokenId)
              : error;
          },
        );
      }
      if (changes === 1) return { plan: fleetPlanRefFromPrepared(plan), created: true };
      // The row holding this key committed before this insert ran (the writer runs writes one at
      // a time), so the store's own connection reads it; plans are never deleted.
      const existing = this.#get(fleetPlanByKeyStatement('?'), plan.idempotencyKey);
      if (!existing) throw new Error('fleet plan insert conflicted, yet no row has its idempotency key');
      return { plan: fleetPlanRefFromRow(existing), created: false };
    });
  }

  getFleetPlan(id: string): Promise<StoredFleetPlan | null> {
    return this.#guard(() => {
      if (!isValidId(id)) return null;
      const row = this.#get(`SELECT ${FLEET_PLAN_COLUMNS} FROM fleet_plans WHERE id = ?`, id);
      return row ? fleetPlanFromRow(row) : null;
    });
  }

  getFleetPlanDocument(id: string): Promise<StoredFleetPlanDocument | null> {
    return this.#guard(() => {
      if (!isValidId(id)) return null;
      const row = this.#get(`SELECT ${FLEET_PLAN_COLUMNS} FROM fleet_plans WHERE id = ?`, id);
      return row ? fleetPlanDocumentFromRow(row) : null;
    });
  }

  // ── TokenRecords · SQLite SQL ──────────────────────────────────────────────────────────────────

  createToken(input: CreateTokenInput): Promise<StoreResult<TokenInfo>> {
    return this.#guard(async (): Promise<StoreResult<TokenInfo>> => {
      const token = prepareToken(input, this.#clock);
      const inserted = await this.#write('run', [
        {
          sql: 'INSERT INTO tokens (id, name, token_sha256, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
          params: [token.id, token.name, token.tokenSha256, token.createdAt],
        },
      ]);
      if (inserted === 0) {
        // Which one conflicted, read after the commit: an active token's name, or the digest.
        const nameTaken = this.#get(
          'SELECT 1 AS taken FROM tokens WHERE name = ? AND revoked_at IS NULL',
          token.name,
        );
        return nameTaken
          ? storeFail('token_name_taken', 'an active token already has this name', 'name')
          : storeFail('token_hash_taken', 'this token is already registered', 'tokenSha256');
      }
      return storeOk({
        id: token.id,
        name: token.name,
        createdAt: token.createdAt,
        revokedAt: null,
        lastUsedAt: null,
      });
    });
  }

  findActiveTokenByHash(tokenSha256: string): Promise<ActiveToken | null> {
    return this.#guard(() => {
      if (!isSha256Hex(tokenSha256)) return null;
      const row = this.#get(
        `SELECT ${TOKEN_COLUMNS}, token_sha256 FROM tokens WHERE token_sha256 = ? AND revoked_at IS NULL`,
        tokenSha256,
      );
      return row ? { ...tokenFromRow(row), tokenSha256: row.token_sha256 as string } : null;
    });
  }

  listTokens(): Promise<TokenInfo[]> {
    return this.#guard(() =>
      this.#all(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY created_at, id`).map(tokenFromRow),
    );
  }

  revokeToken(ref: TokenRef): Promise<StoreResult<TokenInfo>> {
    return this.#guard(async () => {
      const target = tokenRefColumn(ref);
      const notFound = storeFail('token_not_found', 'no active token matches', target?.column ?? 'ref');
      if (!target) return notFound;
      const revokedAt = this.#clock.next();
      const row = await this.#write('get', [
        {
          sql: `UPDATE tokens SET revoked_at = ? WHERE ${target.column} = ? AND revoked_at IS NULL RETURNING ${TOKEN_COLUMNS}`,
          params: [revokedAt, target.value],
        },
      ]);
      return row ? storeOk(tokenFromRow(row)) : notFound;
    });
  }

  countActiveTokens(): Promise<number> {
    return this.#guard(() => {
      const row = this.#get('SELECT count(*) AS active FROM tokens WHERE revoked_at IS NULL');
      return int(row?.active, 'active');
    });
  }

  hasHeldToken(): Promise<boolean> {
    return this.#guard(() => {
      const row = this.#get('SELECT EXISTS (SELECT 1 FROM tokens) AS held');
      return int(row?.held, 'held') === 1;
    });
  }

  markTokenUsed(id: string): Promise<void> {
    return this.#guard(async () => {
      if (!isValidId(id)) return;
      const now = this.#clock.next();
      await this.#write('run', [
        {
          sql: 'UPDATE tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
          params: [now, id, now - TOKEN_TOUCH_INTERVAL_MS],
        },
      ]);
    });
  }

  // ── SeriesRecords · SQLite SQL ─────────────────────────────────────────────────────────────────

  getSeriesSettings(series: string): Promise<SeriesSettings | null> {
    return this.#guard(() => {
      if (!isSeriesKey(series)) return null;
      const row = this.#get(
        'SELECT series, config, updated_at FROM series_settings WHERE series = ?',
        series,
      );
      return row ? seriesSettingsFromRow(row) : null;
    });
  }

  putSeriesSettings(series: string, config: object): Promise<SeriesSettings> {
    return this.#guard(async () => {
      const key = checkSeriesKey(series);
      const configJson = serializeJsonObject(config, 'config');
      const updatedAt = this.#clock.next();
      const row = await this.#write('get', [
        {
          sql:
            'INSERT INTO series_settings (series, config, updated_at) VALUES (?, ?, ?) ' +
            'ON CONFLICT (series) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at ' +
            'RETURNING series, config, updated_at',
          params: [key, configJson, updatedAt],
        },
      ]);
      if (!row) throw new Error('upsert returned no row');
      return seriesSettingsFromRow(row);
    });
  }

  listSeries(query: ListSeriesQuery = {}): Promise<StoreResult<SeriesPage>> {
    return this.#guard(() => {
      const plan = planListSeries(query);
      if (!plan.ok) return plan;
      const { sql, params } = listSeriesStatement(plan.value, () => '?');
      return storeOk(seriesPageFromRows(this.#all(sql, ...params), plan.value.limit));
    });
  }

  /** One process per SQLite archive: its counters live in memory (no write, no fsync per request). */
  #rateLimits: MemoryWindowCounters | undefined;

  // ── RateLimitRecords · SQLite SQL ──────────────────────────────────────────────────────────────

  hitRateLimit(key: string, amount: number, windowMs: number): Promise<WindowCount> {
    return this.#guard(() => {
      checkRateLimitHit(key, amount, windowMs);
      this.#rateLimits ??= new MemoryWindowCounters(() => this.#clock.next());
      return this.#rateLimits.hit(key, amount, windowMs);
    });
  }

  // ── StoreHealth · SQLite SQL ───────────────────────────────────────────────────────────────────

  ping(): Promise<void> {
    return this.#guard(() => {
      this.#get('SELECT 1 AS ok');
    });
  }

  unavailableErrors(): Readonly<Partial<Record<StoreFault, number>>> {
    return this.#writeHealth.unavailableErrors();
  }

  checkWrites(): Promise<WriteCheck> {
    let probe: ProbeOutcome;
    try {
      const problem = fileIdentityProblem(this.#file);
      if (problem) throw new StoreUnavailableError(problem, { fault: 'io_error' });
      // On this connection, with busy_timeout 0: while the writer holds the write lock (a commit
      // in progress, a disk that stalls) the probe is `busy` at once — writes do go through, later.
      probe = probeWrite(this.#db, 'none');
    } catch (error) {
      probe = { ok: false, error };
    }
    return Promise.resolve(this.#writeHealth.report(probe));
  }

  // ── lifecycle · SQLite SQL ─────────────────────────────────────────────────────────────────────

  async close(): Promise<void> {
    // Runs queued for the next group commits are written first.
    this.#commitPending();
    while (this.#committing) await this.#committing;
    // The writer's and the checkpoint worker's connections close first (after the writes already
    // sent), so closing this one can remove the WAL.
    await this.#writes.close();
    await this.#checkpointer?.close();
    // Closing checkpoints the WAL into the main file and removes the -wal/-shm files.
    if (this.#db.open) this.#db.close();
  }
}
