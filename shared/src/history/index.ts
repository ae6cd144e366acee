// CI benchmark history: the metrics a storage regression gate watches, how a series is judged
// (SeriesConfigSchema), the gate itself (checkRegression) and its text / markdown reports.
export * from './metrics.ts';
export * from './series-config.ts';
export * from './regression-report.schema.ts';
export * from './check-regression.ts';
export * from './format-value.ts';
export * from './format.ts';
export * from './ci-formats.ts';
