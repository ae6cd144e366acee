/**
 * What both stores share for the state replicas must agree on (issue 12): the regression gate's
 * pair comparisons, the per-series counts behind GET /api/series, and rate-limit counters. Like
 * store-core.ts: input checks, SQL text and row decoding here; each store adds its driver,
 * transactions and placeholders.
 */
import { decodeCursor, encodeCursor, type RunPosition } from './cursor.ts';
import { isValidId } from './ids.ts';
import {
  StoreInputError,
  isStorableText,
  storeOk,
  type ListSeriesQuery,
  type PairComparisonRef,
  type SeriesPage,
  type StoreResult,
  type WindowCount,
} from './run-store.ts';
import { RUN_META_COLUMNS, checkLimit, int, runMetaFromRow } from './store-core.ts';

type Row = Record<string, unknown>;
type Placeholder = (position: number) => string;

// ── Pair comparisons ─────────────────────────────────────────────────────────────────────────

/**
 * The pair key of [baseline run, run]: both ids, in that order (ids are `[A-Za-z0-9_-]`, so `:`
 * cannot occur in them). With the analysis version it is the UNIQUE key of a pair comparison.
 */
export function pairKeyOf(runIds: unknown): string {
  if (!Array.isArray(runIds) || runIds.length !== 2)
    throw new StoreInputError('a pair comparison has exactly two runs: [baseline, run]', 'runIds');
  const [baseline, run] = runIds as unknown[];
  if (!isValidId(baseline)) throw new StoreInputError('not a run id', 'runIds.0');
  if (!isValidId(run)) throw new StoreInputError('not a run id', 'runIds.1');
  if (baseline === run) throw new StoreInputError('the same run appears twice', 'runIds.1');
  return `${baseline}:${run}`;
}

export const PAIR_REF_COLUMNS = 'id, created_at, analysis_version';

export function pairRefFromRow(row: Row): PairComparisonRef {
  if (typeof row.id !== 'string' || typeof row.analysis_version !== 'string')
    throw new TypeError('pair comparison: not text');
  return {
    id: row.id,
    createdAt: int(row.created_at, 'created_at'),
    analysisVersion: row.analysis_version,
  };
}

