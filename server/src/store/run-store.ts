import type { Problem, Result } from '@blockwise/shared';
import { z } from 'zod';

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
export interface RunStore {
  readonly dialect: 'sqlite' | 'postgres';

  /**
   * Stores a run in one transaction (metadata + raw bytes). Idempotent: when a run with the same
   * idempotency key exists (identical bytes and labels), that run is returned with
   * `created: false` — also when both uploads race (a UNIQUE index decides).
   */
  insertRun(input: InsertRunInput): Promise<InsertRunResult>;
  /** The run with its normalized report, without the raw bytes; null when absent or malformed id. */
  getRun(id: string): Promise<Run | null>;
  /**
   * getRun without decoding the two large documents: `report` and `summary` as the JSON text the
   * store wrote (valid JSON), to be served as they are (GET /api/runs/:id). Null like getRun.
   */
  getRunJson(id: string): Promise<RunJson | null>;
  /** The uploaded bytes exactly as received, with what is needed to serve them. */
  getRunRaw(id: string): Promise<RunRaw | null>;
  /** Newest first (createdAt desc, then id desc), keyset-paginated; items omit report and bytes. */
  listRuns(query?: ListRunsQuery): Promise<StoreResult<RunPage>>;
  /** A series' history, newest first, for CI regression checks; `before` is a page cursor. */
  listSeriesRuns(query: ListSeriesRunsQuery): Promise<StoreResult<RunPage>>;

  /** Freezes a comparison of existing runs; `unknown_run` names the first id that is not stored. */
  insertComparison(input: InsertComparisonInput): Promise<StoreResult<Comparison>>;
  getComparison(id: string): Promise<Comparison | null>;

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
  /** How many tokens are active: 0 means uploads are not token-protected. */
  countActiveTokens(): Promise<number>;
  /** Best effort `lastUsedAt`: writes at most once a minute per token, so auth stays a read. */
  markTokenUsed(id: string): Promise<void>;

  getSeriesSettings(series: string): Promise<SeriesSettings | null>;
  /** Creates or replaces a series' CI settings (the one mutable record in the store). */
  putSeriesSettings(series: string, config: object): Promise<SeriesSettings>;

  /** A cheap round trip for /healthz; rejects with StoreUnavailableError when the database is gone. */
  ping(): Promise<void>;
  /** Releases the connection(s). Idempotent. */
  close(): Promise<void>;
}

/** Where the SQLite archive lives when no store URL is configured (relative to the cwd). */
export const DEFAULT_SQLITE_PATH = './data/blockwise.db';

// ── Runs ─────────────────────────────────────────────────────────────────────────────────────

export const RUN_KINDS = ['nvme', 'ebs'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/**
 * Text both databases hold losslessly. PostgreSQL's text and jsonb types cannot contain U+0000,
 * and a lone UTF-16 surrogate has no UTF-8 encoding (node-postgres silently sends U+FFFD,
 * better-sqlite3 writes invalid UTF-8). Rejecting both keeps SQLite (dev) and PostgreSQL (prod)
 * behaviour identical.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const storableText = z.string().refine(isStorableText, 'contains U+0000 or a lone surrogate');
/**
 * Indexed label values. 256 characters (≤ 1 KiB of UTF-8) keeps the widest index entry
 * (series, branch, created_at, id) far below PostgreSQL's ~2.7 KB B-tree tuple limit, which
 * SQLite does not have — without the bound a long branch name would work on SQLite only.
 */
const indexedText = storableText.min(1).max(256);
const quantity = z.number().nonnegative();

/** Labels of a run. The indexed ones (series, branch, instanceType, kind) are filterable. */
export const RunLabelsSchema = z.strictObject({
  name: storableText.optional(),
  kind: z.enum(RUN_KINDS).optional(),
  instanceType: indexedText.optional(),
  volumeType: storableText.optional(),
  volumeSizeGiB: quantity.optional(),
  volumeIops: quantity.optional(),
  volumeThroughputMiBps: quantity.optional(),
  volumeCount: quantity.optional(),
  region: storableText.optional(),
  series: indexedText.optional(),
  branch: indexedText.optional(),
  baseBranch: storableText.optional(),
  commit: storableText.optional(),
  // A `__proto__` key is refused before parsing (store-core.ts): zod, like any plain-object
  // copy, would drop it silently.
  tags: z.record(storableText.min(1), storableText).optional(),
});
export type RunLabels = z.infer<typeof RunLabelsSchema>;

/** A JSON document the store keeps verbatim and never looks inside (report, summary, plan, …). */
export type JsonObject = Record<string, unknown>;

export interface InsertRunInput {
  /** The exact uploaded bytes; stored verbatim and returned byte-identical. */
  rawBytes: Uint8Array;
  /** e.g. `application/json`, `text/plain` (fio's normal+json output). */
  mediaType: string;
  fileName?: string | null;
  labels: RunLabels;
  /** The normalized fio report (JSON-serializable). */
  report: object;
  /** The analysis shown in lists and CI checks (JSON-serializable, kept small). */
  summary: object;
  analysisVersion: string;
  fioVersion?: string | null;
  /**
   * Hex SHA-256; defaults to `idempotencyKeyFor(rawBytes, labels)` (see idempotency.ts). Pass
   * your own to key on something else, e.g. a hashed client `Idempotency-Key` header.
   */
  idempotencyKey?: string;
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
  /** The computed comparison, frozen: later analysis versions never rewrite it. */
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
 * The database cannot serve the request right now (unreachable, restarting, locked beyond the
 * busy timeout, disk full). Transient from the caller's point of view: map to 503 + Retry-After.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'store_unavailable';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreUnavailableError';
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
