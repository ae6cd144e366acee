import { parseMetricsCsv } from './csv-exports.ts';
import { parseDatadogCsv, parseDatadogJson } from './datadog.ts';
import { sniffMetrics } from './formats.ts';
import { parseGetMetricData } from './get-metric-data.ts';
import { decodeMetricsInput } from './input.ts';
import { parseIostat } from './iostat.ts';
import { parseNvmeAmznStats } from './nvme-amzn.ts';
import { parsePrometheusQueryRange } from './prometheus.ts';
import { parseSadf, parseSar } from './sar.ts';
import type { SeriesFormat, SeriesImportOptions, SeriesImportResult } from './series.schema.ts';

export type MetricsParser = (text: string, options: SeriesImportOptions) => SeriesImportResult;

/**
 * Each format's importer (decoded text → IoSeries), called once sniffing chose it. Kept out of
 * the registry (formats.ts) so the web app's main bundle can read the registry without them.
 */
export const METRICS_PARSERS: Record<SeriesFormat, MetricsParser> = {
  // Both CSVs: told apart by the whole header (classifyCloudWatchLabel), not by the sniff's first line.
  'cloudwatch-console-csv': parseMetricsCsv,
  'cloudwatch-get-metric-data': parseGetMetricData,
  'grafana-csv': parseMetricsCsv,
  iostat: parseIostat,
  sar: parseSar,
  sadf: parseSadf,
  'prometheus-query-range': parsePrometheusQueryRange,
  'datadog-csv': parseDatadogCsv,
  'datadog-query-json': parseDatadogJson,
  'nvme-amzn-stats': parseNvmeAmznStats,
};

/**
 * Any supported metrics export, told apart by its content: the format whose sniffer is surest
 * (formats.ts, METRICS_FORMATS) reads it, or a refusal says what to give instead (sysstat JSON, a
 * sysstat report that is neither iostat -x nor sar -d). Every one becomes the same IoSeries
 * (series.schema.ts) through buildSeries.
 */
export function importMetrics(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const decoded = decodeMetricsInput(input);
  if (!decoded.ok) return decoded;
  const text = decoded.text;
  const sniffed = sniffMetrics(text);
  // Every text is a fallback for one format (JSON: get-metric-data; else a dashboard CSV).
  if (sniffed === null)
    throw new Error('no metrics format sniffer answered: METRICS_FORMATS lost its fallbacks');
  if (sniffed.kind === 'refused') return { ok: false, error: sniffed.problem };
  return METRICS_PARSERS[sniffed.format.id](text, options);
}