/** Newest first (createdAt desc, id desc): sorted here, the index serves the lookup by pair. */
export function newestPairRefsFirst(refs: PairComparisonRef[]): PairComparisonRef[] {
  return refs.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

// ── Series counts ────────────────────────────────────────────────────────────────────────────

/** Records a branch of a series; inserts a row (→ branch_count + 1) only the first time. */
export const SERIES_BRANCH_INSERT = (p: Placeholder) =>
  `INSERT INTO series_branches (series, branch) VALUES (${p(1)}, ${p(2)}) ON CONFLICT DO NOTHING`;

/**
 * One more run of a series. The latest run is the greatest (created_at, id), the order every
 * listing uses; a run inserted with an older createdAt (another replica's clock) counts but
 * does not become the latest. Parameters: series, new-branch increment (0/1), created_at, id.
 */
export const SERIES_STATS_UPSERT = (p: Placeholder) => {
  const newer = `(excluded.latest_created_at, excluded.latest_run_id) > (series_stats.latest_created_at, series_stats.latest_run_id)`;
  return (
    `INSERT INTO series_stats (series, run_count, branch_count, latest_created_at, latest_run_id) ` +
    `VALUES (${p(1)}, 1, ${p(2)}, ${p(3)}, ${p(4)}) ON CONFLICT (series) DO UPDATE SET ` +
    `run_count = series_stats.run_count + 1, ` +
    `branch_count = series_stats.branch_count + excluded.branch_count, ` +
    `latest_created_at = CASE WHEN ${newer} THEN excluded.latest_created_at ELSE series_stats.latest_created_at END, ` +
    `latest_run_id = CASE WHEN ${newer} THEN excluded.latest_run_id ELSE series_stats.latest_run_id END`
  );
};

/**
 * Fills series_branches and series_stats from the runs table: the backfill of migration 2 (both
 * dialects interpolate this text, so it is frozen: editing it changes migration 2's checksum), and
 * for tools that load runs with plain SQL (bench/goals/archive.mjs) into empty count tables.
 */
export const SERIES_COUNTS_BACKFILL = `INSERT INTO series_branches (series, branch)
  SELECT DISTINCT series, branch FROM runs WHERE series IS NOT NULL AND branch IS NOT NULL;
INSERT INTO series_stats (series, run_count, branch_count, latest_created_at, latest_run_id)
  SELECT s.series, s.run_count,
    (SELECT count(*) FROM series_branches b WHERE b.series = s.series),
    latest.created_at, latest.id
  FROM (SELECT series, count(*) AS run_count FROM runs WHERE series IS NOT NULL GROUP BY series) AS s
  JOIN runs AS latest ON latest.id = (
    SELECT r.id FROM runs AS r WHERE r.series = s.series ORDER BY r.created_at DESC, r.id DESC LIMIT 1
  );`;

export interface SeriesListPlan {
  limit: number;
  after: RunPosition | null;
}

export function planListSeries(query: ListSeriesQuery = {}): StoreResult<SeriesListPlan> {
  const { limit, cursor } = query as { limit?: unknown; cursor?: unknown };
  const checked = checkLimit(limit);
  if (!checked.ok) return checked;
  let after: RunPosition | null = null;
  if (cursor !== undefined) {
    // A series' place in the order is its latest run's position, so the runs' cursor format serves.
    const decoded = decodeCursor(cursor, 'cursor');
    if (!decoded.ok) return decoded;
    after = decoded.value;
  }
  return storeOk({ limit: checked.value, after });
}

const META_OF_RUNS = RUN_META_COLUMNS.split(', ')
  .map((column) => `runs.${column}`)
  .join(', ');

/**
 * A page of series, most recently active first: an index walk of series_stats_latest from the
 * cursor, joined to each series' latest run by primary key — `limit + 1` rows read, no sort.
 */
export function listSeriesStatement(
  plan: SeriesListPlan,
  placeholder: Placeholder,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return placeholder(params.length);
  };
  const where = plan.after
    ? ` WHERE (series_stats.latest_created_at, series_stats.latest_run_id) < (${bind(plan.after.createdAt)}, ${bind(plan.after.id)})`
    : '';
  const sql =
    `SELECT series_stats.series AS series_name, series_stats.run_count, series_stats.branch_count, ${META_OF_RUNS} ` +
    `FROM series_stats JOIN runs ON runs.id = series_stats.latest_run_id${where} ` +
    `ORDER BY series_stats.latest_created_at DESC, series_stats.latest_run_id DESC LIMIT ${bind(plan.limit + 1)}`;
  return { sql, params };
}

export function seriesPageFromRows(rows: readonly Row[], limit: number): SeriesPage {
  const items = rows.slice(0, limit).map((row) => {
    if (typeof row.series_name !== 'string') throw new TypeError('series: not text');
    return {
      series: row.series_name,
      runCount: int(row.run_count, 'run_count'),
      branchCount: int(row.branch_count, 'branch_count'),
      latestRun: runMetaFromRow(row),
    };
  });
  const last = items[items.length - 1];
  return {
    items,
    nextCursor: rows.length > limit && last ? encodeCursor(last.latestRun) : null,
  };
}

// ── Rate limits ──────────────────────────────────────────────────────────────────────────────

/** A counter key (`writesAnonymous:ip:203.0.113.7`), amount and window, as the stores accept them. */
export function checkRateLimitHit(key: unknown, amount: unknown, windowMs: unknown): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512 || !isStorableText(key))
    throw new StoreInputError('expected a key of 1 to 512 characters', 'key');
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0)
    throw new StoreInputError('expected a non-negative integer', 'amount');
  if (typeof windowMs !== 'number' || !Number.isSafeInteger(windowMs) || windowMs <= 0)
    throw new StoreInputError('expected a positive integer of ms', 'windowMs');
}

