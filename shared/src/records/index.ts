// Domain records: what the archive stores and the API composes (runs, sessions, comparisons),
// and the versioned readers of stored ones.
export { IdSchema, RunLabelsSchema, RunSummarySchema } from './run.ts';
export type { RunHeadline, RunLabels, RunSummary } from './run.ts';
export { PlanSessionSchema } from './session.ts';
export type { PlanSession } from './session.ts';
export type { ComparisonResult } from './comparison.ts';
export { readStoredComparisonResult, readStoredSummary } from './stored-summary.ts';
export { readStoredFleetPlan } from './stored-fleet-plan.ts';
