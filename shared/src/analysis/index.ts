export { resolveInstance, summarizeRun } from './summarize-run.ts';
export { buildComparison, buildStoredPlansComparison, comparedRunOf } from './comparison.ts';
export type { ComparedRun, ComparisonRun } from './comparison.ts';
export { fleetCatalogFor } from './fleet-catalog.ts';
