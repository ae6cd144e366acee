import { type Problem, type Result } from '@blockwise/shared/problem';
import {
  RunLabelsSchema as SharedRunLabelsSchema,
  type RunLabels as SharedRunLabels,
} from '@blockwise/shared/records';
import { isStorableText } from '@blockwise/shared/storable-text';
import type { FleetPlan } from '@blockwise/shared/fleet';

/**
 * The archive: uploaded fio runs (raw bytes kept verbatim), frozen comparisons, CI upload tokens
 * and per-series CI settings. Two implementations — SQLite (one node, a file) and PostgreSQL
 * (stateless replicas) — pass the same contract suite (`run-store.contract.ts`); `openStore` in
 * `open-store.ts` picks one from a URL.
 *
 * Semantics every implementation guarantees:
 * - A resolved write is committed (SQLite: WAL + synchronous=FULL; PostgreSQL: COMMIT returned),
 *   so the HTTP layer may answer 201 only after the promise resolves.
 * - Runs and comparisons are append-only: there is no update or delete method, and the schema
 *   rejects UPDATE/DELETE on their tables (triggers), so a share link never changes meaning.
 * - Expected failures (bad cursor, unknown run id, token name taken, …) are `StoreResult` values.
 *   Rejections are either `StoreUnavailableError` (database unreachable or out of resources →
 *   HTTP 503), `StoreInputError` (the caller skipped validation at the edge: a bug) or a bug.
 */
export interface RunStore
  extends
    RunRecords,
    ComparisonRecords,
    FleetPlanRecords,
    TokenRecords,
    SeriesRecords,
    RateLimitRecords,
    StoreHealth {
  /** Releases the connection(s). Idempotent. */
  close(): Promise<void>;
}

// The store by record: each part below is what one kind of record needs, and a route, a service
// or an http/ guard is typed by the part(s) it uses (docs/architecture.md, "Adding a store
// record"). Both implementations (sqlite-store.ts, postgres-store.ts) implement every part, in
// this order, each part a section of the class.

/** Uploaded fio runs: raw bytes kept verbatim, the normalized report and the summary. */
export interface RunRecords {
  /**
   * Stores a run in one transaction (metadata + raw bytes). Idempotent: when a run with the same
   * idempotency key exists (identical bytes and labels), that run is returned with
   * `created: false` — also when both uploads race (a UNIQUE index decides). With `tokenId`, the
   * token must still be active in that transaction (one primary-key lookup; PostgreSQL locks the
   * row until COMMIT, so a revoke waits for it): else nothing is stored and the promise rejects
   * with TokenRevokedError — a token revoked while its upload's body was read stores nothing.
   */
  insertRun(input: InsertRunInput): Promise<InsertRunResult>;
  /** The run with its normalized report, without the raw bytes; null when absent or malformed id. */
  getRun(id: string): Promise<Run | null>;
  /**
   * The run without its report (MBs for a many-job file) nor its raw bytes, as lists carry it: for
   * a question about its labels or summary (the regression check), where reading the report would
   * hold the event loop for milliseconds for nothing (docs/performance.md P13). Null like getRun.
   */
  getRunMeta(id: string): Promise<RunMeta | null>;
  /**
   * getRun without decoding the two large documents: `report` and `summary` as the JSON text the
   * store wrote (valid JSON), to be served as they are (GET /api/runs/:id). Null like getRun.
   */
  getRunJson(id: string): Promise<RunJson | null>;
  /**
   * getRunJson with the report as the UTF-8 bytes of its stored JSON, never decoded into a string
   * here: the regression gate moves them into a parse-pool worker (docs/performance.md P13), so the
   * event loop neither decodes a ~2 MB report nor structured-clones it. Null like getRun.
   */
  getRunJsonBytes(id: string): Promise<RunJsonBytes | null>;
  /** The uploaded bytes exactly as received, with what is needed to serve them. */
  getRunRaw(id: string): Promise<RunRaw | null>;
  /** Newest first (createdAt desc, then id desc), keyset-paginated; items omit report and bytes. */
  listRuns(query?: ListRunsQuery): Promise<StoreResult<RunPage>>;
  /** A series' history, newest first, for CI regression checks; `before` is a page cursor. */
  listSeriesRuns(query: ListSeriesRunsQuery): Promise<StoreResult<RunPage>>;
}

