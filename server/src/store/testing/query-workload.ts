/**
 * Drives a store through every method and every branch that issues a distinct SQL statement
 * (each filter combination, with and without a cursor), so a QueryObserver sees every statement
 * the store can send. The EXPLAIN tests then check each one's plan.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cursorForRun } from '../cursor.ts';
import { newId } from '../ids.ts';
import type { QueryObserver, RunFilters, RunStore } from '../run-store.ts';
import { fleetPlanInsert } from './fleet-inputs.ts';
import { runInput, smallRunInput, unwrap } from './run-inputs.ts';

export interface RecordedQuery {
  sql: string;
  params: readonly unknown[];
}

/** An observer that keeps the first parameters seen for each distinct statement text. */
export function queryRecorder(): { observe: QueryObserver; statements: Map<string, RecordedQuery> } {
  const statements = new Map<string, RecordedQuery>();
  return {
    statements,
    observe: ({ sql, params }) => {
      if (!statements.has(sql)) statements.set(sql, { sql, params: [...params] });
    },
  };
}

/** Number of distinct list statements: 4 optional filters × with/without cursor. */
export const LIST_STATEMENT_VARIANTS = 2 ** 4 * 2;

export async function exerciseEveryQuery(store: RunStore): Promise<void> {
  const input = runInput({}, { series: 'db', branch: 'main', instanceType: 'm7i.large', kind: 'ebs' });
  const { run } = await store.insertRun(input);
  await store.insertRun(input); // idempotent path: conflict + lookup by key
  for (let i = 0; i < 3; i++) {
    await store.insertRun(
      smallRunInput({ series: 'db', branch: 'pr-1', instanceType: 'i4i.large', kind: 'nvme' }),
    );
  }
  await store.getRun(run.id);
  await store.getRunJson(run.id);
  await store.getRunRaw(run.id);

  const filterValues: Required<RunFilters> = {
    series: 'db',
    branch: 'main',
    instanceType: 'm7i.large',
    kind: 'ebs',
  };
  const keys = Object.keys(filterValues) as Array<keyof RunFilters>;
  for (let mask = 0; mask < 16; mask++) {
    const filters: RunFilters = {};
    for (const [bit, key] of keys.entries()) {
      if (mask & (1 << bit)) Object.assign(filters, { [key]: filterValues[key] });
    }
    unwrap(await store.listRuns({ ...filters, limit: 1 }));
    unwrap(await store.listRuns({ ...filters, limit: 1, cursor: cursorForRun(run) }));
  }
  unwrap(await store.listSeriesRuns({ series: 'db' }));
  unwrap(await store.listSeriesRuns({ series: 'db', branch: 'main', before: cursorForRun(run) }));

  const comparison = unwrap(
    await store.insertComparison({
      runIds: [run.id],
      result: { ok: true },
      priceTableDate: '2026-11-01',
      analysisVersion: 'v',
    }),
  );
  await store.insertComparison({ runIds: [newId()], result: {}, priceTableDate: 'd', analysisVersion: 'v' });
  await store.getComparison(comparison.id);
  const [baseline] = unwrap(await store.listSeriesRuns({ series: 'db', branch: 'pr-1', limit: 1 })).items;
  const pair = [baseline!.id, run.id] as const;
  const pairInput = { runIds: pair, result: {}, priceTableDate: 'd', analysisVersion: 'v' };
  unwrap(await store.ensurePairComparison(pairInput));
  unwrap(await store.ensurePairComparison(pairInput)); // the pair exists: conflict + lookup
  await store.findPairComparisons(pair);
  const series = unwrap(await store.listSeries({ limit: 1 }));
  unwrap(await store.listSeries({ limit: 1, cursor: series.nextCursor ?? cursorForRun(run) }));
  await store.hitRateLimit('uploads:ip:192.0.2.1', 1, 60_000);
  await store.hitRateLimit('uploads:ip:192.0.2.1', 0, 60_000);

  const digest = createHash('sha256').update(randomBytes(32)).digest('hex');
  const token = unwrap(await store.createToken({ name: 'ci', tokenSha256: digest }));
  await store.createToken({ name: 'ci', tokenSha256: createHash('sha256').update('other').digest('hex') });
  await store.findActiveTokenByHash(digest);
  await store.listTokens();
  await store.countActiveTokens();
  await store.hasHeldToken();
  await store.markTokenUsed(token.id);
  await store.revokeToken({ id: token.id });
  unwrap(
    await store.createToken({ name: 'ci-2', tokenSha256: createHash('sha256').update('2').digest('hex') }),
  );
  await store.revokeToken({ name: 'ci-2' });

  await store.putSeriesSettings('db', { maxIopsDropPct: 10 });
  await store.getSeriesSettings('db');

  const { plan: fleetPlan } = await store.insertFleetPlan(fleetPlanInsert());
  await store.getFleetPlan(fleetPlan.id);
  await store.getFleetPlanDocument(fleetPlan.id);
  await store.ping();
}

/** The list/history statement shape (one per filter combination × cursor). */
export const LIST_STATEMENT = /^SELECT .* FROM runs(?: WHERE (.*))? ORDER BY created_at DESC, id DESC LIMIT/;

/** Label columns a list statement filters on by equality. */
export function filterColumns(sql: string): string[] {
  const where = LIST_STATEMENT.exec(sql)?.[1] ?? '';
  return [...where.matchAll(/\b(series|branch|instance_type|kind) = /g)].map((match) => match[1] ?? '');
}

/**
 * Synthetic archive rows for plan tests at a realistic size: 200 series, 20 branches, 50
 * instance types, 2 kinds, distinct times. Inserted with SQL (no raw bytes needed for plans);
 * identical text on both dialects (a recursive CTE: SQLite builds lack generate_series).
 */
export function bulkRunsSql(count: number): string {
  return `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${count})
INSERT INTO runs (id, created_at, idempotency_key, series, branch, instance_type, kind, raw_sha256,
  raw_size, media_type, file_name, analysis_version, fio_version, labels, summary, report)
SELECT 'bulk-' || n, 1700000000000 + n * 1000, 'bulk-key-' || n, 'series-' || (n % 200),
  'branch-' || (n % 20), 'type-' || (n % 50), CASE WHEN n % 2 = 0 THEN 'ebs' ELSE 'nvme' END,
  'digest', 100, 'application/json', NULL, 'bulk', NULL, '{}', '{}', '{}'
FROM g`;
}

/** Statements whose plans are not asserted, and why. */
export const PLAN_EXEMPTIONS: ReadonlyArray<{ pattern: RegExp; reason: string }> = [
  {
    pattern: /FROM schema_migrations/,
    reason: 'start-up only: reads every row of a table with one row per migration, by design',
  },
];

/** Whether a statement is a query with a plan (DDL, BEGIN/COMMIT and SET have none). */
export function hasPlan(sql: string): boolean {
  return /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(sql);
}
