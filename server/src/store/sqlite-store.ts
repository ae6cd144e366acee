import { mkdirSync } from 'node:fs';
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
  type InsertRunInput,
  type InsertRunResult,
  type ListRunsQuery,
  type ListSeriesRunsQuery,
  type QueryObserver,
  type Run,
  type RunJson,
  type RunPage,
  type RunRaw,
  type RunStore,
  type SeriesSettings,
  type StoreResult,
  type TokenInfo,
  type TokenRef,
} from './run-store.ts';
import { isValidId } from './ids.ts';
import { isSha256Hex } from './idempotency.ts';
import {
  COMPARISON_COLUMNS,
  MonotonicClock,
  RUN_INSERT_COLUMNS,
  RUN_META_COLUMNS,
  TOKEN_COLUMNS,
  TOKEN_TOUCH_INTERVAL_MS,
  checkSeriesKey,
  comparisonFromPrepared,
  comparisonFromRow,
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
  RUN_JSON_COLUMNS,
  runInsertValues,
  runMetaFromPrepared,
  runMetaFromRow,
  serializeJsonObject,
  seriesSettingsFromRow,
  tokenFromRow,
  tokenRefColumn,
  type ListPlan,
  type PreparedRun,
} from './store-core.ts';

export interface SqliteStoreOptions {
  /** A file path (its directory is created) or `:memory:` (tests only: nothing is durable). */
  path?: string;
  /** Wall clock for createdAt (ms epoch); tests pass a fake one. */
  now?: () => number;
  /** How long a write waits for another connection's write lock before failing (503). */
  busyTimeoutMs?: number;
  onQuery?: QueryObserver;
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

const UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|NOMEM)/;

/**
 * Database trouble the caller can only wait out becomes StoreUnavailableError (→ 503): the write
 * lock held beyond busy_timeout, a full disk, an I/O error. Everything else (constraint
 * violations, SQL errors) is a bug and propagates unchanged.
 */
function translate(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (
    Driver !== undefined &&
    error instanceof Driver.SqliteError &&
    typeof code === 'string' &&
    UNAVAILABLE.test(code)
  ) {
    return new StoreUnavailableError(`SQLite: ${error.message}`, { cause: error });
  }
  return error;
}

export async function openSqliteStore(options: SqliteStoreOptions = {}): Promise<SqliteRunStore> {
  const path = options.path ?? DEFAULT_SQLITE_PATH;
  if (path.trim() === '') throw new StoreConfigError('SQLite path is empty');
  const memory = path === ':memory:';
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (!memory) mkdirSync(dirname(resolve(path)), { recursive: true });
  Driver ??= (await import('better-sqlite3')).default;
  const db = new Driver(path);
  try {
    configure(db, busyTimeoutMs);
    const mismatches = pragmaMismatches(readPragmas(db), { memory, busyTimeoutMs });
    if (mismatches.length > 0) {
      throw new StoreConfigError(`SQLite at ${path} is not durable as configured: ${mismatches.join('; ')}`);
    }
    migrate(db, options.now ?? Date.now, options.onQuery);
  } catch (error) {
    db.close();
    throw translate(error);
  }
  return new SqliteRunStore(db, new MonotonicClock(options.now), options.onQuery);
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

  constructor(db: Database.Database, clock: MonotonicClock, observe?: QueryObserver) {
    this.#db = db;
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

  /** Runs `body` in an IMMEDIATE transaction: all of it commits, or none of it. */
  #write<T>(body: () => T): T {
    return this.#db.transaction(body).immediate();
  }

  async #guard<T>(body: () => T): Promise<T> {
    try {
      return body();
    } catch (error) {
      throw translate(error);
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
      return Promise.reject(translate(error));
    }
    return new Promise((resolve, reject) => {
      this.#pendingRuns.push({ run, resolve, reject });
      if (this.#pendingRuns.length === 1) setImmediate(() => this.#commitPendingRuns());
    });
  }

  #insertPreparedRun(run: PreparedRun): InsertRunResult {
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
    return { run: runMetaFromPrepared(run), created: true };
  }

  /** Writes every queued run in one IMMEDIATE transaction, then settles each promise. */
  #commitPendingRuns(): void {
    const batch = this.#pendingRuns.splice(0);
    if (batch.length === 0) return;
    const outcomes: Array<{ ok: true; value: InsertRunResult } | { ok: false; error: unknown }> = [];
    try {
      if (!this.#db.open) throw new StoreUnavailableError('SQLite store is closed');
      this.#write(() => {
        for (const { run } of batch) {
          try {
            // Nested transaction = SAVEPOINT: a failure undoes this run only.
            outcomes.push({ ok: true, value: this.#insertInSavepoint(run) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      // BEGIN or COMMIT failed (lock held beyond busy_timeout, disk full, I/O error): nothing of
      // the batch is stored, and every upload in it is told so.
      for (const { reject } of batch) reject(translate(error));
      return;
    }
    for (const [i, { resolve, reject }] of batch.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.ok) resolve(outcome.value);
      else reject(translate(outcome.error));
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
        bytes: row.bytes as Buffer,
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
        // Runs are never deleted (triggers), so a reference checked here stays valid forever.
        for (const [index, runId] of comparison.runIds.entries()) {
          if (!this.#get('SELECT 1 AS found FROM runs WHERE id = ?', runId)) {
            return storeFail('unknown_run', 'no such run', `runIds.${index}`);
          }
        }
        this.#run(
          `INSERT INTO comparisons (${COMPARISON_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          comparison.id,
          comparison.createdAt,
          comparison.title,
          comparison.runIdsJson,
          comparison.planJson,
          comparison.resultJson,
          comparison.priceTableDate,
          comparison.analysisVersion,
        );
        return storeOk(comparisonFromPrepared(comparison));
      });
    });
  }

  getComparison(id: string): Promise<Comparison | null> {
    return this.#guard(() => {
      if (!isValidId(id)) return null;
      const row = this.#get(`SELECT ${COMPARISON_COLUMNS} FROM comparisons WHERE id = ?`, id);
      return row ? comparisonFromRow(row) : null;
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

  ping(): Promise<void> {
    return this.#guard(() => {
      this.#get('SELECT 1 AS ok');
    });
  }

  async close(): Promise<void> {
    // Runs queued for the next group commit are written first.
    this.#commitPendingRuns();
    // Closing checkpoints the WAL into the main file and removes the -wal/-shm files.
    if (this.#db.open) this.#db.close();
  }
}
