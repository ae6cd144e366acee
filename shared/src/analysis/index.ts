export * from './summarize-run.ts';
export * from './comparison.ts';
