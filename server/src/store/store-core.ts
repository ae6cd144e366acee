/**
 * What both store implementations share: input checks, hashing, the clock, the list-query SQL
 * and row decoding. Keeping it in one place is what makes the two dialects behave the same; each
 * implementation only adds its driver, its transactions and its placeholders (`?` vs `$n`).
 */
import { isUtf8 } from 'node:buffer';
import { decodeCursor, encodeCursor, type RunPosition } from './cursor.ts';
import { idempotencyKeyFromDigest, isSha256Hex, sha256Hex } from './idempotency.ts';
import { isValidId, newId } from './ids.ts';
import { idListOf, jsonObjectOf, storedLabelsOf } from './records.ts';
import {
  LIST_LIMIT,
  RUN_KINDS,
  RunLabelsSchema,
  JsonObjectText,
  StoreInputError,
  StoreUnavailableError,
  WRITE_FAULTS,
  isStorableText,
  storeFail,
  storeOk,
  type Comparison,
  type CreateTokenInput,
  type InsertComparisonInput,
  type InsertRunInput,
  type JsonObject,
  type ListRunsQuery,
  type ListSeriesRunsQuery,
  type Run,
  type RunJson,
  type RunJsonBytes,
  type RunLabels,
  type RunMeta,
  type RunPage,
  type SeriesSettings,
  type StoreFault,
  type StoreProblem,
  type StoreResult,
  type TokenInfo,
  type WriteCheck,
} from './run-store.ts';

// ── Clock ────────────────────────────────────────────────────────────────────────────────────

/**
 * Hands out createdAt values (ms epoch) that never go backwards within one store instance, even
 * when the wall clock is stepped back (NTP): a run stored later never sorts before one stored
 * earlier by the same process. Values repeat (many uploads per ms, several replicas), which is
 * why every ordering and cursor also carries the id as a tie-breaker.
 */
export class MonotonicClock {
  #last = 0;
  constructor(private readonly wallClock: () => number = Date.now) {}

  next(): number {
    const now = Math.floor(this.wallClock());
    if (!Number.isSafeInteger(now) || now < 0) throw new TypeError(`clock returned ${now}`);
    this.#last = Math.max(this.#last, now);
    return this.#last;
  }
}

// ── Input checks (bugs at the edge → StoreInputError) ───────────────────────────────────────

function text(value: unknown, path: string, options: { max?: number; allowEmpty?: boolean } = {}): string {
  if (typeof value !== 'string') throw new StoreInputError('expected a string', path);
  if (!options.allowEmpty && value.length === 0) throw new StoreInputError('must not be empty', path);
  if (options.max !== undefined && value.length > options.max) {
    throw new StoreInputError(`longer than ${options.max} characters`, path);
  }
  if (!isStorableText(value)) throw new StoreInputError('contains U+0000 or a lone surrogate', path);
  return value;
}

export function nullableText(value: unknown, path: string): string | null {
  return value === null || value === undefined ? null : text(value, path);
}

/**
 * Serializes an opaque payload. Stored as JSON text (SQLite) / `json` (PostgreSQL), both of which
 * keep the text exactly as written: key order, and strings with U+0000 or lone surrogates (which
 * JSON.stringify escapes and jsonb would refuse) — a fio job name is user input.
 */
/** Text that claims to be a serialized JSON object: a cheap shape check (it was written by JSON.stringify). */
function checkJsonObjectText(json: unknown, path: string): string {
  if (typeof json !== 'string' || !json.startsWith('{') || !json.endsWith('}')) {
    throw new StoreInputError('expected the JSON text of an object', path);
  }
  return json;
}

/**
 * The UTF-8 bytes of a serialized JSON object, checked as cheaply: braces at both ends, and valid
 * UTF-8 (the store writes them as TEXT).
 */
function checkJsonObjectBytes(bytes: Uint8Array, path: string): Buffer {
  if (bytes[0] !== 0x7b || bytes[bytes.length - 1] !== 0x7d || !isUtf8(bytes)) {
    throw new StoreInputError('expected the UTF-8 JSON text of an object', path);
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A document as the store writes it: its JSON as given (JsonObjectText), else serialized here. */
function jsonObjectTextOf(value: unknown, path: string): string {
  return value instanceof JsonObjectText
    ? checkJsonObjectText(value.json, path)
    : serializeJsonObject(value, path);
}

export function serializeJsonObject(value: unknown, path: string): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new StoreInputError('expected a JSON object', path);
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new StoreInputError(`not serializable as JSON (${(error as Error).message})`, path);
  }
  if (typeof json !== 'string' || !json.startsWith('{')) {
    throw new StoreInputError('does not serialize to a JSON object', path);
  }
  return json;
}