/** Frozen comparisons of stored runs: share links, and the regression gate's pair comparisons. */
export interface ComparisonRecords {
  /** Freezes a comparison of existing runs; `unknown_run` names the first id that is not stored. */
  insertComparison(input: InsertComparisonInput): Promise<StoreResult<Comparison>>;
  getComparison(id: string): Promise<Comparison | null>;
  /**
   * The regression gate's comparison of `runIds` = [baseline run, run], made once per pair and
   * analysis version: when one exists (an earlier call, another replica), it is
   * returned with `created: false` instead of a second one — a UNIQUE index decides races.
   */
  ensurePairComparison(input: InsertComparisonInput): Promise<StoreResult<PairComparison>>;
  /** The comparisons ensurePairComparison stored for [baseline run, run], any analysis version. Read-only. */
  findPairComparisons(runIds: readonly [string, string]): Promise<PairComparisonRef[]>;
}

/** Fleet right-sizing plans (share links), stored as the gzip document a worker made. */
export interface FleetPlanRecords {
  /**
   * Stores a fleet right-sizing plan (a share link), append-only like comparisons, as the gzip
   * document encodeFleetPlan made of it (else StoreInputError: a bug at the edge). A plan of the
   * same idempotency key already stored is returned instead (`created: false`), across processes.
   */
  insertFleetPlan(input: InsertFleetPlanInput): Promise<{ plan: StoredFleetPlanRef; created: boolean }>;
  /** A stored fleet plan, its body parsed with FleetPlanSchema; null when absent or a malformed id. */
  getFleetPlan(id: string): Promise<StoredFleetPlan | null>;
  /**
   * A stored fleet plan as stored (its gzip bytes, not inflated nor parsed), for serving; rows from
   * before migration 4 come parsed. null when absent or a malformed id.
   */
  getFleetPlanDocument(id: string): Promise<StoredFleetPlanDocument | null>;
}

/** CI upload tokens, kept by their SHA-256 (the plaintext never reaches the store). */
export interface TokenRecords {
  /** Registers a CI token by its SHA-256; the plaintext never reaches the store. */
  createToken(input: CreateTokenInput): Promise<StoreResult<TokenInfo>>;
  /**
   * The active (not revoked) token with this SHA-256 digest, or null. The digest is returned so
   * the caller can re-compare it in constant time (timingSafeEqual) after the index lookup.
   */
  findActiveTokenByHash(tokenSha256: string): Promise<ActiveToken | null>;
  /** Every token, oldest first, revoked ones included; digests are not part of the output. */
  listTokens(): Promise<TokenInfo[]>;
  revokeToken(ref: TokenRef): Promise<StoreResult<TokenInfo>>;
  /** How many tokens are active (not revoked). */
  countActiveTokens(): Promise<number>;
  /**
   * Whether any token was ever registered, revoked ones included: once true, it stays true (tokens
   * are never deleted), which is what makes automatic auth fail closed (see http/auth.ts).
   */
  hasHeldToken(): Promise<boolean>;
  /** Best effort `lastUsedAt`: writes at most once a minute per token, so auth stays a read. */
  markTokenUsed(id: string): Promise<void>;
}

/** CI series: their per-series settings (the one mutable record) and their counts. */
export interface SeriesRecords {
  getSeriesSettings(series: string): Promise<SeriesSettings | null>;
  /** Creates or replaces a series' CI settings (the one mutable record in the store). */
  putSeriesSettings(series: string, config: object): Promise<SeriesSettings>;
  /**
   * The series with their counts, most recently active first (latest run's createdAt desc, then its
   * id desc), keyset-paginated like listRuns. Reads one row per series (kept up to date by
   * insertRun), never the runs of a series.
   */
  listSeries(query?: ListSeriesQuery): Promise<StoreResult<SeriesPage>>;
}

