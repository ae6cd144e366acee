import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type Database from 'better-sqlite3';

/**
 * The native driver, loaded on first open: `blockwise analyze` and `upload` live in the same
 * bundle and must run on CI machines that have only Node, without the native addon.
 */
let Driver: typeof Database | undefined;
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
import { isSha256Hex } from './idempotency.ts';
import { DEFAULT_AUTOCHECKPOINT_PAGES, WalCheckpointer, type CheckpointResult } from './wal-checkpointer.ts';
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
function configure(db: Database.Database, busyTimeoutMs: number): void {
  db.pragma('page_size = 16384');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
}

export function readPragmas(db: Database.Database): SqlitePragmas {
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
  expected: { memory: boolean; busyTimeoutMs: number },
): string[] {
  const problems: string[] = [];
  const journal = expected.memory ? 'memory' : 'wal';
  if (actual.journalMode !== journal)
    problems.push(`journal_mode is ${actual.journalMode}, expected ${journal}`);
  if (actual.synchronous !== 2) problems.push(`synchronous is ${actual.synchronous}, expected 2 (FULL)`);
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
function migrate(db: Database.Database, now: () => number, observe: QueryObserver | undefined): void {
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
function translate(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (Driver !== undefined && error instanceof Driver.SqliteError && typeof code === 'string') {
    const fault = SQLITE_FAULTS.find(([pattern]) => pattern.test(code))?.[1];
    if (fault)
      return new StoreUnavailableError(`SQLite: ${error.message} (${code})`, { cause: error, fault });
  }
  return error;
}

/**
 * A write that changes nothing: user_version written over itself, in a transaction rolled back.
 * It needs no table, so it also runs before the migrations. busy_timeout is 0 meanwhile: the
 * driver is synchronous, and /healthz must not block the event loop while another process
 * holds the write lock (that is `busy`, which says writes do go through).
 */
function probeWrite(db: Database.Database): ProbeOutcome {
  if (!db.open) return { ok: false, error: closedError() };
  const busyTimeoutMs = Number(db.pragma('busy_timeout', { simple: true }));
  try {
    db.pragma('busy_timeout = 0');
    const version = Number(db.pragma('user_version', { simple: true }));
    db.transaction(() => {
      db.pragma(`user_version = ${version}`);
      throw ROLLBACK_PROBE;
    }).immediate();
    return { ok: true };
  } catch (error) {
    return error === ROLLBACK_PROBE ? { ok: true } : { ok: false, error: translate(error) };
  } finally {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  }
}

const closedError = () => new StoreUnavailableError('SQLite store is closed', { fault: 'closed' });

type FileIdentity = { path: string; dev: number; ino: number };

function fileIdentity(path: string): FileIdentity | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat ? { path, dev: stat.dev, ino: stat.ino } : null;
}

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
  Driver ??= (await import('better-sqlite3')).default;
  let db: Database.Database;
  try {
    db = new Driver(path);
  } catch (error) {
    throw startupError(path, error);
  }
  try {
    configure(db, busyTimeoutMs);
    // SQLite opens a file it may not write read-only, silently: say so before anything else
    // fails on it (journal_mode would just stay "delete").
    const probe = probeWrite(db);
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
  const checkpointer = memory ? null : startCheckpointer(db, options.onCheckpoint);
  return new SqliteRunStore(db, new MonotonicClock(options.now), options.onQuery, options.now, checkpointer);
}

/**
 * Moves WAL checkpoints off the event loop (see WalCheckpointer): the committing connection stops
 * auto-checkpointing, a worker's connection checkpoints instead; if the worker cannot run, the
 * connection auto-checkpoints again as SQLite does by default.
 */
function startCheckpointer(
  db: Database.Database,
  onCheckpoint: ((result: CheckpointResult) => void) | undefined,
): WalCheckpointer | null {
  const restore = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };
  try {
    db.pragma('wal_autocheckpoint = 0');
    return new WalCheckpointer({ path: resolve(db.name), onFallback: restore, onCheckpoint });
  } catch {
    restore();
    return null;
  }
}

