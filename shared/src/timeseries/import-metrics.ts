import { parseMetricsCsv } from './csv-exports.ts';
import { parseGetMetricData } from './get-metric-data.ts';
import { decodeMetricsInput } from './input.ts';
import type { SeriesImportOptions, SeriesImportResult } from './series.schema.ts';

/**
 * Any supported metrics export, told apart by its content: JSON is `aws cloudwatch
 * get-metric-data` output; a CSV with CloudWatch metric names in its header is a console export;
 * any other CSV is read as a dashboard (Grafana) export of per-second rates.
 */
export function importMetrics(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const decoded = decodeMetricsInput(input);
  if (!decoded.ok) return decoded;
  const start = decoded.text.trimStart().charAt(0);
  return start === '{' || start === '['
    ? parseGetMetricData(decoded.text, options)
    : parseMetricsCsv(decoded.text, options);
}
