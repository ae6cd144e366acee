export { resolveInstance, summarizeRun } from './summarize-run.ts';
export { buildComparison } from './comparison.ts';
export type { ComparisonRun } from './comparison.ts';
export { fleetCatalogFor } from './fleet-catalog.ts';
