export * from './summarize-run.ts';
export * from './comparison.ts';
export * from './fleet-catalog.ts';