function checkLabels(labels: unknown): RunLabels {
  const tags = (labels as { tags?: unknown } | null)?.tags;
  for (const [value, path] of [
    [labels, 'labels'],
    [tags, 'labels.tags'],
  ] as const) {
    if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
      throw new StoreInputError('reserved key __proto__', path);
    }
  }
  const parsed = RunLabelsSchema.safeParse(labels);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = ['labels', ...(issue?.path ?? [])].map(String).join('.');
    throw new StoreInputError(issue?.message ?? 'invalid labels', path);
  }
  return parsed.data;
}

// ── Runs ─────────────────────────────────────────────────────────────────────────────────────

/** A run ready to insert: validated, hashed, serialized. Built outside any transaction. */
export interface PreparedRun {
  id: string;
  /** Checked to be active in the insert's transaction (InsertRunInput.tokenId). */
  tokenId: string | null;
  createdAt: number;
  idempotencyKey: string;
  labels: RunLabels;
  rawBytes: Buffer;
  /**
   * rawBytes' length as given: bytes the caller gave (giveBytes) are detached once moved to the
   * SQLite writer, and read as empty after that.
   */
  rawSize: number;
  rawSha256: string;
  mediaType: string;
  fileName: string | null;
  analysisVersion: string;
  fioVersion: string | null;
  labelsJson: string;
  summaryJson: string;
  /** Text, or the UTF-8 bytes it came as (JsonObjectText): each store writes either. */
  reportJson: string | Buffer;
  /** The store may take rawBytes and a report given as bytes (InsertRunInput.giveBytes). */
  giveBytes: boolean;
}

/** `rawSha256`: the raw bytes' digest when the caller computed it already (sha256HexOffLoop). */
export function prepareRun(input: InsertRunInput, clock: MonotonicClock, rawSha256?: string): PreparedRun {
  if (!(input.rawBytes instanceof Uint8Array)) throw new StoreInputError('expected bytes', 'rawBytes');
  const rawBytes = Buffer.from(input.rawBytes.buffer, input.rawBytes.byteOffset, input.rawBytes.byteLength);
  const labels = checkLabels(input.labels);
  rawSha256 ??= sha256Hex(rawBytes);
  const idempotencyKey = input.idempotencyKey ?? idempotencyKeyFromDigest(rawSha256, labels);
  if (!isSha256Hex(idempotencyKey)) {
    throw new StoreInputError('expected a lowercase hex SHA-256', 'idempotencyKey');
  }
  return {
    id: newId(),
    tokenId: nullableText(input.tokenId, 'tokenId'),
    createdAt: clock.next(),
    idempotencyKey,
    labels,
    rawBytes,
    rawSize: rawBytes.byteLength,
    rawSha256,
    mediaType: text(input.mediaType, 'mediaType', { max: 255 }),
    fileName: nullableText(input.fileName, 'fileName'),
    analysisVersion: text(input.analysisVersion, 'analysisVersion', { max: 255 }),
    fioVersion: nullableText(input.fioVersion, 'fioVersion'),
    labelsJson: JSON.stringify(labels),
    summaryJson: jsonObjectTextOf(input.summary, 'summary'),
    reportJson:
      input.report instanceof JsonObjectText && typeof input.report.json !== 'string'
        ? checkJsonObjectBytes(input.report.json, 'report')
        : jsonObjectTextOf(input.report, 'report'),
    giveBytes: input.giveBytes === true,
  };
}

/**
 * `INSERT INTO runs` columns, in the order of runInsertValues. The indexed label columns are
 * copies of labels.series/branch/instanceType/kind: the filters and their indexes need plain
 * columns, and the labels document stays the source returned to clients.
 */
export const RUN_INSERT_COLUMNS = [
  'id',
  'created_at',
  'idempotency_key',
  'series',
  'branch',
  'instance_type',
  'kind',
  'raw_sha256',
  'raw_size',
  'media_type',
  'file_name',
  'analysis_version',
  'fio_version',
  'labels',
  'summary',
  'report',
] as const;

