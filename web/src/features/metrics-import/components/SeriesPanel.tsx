import {
  METRICS_FORMATS,
  type IoSeries,
  type SeriesImportOptions,
  type SeriesSummary,
  type SizingStatistic,
} from '@blockwise/shared/timeseries';
import { censoringWarningsOf } from '@blockwise/shared/demand';
import { useId, useMemo, useState } from 'react';
import { Warnings } from '../../../components/Warnings.tsx';
import { fmtInt } from '../../../lib/format.ts';
import { adjustQuestions, browserTimeZone, type QuestionOption } from '../choice-form.ts';
import type { ImportedSeries } from '../metrics-reader.ts';
import '../metrics-import.css';
import {
  candidateLimits,
  chartData,
  deviceText,
  fmtUtc,
  limitLines,
  minutesAboveTable,
  periodText,
  statisticOptions,
  volumeToDraw,
  type PlanContext,
} from '../series-view.ts';
import { ChoiceForm } from './ChoiceForm.tsx';
import { SeriesDemand, SeriesMinutes } from './SeriesDemand.tsx';
import { SeriesLatency } from './SeriesLatency.tsx';
import { SeriesSizing } from './SeriesSizing.tsx';
import { SeriesStatistics } from './SeriesStatistics.tsx';

/**
 * One imported metrics export: how it was read, its statistics per direction, the peak windows,
 * the sizing statistic (max / p99 / p95 of the points) with what each buys and costs side by
 * side, demand over time against the volume's and the instance's ceilings, and the minutes per
 * day above each ceiling. Loaded lazily. Each section is its own component; the derived views
 * the sections share (the chosen profile's ceilings) come from one hook, useSeriesSizing.
 */
export default function SeriesPanel({
  title,
  imported,
  options,
  statistic,
  onStatistic,
  onReimport,
  plan,
  catalogStatus,
}: {
  title: string;
  imported: ImportedSeries;
  options: SeriesImportOptions;
  statistic: SizingStatistic;
  onStatistic: (statistic: SizingStatistic) => void;
  onReimport: (options: SeriesImportOptions) => void;
  /** The session's instance, rates and candidate; null while the AWS catalog loads (or failed). */
  plan: PlanContext | null;
  catalogStatus: 'loading' | 'ready' | 'error';
}) {
  const id = useId();
  const { series } = imported;
  const charts = useMemo(() => chartData(imported), [imported]);
  const { choices, lines, minutes, censored } = useSeriesSizing(imported, statistic, plan);

  return (
    <div className="series-panel">
      <SeriesFacts series={series} summary={imported.summary} />
      <Warnings warnings={series.warnings} compact />
      <ReadingAdjuster title={title} series={series} options={options} onReimport={onReimport} />
      <SeriesStatistics id={id} title={title} imported={imported} />
      <SeriesLatency id={id} title={title} series={series} candidateType={plan?.candidate?.type ?? null} />
      <SeriesSizing
        id={id}
        title={title}
        imported={imported}
        statistic={statistic}
        onStatistic={onStatistic}
        plan={plan}
        catalogStatus={catalogStatus}
        choices={choices}
        censored={censored}
      />
      <SeriesDemand id={id} title={title} imported={imported} charts={charts} lines={lines} plan={plan} />
      {minutes ? (
        <SeriesMinutes id={id} title={title} periodSec={series.periodSec} minutes={minutes} />
      ) : null}
    </div>
  );
}

/**
 * What the chosen sizing statistic draws: each statistic's profile priced for the plan, the
 * ceilings of the volume and instance to draw across the demand, the minutes per day above them,
 * and the censoring warnings against the session's candidate. Shared by the sizing, demand and
 * minutes sections, so it is computed once per change of series, statistic or plan.
 */
function useSeriesSizing(imported: ImportedSeries, statistic: SizingStatistic, plan: PlanContext | null) {
  const { series, profiles } = imported;
  const choices = useMemo(() => (profiles ? statisticOptions(profiles, plan) : []), [profiles, plan]);
  const chosen = choices.find((c) => c.statistic === statistic);
  const lines = useMemo(
    () => (chosen ? limitLines(chosen.profile, volumeToDraw(plan, chosen), plan?.instance ?? null) : []),
    [chosen, plan],
  );
  const minutes = useMemo(
    () => (lines.length > 0 ? minutesAboveTable(series, lines) : null),
    [series, lines],
  );
  // Pinned at the named volume's limit: demand is at least that, not equal to it (demand model).
  const censored = useMemo(() => {
    const limits = candidateLimits(plan, lines);
    return limits ? censoringWarningsOf(series, limits) : [];
  }, [plan, lines, series]);
  return { choices, lines, minutes, censored };
}

/** How the file was read: format, what it measures, the device, span, value conversion and data quality. */
function SeriesFacts({ series, summary }: { series: IoSeries; summary: SeriesSummary }) {
  const q = series.quality;
  const device = deviceText(series);
  const plural = (n: number, word: string) => `${fmtInt(n)} ${word}${n === 1 ? '' : 's'}`;
  return (
    <dl className="facts">
      <div>
        <dt>Format</dt>
        <dd>{METRICS_FORMATS[series.format].label}</dd>
      </div>
      <div>
        <dt>Measures</dt>
        <dd>{series.label ?? 'not named in the file'}</dd>
      </div>
      {device ? (
        <div>
          <dt>Device</dt>
          <dd>{device}</dd>
        </div>
      ) : null}
      <div>
        <dt>Points</dt>
        <dd>
          {fmtInt(summary.points)} {periodText(series.periodSec)} points
        </dd>
      </div>
      <div>
        <dt>From → to</dt>
        <dd>
          {fmtUtc(summary.startMs)} → {fmtUtc(summary.endMs)}
        </dd>
      </div>
      <div>
        <dt>Values</dt>
        <dd>{series.conversion.explanation}</dd>
      </div>
      <div>
        <dt>Quality</dt>
        <dd>
          {plural(q.gaps, 'gap')}, {fmtInt(q.missingPoints)} missing, {plural(q.duplicates, 'duplicate')},{' '}
          {fmtInt(q.partialPoints)} partial
          {q.naiveTimesAs ? `; times without an offset read as ${q.naiveTimesAs}` : ''}
        </dd>
      </div>
    </dl>
  );
}

/** How the adjust button names a question: the two the file cannot answer, else the time zone. */
const questionName = (option: QuestionOption) =>
  option === 'match' ? 'volumes' : option === 'device' ? 'device' : 'time zone';

/**
 * When the file left choices open (which volumes, which device, which time zone), a button to
 * read it again with other answers: the questions come back as a form prefilled with the current ones.
 */
function ReadingAdjuster({
  title,
  series,
  options,
  onReimport,
}: {
  title: string;
  series: IoSeries;
  options: SeriesImportOptions;
  onReimport: (options: SeriesImportOptions) => void;
}) {
  const [adjusting, setAdjusting] = useState(false);
  const questions = useMemo(() => adjustQuestions(series, options, browserTimeZone()), [series, options]);
  if (questions.length === 0) return null;
  if (adjusting)
    return (
      <ChoiceForm
        fileName={title}
        questions={questions}
        base={options}
        submitLabel="Read the file again"
        onSubmit={(next) => {
          setAdjusting(false);
          onReimport(next);
        }}
        onCancel={() => setAdjusting(false)}
      />
    );
  return (
    <button type="button" className="btn btn--small" onClick={() => setAdjusting(true)}>
      Change how {title} is read ({questions.map((x) => questionName(x.option)).join(', ')})
    </button>
  );
}
