import { newId } from './ids.ts';
import { isSha256Hex } from './idempotency.ts';
import { readFleetPlanBody, spliceableParts } from './fleet-plan-document.ts';
import { int, nullableText, type MonotonicClock } from './store-core.ts';
import {
  StoreInputError,
  type InsertFleetPlanInput,
  type StoredFleetPlan,
  type StoredFleetPlanDocument,
  type StoredFleetPlanRef,
} from './run-store.ts';

/**
 * Fleet plans behind share links (table fleet_plans, migrations 3 and 4): what both stores share —
 * the prepared row, the statements, and the row read back. Since migration 4 a plan is stored as
 * its JSON gzip-compressed (body_gzip, fleet-plan-document.ts), computed and checked against
 * FleetPlanSchema off the event loop; rows stored before keep their JSON text in `body`. Either is
 * read through the versioned reader readStoredFleetPlan (stored data is parsed, never cast).
 */

export interface PreparedFleetPlan {
  id: string;
  createdAt: number;
  analysisVersion: string;
  priceDate: string;
  idempotencyKey: string;
  /** Checked to be active in the insert's transaction (InsertFleetPlanInput.tokenId). */
  tokenId: string | null;
  gzip: Uint8Array;
  bytes: number;
}

const REF_COLUMNS = 'id, created_at, analysis_version, price_date';
export const FLEET_PLAN_COLUMNS = `${REF_COLUMNS}, body, body_gzip, body_size`;

function versionText(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 255)
    throw new StoreInputError('expected 1–255 characters', path);
  return value;
}

/** Checks what the store can of a document computed elsewhere: its key, size and gzip form. */
export function prepareFleetPlan(input: InsertFleetPlanInput, clock: MonotonicClock): PreparedFleetPlan {
  const { document } = input;
  if (!isSha256Hex(input.idempotencyKey))
    throw new StoreInputError('expected 64 lowercase hex digits (SHA-256)', 'idempotencyKey');
  if (!Number.isSafeInteger(document.bytes) || document.bytes < 2)
    throw new StoreInputError('expected the byte length of the plan JSON', 'document.bytes');
  if (!(document.gzip instanceof Uint8Array) || !spliceableParts(document.gzip))
    throw new StoreInputError('expected a gzip member written by encodeFleetPlan', 'document.gzip');
  return {
    id: newId(),
    createdAt: clock.next(),
    analysisVersion: versionText(input.analysisVersion, 'analysisVersion'),
    priceDate: versionText(document.priceDate, 'document.priceDate'),
    idempotencyKey: input.idempotencyKey,
    tokenId: nullableText(input.tokenId ?? null, 'tokenId'),
    gzip: document.gzip,
    bytes: document.bytes,
  };
}

/** The INSERT; a row of the same idempotency key already stored wins (no row inserted). */
export function fleetPlanInsertStatement(
  plan: PreparedFleetPlan,
  placeholder: (position: number) => string,
): { sql: string; params: unknown[] } {
  const params = [
    plan.id,
    plan.createdAt,
    plan.analysisVersion,
    plan.priceDate,
    plan.idempotencyKey,
    Buffer.from(plan.gzip.buffer, plan.gzip.byteOffset, plan.gzip.byteLength),
    plan.bytes,
  ];
  const values = params.map((_, index) => placeholder(index + 1)).join(', ');
  return {
    sql:
      `INSERT INTO fleet_plans (${REF_COLUMNS}, idempotency_key, body_gzip, body_size) VALUES (${values}) ` +
      'ON CONFLICT (idempotency_key) DO NOTHING',
    params,
  };
}

/** The plan an earlier request of the same key stored. */
export function fleetPlanByKeyStatement(placeholder: string): string {
  return `SELECT ${REF_COLUMNS} FROM fleet_plans WHERE idempotency_key = ${placeholder}`;
}

function text(value: unknown, column: string): string {
  if (typeof value !== 'string') throw new TypeError(`fleet_plans.${column}: not text`);
  return value;
}

export function fleetPlanRefFromRow(row: Record<string, unknown>): StoredFleetPlanRef {
  return {
    id: text(row.id, 'id'),
    createdAt: int(row.created_at, 'fleet_plans.created_at'),
    analysisVersion: text(row.analysis_version, 'analysis_version'),
    priceDate: text(row.price_date, 'price_date'),
  };
}

/** The row as stored: the gzip body with its size, or a row from before migration 4 parsed. */
export function fleetPlanDocumentFromRow(row: Record<string, unknown>): StoredFleetPlanDocument {
  const ref = fleetPlanRefFromRow(row);
  if (row.body_gzip instanceof Uint8Array) {
    return { ...ref, body: { gzip: row.body_gzip, bytes: int(row.body_size, 'fleet_plans.body_size') } };
  }
  // SQLite returns the JSON as text, node-postgres parses `json`.
  return { ...ref, body: { plan: readFleetPlanBody({ json: row.body }, ref.id, ref.analysisVersion) } };
}

/** The row with its plan parsed (gzip inflated), in today's shape. */
export function fleetPlanFromRow(row: Record<string, unknown>): StoredFleetPlan {
  const document = fleetPlanDocumentFromRow(row);
  const { body, ...ref } = document;
  const plan =
    'plan' in body ? body.plan : readFleetPlanBody({ gzip: body.gzip }, ref.id, ref.analysisVersion);
  return { ...ref, plan };
}

/** What insertFleetPlan returns when it stored the row: the row's reference, without reading it back. */
export function fleetPlanRefFromPrepared(plan: PreparedFleetPlan): StoredFleetPlanRef {
  const { id, createdAt, analysisVersion, priceDate } = plan;
  return { id, createdAt, analysisVersion, priceDate };
}
