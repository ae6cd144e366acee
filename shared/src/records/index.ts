// Domain records: what the archive stores and the API composes (runs, sessions, comparisons),
// and the versioned readers of stored ones.
export * from './run.ts';
export * from './session.ts';
export * from './comparison.ts';
export * from './stored-summary.ts';
export * from './stored-fleet-plan.ts';
