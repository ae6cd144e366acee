import type { SeriesFormat } from '@blockwise/shared';
import { fmtNum } from '../../lib/format.ts';

/**
 * Names for a metrics series' format and resolution. Kept apart from series-view.ts so the
 * planning page's input cards can name an import without loading the sizing code.
 */

export const FORMAT_NAMES: Record<SeriesFormat, string> = {
  'cloudwatch-console-csv': 'CloudWatch console CSV',
  'cloudwatch-get-metric-data': 'aws cloudwatch get-metric-data JSON',
  'grafana-csv': 'dashboard (Grafana) CSV',
  iostat: 'iostat -x',
  sar: 'sar -d',
  sadf: 'sadf -d',
  'prometheus-query-range': 'Prometheus query_range JSON',
  'datadog-csv': 'Datadog CSV',
  'datadog-query-json': 'Datadog query JSON',
};

/** "5-minute", "1-minute", "30-second": the resolution of a series' points. */
export function periodText(periodSec: number): string {
  const minutes: Record<number, string> = {
    60: '1-minute',
    300: '5-minute',
    3600: '1-hour',
    900: '15-minute',
  };
  return minutes[periodSec] ?? `${fmtNum(periodSec, 3)}-second`;
}
