// CI benchmark history: the metrics a storage regression gate watches, how a series is judged
// (SeriesConfigSchema), the gate itself (checkRegression) and its text / markdown reports.
export { extractMetrics, metricDefinition } from './metrics.ts';
export type { MetricFamily, MetricId } from './metrics.ts';
export { defaultSeriesConfig, SeriesConfigSchema } from './series-config.ts';
export type { SeriesConfig } from './series-config.ts';
export type { MetricCheck, RegressionVerdict } from './regression-report.schema.ts';
export { checkRegression, pickBaseBranch } from './check-regression.ts';
export type { RegressionRun } from './check-regression.ts';
export { displayUnit, formatDeltaPct, formatMetricNumber } from './format-value.ts';
export { formatRegressionMarkdown, formatRegressionText, REGRESSION_COMMENT_MARKER } from './format.ts';
export { formatGateJunit, formatGateSarif, gateGithubReport } from './ci-formats.ts';
export type { GateOutcome } from './ci-formats.ts';