/** Bytes of runs one group commit writes at most (one run always goes, whatever its size). */
export const GROUP_COMMIT_MAX_BYTES = 8 * 1024 * 1024;

/** About what a run appends to the WAL: its bytes and its JSON documents. */
function runBytes(run: PreparedRun): number {
  return run.rawBytes.length + run.reportJson.length + run.summaryJson.length + run.labelsJson.length;
}

const comparisonBytes = (c: { resultJson: string; planJson: string | null }) =>
  c.resultJson.length + (c.planJson?.length ?? 0);

const sumOf = <T>(items: readonly T[], size: (item: T) => number) =>
  items.reduce((total, item) => total + size(item), 0);

/** Removes and returns the first queued runs that fit in `maxBytes` (at least one). */
export function takeBatch<T extends { run: PreparedRun }>(queue: T[], maxBytes: number): T[] {
  let count = 0;
  let bytes = 0;
  while (count < queue.length) {
    bytes += runBytes(queue[count]!.run);
    if (count > 0 && bytes > maxBytes) break;
    count += 1;
  }
  return queue.splice(0, count);
}

/**
 * RunStore on better-sqlite3. The driver is synchronous: each method runs to completion on the
 * event loop (µs for index lookups; a 20 MB insert is bounded by its fsync), and methods are
 * async only to share the RunStore interface. Writes run in IMMEDIATE transactions: the write
 * lock is taken up front, so a read-then-write transaction cannot fail half-way with
 * SQLITE_BUSY_SNAPSHOT when another process wrote in between.
 */