export function runInsertValues(run: PreparedRun): unknown[] {
  return [
    run.id,
    run.createdAt,
    run.idempotencyKey,
    run.labels.series ?? null,
    run.labels.branch ?? null,
    run.labels.instanceType ?? null,
    run.labels.kind ?? null,
    run.rawSha256,
    run.rawSize,
    run.mediaType,
    run.fileName,
    run.analysisVersion,
    run.fioVersion,
    run.labelsJson,
    run.summaryJson,
    run.reportJson,
  ];
}

/**
 * Sets `key` on `target` to a document decoded from the JSON the store just wrote, on first read
 * (then kept as a plain property). What an insert returns echoes documents the caller usually
 * does not read again — the upload only needs the new run's id — and decoding them was paid on
 * every upload (bench P2: the 56 KB comparison result and the 15 KB summary).
 */
function decodedOnRead<T extends object>(target: T, key: string, decode: () => JsonObject): void {
  const settle = (value: JsonObject) => {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
    return value;
  };
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => settle(decode()),
    set: settle,
  });
}

/** The RunMeta of a run just inserted, equal to what a later read returns. */
export function runMetaFromPrepared(run: PreparedRun): RunMeta {
  const meta = {
    id: run.id,
    createdAt: run.createdAt,
    rawSha256: run.rawSha256,
    rawSize: run.rawSize,
    mediaType: run.mediaType,
    fileName: run.fileName,
    labels: run.labels,
    summary: {},
    analysisVersion: run.analysisVersion,
    fioVersion: run.fioVersion,
    idempotencyKey: run.idempotencyKey,
  };
  decodedOnRead(meta, 'summary', () => jsonObjectOf(JSON.parse(run.summaryJson), `run ${run.id}`, 'summary'));
  return meta;
}

/** Columns of RunMeta. Lists select these and never `report` (can be MBs) or the raw bytes. */
export const RUN_META_COLUMNS =
  'id, created_at, raw_sha256, raw_size, media_type, file_name, labels, summary, analysis_version, fio_version, idempotency_key';

type Row = Record<string, unknown>;

/** SQLite returns INTEGER as number; node-postgres returns BIGINT as a decimal string. */
export function int(value: unknown, column: string): number {
  const n = typeof value === 'string' || typeof value === 'bigint' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new TypeError(`${column}: not an integer`);
  return n;
}

function nullableInt(value: unknown, column: string): number | null {
  return value === null || value === undefined ? null : int(value, column);
}

/** SQLite returns JSON columns as text; node-postgres parses json/jsonb itself. */
function json(value: unknown, column: string): unknown {
  if (typeof value === 'string') return JSON.parse(value);
  if (typeof value === 'object' && value !== null) return value;
  throw new TypeError(`${column}: not JSON`);
}

/** A BLOB/bytea column: both drivers hand out a Buffer. */
export function bytesColumn(value: unknown, column: string): Buffer {
  if (!Buffer.isBuffer(value)) throw new TypeError(`${column}: not bytes`);
  return value;
}

function str(value: unknown, column: string): string {
  if (typeof value !== 'string') throw new TypeError(`${column}: not text`);
  return value;
}

function nullableStr(value: unknown, column: string): string | null {
  return value === null || value === undefined ? null : str(value, column);
}

/**
 * A run's metadata from its row. The summary (~15 KB of JSON for a 16-job file) is decoded when
 * first read, as for a run just inserted: the regression gate reads the latest baseline run of a
 * series after every CI upload for its id and labels only (bench P2).
 */
export function runMetaFromRow(row: Row): RunMeta {
  const id = str(row.id, 'id');
  const meta = {
    id,
    createdAt: int(row.created_at, 'created_at'),
    rawSha256: str(row.raw_sha256, 'raw_sha256'),
    rawSize: int(row.raw_size, 'raw_size'),
    mediaType: str(row.media_type, 'media_type'),
    fileName: nullableStr(row.file_name, 'file_name'),
    labels: storedLabelsOf(json(row.labels, 'labels'), id),
    summary: {},
    analysisVersion: str(row.analysis_version, 'analysis_version'),
    fioVersion: nullableStr(row.fio_version, 'fio_version'),
    idempotencyKey: str(row.idempotency_key, 'idempotency_key'),
  };
  const summary = row.summary;
  decodedOnRead(meta, 'summary', () => jsonObjectOf(json(summary, 'summary'), `run ${id}`, 'summary'));
  return meta;
}