/** Fixed-window rate-limit counters (shared by every replica on PostgreSQL). */
export interface RateLimitRecords {
  /**
   * Adds `amount` to the fixed-window counter `key` (a window of `windowMs` starts at its first
   * hit) and returns the total and the time left. `amount` 0 only reads. PostgreSQL keeps the
   * counters in a table every replica shares; SQLite (one process) in memory.
   */
  hitRateLimit(key: string, amount: number, windowMs: number): Promise<WindowCount>;
}

/** What /healthz and GET /metrics ask the database: no record, the store itself. */
export interface StoreHealth {
  readonly dialect: 'sqlite' | 'postgres';
  /** A cheap round trip for /healthz; rejects with StoreUnavailableError when the database is gone. */
  ping(): Promise<void>;
  /**
   * Whether writes go through, for /healthz: a write that is rolled back at once (so it cannot lose
   * or change data) plus the last real write that failed for a write fault (a full disk shows only
   * there: the rolled-back write never reaches the disk). Never rejects.
   */
  checkWrites(): Promise<WriteCheck>;
  /**
   * StoreUnavailableErrors this store raised since it opened, by fault (GET /metrics): every
   * failed call the driver's error was translated for, reads and writes alike.
   */
  unavailableErrors(): Readonly<Partial<Record<StoreFault, number>>>;
  /**
   * Writes (and the report reads that go the same way) queued for a writer thread and not answered
   * yet (SQLite); absent where there is no queue.
   */
  pendingWrites?(): number;
}

/** Where the SQLite archive lives when no store URL is configured (relative to the cwd). */
export const DEFAULT_SQLITE_PATH = './data/blockwise.db';

// ── Runs ─────────────────────────────────────────────────────────────────────────────────────

