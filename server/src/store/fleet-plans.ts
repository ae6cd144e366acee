import { FleetPlanSchema, type FleetPlan } from '@blockwise/shared/fleet';
import { readStoredFleetPlan } from '@blockwise/shared/records';
import { newId } from './ids.ts';
import { StoredRecordError } from './records.ts';
import { int, type MonotonicClock } from './store-core.ts';
import { StoreInputError, type InsertFleetPlanInput, type StoredFleetPlan } from './run-store.ts';

/**
 * Fleet plans behind share links (table fleet_plans, migration 3): what both stores share —
 * the prepared row, the INSERT, and the row read back. The body is parsed with FleetPlanSchema
 * on the way in (a plan no reader could parse is never stored) and on the way out through the
 * versioned reader readStoredFleetPlan (stored JSON is parsed, never cast: a row that no longer
 * fits is a StoredRecordError naming the field, not a page that breaks three components later).
 */

export interface PreparedFleetPlan {
  id: string;
  createdAt: number;
  analysisVersion: string;
  priceDate: string;
  bodyJson: string;
  plan: StoredFleetPlan['plan'];
}

export const FLEET_PLAN_COLUMNS = 'id, created_at, analysis_version, price_date, body';

function versionText(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 255)
    throw new StoreInputError('expected 1–255 characters', path);
  return value;
}

/** Validates and serializes a plan; a plan that does not fit FleetPlanSchema is a bug at the edge. */
export function prepareFleetPlan(input: InsertFleetPlanInput, clock: MonotonicClock): PreparedFleetPlan {
  const parsed = FleetPlanSchema.safeParse(input.plan);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StoreInputError(
      issue?.message ?? 'not a fleet plan',
      ['plan', ...(issue?.path ?? [])].map(String).join('.'),
    );
  }
  return {
    id: newId(),
    createdAt: clock.next(),
    analysisVersion: versionText(input.analysisVersion, 'analysisVersion'),
    priceDate: versionText(parsed.data.priceDate, 'plan.priceDate'),
    // The parsed value, so what is stored is exactly what every later read returns.
    bodyJson: JSON.stringify(parsed.data),
    plan: parsed.data,
  };
}

export function fleetPlanInsertStatement(
  plan: PreparedFleetPlan,
  placeholder: (position: number) => string,
): { sql: string; params: unknown[] } {
  const params = [plan.id, plan.createdAt, plan.analysisVersion, plan.priceDate, plan.bodyJson];
  const values = params.map((_, index) => placeholder(index + 1)).join(', ');
  return { sql: `INSERT INTO fleet_plans (${FLEET_PLAN_COLUMNS}) VALUES (${values})`, params };
}

function text(value: unknown, column: string): string {
  if (typeof value !== 'string') throw new TypeError(`fleet_plans.${column}: not text`);
  return value;
}

/**
 * The stored body in today's shape, through the versioned reader (shared records/
 * stored-fleet-plan.ts: the one place upcasters of earlier analysis versions go). SQLite returns
 * JSON as text, node-postgres parses `json`. A body that does not parse, or one stored by a
 * version this build cannot read, is a fault of the archive: StoredRecordError naming the plan
 * and the field (records.ts; HTTP 500 internal_error), never a cast.
 */
function planFromBody(value: unknown, id: string, analysisVersion: string): FleetPlan {
  const read = readStoredFleetPlan(value, analysisVersion);
  if (!read.ok) throw new StoredRecordError(`fleet plan ${id}`, read.error.message);
  return read.value.value;
}

export function fleetPlanFromRow(row: Record<string, unknown>): StoredFleetPlan {
  const id = text(row.id, 'id');
  const analysisVersion = text(row.analysis_version, 'analysis_version');
  return {
    id,
    createdAt: int(row.created_at, 'fleet_plans.created_at'),
    analysisVersion,
    priceDate: text(row.price_date, 'price_date'),
    plan: planFromBody(row.body, id, analysisVersion),
  };
}

/** What insertFleetPlan returns: the row as a later read returns it, without reading it back. */
export function fleetPlanFromPrepared(plan: PreparedFleetPlan): StoredFleetPlan {
  const { id, createdAt, analysisVersion, priceDate } = plan;
  return { id, createdAt, analysisVersion, priceDate, plan: plan.plan };
}
