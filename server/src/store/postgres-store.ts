import type pg from 'pg';

/** The driver, loaded on first open (the CLI bundle must run without `pg` installed). */
let Driver: typeof pg | undefined;
import { migrationChecksum, pendingMigrations, type AppliedMigration } from './migrations/migrations.ts';
import { POSTGRES_MIGRATIONS } from './migrations/postgres.ts';
import { isSha256Hex } from './idempotency.ts';
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
import {
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
  PAIR_REF_COLUMNS,
  RATE_LIMIT_READ,
  RATE_LIMIT_SWEEP,
  RATE_LIMIT_SWEEP_BATCH,
  RATE_LIMIT_UPSERT,
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
  type PreparedComparison,
  type PreparedRun,
  type ProbeOutcome,
} from './store-core.ts';

export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database?…` */
  url: string;
  /**
   * Schema for every table (sets search_path on each pooled connection); tests use a fresh one
   * per store. It must exist. Default: the server's search_path (normally `public`).
   */
  schema?: string;
  now?: () => number;
  /** Connections per replica (default 10). */
  poolMax?: number;
  /** How long a request waits for a connection before failing with StoreUnavailableError. */
  connectionTimeoutMs?: number;
  /** Server-side limit per statement; a stuck query becomes a 503, not a hung request. */
  statementTimeoutMs?: number;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /**
   * Tests only: the clock of rate-limit windows. Default: the database's clock, which every
   * replica shares (a replica's own clock may be off; `now` above dates the rows it writes).
   */
  rateLimitNow?: () => number;
  onQuery?: QueryObserver;
  /** Errors of idle pooled connections (the pool drops them and reconnects on demand). */
  onConnectionError?: (error: Error) => void;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

type Queryable = pg.Pool | pg.PoolClient;
type Row = Record<string, unknown>;

/** Node socket errors that mean "the database is not reachable right now". */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/** node-postgres's own messages for lost or unobtainable connections (they carry no code). */
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Connection timeout|connection error and is not queryable|Query read timeout/i;
/** node-postgres's message for a query on a pool that was ended (the store was closed). */
const POOL_ENDED = /Cannot use a pool after calling end on the pool/;

/**
 * Which failures are the database's availability rather than our bug, and why, so the HTTP layer
 * can answer 503 (+ Retry-After) and clients retry (uploads are idempotent, so retrying is safe
 * even when a COMMIT's outcome was lost with the connection). SQLSTATE: 25006 read-only
 * transaction (a standby, `default_transaction_read_only`); 53100 disk full; class 08 connection
 * exception, 28 login refused, 3D000 no such database, 57 operator intervention (shutdown,
 * restart, database dropped) — all "unreachable"; 57014 statement timeout, 55P03 lock timeout,
 * class 40 transaction rollback (serialization failure, deadlock) and the rest of 53 (too many
 * connections, out of memory) — "busy"; class 58 system error (I/O) — "io_error".
 */
export function faultOf(error: unknown): StoreFault | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return 'unreachable';
    if (/^[0-9A-Z]{5}$/.test(code)) {
      if (code === '25006') return 'read_only';
      if (code === '53100') return 'disk_full';
      if (code === '57014' || code === '55P03' || /^(40|53)/.test(code)) return 'busy';
      if (code === '3D000' || /^(08|28|57)/.test(code)) return 'unreachable';
      if (code.startsWith('58')) return 'io_error';
      return null;
    }
  }
  if (typeof message === 'string') {
    if (CONNECTION_MESSAGES.test(message)) return 'unreachable';
    if (POOL_ENDED.test(message)) return 'closed';
  }
  return null;
}

export const isUnavailable = (error: unknown): boolean => faultOf(error) !== null;

function translate(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  const fault = faultOf(error);
  if (fault === null) return error;
  const code = (error as { code?: unknown }).code;
  return new StoreUnavailableError(
    `PostgreSQL unavailable: ${(error as Error).message}${typeof code === 'string' ? ` (${code})` : ''}`,
    { cause: error, fault },
  );
}

const closedError = () => new StoreUnavailableError('PostgreSQL store is closed', { fault: 'closed' });

/**
 * What stops the store at start-up, as one line for `blockwise serve`: a database that refuses
 * us for good (no such database, login refused, permission denied, read-only before its
 * migrations ran…) is a StoreConfigError with PostgreSQL's own message; an unreachable server
 * stays StoreUnavailableError. Neither message carries the URL (it may hold a password).
 */
function startupError(error: unknown): unknown {
  if (error instanceof StoreConfigError || error instanceof StoreUnavailableError) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  // node-postgres parses the URL at the first connection (the message is not repeated: the
  // input may hold a password).
  if (code === 'ERR_INVALID_URL') {
    return new StoreConfigError(
      'the PostgreSQL URL is not a valid URL (check the host, the port and any %-encoding in the password)',
      { cause: error },
    );
  }
  const fault = faultOf(error);
  const refused = code === '3D000' || (typeof code === 'string' && code.startsWith('28'));
  if (fault !== null && fault !== 'read_only' && !refused) return translate(error);
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
    return new StoreConfigError(
      `PostgreSQL refused to open the archive: ${String(message)} (SQLSTATE ${code})`,
      { cause: error },
    );
  }
  return error;
}

export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresRunStore> {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema)) {
    throw new StoreConfigError(
      `schema must match ${SCHEMA_NAME.source}, got ${JSON.stringify(options.schema)}`,
    );
  }
  // node-postgres lets parameters in the URL override the config object, so a URL `options=`
  // would silently replace the search_path we set here.
  if (options.schema !== undefined && /[?&]options=/.test(options.url)) {
    throw new StoreConfigError(
      'give the schema either in the URL (options=-c search_path=…) or as an option',
    );
  }
  Driver ??= (await import('pg')).default;
  const pool = new Driver.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 10,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5000,
    idleTimeoutMillis: 10_000,
    keepAlive: true,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    application_name: options.applicationName ?? 'blockwise',
    ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
  });
  // An idle pooled connection that dies (database restart, failover, network blip) emits
  // 'error' on the pool; without a listener that would crash the process. The pool has already
  // discarded the connection and opens a new one for the next query: that is the reconnect.
  const onConnectionError = options.onConnectionError ?? (() => {});
  pool.on('error', onConnectionError);
  try {
    await migrate(pool, options.now ?? Date.now, options.onQuery);
  } catch (error) {
    await pool.end().catch(() => {});
    throw startupError(error);
  }
  return new PostgresRunStore(
    pool,
    new MonotonicClock(options.now),
    options.onQuery,
    options.now,
    options.rateLimitNow,
  );
}

async function query(
  target: Queryable,
  observe: QueryObserver | undefined,
  sql: string,
  params: readonly unknown[] = [],
): Promise<Row[]> {
  observe?.({ sql, params });
  const result = await target.query<Row>(sql, params as unknown[]);
  return result.rows;
}

/**
 * Runs `body` in one transaction on one pooled connection: COMMIT, or ROLLBACK on any error. A
 * connection whose ROLLBACK fails is broken and is destroyed instead of returned to the pool.
 */
async function inTransaction<T>(
  pool: pg.Pool,
  observe: QueryObserver | undefined,
  body: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await query(client, observe, 'BEGIN');
    const result = await body(client);
    await query(client, observe, 'COMMIT');
    return result;
  } catch (error) {
    try {
      await client.query('ROLLBACK');
    } catch (rollbackError) {
      broken = rollbackError as Error;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * Applies pending migrations in one transaction. `pg_advisory_xact_lock` makes N replicas that
 * start together queue up: the first applies the migrations, the others then find nothing to
 * do. The lock is taken before even `CREATE TABLE IF NOT EXISTS schema_migrations`, which
 * itself races (two concurrent creates fail on pg_type's unique index). The lock is released at
 * COMMIT/ROLLBACK, also when the connection dies. DDL is transactional in PostgreSQL, so a
 * failing migration leaves the previous schema untouched.
 */
async function migrate(pool: pg.Pool, now: () => number, observe: QueryObserver | undefined): Promise<void> {
  if (await upToDate(pool, observe)) return;
  await inTransaction(pool, observe, async (client) => {
    await query(
      client,
      observe,
      "SELECT pg_advisory_xact_lock(hashtextextended('blockwise.schema_migrations', 0))",
    );
    // Schema changes on a large archive may legitimately take longer than a request.
    await query(client, observe, 'SET LOCAL statement_timeout = 0');
    await query(
      client,
      observe,
      `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    integer NOT NULL PRIMARY KEY,
  name       text    NOT NULL,
  checksum   text    NOT NULL,
  applied_at bigint  NOT NULL
)`,
    );
    const applied = (await query(
      client,
      observe,
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
    )) as unknown as AppliedMigration[];
    for (const migration of pendingMigrations(POSTGRES_MIGRATIONS, applied)) {
      await query(client, observe, migration.sql);
      await query(
        client,
        observe,
        'INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)',
        [migration.version, migration.name, migrationChecksum(migration), now()],
      );
    }
  });
}

/**
 * Whether every migration is applied, read without a lock or DDL: then a replica starts without
 * queueing behind the others, and a database that is read-only for now (a standby after a
 * failover, a provider's disk-full protection) still serves reads — writes answer 503 and
 * /healthz says so. A database without the table is not up to date.
 */
async function upToDate(pool: pg.Pool, observe: QueryObserver | undefined): Promise<boolean> {
  let applied: AppliedMigration[];
  try {
    applied = (await query(
      pool,
      observe,
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version',
    )) as unknown as AppliedMigration[];
  } catch (error) {
    if ((error as { code?: unknown }).code === '42P01') return false; // undefined_table
    throw error;
  }
  return pendingMigrations(POSTGRES_MIGRATIONS, applied).length === 0;
}

/**
 * RunStore on a node-postgres Pool. Stateless: any number of replicas can share the database.
 * Every statement is parameterized (the only interpolated SQL fragments are fixed column names).
 *
 * The SQL in this class is PostgreSQL's dialect (`$n` placeholders, `::text` casts, `= ANY($1)`,
 * `FOR SHARE` row locks, BIGINT ms as decimal strings, json columns parsed by the driver); the
 * statements both dialects share live in store-core.ts and fleet-plans.ts. One section per part
 * of RunStore, in run-store.ts's order.
 */
export class PostgresRunStore implements RunStore {
  readonly dialect = 'postgres' as const;
  readonly #pool: pg.Pool;
  readonly #clock: MonotonicClock;
  readonly #observe: QueryObserver | undefined;
  #closed = false;
  readonly #writeHealth: WriteHealth;
  readonly #rateLimitNow: (() => number) | undefined;

  constructor(
    pool: pg.Pool,
    clock: MonotonicClock,
    observe?: QueryObserver,
    now: () => number = Date.now,
    rateLimitNow?: () => number,
  ) {
    this.#pool = pool;
    this.#rateLimitNow = rateLimitNow;
    this.#writeHealth = new WriteHealth(now);
    this.#clock = clock;
    this.#observe = observe;
  }

  #query(sql: string, params: readonly unknown[] = [], target: Queryable = this.#pool): Promise<Row[]> {
    return query(target, this.#observe, sql, params);
  }

  async #guard<T>(body: () => Promise<T>): Promise<T> {
    if (this.#closed) throw closedError();
    try {
      return await body();
    } catch (error) {
      const translated = translate(error);
      this.#writeHealth.observe(translated);
      throw translated;
    }
  }

  /** #guard for a method that writes: its success clears the last write failure (/healthz). */
  async #guardWrite<T>(body: () => Promise<T>): Promise<T> {
    const result = await this.#guard(body);
    this.#writeHealth.succeeded();
    return result;
  }

  // ── RunRecords · PostgreSQL SQL ────────────────────────────────────────────────────────────────

  insertRun(input: InsertRunInput): Promise<InsertRunResult> {
    return this.#guardWrite(async () => {
      const run = prepareRun(input, this.#clock);
      const placeholders = RUN_INSERT_COLUMNS.map((_, index) => `$${index + 1}`).join(', ');
      // Concurrent identical uploads: the second INSERT waits on the first one's uncommitted
      // unique-index entry; when that commits, DO NOTHING returns no row and we read the winner
      // (READ COMMITTED: the next statement sees the committed row). If the first rolls back,
      // the second inserts. Either way exactly one run exists.
      const created = await inTransaction(this.#pool, this.#observe, async (client) => {
        // FOR SHARE: a concurrent revoke (UPDATE of the row) waits until this transaction ends.
        if (
          run.tokenId !== null &&
          (await this.#query(`${TOKEN_ACTIVE((n) => `$${n}`)} FOR SHARE`, [run.tokenId], client)).length === 0
        )
          throw new TokenRevokedError(run.tokenId);
        const inserted = await this.#query(
          `INSERT INTO runs (${RUN_INSERT_COLUMNS.join(', ')}) VALUES (${placeholders}) ` +
            'ON CONFLICT (idempotency_key) DO NOTHING RETURNING id',
          runInsertValues(run).map((value) =>
            // A report that came as UTF-8 bytes is text to PostgreSQL (a Buffer would be bytea).
            Buffer.isBuffer(value) && value === run.reportJson ? value.toString('utf8') : value,
          ),
          client,
        );
        if (inserted.length === 0) return false;
        await this.#query(
          'INSERT INTO run_raw (run_id, bytes) VALUES ($1, $2)',
          [run.id, run.rawBytes],
          client,
        );
        await this.#countSeriesRun(run, client);
        return true;
      });
      if (created) return { run: runMetaFromPrepared(run), created: true };
      const [existing] = await this.#query(
        `SELECT ${RUN_META_COLUMNS} FROM runs WHERE idempotency_key = $1`,
        [run.idempotencyKey],
      );
      if (!existing) throw new Error('idempotency conflict without a matching run');
      return { run: runMetaFromRow(existing), created: false };
    });
  }

  /**
   * Keeps series_stats (GET /api/series) in step with the runs, in the run's transaction and last
   * in it: the series row stays locked only until COMMIT. Every insert locks the branch row, then
   * the series row — one order, so concurrent uploads of a series queue, never deadlock.
   */
  async #countSeriesRun(run: PreparedRun, client: pg.PoolClient): Promise<void> {
    const { series, branch } = run.labels;
    if (series === undefined) return;
    const newBranch =
      branch === undefined
        ? 0
        : (
            await this.#query(
              `${SERIES_BRANCH_INSERT((n) => `$${n}`)} RETURNING branch`,
              [series, branch],
              client,
            )
          ).length;
    await this.#query(
      SERIES_STATS_UPSERT((n) => `$${n}`),
      [series, newBranch, run.createdAt, run.id],
      client,
    );
  }

  getRun(id: string): Promise<Run | null> {
    return this.#guard(async () => {
      if (!isValidId(id)) return null;
      const [row] = await this.#query(`SELECT ${RUN_META_COLUMNS}, report FROM runs WHERE id = $1`, [id]);
      return row ? runFromRow(row) : null;
    });
  }

  getRunMeta(id: string): Promise<RunMeta | null> {
    return this.#guard(async () => {
      if (!isValidId(id)) return null;
      const [row] = await this.#query(`SELECT ${RUN_META_COLUMNS} FROM runs WHERE id = $1`, [id]);
      return row ? runMetaFromRow(row) : null;
    });
  }

  getRunJson(id: string): Promise<RunJson | null> {
    return this.#guard(async () => {
      if (!isValidId(id)) return null;
      // `json` keeps the text as sent; ::text returns it without node-postgres parsing it.
      const [row] = await this.#query(
        `SELECT ${RUN_JSON_COLUMNS}, summary::text AS summary_json, report::text AS report_json FROM runs WHERE id = $1`,
        [id],
      );
      return row ? runJsonFromRow(row) : null;
    });
  }

  getRunJsonBytes(id: string): Promise<RunJsonBytes | null> {
    return this.#guard(async () => {
      if (!isValidId(id)) return null;
      // bytea: node-postgres hands the text's UTF-8 bytes over as a Buffer, not decoded to a string.
      const [row] = await this.#query(
        `SELECT ${RUN_JSON_COLUMNS}, summary::text AS summary_json, convert_to(report::text, 'UTF8') AS report_json FROM runs WHERE id = $1`,
        [id],
      );
      return row ? runJsonBytesFromRow(row) : null;
    });
  }

  getRunRaw(id: string): Promise<RunRaw | null> {
    return this.#guard(async () => {
      if (!isValidId(id)) return null;
      const [row] = await this.#query(
        'SELECT runs.media_type, runs.file_name, runs.raw_sha256, run_raw.bytes ' +
          'FROM runs JOIN run_raw ON run_raw.run_id = runs.id WHERE runs.id = $1',
        [id],
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
    return this.#guard(async () => {
      if (!plan.ok) return plan;
      const { sql, params } = listRunsStatement(plan.value, (position) => `$${position}`);
      return storeOk(pageFromRows(await this.#query(sql, params), plan.value.limit));
    });
  }

  listRuns(query: ListRunsQuery = {}): Promise<StoreResult<RunPage>> {
    return this.#list(planListRuns(query));
  }

  listSeriesRuns(query: ListSeriesRunsQuery): Promise<StoreResult<RunPage>> {
    return this.#list(planListSeriesRuns(query));
  }

  // ── ComparisonRecords · PostgreSQL SQL ─────────────────────────────────────────────────────────

  insertComparison(input: InsertComparisonInput): Promise<StoreResult<Comparison>> {
    return this.#guardWrite(async () => {
      const prepared = prepareComparison(input, this.#clock);
      if (!prepared.ok) return prepared;
      const comparison = prepared.value;
      const unknown = await this.#unknownRunOf(comparison);
      if (unknown) return unknown;
      const { sql, params } = comparisonInsertStatement(comparison, (n) => `$${n}`);
      await this.#query(sql, params);
      return storeOk(comparisonFromPrepared(comparison));
    });
  }

  /** unknownRunOf in one round trip for all ids (primary-key probes). */
  async #unknownRunOf(comparison: PreparedComparison) {
    const found = await this.#query('SELECT id FROM runs WHERE id = ANY($1::text[])', [comparison.runIds]);
    const existing = new Set(found.map((row) => row.id as string));
    return unknownRunOf(comparison, (id) => existing.has(id));
  }

  ensurePairComparison(input: InsertComparisonInput): Promise<StoreResult<PairComparison>> {
    return this.#guardWrite(async () => {
      const pairKey = pairKeyOf(input.runIds);
      const prepared = prepareComparison(input, this.#clock);
      if (!prepared.ok) return prepared;
      const comparison = prepared.value;
      const unknown = await this.#unknownRunOf(comparison);
      if (unknown) return unknown;
      // Two replicas storing the same pair: the second INSERT waits on the first one's
      // uncommitted entry in comparisons_pair, then does nothing, and reads the winner.
      const { sql, params } = comparisonInsertStatement(comparison, (n) => `$${n}`, pairKey);
      const inserted = await this.#query(`${sql} RETURNING id`, params);
      if (inserted.length === 1)
        return storeOk({ comparison: comparisonFromPrepared(comparison), created: true });
      const [row] = await this.#query(
        PAIR_COMPARISON_SELECT((n) => `$${n}`),
        [pairKey, comparison.analysisVersion],
      );
      if (!row) throw new Error('pair conflict without a matching comparison');
      return storeOk({ comparison: comparisonFromRow(row), created: false });
    });
  }

  findPairComparisons(runIds: readonly [string, string]): Promise<PairComparisonRef[]> {
    return this.#guard(async () => {
      if (!isValidId(runIds[0]) || !isValidId(runIds[1])) return [];
      const rows = await this.#query(`SELECT ${PAIR_REF_COLUMNS} FROM comparisons WHERE pair_key = $1`, [
        `${runIds[0]}:${runIds[1]}`,
      ]);
      return newestPairRefsFirst(rows.map(pairRefFromRow));
    });
  }

  getComparison(id: string): Promise<Comparison | null> {
    return this.#guard(async () => {
      if (!isValidId(id)) return null;
      const [row] = await this.#query(`SELECT ${COMPARISON_COLUMNS} FROM comparisons WHERE id = $1`, [id]);
      return row ? comparisonFromRow(row) : null;
    });
  }

  // ── FleetPlanRecords · PostgreSQL SQL ──────────────────────────────────────────────────────────

  insertFleetPlan(input: InsertFleetPlanInput): Promise<{ plan: StoredFleetPlanRef; created: boolean }> {
    return this.#guardWrite(async () => {
      const plan = prepareFleetPlan(input, this.#clock);
      const { sql, params } = fleetPlanInsertStatement(plan, (n) => `$${n}`);
      const { tokenId } = plan;
      const inserted = await inTransaction(this.#pool, this.#observe, async (client) => {
        // FOR SHARE, as insertRun: a concurrent revoke waits until this insert committed or rolled
        // back, and a token revoked while the plan was computed stores nothing.
        if (
          tokenId !== null &&
          (await this.#query(`${TOKEN_ACTIVE((n) => `$${n}`)} FOR SHARE`, [tokenId], client)).length === 0
        )
          throw new TokenRevokedError(tokenId);
        return this.#query(`${sql} RETURNING id`, params, client);
      });
      if (inserted.length === 1) return { plan: fleetPlanRefFromPrepared(plan), created: true };
      // Another request (or replica) stored the same key first; its row is committed, so visible.
      const [existing] = await this.#query(fleetPlanByKeyStatement('$1'), [plan.idempotencyKey]);
      if (!existing) throw new Error('fleet plan insert conflicted, yet no row has its idempotency key');
      return { plan: fleetPlanRefFromRow(existing), created: false };
    });
  }

  getFleetPlan(id: string): Promise<StoredFleetPlan | null> {
    return this.#guard(async () => {
      if (!isValidId(id)) return null;
      const [row] = await this.#query(`SELECT ${FLEET_PLAN_COLUMNS} FROM fleet_plans WHERE id = $1`, [id]);
      return row ? fleetPlanFromRow(row) : null;
    });
  }

  getFleetPlanDocument(id: string): Promise<StoredFleetPlanDocument | null> {
    return this.#guard(async () => {
      if (!isValidId(id)) return null;
      const [row] = await this.#query(`SELECT ${FLEET_PLAN_COLUMNS} FROM fleet_plans WHERE id = $1`, [id]);
      return row ? fleetPlanDocumentFromRow(row) : null;
    });
  }

  // ── TokenRecords · PostgreSQL SQL ──────────────────────────────────────────────────────────────

  createToken(input: CreateTokenInput): Promise<StoreResult<TokenInfo>> {
    return this.#guardWrite(async () => {
      const token = prepareToken(input, this.#clock);
      // No conflict target: both unique indexes (digest, active name) turn into "no row".
      const inserted = await this.#query(
        `INSERT INTO tokens (id, name, token_sha256, created_at) VALUES ($1, $2, $3, $4) ` +
          `ON CONFLICT DO NOTHING RETURNING ${TOKEN_COLUMNS}`,
        [token.id, token.name, token.tokenSha256, token.createdAt],
      );
      const [row] = inserted;
      if (row) return storeOk(tokenFromRow(row));
      const nameTaken = await this.#query(
        'SELECT 1 AS taken FROM tokens WHERE name = $1 AND revoked_at IS NULL',
        [token.name],
      );
      return nameTaken.length > 0
        ? storeFail('token_name_taken', 'an active token already has this name', 'name')
        : storeFail('token_hash_taken', 'this token is already registered', 'tokenSha256');
    });
  }

  findActiveTokenByHash(tokenSha256: string): Promise<ActiveToken | null> {
    return this.#guard(async () => {
      if (!isSha256Hex(tokenSha256)) return null;
      const [row] = await this.#query(
        `SELECT ${TOKEN_COLUMNS}, token_sha256 FROM tokens WHERE token_sha256 = $1 AND revoked_at IS NULL`,
        [tokenSha256],
      );
      return row ? { ...tokenFromRow(row), tokenSha256: row.token_sha256 as string } : null;
    });
  }

  listTokens(): Promise<TokenInfo[]> {
    return this.#guard(async () =>
      (await this.#query(`SELECT ${TOKEN_COLUMNS} FROM tokens ORDER BY created_at, id`)).map(tokenFromRow),
    );
  }

  revokeToken(ref: TokenRef): Promise<StoreResult<TokenInfo>> {
    return this.#guardWrite(async () => {
      const target = tokenRefColumn(ref);
      const notFound = storeFail('token_not_found', 'no active token matches', target?.column ?? 'ref');
      if (!target) return notFound;
      const [row] = await this.#query(
        `UPDATE tokens SET revoked_at = $1 WHERE ${target.column} = $2 AND revoked_at IS NULL RETURNING ${TOKEN_COLUMNS}`,
        [this.#clock.next(), target.value],
      );
      return row ? storeOk(tokenFromRow(row)) : notFound;
    });
  }

  countActiveTokens(): Promise<number> {
    return this.#guard(async () => {
      const [row] = await this.#query('SELECT count(*) AS active FROM tokens WHERE revoked_at IS NULL');
      return int(row?.active, 'active');
    });
  }

  hasHeldToken(): Promise<boolean> {
    return this.#guard(async () => {
      const [row] = await this.#query('SELECT EXISTS (SELECT 1 FROM tokens) AS held');
      // Parsed, not cast: a surprising value must not read as "never held" (that fails open).
      if (typeof row?.held !== 'boolean') throw new TypeError('held: not a boolean');
      return row.held;
    });
  }

  markTokenUsed(id: string): Promise<void> {
    return this.#guardWrite(async () => {
      if (!isValidId(id)) return;
      const now = this.#clock.next();
      await this.#query(
        'UPDATE tokens SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at <= $3)',
        [now, id, now - TOKEN_TOUCH_INTERVAL_MS],
      );
    });
  }

  // ── SeriesRecords · PostgreSQL SQL ─────────────────────────────────────────────────────────────

  getSeriesSettings(series: string): Promise<SeriesSettings | null> {
    return this.#guard(async () => {
      if (!isSeriesKey(series)) return null;
      const [row] = await this.#query(
        'SELECT series, config, updated_at FROM series_settings WHERE series = $1',
        [series],
      );
      return row ? seriesSettingsFromRow(row) : null;
    });
  }

  putSeriesSettings(series: string, config: object): Promise<SeriesSettings> {
    return this.#guardWrite(async () => {
      const key = checkSeriesKey(series);
      const configJson = serializeJsonObject(config, 'config');
      const [row] = await this.#query(
        'INSERT INTO series_settings (series, config, updated_at) VALUES ($1, $2, $3) ' +
          'ON CONFLICT (series) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at ' +
          'RETURNING series, config, updated_at',
        [key, configJson, this.#clock.next()],
      );
      if (!row) throw new Error('upsert returned no row');
      return seriesSettingsFromRow(row);
    });
  }

  listSeries(query: ListSeriesQuery = {}): Promise<StoreResult<SeriesPage>> {
    return this.#guard(async () => {
      const plan = planListSeries(query);
      if (!plan.ok) return plan;
      const { sql, params } = listSeriesStatement(plan.value, (position) => `$${position}`);
      return storeOk(seriesPageFromRows(await this.#query(sql, params), plan.value.limit));
    });
  }

  /** When this replica next sweeps expired counters (one bounded DELETE at most every 10 s). */
  #nextRateLimitSweep = 0;

  // ── RateLimitRecords · PostgreSQL SQL ──────────────────────────────────────────────────────────

  hitRateLimit(key: string, amount: number, windowMs: number): Promise<WindowCount> {
    return this.#guard(async () => {
      checkRateLimitHit(key, amount, windowMs);
      // Windows follow the database's clock (replicas agree); this one only paces the sweeps.
      const pinned = this.#rateLimitNow?.() ?? null;
      const local = this.#clock.next();
      // Only a charge sweeps: a read (`amount` 0) stays a read, so it works on a read-only database.
      if (amount > 0 && local >= this.#nextRateLimitSweep) {
        this.#nextRateLimitSweep = local + 10_000;
        const swept = await this.#query(`${RATE_LIMIT_SWEEP} RETURNING key`, [
          pinned,
          RATE_LIMIT_SWEEP_BATCH,
        ]);
        // A full batch: more are waiting, so the next hit sweeps again.
        if (swept.length === RATE_LIMIT_SWEEP_BATCH) this.#nextRateLimitSweep = local;
      }
      const [row] =
        amount === 0
          ? await this.#query(RATE_LIMIT_READ, [key, pinned])
          : await this.#query(RATE_LIMIT_UPSERT, [key, amount, windowMs, pinned]);
      if (!row) throw new Error('rate limit statement returned no row');
      if (row.count === null) return { count: 0, resetInMs: windowMs };
      return {
        count: int(row.count, 'count'),
        resetInMs: int(row.expires_at, 'expires_at') - int(row.now, 'now'),
      };
    });
  }

  // ── StoreHealth · PostgreSQL SQL ───────────────────────────────────────────────────────────────

  ping(): Promise<void> {
    return this.#guard(async () => {
      await this.#query('SELECT 1 AS ok');
    });
  }

  unavailableErrors(): Readonly<Partial<Record<StoreFault, number>>> {
    return this.#writeHealth.unavailableErrors();
  }

  async checkWrites(): Promise<WriteCheck> {
    return this.#writeHealth.report(await this.#probeWrite());
  }

  /**
   * A write that changes nothing: a row updated to its own value in a transaction rolled back.
   * A read-only transaction (a standby, `default_transaction_read_only`) refuses it with 25006.
   * The lock timeout keeps /healthz from queueing behind a migration holding the table.
   */
  async #probeWrite(): Promise<ProbeOutcome> {
    if (this.#closed) return { ok: false, error: closedError() };
    try {
      await inTransaction(this.#pool, this.#observe, async (client) => {
        await this.#query("SET LOCAL lock_timeout = '1s'", [], client);
        await this.#query(
          'UPDATE schema_migrations SET applied_at = applied_at WHERE version = (SELECT max(version) FROM schema_migrations)',
          [],
          client,
        );
        throw ROLLBACK_PROBE;
      });
      return { ok: true };
    } catch (error) {
      return error === ROLLBACK_PROBE ? { ok: true } : { ok: false, error: translate(error) };
    }
  }

  // ── lifecycle · PostgreSQL SQL ─────────────────────────────────────────────────────────────────

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#pool.end();
  }
}