export const RUN_KINDS = ['nvme', 'ebs'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/**
 * Text both databases hold losslessly: no U+0000 (PostgreSQL's text and jsonb cannot hold it)
 * and no lone UTF-16 surrogate (no UTF-8 encoding). Defined in shared, where the API schemas
 * refuse the same text at the edge; rejecting both keeps SQLite (dev) and PostgreSQL (prod) alike.
 */
export { isStorableText };

/**
 * Labels of a run: the one schema, shared's (the HTTP edge normalizes with the same), refusing
 * unknown keys here. The indexed ones (series, branch, instanceType, kind) are filterable; each is
 * at most 200 characters (≤ 800 bytes of UTF-8), which keeps the widest index entry (series,
 * branch, created_at, id) under PostgreSQL's ~2.7 KB B-tree tuple limit.
 */
export const RunLabelsSchema = SharedRunLabelsSchema.strict();
export type RunLabels = SharedRunLabels;

/** A JSON document the store keeps verbatim and never looks inside (report, summary, plan, …). */
export type JsonObject = Record<string, unknown>;

/**
 * A JSON object already serialized, stored as it is: the parse worker serializes the report it
 * built, so the main thread neither rebuilds the object graph nor serializes it again. A report
 * may come as its UTF-8 bytes (what the worker sends: moved, never a string on the event loop,
 * docs/performance.md P13); a summary or a comparison's result is text.
 */
export class JsonObjectText {
  constructor(readonly json: string | Uint8Array) {}
}

export interface InsertRunInput {
  /** The exact uploaded bytes; stored verbatim and returned byte-identical. */
  rawBytes: Uint8Array;
  /** e.g. `application/json`, `text/plain` (fio's normal+json output). */
  mediaType: string;
  fileName?: string | null;
  labels: RunLabels;
  /** The normalized fio report (JSON-serializable), or its JSON already written (JsonObjectText). */
  report: object;
  /**
   * The analysis shown in lists and CI checks (JSON-serializable, kept small), or its JSON already
   * written (JsonObjectText): the upload serializes it once, for the store and its answer.
   */
  summary: object;
  analysisVersion: string;
  fioVersion?: string | null;
  /** The CI token the upload authenticated with: it is re-checked at commit (see insertRun). */
  tokenId?: string | null;
  /**
   * Hex SHA-256; defaults to `idempotencyKeyFor(rawBytes, labels)` (see idempotency.ts). Pass
   * your own to key on something else, e.g. a hashed client `Idempotency-Key` header.
   */
  idempotencyKey?: string;
  /**
   * The store may take `rawBytes` and a report given as bytes instead of copying them: the SQLite
   * store moves their memory to its writer thread, which leaves them empty (detached) here. For a
   * caller that never reads them after the call — an upload, where copying a 1 MB body and its
   * ~2 MB report held the event loop for milliseconds (docs/performance.md P13) — and neither
   * writes to them nor gives the same memory to another insert until the call settles (a store
   * may read them until then). Without it the caller's bytes stay as they were.
   */
  giveBytes?: boolean;
}

/** A run without its report and raw bytes: what lists, CI history and insert results carry. */
export interface RunMeta {
  id: string;
  /** ms since the epoch, assigned by the store; not unique (ties are ordered by id). */
  createdAt: number;
  /** Hex SHA-256 of the raw bytes, computed by the store. */
  rawSha256: string;
  rawSize: number;
  mediaType: string;
  fileName: string | null;
  labels: RunLabels;
  summary: JsonObject;
  analysisVersion: string;
  fioVersion: string | null;
  idempotencyKey: string;
}

export interface Run extends RunMeta {
  report: JsonObject;
}

/** A run with its report and summary as stored JSON text (see RunStore.getRunJson). */
export interface RunJson extends Omit<RunMeta, 'summary'> {
  summaryJson: string;
  reportJson: string;
}

/** RunJson with the report as the UTF-8 bytes of its stored JSON (see RunStore.getRunJsonBytes). */
export interface RunJsonBytes extends Omit<RunJson, 'reportJson'> {
  reportJson: Uint8Array;
}

export interface RunRaw {
  bytes: Buffer;
  mediaType: string;
  fileName: string | null;
  /** Hex SHA-256 recorded at upload; equal to the digest of `bytes` (R11). */
  sha256: string;
}

export interface InsertRunResult {
  run: RunMeta;
  /** false: an identical upload (same idempotency key) was already stored; `run` is that one. */
  created: boolean;
}

export interface RunFilters {
  series?: string;
  instanceType?: string;
  kind?: RunKind;
  branch?: string;
}

/** Page sizes: 1..200, 50 when absent. Out-of-range values are an `invalid_limit` problem. */
export const LIST_LIMIT = { min: 1, max: 200, default: 50 } as const;

export interface ListRunsQuery extends RunFilters {
  limit?: number;
  /** `nextCursor` of the previous page; opaque. */
  cursor?: string;
}

export interface ListSeriesRunsQuery {
  series: string;
  branch?: string;
  limit?: number;
  /** Runs strictly older than this position: a `nextCursor`, or `cursorForRun(run)`. */
  before?: string;
}

export interface RunPage {
  items: RunMeta[];
  /** null on the last page. */
  nextCursor: string | null;
}

// ── Comparisons ──────────────────────────────────────────────────────────────────────────────

export interface InsertComparisonInput {
  title?: string | null;
  /** The compared runs, in display order: existing run ids, no duplicates; at least one unless a plan is given. */
  runIds: readonly string[];
  plan?: object | null;
  /**
   * The computed comparison, frozen: later analysis versions never rewrite it. Or its JSON already
   * written (JsonObjectText): the parse pool builds large ones off the main thread, serialized.
   */
  result: object;
  priceTableDate: string;
  analysisVersion: string;
}

export interface Comparison {
  id: string;
  createdAt: number;
  title: string | null;
  runIds: string[];
  plan: JsonObject | null;
  result: JsonObject;
  priceTableDate: string;
  analysisVersion: string;
}

/** What ensurePairComparison returns. */
export interface PairComparison {
  comparison: Comparison;
  /** false: the pair already had a comparison for this analysis version; `comparison` is that one. */
  created: boolean;
}

/** A pair comparison without its (large) result: what the read-only regression check needs. */
export interface PairComparisonRef {
  id: string;
  createdAt: number;
  analysisVersion: string;
}

// ── Fleet plans ──────────────────────────────────────────────────────────────────────────────

/**
 * A fleet plan serialized and compressed once, where it is computed (encodeFleetPlan in
 * fleet-plan-document.ts describes the gzip form).
 */
export type FleetPlanDocument = {
  gzip: Uint8Array;
  /** Bytes of the plan's JSON (UTF-8), uncompressed. */
  bytes: number;
  /** plan.priceDate, kept beside the body (column price_date). */
  priceDate: string;
};

export interface InsertFleetPlanInput {
  /** The plan as planFleet computed it, serialized and compressed (encodeFleetPlan); frozen. */
  document: FleetPlanDocument;
  analysisVersion: string;
  /** fleetPlanIdempotencyKey of the request: the same request stores one plan. */
  idempotencyKey: string;
  /**
   * The CI token the request authenticated with (null: anonymous). As for insertRun, it must still
   * be active in the insert's transaction, else nothing is stored (TokenRevokedError).
   */
  tokenId?: string | null;
}

export interface StoredFleetPlanRef {
  id: string;
  /** ms since the epoch, assigned by the store. */
  createdAt: number;
  analysisVersion: string;
  /** The date of the prices the plan used (`plan.priceDate`), kept beside it for queries. */
  priceDate: string;
}

export interface StoredFleetPlan extends StoredFleetPlanRef {
  plan: FleetPlan;
}

export interface StoredFleetPlanDocument extends StoredFleetPlanRef {
  /** The gzip member and the plan JSON's length (migration 4 on), or a plan stored before, parsed. */
  body: { gzip: Uint8Array; bytes: number } | { plan: FleetPlan };
}

// ── Series ───────────────────────────────────────────────────────────────────────────────────

export interface ListSeriesQuery {
  limit?: number;
  /** `nextCursor` of the previous page; opaque. */
  cursor?: string;
}

/** A series and its counts, kept by insertRun (so listing never groups the runs table). */
export interface SeriesSummary {
  series: string;
  runCount: number;
  /** Distinct branch labels among its runs (runs without a branch count in runCount only). */
  branchCount: number;
  latestRun: RunMeta;
}

export interface SeriesPage {
  items: SeriesSummary[];
  /** null on the last page. */
  nextCursor: string | null;
}

// ── Rate limits ──────────────────────────────────────────────────────────────────────────────

export interface WindowCount {
  /** The window's total after this hit. */
  count: number;
  /** ms until the window ends (and the count starts over). */
  resetInMs: number;
}

// ── Tokens ───────────────────────────────────────────────────────────────────────────────────

export interface CreateTokenInput {
  /** Unique among active tokens (a revoked token's name can be reused). */
  name: string;
  /** Lowercase hex SHA-256 of the token. Tokens carry ≥ 256 random bits, so a plain digest is
   * enough (ASVS 6.5.2: no salted password hash needed at ≥ 112 bits). */
  tokenSha256: string;
}

export interface TokenInfo {
  id: string;
  name: string;
  createdAt: number;
  revokedAt: number | null;
  lastUsedAt: number | null;
}

/** What findActiveTokenByHash returns: the token and the digest it was found by. */
export interface ActiveToken extends TokenInfo {
  tokenSha256: string;
}

export type TokenRef = { id: string } | { name: string };

// ── Series settings ──────────────────────────────────────────────────────────────────────────

export interface SeriesSettings {
  series: string;
  config: JsonObject;
  updatedAt: number;
}

// ── Health ───────────────────────────────────────────────────────────────────────────────────

export interface WriteCheck {
  /** false when the probe failed, or a real write failed with a write fault recently. */
  writable: boolean;
  /** The rolled-back write: `ok`, `failed`, or `unknown` (another connection held the write lock). */
  probe: 'ok' | 'failed' | 'unknown';
  /** The latest write that failed with a write fault and was not followed by a successful write. */
  lastWriteFailure: { at: number; fault: StoreFault } | null;
  /** Why writes fail (the probe's fault first), null while writable. */
  fault: StoreFault | null;
  /** The driver's error when not writable: for the log only, never a response. */
  cause?: unknown;
}

// ── Failures ─────────────────────────────────────────────────────────────────────────────────

export type StoreProblemCode =
  | 'invalid_cursor'
  | 'invalid_limit'
  | 'invalid_filter'
  | 'invalid_run_ids'
  | 'unknown_run'
  | 'token_name_taken'
  | 'token_hash_taken'
  | 'token_not_found';

export type StoreProblem = Problem & { code: StoreProblemCode };
export type StoreResult<T> = Result<T, StoreProblem>;

export function storeProblem(code: StoreProblemCode, message: string, path?: string): StoreProblem {
  return path === undefined ? { code, message } : { code, message, path };
}

export const storeOk = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

export const storeFail = (
  code: StoreProblemCode,
  message: string,
  path?: string,
): { ok: false; error: StoreProblem } => ({ ok: false, error: storeProblem(code, message, path) });

/**
 * Why the database cannot serve: `unreachable` (connection refused or lost, database restarting
 * or missing), `busy` (a lock or a statement beyond its timeout, out of connections or memory),
 * `read_only` (read-only file or transaction), `disk_full`, `io_error`, `closed` (the store was
 * closed, e.g. while shutting down). Clients see only the 503; the reason goes to /healthz, the
 * driver's message to the log.
 */
export const STORE_FAULTS = ['unreachable', 'busy', 'read_only', 'disk_full', 'io_error', 'closed'] as const;
export type StoreFault = (typeof STORE_FAULTS)[number];

/** Faults that stop writes while reads may still work: /healthz reports them as `writable: false`. */
export const WRITE_FAULTS: ReadonlySet<StoreFault> = new Set(['read_only', 'disk_full', 'io_error']);

/**
 * The database cannot serve the request right now (see StoreFault). Not the caller's fault and
 * not a bug: the HTTP layer answers 503 + Retry-After for every route (errors.ts), and keeps the
 * cause in the log.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'store_unavailable';
  readonly fault: StoreFault;
  constructor(message: string, options?: { cause?: unknown; fault?: StoreFault }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
    this.fault = options?.fault ?? 'unreachable';
  }
}

/**
 * Input no store can hold (NUL in a label, a malformed digest, a non-object payload). The HTTP
 * layer validates before calling, so reaching this is a bug at the edge, not a user error.
 */
export class StoreInputError extends TypeError {
  readonly code = 'store_input';
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(path === undefined ? message : `${path}: ${message}`);
    this.name = 'StoreInputError';
  }
}

/**
 * The CI token a write authenticated with was revoked (or is unknown) when the write was about
 * to commit: nothing was stored. The HTTP layer answers 401, as it would have at the start.
 */
export class TokenRevokedError extends Error {
  readonly code = 'token_revoked';
  constructor(readonly tokenId: string) {
    super(`the token ${tokenId} was revoked before the write committed; nothing was stored`);
    this.name = 'TokenRevokedError';
  }
}

/**
 * The store cannot start as configured: an unsupported URL, durability pragmas that did not take,
 * a database migrated by a newer build. Thrown at start-up; the process should exit.
 */
export class StoreConfigError extends Error {
  readonly code = 'store_config';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreConfigError';
  }
}

/** Receives every statement a store sends, before it runs (tests use it to EXPLAIN them all). */
export type QueryObserver = (query: { sql: string; params: readonly unknown[] }) => void;
