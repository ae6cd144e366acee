import { parseMetricsCsv } from './csv-exports.ts';
import { looksLikeDatadog, parseDatadogCsv, parseDatadogJson } from './datadog.ts';
import { parseGetMetricData } from './get-metric-data.ts';
import { decodeMetricsInput } from './input.ts';
import { looksLikeIostat, parseIostat } from './iostat.ts';
import { looksLikePrometheus, parsePrometheusQueryRange } from './prometheus.ts';
import { looksLikeSadf, looksLikeSar, parseSadf, parseSar } from './sar.ts';
import type { SeriesImportOptions, SeriesImportResult } from './series.schema.ts';
import { parseBanner } from './sysstat.ts';

/**
 * Any supported metrics export, told apart by its content:
 * - JSON: Prometheus `query_range` (`"resultType"`), Datadog's query API (`"pointlist"`), else
 *   `aws cloudwatch get-metric-data` output;
 * - sysstat text: `sadf -d` (a `# hostname;interval;timestamp;…` header), `iostat -x` (a `Device`
 *   header), `sar -d` (a `… DEV tps …` header);
 * - CSV: Datadog (`system.io.*` in the header), a CloudWatch console export (CloudWatch metric
 *   names in the header), any other CSV as a dashboard (Grafana) export of per-second rates.
 * Every one becomes the same IoSeries (series.schema.ts) through buildSeries.
 */
export function importMetrics(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const decoded = decodeMetricsInput(input);
  if (!decoded.ok) return decoded;
  const text = decoded.text;
  const start = text.trimStart().charAt(0);
  if (start === '{' || start === '[') {
    if (looksLikePrometheus(text)) return parsePrometheusQueryRange(text, options);
    if (/"pointlist"\s*:/.test(text.slice(0, 200_000)) && !/"MetricDataResults"/.test(text.slice(0, 2000)))
      return parseDatadogJson(text, options);
    if (/^\s*\{\s*"sysstat"\s*:/.test(text)) {
      return {
        ok: false,
        error: {
          code: 'unsupported_format',
          message:
            'this is sysstat JSON (iostat -o JSON or sadf -j): give the text output instead — iostat -x -t INTERVAL COUNT, or sadf -d FILE -- -d',
        },
      };
    }
    return parseGetMetricData(text, options);
  }
  if (looksLikeSadf(text)) return parseSadf(text, options);
  if (looksLikeIostat(text)) return parseIostat(text, options);
  if (looksLikeSar(text)) return parseSar(text, options);
  const firstLine = text.trimStart().split(/\r?\n/, 1)[0] ?? '';
  if (parseBanner(firstLine)) {
    return {
      ok: false,
      error: {
        code: 'unsupported_sysstat_report',
        message: `line 1: a sysstat report ("${firstLine.slice(0, 50).trim()}…") but neither iostat -x (a "Device" header with r/s and w/s) nor sar -d (a "DEV tps …" header): run iostat -x -t INTERVAL COUNT, or sar -d -f FILE`,
        path: 'line 1',
      },
    };
  }
  if (looksLikeDatadog(text)) return parseDatadogCsv(text, options);
  return parseMetricsCsv(text, options);
}