export function runFromRow(row: Row): Run {
  const meta = runMetaFromRow(row);
  return { ...meta, report: jsonObjectOf(json(row.report, 'report'), `run ${meta.id}`, 'report') };
}

/** Columns of RunJson besides the two documents, which each dialect selects as text. */
export const RUN_JSON_COLUMNS =
  'id, created_at, raw_sha256, raw_size, media_type, file_name, labels, analysis_version, fio_version, idempotency_key';

/** A row with `summary_json` selected as text and `report_json` as the bytes of its UTF-8 text. */
export function runJsonBytesFromRow(row: Row): RunJsonBytes {
  return {
    ...runJsonFromRow({ ...row, report_json: '' }),
    reportJson: bytesColumn(row.report_json, 'report'),
  };
}

/** A row with `summary_json` and `report_json` selected as text. */
export function runJsonFromRow(row: Row): RunJson {
  const id = str(row.id, 'id');
  return {
    id,
    createdAt: int(row.created_at, 'created_at'),
    rawSha256: str(row.raw_sha256, 'raw_sha256'),
    rawSize: int(row.raw_size, 'raw_size'),
    mediaType: str(row.media_type, 'media_type'),
    fileName: nullableStr(row.file_name, 'file_name'),
    labels: storedLabelsOf(json(row.labels, 'labels'), id),
    analysisVersion: str(row.analysis_version, 'analysis_version'),
    fioVersion: nullableStr(row.fio_version, 'fio_version'),
    idempotencyKey: str(row.idempotency_key, 'idempotency_key'),
    summaryJson: str(row.summary_json, 'summary'),
    reportJson: str(row.report_json, 'report'),
  };
}

// ── Listing ──────────────────────────────────────────────────────────────────────────────────

/** Filter → column, in the fixed order the SQL is built in (one statement text per combination). */
const FILTER_COLUMNS = [
  ['series', 'series'],
  ['branch', 'branch'],
  ['instanceType', 'instance_type'],
  ['kind', 'kind'],
] as const;

export interface ListPlan {
  filters: Array<{ column: string; value: string }>;
  limit: number;
  after: RunPosition | null;
}

/** A page size: LIST_LIMIT.default when absent, else an integer in LIST_LIMIT's range. */
export function checkLimit(limit: unknown): StoreResult<number> {
  if (limit === undefined) return storeOk(LIST_LIMIT.default);
  if (
    typeof limit !== 'number' ||
    !Number.isInteger(limit) ||
    limit < LIST_LIMIT.min ||
    limit > LIST_LIMIT.max
  ) {
    return storeFail(
      'invalid_limit',
      `limit must be an integer from ${LIST_LIMIT.min} to ${LIST_LIMIT.max}`,
      'limit',
    );
  }
  return storeOk(limit);
}

function checkFilter(name: string, value: unknown): StoreResult<string> {
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    value.length > 256 ||
    !isStorableText(value) ||
    (name === 'kind' && !(RUN_KINDS as readonly string[]).includes(value))
  ) {
    const expected = name === 'kind' ? `one of ${RUN_KINDS.join(', ')}` : 'a non-empty label value';
    return storeFail('invalid_filter', `${name} must be ${expected}`, name);
  }
  return storeOk(value);
}

function plan(
  source: Record<string, unknown>,
  names: ReadonlyArray<(typeof FILTER_COLUMNS)[number][0]>,
  limit: unknown,
  cursor: unknown,
  cursorPath: string,
): StoreResult<ListPlan> {
  const filters: ListPlan['filters'] = [];
  for (const [name, column] of FILTER_COLUMNS) {
    if (!names.includes(name) || source[name] === undefined) continue;
    const value = checkFilter(name, source[name]);
    if (!value.ok) return value;
    filters.push({ column, value: value.value });
  }
  const checkedLimit = checkLimit(limit);
  if (!checkedLimit.ok) return checkedLimit;
  let after: RunPosition | null = null;
  if (cursor !== undefined) {
    const decoded = decodeCursor(cursor, cursorPath);
    if (!decoded.ok) return decoded;
    after = decoded.value;
  }
  return storeOk({ filters, limit: checkedLimit.value, after });
}

export function planListRuns(query: ListRunsQuery = {}): StoreResult<ListPlan> {
  const source = query as Record<string, unknown>;
  return plan(source, ['series', 'branch', 'instanceType', 'kind'], query.limit, query.cursor, 'cursor');
}