/**
 * Fixed-window counters in one process's memory: SQLite's rate limits (one process per archive)
 * and the per-replica ones. A window starts at a key's first hit; expired windows are swept at
 * most once a second, and the table is capped — a key that does not fit is refused (counted as
 * over any limit) rather than let through: memory stays bounded and the limit fails closed.
 */
export class MemoryWindowCounters {
  readonly #windows = new Map<string, { expiresAt: number; count: number }>();
  #nextSweep = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  hit(key: string, amount: number, windowMs: number): WindowCount {
    const t = this.now();
    if (t >= this.#nextSweep) {
      this.#nextSweep = t + 1000;
      for (const [k, w] of this.#windows) if (t >= w.expiresAt) this.#windows.delete(k);
    }
    let w = this.#windows.get(key);
    if (!w || t >= w.expiresAt) {
      if (amount === 0) return { count: 0, resetInMs: windowMs };
      if (!w && this.#windows.size >= this.maxKeys)
        return { count: Number.POSITIVE_INFINITY, resetInMs: windowMs };
      w = { expiresAt: t + windowMs, count: 0 };
      this.#windows.set(key, w);
    }
    w.count += amount;
    return { count: w.count, resetInMs: w.expiresAt - t };
  }

  /** Keys held (tests: memory stays bounded). */
  get size(): number {
    return this.#windows.size;
  }
}

/**
 * "Now" for PostgreSQL's counters, in ms: the database's clock, so every replica agrees on when a
 * window started and ends whatever its own clock says (a replica a minute ahead would otherwise
 * restart others' windows early). `$n` may pin it (tests with a manual clock); NULL in service.
 */
const databaseNow = (n: number) =>
  `COALESCE($${n}::bigint, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)`;

/**
 * PostgreSQL's counter: one atomic upsert per hit. Concurrent hits of one key queue on its row
 * lock, so N replicas add up exactly. An expired window restarts in place (count = amount).
 * Parameters: key, amount, window ms, pinned now (or NULL). Returns the database's now with the row.
 */
export const RATE_LIMIT_UPSERT =
  `WITH clock AS (SELECT ${databaseNow(4)} AS now) ` +
  'INSERT INTO rate_limits (key, count, expires_at) SELECT $1::text, $2::bigint, clock.now + $3::bigint FROM clock ' +
  'ON CONFLICT (key) DO UPDATE SET ' +
  'count = CASE WHEN rate_limits.expires_at > (SELECT now FROM clock) THEN rate_limits.count + excluded.count ELSE excluded.count END, ' +
  'expires_at = CASE WHEN rate_limits.expires_at > (SELECT now FROM clock) THEN rate_limits.expires_at ELSE excluded.expires_at END ' +
  'RETURNING count, expires_at, (SELECT now FROM clock) AS now';

/**
 * Reads a counter without charging it (`amount` 0): one row, with count and expires_at NULL when
 * the key has no live window. Parameters: key, pinned now (or NULL).
 */
export const RATE_LIMIT_READ =
  `SELECT rate_limits.count, rate_limits.expires_at, clock.now FROM (SELECT ${databaseNow(2)} AS now) AS clock ` +
  'LEFT JOIN rate_limits ON rate_limits.key = $1::text AND rate_limits.expires_at > clock.now';

/** Expired counters, at most this many per sweep (a bounded statement; the next hit sweeps on). */
export const RATE_LIMIT_SWEEP_BATCH = 1000;
/**
 * Parameters: pinned now (or NULL), batch size. The clock is read once, in a scalar subquery: a
 * volatile clock_timestamp() compared row by row would keep the index out of the range scan.
 */
export const RATE_LIMIT_SWEEP =
  'DELETE FROM rate_limits WHERE key IN (SELECT key FROM rate_limits ' +
  `WHERE expires_at <= (SELECT ${databaseNow(1)}) LIMIT $2)`;