export class SqliteRunStore implements RunStore {
  readonly dialect = 'sqlite' as const;
  readonly #db: Database.Database;
  readonly #clock: MonotonicClock;
  readonly #observe: QueryObserver | undefined;
  readonly #statements = new Map<string, Database.Statement>();
  /** Runs waiting for the next group commit (see insertRun). */
  readonly #pendingRuns: Array<{
    run: PreparedRun;
    resolve: (result: InsertRunResult) => void;
    reject: (error: unknown) => void;
  }> = [];

  readonly #insertInSavepoint: (run: PreparedRun) => InsertRunResult;
  readonly #writeHealth: WriteHealth;
  /** The database file as opened: a write must not go to it once it was deleted or replaced. */
  readonly #file: FileIdentity | null;

  /** Checkpoints the WAL in a worker thread; null for in-memory databases. */
  readonly #checkpointer: WalCheckpointer | null;

  constructor(
    db: Database.Database,
    clock: MonotonicClock,
    observe?: QueryObserver,
    now: () => number = Date.now,
    checkpointer: WalCheckpointer | null = null,
  ) {
    this.#db = db;
    this.#checkpointer = checkpointer;
    this.#writeHealth = new WriteHealth(now);
    this.#file = db.memory ? null : fileIdentity(resolve(db.name));
    this.#insertInSavepoint = db.transaction((run: PreparedRun) => this.#insertPreparedRun(run));
    this.#clock = clock;
    this.#observe = observe;
  }

  /** The durability pragmas as the connection reports them (for /healthz and tests). */
  pragmas(): SqlitePragmas {
    return readPragmas(this.#db);
  }

  /** Statements are prepared once per SQL text and reused. */
  #statement(sql: string, params: readonly unknown[]): Database.Statement {
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

  #run(sql: string, ...params: unknown[]): Database.RunResult {
    return this.#statement(sql, params).run(...params);
  }

  /**
   * Runs `body` in an IMMEDIATE transaction: all of it commits, or none of it. `walBytes` is about
   * what the commit appends to the WAL (the large documents), for the checkpointer.
   */
  #write<T>(body: () => T, walBytes = 0): T {
    this.#checkFile();
    const result = this.#db.transaction(body).immediate();
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

  async #guard<T>(body: () => T): Promise<T> {
    // better-sqlite3 throws a TypeError on a closed connection: that is a 503, not a bug.
    if (!this.#db.open) throw closedError();
    try {
      return body();
    } catch (error) {
      throw this.#translate(error);
    }
  }

  /**
   * Group commit. With synchronous=FULL every COMMIT waits for an fsync of the WAL, on the event
   * loop (better-sqlite3 is synchronous): measured under 10 concurrent uploads, FULL ran at 0.66×
   * the ingest rate of NORMAL (bench P9; the goal is ≥ 0.85×). Inserts that arrive in the same
   * turn of the event loop are therefore written in ONE transaction — one fsync for all of them —
   * each inside its own savepoint, so one failing insert rolls back alone. Every promise still
   * resolves only after the COMMIT that made its run durable ("201 means committed"); an upload
   * racing an identical one in the same batch finds it (same transaction) and gets created:false.
   */
  insertRun(input: InsertRunInput): Promise<InsertRunResult> {
    let run: PreparedRun;
    try {
      // Validation, hashing and JSON serialization happen before the write lock is taken.
      run = prepareRun(input, this.#clock);
    } catch (error) {
      return Promise.reject(this.#translate(error));
    }
    return new Promise((resolve, reject) => {
      this.#pendingRuns.push({ run, resolve, reject });
      if (this.#pendingRuns.length === 1) setImmediate(() => this.#commitPendingRuns());
    });
  }

  #insertPreparedRun(run: PreparedRun): InsertRunResult {
    // In the IMMEDIATE transaction: no revoke can commit between this check and the insert.
    if (
      run.tokenId !== null &&
      !this.#get(
        TOKEN_ACTIVE(() => '?'),
        run.tokenId,
      )
    )
      throw new TokenRevokedError(run.tokenId);
    const placeholders = RUN_INSERT_COLUMNS.map(() => '?').join(', ');
    const inserted = this.#run(
      `INSERT INTO runs (${RUN_INSERT_COLUMNS.join(', ')}) VALUES (${placeholders}) ` +
        'ON CONFLICT (idempotency_key) DO NOTHING',
      ...runInsertValues(run),
    );
    if (inserted.changes === 0) {
      const existing = this.#get(
        `SELECT ${RUN_META_COLUMNS} FROM runs WHERE idempotency_key = ?`,
        run.idempotencyKey,
      );
      if (!existing) throw new Error('idempotency conflict without a matching run');
      return { run: runMetaFromRow(existing), created: false };
    }
    this.#run('INSERT INTO run_raw (run_id, bytes) VALUES (?, ?)', run.id, run.rawBytes);
    this.#countSeriesRun(run);
    return { run: runMetaFromPrepared(run), created: true };
  }

  /** Keeps series_stats (GET /api/series) in step with the runs, in the run's transaction. */
  #countSeriesRun(run: PreparedRun): void {
    const { series, branch } = run.labels;
    if (series === undefined) return;
    const newBranch =
      branch === undefined
        ? 0
        : this.#run(
            SERIES_BRANCH_INSERT(() => '?'),
            series,
            branch,
          ).changes;
    this.#run(
      SERIES_STATS_UPSERT(() => '?'),
      series,
      newBranch,
      run.createdAt,
      run.id,
    );
  }

  /**
   * Writes the queued runs in one IMMEDIATE transaction, then settles each promise. A batch holds
   * at most GROUP_COMMIT_MAX_BYTES (at least one run): the commit runs on the event loop, and its
   * cost grows with the bytes written (bench P13), so a burst of large uploads is written in
   * several commits with a turn of the event loop between them instead of one long block.
   */
  #commitPendingRuns(): void {
    const batch = takeBatch(this.#pendingRuns, GROUP_COMMIT_MAX_BYTES);
    if (batch.length === 0) return;
    if (this.#pendingRuns.length > 0) setImmediate(() => this.#commitPendingRuns());
    const outcomes: Array<{ ok: true; value: InsertRunResult } | { ok: false; error: unknown }> = [];
    try {
      if (!this.#db.open) throw closedError();
      this.#write(
        () => {
          for (const { run } of batch) {
            try {
              // Nested transaction = SAVEPOINT: a failure undoes this run only.
              outcomes.push({ ok: true, value: this.#insertInSavepoint(run) });
            } catch (error) {
              // SQLITE_FULL, IOERR, NOMEM (and BUSY) may roll back the whole transaction, not
              // only the savepoint: then nothing of the batch is stored, and the next run must
              // not go on in a transaction of its own (it would commit while its upload is told
              // it failed). Abort the batch with this error.
              if (!this.#db.inTransaction) throw error;
              outcomes.push({ ok: false, error });
            }
          }
        },
        sumOf(batch, (b) => runBytes(b.run)),
      );
    } catch (error) {
      // BEGIN or COMMIT failed (lock held beyond busy_timeout, disk full, I/O error): nothing of
      // the batch is stored, and every upload in it is told so.
      const translated = this.#translate(error);
      for (const { reject } of batch) reject(translated);
      return;
    }
    for (const [i, { resolve, reject }] of batch.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.ok) resolve(outcome.value);
      else reject(this.#translate(outcome.error));
    }
  }

  getRun(id: string): Promise<Run | null> {
    return this.#guard(() => {
      if (!isValidId(id)) return null;
      const row = this.#get(`SELECT ${RUN_META_COLUMNS}, report FROM runs WHERE id = ?`, id);
      return row ? runFromRow(row) : null;
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

  insertComparison(input: InsertComparisonInput): Promise<StoreResult<Comparison>> {
    return this.#guard(() => {
      const prepared = prepareComparison(input, this.#clock);
      if (!prepared.ok) return prepared;
      const comparison = prepared.value;
      return this.#write((): StoreResult<Comparison> => {
        const unknown = unknownRunOf(comparison, this.#runExists);
        if (unknown) return unknown;
        const { sql, params } = comparisonInsertStatement(comparison, () => '?');
        this.#run(sql, ...params);
        return storeOk(comparisonFromPrepared(comparison));
      }, comparisonBytes(comparison));
    });
  }

  /** For unknownRunOf: one primary-key probe per run, inside the comparison's write. */
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
    return this.#guard(() => {
      const pairKey = pairKeyOf(input.runIds);
      const prepared = prepareComparison(input, this.#clock);
      if (!prepared.ok) return prepared;
      const comparison = prepared.value;
      return this.#write((): StoreResult<PairComparison> => {
        const unknown = unknownRunOf(comparison, this.#runExists);
        if (unknown) return unknown;
        const { sql, params } = comparisonInsertStatement(comparison, () => '?', pairKey);
        const inserted = this.#run(sql, ...params);
        if (inserted.changes === 1)
          return storeOk({ comparison: comparisonFromPrepared(comparison), created: true });
        const existing = this.#get(
          PAIR_COMPARISON_SELECT(() => '?'),
          pairKey,
          comparison.analysisVersion,
        );
        if (!existing) throw new Error('pair conflict without a matching comparison');
        return storeOk({ comparison: comparisonFromRow(existing), created: false });
      }, comparisonBytes(comparison));
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

  insertFleetPlan(input: InsertFleetPlanInput): Promise<{ plan: StoredFleetPlanRef; created: boolean }> {
    return this.#guard(() => {
      const plan = prepareFleetPlan(input, this.#clock);
      return this.#write(() => {
        const { sql, params } = fleetPlanInsertStatement(plan, () => '?');
        if (this.#run(sql, ...params).changes === 1)
          return { plan: fleetPlanRefFromPrepared(plan), created: true };
        const existing = this.#get(fleetPlanByKeyStatement('?'), plan.idempotencyKey);
        if (!existing) throw new Error('fleet plan insert conflicted, yet no row has its idempotency key');
        return { plan: fleetPlanRefFromRow(existing), created: false };
      }, plan.gzip.length);
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

  createToken(input: CreateTokenInput): Promise<StoreResult<TokenInfo>> {
    return this.#guard(() => {
      const token = prepareToken(input, this.#clock);
      return this.#write((): StoreResult<TokenInfo> => {
        const inserted = this.#run(
          'INSERT INTO tokens (id, name, token_sha256, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
          token.id,
          token.name,
          token.tokenSha256,
          token.createdAt,
        );
        if (inserted.changes === 0) {
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
    return this.#guard(() => {
      const target = tokenRefColumn(ref);
      const notFound = storeFail('token_not_found', 'no active token matches', target?.column ?? 'ref');
      if (!target) return notFound;
      const revokedAt = this.#clock.next();
      const row = this.#write(() =>
        this.#get(
          `UPDATE tokens SET revoked_at = ? WHERE ${target.column} = ? AND revoked_at IS NULL RETURNING ${TOKEN_COLUMNS}`,
          revokedAt,
          target.value,
        ),
      );
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
    return this.#guard(() => {
      if (!isValidId(id)) return;
      const now = this.#clock.next();
      this.#write(() =>
        this.#run(
          'UPDATE tokens SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
          now,
          id,
          now - TOKEN_TOUCH_INTERVAL_MS,
        ),
      );
    });
  }

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
    return this.#guard(() => {
      const key = checkSeriesKey(series);
      const configJson = serializeJsonObject(config, 'config');
      const updatedAt = this.#clock.next();
      const row = this.#write(() =>
        this.#get(
          'INSERT INTO series_settings (series, config, updated_at) VALUES (?, ?, ?) ' +
            'ON CONFLICT (series) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at ' +
            'RETURNING series, config, updated_at',
          key,
          configJson,
          updatedAt,
        ),
      );
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

  hitRateLimit(key: string, amount: number, windowMs: number): Promise<WindowCount> {
    return this.#guard(() => {
      checkRateLimitHit(key, amount, windowMs);
      this.#rateLimits ??= new MemoryWindowCounters(() => this.#clock.next());
      return this.#rateLimits.hit(key, amount, windowMs);
    });
  }

  ping(): Promise<void> {
    return this.#guard(() => {
      this.#get('SELECT 1 AS ok');
    });
  }

  checkWrites(): Promise<WriteCheck> {
    let probe: ProbeOutcome;
    try {
      this.#checkFile();
      probe = probeWrite(this.#db);
    } catch (error) {
      probe = { ok: false, error };
    }
    return Promise.resolve(this.#writeHealth.report(probe));
  }

  /**
   * The connection keeps writing to a database file that was deleted (or replaced by another
   * file) under it, and in WAL mode SQLite does not notice: every run stored after that would be
   * gone at the next start. One stat per write transaction (µs) turns that into a 503.
   */
  #checkFile(): void {
    if (!this.#file) return;
    const now = fileIdentity(this.#file.path);
    if (now && now.dev === this.#file.dev && now.ino === this.#file.ino) return;
    throw new StoreUnavailableError(
      `SQLite: the database file ${this.#file.path} was ${now ? 'replaced' : 'deleted'} while open`,
      { fault: 'io_error' },
    );
  }

  async close(): Promise<void> {
    // Runs queued for the next group commits are written first.
    while (this.#pendingRuns.length > 0) this.#commitPendingRuns();
    // The worker's connection closes first, so closing this one can remove the WAL.
    await this.#checkpointer?.close();
    // Closing checkpoints the WAL into the main file and removes the -wal/-shm files.
    if (this.#db.open) this.#db.close();
  }
}