export function planListSeriesRuns(query: ListSeriesRunsQuery): StoreResult<ListPlan> {
  const source = query as unknown as Record<string, unknown>;
  if (source.series === undefined) return storeFail('invalid_filter', 'series is required', 'series');
  return plan(source, ['series', 'branch'], query.limit, query.before, 'before');
}

/**
 * The one list statement, for both dialects. Index-backed for every filter combination (see the
 * migrations): equality on the leading column(s) of an index ending in (created_at, id), the
 * cursor as a row-value range on those two columns, and an ORDER BY the index already has — so
 * the database reads `limit + 1` index entries and never sorts (asserted by the EXPLAIN tests).
 * `limit + 1` rows tell whether another page exists without a COUNT.
 */
export function listRunsStatement(
  listPlan: ListPlan,
  placeholder: (position: number) => string,
): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return placeholder(params.length);
  };
  for (const filter of listPlan.filters) where.push(`${filter.column} = ${bind(filter.value)}`);
  if (listPlan.after) {
    where.push(`(created_at, id) < (${bind(listPlan.after.createdAt)}, ${bind(listPlan.after.id)})`);
  }
  const sql =
    `SELECT ${RUN_META_COLUMNS} FROM runs` +
    (where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '') +
    ` ORDER BY created_at DESC, id DESC LIMIT ${bind(listPlan.limit + 1)}`;
  return { sql, params };
}

