import { fmtNum } from '../../lib/format.ts';

/**
 * Names for a metrics series' resolution (its format's label is in METRICS_FORMATS, shared
 * with the CLI). Kept apart from series-view.ts so the planning page's input cards can name an import
 * without loading the sizing code.
 */

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
