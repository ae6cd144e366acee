import { type Problem } from '@blockwise/shared/problem';
import { type IoProfile } from '@blockwise/shared/profile';
import {
  importMetrics,
  profilesByStatistic,
  sizingSummary,
  summarizeQueue,
  summarizeSeries,
  type IoSeries,
  type QueueSummary,
  type SeriesChoice,
  type SeriesImportOptions,
  type SeriesSummary,
  type SizingStatistic,
} from '@blockwise/shared/timeseries';

/**
 * A production metrics export (CloudWatch console CSV, `aws cloudwatch get-metric-data` JSON,
 * Grafana CSV, iostat -x, sar -d / sadf -d, Prometheus query_range, Datadog) read by the domain's importer, with everything the UI shows computed once, here
 * (in the worker when there is one): the statistics at the file's resolution, the 5-minute
 * statistics sizing uses, and the profile for each sizing statistic.
 */

export type ImportedSeries = {
  series: IoSeries;
  /** Statistics of the points as exported (summarizeSeries). */
  summary: SeriesSummary;
  /** Statistics of the points sizing uses, at their own step (sizingSummary); null when it cannot size. */
  sizing: SeriesSummary | null;
  /** One profile per sizing statistic (profilesByStatistic); null when it cannot size. */
  profiles: Record<SizingStatistic, IoProfile> | null;
  /** Why there is no sizing (no points, no operation counts). */
  sizingProblem: Problem | null;
  /** The device queue with Little's law (iostat, sar); null for the other formats. */
  queue: QueueSummary | null;
};

export type MetricsRead =
  | { ok: true; imported: ImportedSeries }
  /** `choices` is non-empty when the file leaves a question to the user (`choice_required`). */
  | { ok: false; error: Problem; choices: SeriesChoice[] };

export function readMetrics(input: string | Uint8Array, options: SeriesImportOptions): MetricsRead {
  // Read in the web app: its warnings name the page's controls, not the CLI's flags.
  const r = importMetrics(input, { ...options, audience: 'web' });
  if (!r.ok) return { ok: false, error: r.error, choices: r.choices ?? [] };
  const series = r.value;
  const sizing = sizingSummary(series);
  const profiles = profilesByStatistic(series, { audience: 'web' });
  return {
    ok: true,
    imported: {
      series,
      summary: summarizeSeries(series),
      sizing: sizing.ok ? sizing.value : null,
      profiles: profiles.ok ? profiles.value : null,
      sizingProblem: !profiles.ok ? profiles.error : !sizing.ok ? sizing.error : null,
      queue: summarizeQueue(series),
    },
  };
}