export function pageFromRows(rows: readonly Row[], limit: number): RunPage {
  const items = rows.slice(0, limit).map(runMetaFromRow);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

// ── Comparisons ──────────────────────────────────────────────────────────────────────────────

export interface PreparedComparison {
  id: string;
  createdAt: number;
  title: string | null;
  runIds: string[];
  runIdsJson: string;
  planJson: string | null;
  resultJson: string;
  priceTableDate: string;
  analysisVersion: string;
}

export function prepareComparison(
  input: InsertComparisonInput,
  clock: MonotonicClock,
): StoreResult<PreparedComparison> {
  const runIds: unknown = input.runIds;
  // Zero runs is valid: a planning session of typed-in numbers only (its plan is the content).
  if (!Array.isArray(runIds) || (runIds.length === 0 && (input.plan === null || input.plan === undefined))) {
    return storeFail('invalid_run_ids', 'a comparison needs at least one run or a plan', 'runIds');
  }
  const seen = new Set<string>();
  for (const [index, id] of runIds.entries()) {
    if (!isValidId(id)) return storeFail('unknown_run', 'not a run id', `runIds.${index}`);
    if (seen.has(id)) return storeFail('invalid_run_ids', 'the same run appears twice', `runIds.${index}`);
    seen.add(id);
  }
  const ids = [...seen];
  return storeOk({
    id: newId(),
    createdAt: clock.next(),
    title: nullableText(input.title, 'title'),
    runIds: ids,
    runIdsJson: JSON.stringify(ids),
    planJson:
      input.plan === null || input.plan === undefined ? null : serializeJsonObject(input.plan, 'plan'),
    resultJson:
      input.result instanceof JsonObjectText
        ? checkJsonObjectText(input.result.json, 'result')
        : serializeJsonObject(input.result, 'result'),
    priceTableDate: text(input.priceTableDate, 'priceTableDate', { max: 255 }),
    analysisVersion: text(input.analysisVersion, 'analysisVersion', { max: 255 }),
  });
}

export function comparisonFromPrepared(comparison: PreparedComparison): Comparison {
  const record = `comparison ${comparison.id}`;
  const inserted = {
    id: comparison.id,
    createdAt: comparison.createdAt,
    title: comparison.title,
    runIds: [...comparison.runIds],
    plan: comparison.planJson === null ? null : jsonObjectOf(JSON.parse(comparison.planJson), record, 'plan'),
    result: {},
    priceTableDate: comparison.priceTableDate,
    analysisVersion: comparison.analysisVersion,
  };
  decodedOnRead(inserted, 'result', () => jsonObjectOf(JSON.parse(comparison.resultJson), record, 'result'));
  return inserted;
}

export const COMPARISON_COLUMNS =
  'id, created_at, title, run_ids, plan, result, price_table_date, analysis_version';

/**
 * The `unknown_run` problem naming the first of a comparison's runs that `exists` says is not
 * stored, or null when all are. No transaction is needed between this check and the insert:
 * runs are never deleted (triggers), so a reference checked once stays valid.
 */
export function unknownRunOf(
  comparison: PreparedComparison,
  exists: (runId: string) => boolean,
): { ok: false; error: StoreProblem } | null {
  const missing = comparison.runIds.findIndex((id) => !exists(id));
  return missing >= 0 ? storeFail('unknown_run', 'no such run', `runIds.${missing}`) : null;
}

/**
 * The INSERT of a prepared comparison, for both dialects. With a `pairKey` (the regression gate's
 * pair comparison) it does nothing when the pair already has one for this analysis version
 * (UNIQUE comparisons_pair): the caller then reads that one.
 */
export function comparisonInsertStatement(
  comparison: PreparedComparison,
  placeholder: (position: number) => string,
  pairKey?: string,
): { sql: string; params: unknown[] } {
  const params: unknown[] = [
    comparison.id,
    comparison.createdAt,
    comparison.title,
    comparison.runIdsJson,
    comparison.planJson,
    comparison.resultJson,
    comparison.priceTableDate,
    comparison.analysisVersion,
  ];
  if (pairKey !== undefined) params.push(pairKey);
  const values = params.map((_, index) => placeholder(index + 1)).join(', ');
  const sql =
    pairKey === undefined
      ? `INSERT INTO comparisons (${COMPARISON_COLUMNS}) VALUES (${values})`
      : `INSERT INTO comparisons (${COMPARISON_COLUMNS}, pair_key) VALUES (${values}) ` +
        'ON CONFLICT (pair_key, analysis_version) DO NOTHING';
  return { sql, params };
}

/** The pair comparison a conflicting ensurePairComparison found. Parameters: pair key, analysis version. */
export const PAIR_COMPARISON_SELECT = (placeholder: (position: number) => string) =>
  `SELECT ${COMPARISON_COLUMNS} FROM comparisons WHERE pair_key = ${placeholder(1)} AND analysis_version = ${placeholder(2)}`;

export function comparisonFromRow(row: Row): Comparison {
  const id = str(row.id, 'id');
  const record = `comparison ${id}`;
  return {
    id,
    createdAt: int(row.created_at, 'created_at'),
    title: nullableStr(row.title, 'title'),
    runIds: idListOf(json(row.run_ids, 'run_ids'), record, 'run_ids'),
    plan:
      row.plan === null || row.plan === undefined
        ? null
        : jsonObjectOf(json(row.plan, 'plan'), record, 'plan'),
    result: jsonObjectOf(json(row.result, 'result'), record, 'result'),
    priceTableDate: str(row.price_table_date, 'price_table_date'),
    analysisVersion: str(row.analysis_version, 'analysis_version'),
  };
}

// ── Tokens ───────────────────────────────────────────────────────────────────────────────────

/** Writes to last_used_at at most this often per token: token checks stay reads. */
export const TOKEN_TOUCH_INTERVAL_MS = 60_000;

export function prepareToken(
  input: CreateTokenInput,
  clock: MonotonicClock,
): { id: string; name: string; tokenSha256: string; createdAt: number } {
  if (!isSha256Hex(input.tokenSha256)) {
    throw new StoreInputError('expected a lowercase hex SHA-256 of the token', 'tokenSha256');
  }
  return {
    id: newId(),
    name: text(input.name, 'name', { max: 256 }),
    tokenSha256: input.tokenSha256,
    createdAt: clock.next(),
  };
}

/** Token columns clients may see: never the digest. */
export const TOKEN_COLUMNS = 'id, name, created_at, revoked_at, last_used_at';

/** Whether a token is still active, in the write's transaction (by primary key). */
export const TOKEN_ACTIVE = (p: (n: number) => string) =>
  `SELECT 1 AS active FROM tokens WHERE id = ${p(1)} AND revoked_at IS NULL`;

export function tokenFromRow(row: Row): TokenInfo {
  return {
    id: str(row.id, 'id'),
    name: str(row.name, 'name'),
    createdAt: int(row.created_at, 'created_at'),
    revokedAt: nullableInt(row.revoked_at, 'revoked_at'),
    lastUsedAt: nullableInt(row.last_used_at, 'last_used_at'),
  };
}

/** Which column and value a TokenRef selects, or null when it cannot match any token. */
export function tokenRefColumn(ref: unknown): { column: 'id' | 'name'; value: string } | null {
  if (typeof ref !== 'object' || ref === null) throw new StoreInputError('expected {id} or {name}', 'ref');
  const { id, name } = ref as { id?: unknown; name?: unknown };
  if (id !== undefined) return isValidId(id) ? { column: 'id', value: id } : null;
  if (typeof name === 'string') {
    return name.length > 0 && name.length <= 256 && isStorableText(name)
      ? { column: 'name', value: name }
      : null;
  }
  throw new StoreInputError('expected {id} or {name}', 'ref');
}

// ── Series settings ──────────────────────────────────────────────────────────────────────────

/** Whether `series` can be a stored series key (same bounds as the indexed label). */
export function isSeriesKey(series: unknown): series is string {
  return typeof series === 'string' && series.length > 0 && series.length <= 256 && isStorableText(series);
}

export function checkSeriesKey(series: unknown): string {
  if (!isSeriesKey(series)) {
    throw new StoreInputError('expected a non-empty series name of at most 256 characters', 'series');
  }
  return series;
}

export function seriesSettingsFromRow(row: Row): SeriesSettings {
  return {
    series: str(row.series, 'series'),
    config: jsonObjectOf(json(row.config, 'config'), `series ${String(row.series)}`, 'config'),
    updatedAt: int(row.updated_at, 'updated_at'),
  };
}

// ── Write health (/healthz) ──────────────────────────────────────────────────────────────────

/**
 * Thrown inside the write probe's transaction to roll it back. The probe writes a value over
 * itself in a transaction that is always rolled back, so it changes nothing — but the database
 * must accept a write for it to run (a read-only file or transaction refuses it).
 */
export const ROLLBACK_PROBE = Symbol('rollback the write probe');

/**
 * How long a real write that failed with a write fault keeps the store reported as not writable
 * when no write succeeds after it. It has to expire: a replica whose /healthz says "degraded" is
 * taken out of rotation by its load balancer and then sees no write that could clear it.
 */
export const WRITE_FAILURE_MEMORY_MS = 60_000;

export type ProbeOutcome = { ok: true } | { ok: false; error: unknown };

/** The last real write's failure and the probe's outcome, combined into what /healthz reports. */
export class WriteHealth {
  #failure: { at: number; fault: StoreFault; error: unknown } | null = null;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly memoryMs = WRITE_FAILURE_MEMORY_MS,
  ) {}

  /** A write committed: earlier failures say nothing any more. */
  succeeded(): void {
    this.#failure = null;
  }

  /** StoreUnavailableErrors seen, by fault (GET /metrics). */
  readonly #unavailable: Partial<Record<StoreFault, number>> = {};

  /** Every StoreUnavailableError observed so far, by fault. */
  unavailableErrors(): Readonly<Partial<Record<StoreFault, number>>> {
    return { ...this.#unavailable };
  }

  /**
   * Counts a StoreUnavailableError, and remembers a write fault (read-only, disk full, I/O error);
   * other errors say nothing about writes.
   */
  observe(error: unknown): void {
    if (error instanceof StoreUnavailableError)
      this.#unavailable[error.fault] = (this.#unavailable[error.fault] ?? 0) + 1;
    if (error instanceof StoreUnavailableError && WRITE_FAULTS.has(error.fault)) {
      this.#failure = { at: this.now(), fault: error.fault, error };
    }
  }

  report(probe: ProbeOutcome): WriteCheck {
    if (this.#failure && this.now() - this.#failure.at > this.memoryMs) this.#failure = null;
    const last = this.#failure;
    const lastWriteFailure = last ? { at: last.at, fault: last.fault } : null;
    if (!probe.ok) {
      const fault = probe.error instanceof StoreUnavailableError ? probe.error.fault : null;
      // Busy: another connection holds the write lock, so writes do go through (later).
      if (fault === 'busy') {
        return last
          ? { writable: false, probe: 'unknown', lastWriteFailure, fault: last.fault, cause: last.error }
          : { writable: true, probe: 'unknown', lastWriteFailure, fault: null };
      }
      return { writable: false, probe: 'failed', lastWriteFailure, fault, cause: probe.error };
    }
    return last
      ? { writable: false, probe: 'ok', lastWriteFailure, fault: last.fault, cause: last.error }
      : { writable: true, probe: 'ok', lastWriteFailure: null, fault: null };
  }
}
