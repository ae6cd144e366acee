import {
  METRICS_FORMATS,
  SIZING_STATISTICS,
  SIZING_STATISTIC_LABELS,
  type SeriesImportOptions,
  type SizingStatistic,
} from '@blockwise/shared/timeseries';
import { censoringWarningsOf } from '@blockwise/shared/demand';
import { useId, useMemo, useState } from 'react';
import { lazyChart } from '../../../components/lazy-chart.ts';
import { ChartFrame } from '../../../components/ChartFrame.tsx';
import { Disclosure } from '../../../components/Disclosure.tsx';
import { EmptyState, LoadingState } from '../../../components/States.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { Unit } from '../../../components/Unit.tsx';
import { Warnings } from '../../../components/Warnings.tsx';
import { fmtInt, fmtPct } from '../../../lib/format.ts';
import { adjustQuestions, browserTimeZone } from '../choice-form.ts';
import type { ImportedSeries } from '../metrics-reader.ts';
import '../metrics-import.css';
import {
  candidateLimits,
  chartData,
  comparisonRows,
  deviceText,
  fmtUtc,
  limitLines,
  minutesAboveTable,
  peakWindows,
  periodText,
  queueView,
  requestSizeText,
  statisticOptions,
  statsRows,
  volumeToDraw,
  type LimitLine,
  type PlanContext,
} from '../series-view.ts';
import { ChoiceForm } from './ChoiceForm.tsx';
import { LINE_STYLE, SERIES_COLORS, demandLegend } from './line-style.ts';

const DemandChart = lazyChart(() => import('./DemandChart.tsx'));

const CHART_HEIGHT = 260;

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function StatsTable({ rows, caption }: { rows: ReturnType<typeof statsRows>; caption: string }) {
  return (
    <TableScroll label={caption}>
      <table className="table table--dense series-panel__stats">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Direction</th>
            <th scope="col">Quantity</th>
            <th scope="col" className="num">
              Average
            </th>
            <th scope="col" className="num">
              p50
            </th>
            <th scope="col" className="num">
              p95
            </th>
            <th scope="col" className="num">
              p99
            </th>
            <th scope="col" className="num">
              Max
            </th>
            <th scope="col">Max at (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.direction}</th>
              <td>
                {r.quantity} (<Unit unit={r.unit} />)
              </td>
              {r.cells.map((c, i) => (
                <td key={i} className="num">
                  {c}
                </td>
              ))}
              <td className="nowrap">{r.peakAt}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function LimitLegend({ lines, unit }: { lines: readonly LimitLine[]; unit: 'IOPS' | 'MiB/s' }) {
  const shown = lines.filter((l) => l.unit === unit);
  return (
    <ul className="limit-legend">
      <li className="legend-item">
        <span
          className="limit-legend__mark limit-legend__mark--solid"
          style={{ background: SERIES_COLORS.read }}
          aria-hidden="true"
        />
        read
      </li>
      <li className="legend-item">
        <span
          className="limit-legend__mark limit-legend__mark--solid"
          style={{ background: SERIES_COLORS.write }}
          aria-hidden="true"
        />
        write (stacked on read: the top edge is read + write)
      </li>
      {shown.map((l) => (
        <li key={l.id} className="legend-item" style={{ color: LINE_STYLE[l.kind].stroke }}>
          <span className="limit-legend__mark" aria-hidden="true" />
          {l.text}
        </li>
      ))}
    </ul>
  );
}

/**
 * One imported metrics export: how it was read, its statistics per direction, the peak windows,
 * the sizing statistic (max / p99 / p95 of the points) with what each buys and costs side by
 * side, demand over time against the volume's and the instance's ceilings, and the minutes per
 * day above each ceiling. Loaded lazily.
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
  const { series, summary, sizing, profiles } = imported;
  const [resolution, setResolution] = useState<'points' | 'sizing'>('points');
  const [adjusting, setAdjusting] = useState(false);
  const questions = useMemo(() => adjustQuestions(series, options, browserTimeZone()), [series, options]);
  const charts = useMemo(() => chartData(imported), [imported]);
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
  const compare = comparisonRows(choices, plan?.nodes ?? 1);
  const seriesWarnings = new Set(series.warnings.map((w) => `${w.code}|${w.message}`));
  const q = series.quality;
  const sizedDiffers = sizing !== null && sizing.periodSec !== summary.periodSec;
  const shownSummary = resolution === 'sizing' && sizing ? sizing : summary;
  const device = deviceText(series);
  const requestSize = requestSizeText(series);
  const queue = queueView(imported.queue);

  return (
    <div className="series-panel">
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
            {fmtInt(q.gaps)} gap{q.gaps === 1 ? '' : 's'}, {fmtInt(q.missingPoints)} missing,{' '}
            {fmtInt(q.duplicates)} duplicate{q.duplicates === 1 ? '' : 's'}, {fmtInt(q.partialPoints)} partial
            {q.naiveTimesAs ? `; times without an offset read as ${q.naiveTimesAs}` : ''}
          </dd>
        </div>
      </dl>
      <Warnings warnings={series.warnings} compact />
      {questions.length > 0 ? (
        adjusting ? (
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
        ) : (
          <button type="button" className="btn btn--small" onClick={() => setAdjusting(true)}>
            Change how {title} is read (
            {questions
              .map((x) => (x.option === 'match' ? 'volumes' : x.option === 'device' ? 'device' : 'time zone'))
              .join(', ')}
            )
          </button>
        )
      ) : null}

      <section className="series-panel__section" aria-labelledby={`${id}-stats`}>
        <h3 className="subhead" id={`${id}-stats`}>
          Statistics
        </h3>
        {sizedDiffers ? (
          <fieldset className="segmented">
            <legend className="visually-hidden">Statistics of</legend>
            {(
              [
                ['points', `${capitalize(periodText(series.periodSec))} points as exported`],
                ['sizing', '5-minute windows (what sizing uses)'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className={`segmented__item${resolution === value ? ' is-checked' : ''}`}>
                <input
                  type="radio"
                  name={`${id}-resolution`}
                  value={value}
                  checked={resolution === value}
                  onChange={() => setResolution(value)}
                />
                {label}
              </label>
            ))}
          </fieldset>
        ) : null}
        <StatsTable
          rows={statsRows(shownSummary)}
          caption={`${title}: statistics of ${fmtInt(shownSummary.points)} ${periodText(shownSummary.periodSec)} points (IOPS = I/O operations per second; MiB/s = mebibytes per second)`}
        />
        {queue || requestSize ? (
          <>
            <h4 className="subhead">Device queue</h4>
            <ul className="notes" aria-label={`${title}: device queue and Little's law`}>
              {queue ? (
                <>
                  <li>
                    Little’s law, IOPS = queue depth ÷ latency: <strong>{queue.mean}</strong> (
                    {queue.measured}).
                  </li>
                  {queue.busiest ? <li>Busiest point: {queue.busiest}.</li> : null}
                  <li>
                    The same queue depth at 1 ms per request (a typical EBS latency) gives{' '}
                    {queue.atEbsLatency}: at a given queue depth IOPS falls as latency rises; more IOPS at the
                    same latency needs more I/Os in flight.
                  </li>
                </>
              ) : null}
              {requestSize ? <li>{requestSize}</li> : null}
            </ul>
          </>
        ) : null}
        <h4 className="subhead">Peak windows</h4>
        <ul className="notes">
          {peakWindows(shownSummary).map((p) => (
            <li key={p.what}>
              Busiest {periodText(shownSummary.periodSec)} window for {p.what}: <strong>{p.value}</strong>,
              starting {p.at}
            </li>
          ))}
        </ul>
      </section>

      <section className="series-panel__section" aria-labelledby={`${id}-sizing`}>
        <h3 className="subhead" id={`${id}-sizing`}>
          Sizing statistic
        </h3>
        {!profiles ? (
          <EmptyState title="This series cannot be sized">
            <p>{imported.sizingProblem?.message ?? 'The series has no read or write operation counts.'}</p>
          </EmptyState>
        ) : (
          <>
            <fieldset className="fieldset fieldset--inline">
              <legend>
                Size on<span className="visually-hidden"> ({title})</span>
              </legend>
              {SIZING_STATISTICS.map((s) => (
                <label key={s} className="radio">
                  <input
                    type="radio"
                    name={`${id}-statistic`}
                    value={s}
                    checked={statistic === s}
                    onChange={() => onStatistic(s)}
                  />
                  {capitalize(SIZING_STATISTIC_LABELS[s])}
                </label>
              ))}
            </fieldset>
            <p className="field__hint">
              The maximum of the points at their own step is sized on (never averaged up: EBS enforces its
              limits per second). p99 ignores the busiest 1% of points, p95 the busiest 5%: cheaper, for
              workloads that can queue through their peaks — but a peak that recurs at the same time of day or
              week is kept, and the warnings say so. The chosen profile is what this session plans for.
            </p>
            {catalogStatus === 'loading' ? (
              <LoadingState label="Loading the AWS catalog to price each choice…" />
            ) : null}
            {catalogStatus === 'error' ? (
              <p className="field__hint field__hint--warn">
                The AWS catalog could not be loaded: the demand is shown without recommendations or costs.
              </p>
            ) : null}
            <TableScroll label={`${title}: each sizing statistic side by side`}>
              <table className="table table--dense stat-compare">
                <caption>
                  {title}: each sizing statistic side by side
                  {plan
                    ? ` (${plan.instance?.instanceType ?? 'no instance chosen'}, ${plan.rateCard.region ?? 'default'} prices of ${plan.rateCard.date}, headroom ${fmtPct(plan.headroom, 0)})`
                    : ''}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">
                      <span className="visually-hidden">Quantity</span>
                    </th>
                    {choices.map((c) => (
                      <th
                        key={c.statistic}
                        scope="col"
                        className={`num${c.statistic === statistic ? ' is-chosen' : ''}`}
                        aria-current={c.statistic === statistic ? 'true' : undefined}
                      >
                        {c.name}
                        {c.statistic === statistic ? ' (in use)' : ''}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {compare.map((row) => (
                    <tr key={row.label}>
                      <th scope="row">{row.label}</th>
                      {row.cells.map((cell, i) => (
                        <td
                          key={choices[i]?.statistic ?? i}
                          className={`num${choices[i]?.statistic === statistic ? ' is-chosen' : ''}`}
                        >
                          {cell}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            {chosen ? (
              <Warnings
                warnings={chosen.profile.warnings.filter(
                  (w) => w.code !== 'timeseries_sizing' && !seriesWarnings.has(`${w.code}|${w.message}`),
                )}
                compact
              />
            ) : null}
            {censored.length > 0 && plan?.candidate ? (
              <div className="series-panel__censored" data-testid="series-censored">
                <p className="field__hint">
                  Against the session’s candidate volume ({plan.candidate.type}), if this series was measured
                  on it:
                </p>
                <Warnings warnings={censored} compact />
              </div>
            ) : null}
          </>
        )}
      </section>

      <section className="series-panel__section" aria-labelledby={`${id}-time`}>
        <h3 className="subhead" id={`${id}-time`}>
          Demand over time
        </h3>
        {lines.length === 0 ? (
          <p className="field__hint">
            {plan
              ? 'Choose an instance type or a candidate volume for the plan to draw their ceilings across the demand.'
              : 'The ceilings are drawn once the AWS catalog is loaded.'}
          </p>
        ) : null}
        {(['iops', 'throughput'] as const).map((kind) => {
          const unit = kind === 'iops' ? ('IOPS' as const) : ('MiB/s' as const);
          const chartTitle = `${title}: ${kind === 'iops' ? 'IOPS' : 'throughput'} over time`;
          const rows = kind === 'iops' ? charts.iops : charts.throughput;
          return (
            <div key={kind}>
              <ChartFrame
                title={chartTitle}
                legend={demandLegend(lines.filter((l) => l.unit === unit))}
                caption={
                  <>
                    Read and write {kind === 'iops' ? 'I/O operations per second' : 'mebibytes per second'} (
                    <Unit unit={unit} />
                    ), stacked, per {periodText(series.periodSec)} point, UTC
                    {rows.length < summary.points
                      ? `; ${fmtInt(rows.length)} of ${fmtInt(summary.points)} points drawn (peaks kept)`
                      : ''}
                    .
                  </>
                }
                height={CHART_HEIGHT}
              >
                <DemandChart
                  rows={rows}
                  unit={unit}
                  lines={lines.filter((l) => l.unit === unit)}
                  title={chartTitle}
                  height={CHART_HEIGHT}
                />
              </ChartFrame>
              <LimitLegend lines={lines} unit={unit} />
            </div>
          );
        })}
      </section>

      {minutes ? (
        <section className="series-panel__section" aria-labelledby={`${id}-minutes`}>
          <h3 className="subhead" id={`${id}-minutes`}>
            Minutes per day above each ceiling
          </h3>
          <p className="field__hint">
            Read + write demand, per UTC day, at the file’s {periodText(series.periodSec)} resolution. An
            instance may exceed its baseline for {minutes.budgetMinutes} minutes at least once every 24 hours;
            more is over its burst budget. Time above a volume’s or a burst ceiling is throttled.
          </p>
          {minutes.daysOverBudget > 0 ? (
            <p className="callout callout--concern">
              <strong>
                {minutes.daysOverBudget} day{minutes.daysOverBudget === 1 ? '' : 's'} over the instance’s{' '}
                {minutes.budgetMinutes}-minute burst budget.
              </strong>{' '}
              The baseline, not the burst ceiling, is what this workload needs sustained.
            </p>
          ) : null}
          <Disclosure
            summary="Minutes per day"
            label={`Minutes per day above each ceiling: ${title}`}
            initiallyOpen
          >
            <TableScroll label={`${title}: minutes per UTC day above each ceiling`}>
              <table className="table table--dense minutes-table">
                <caption className="visually-hidden">{title}: minutes per UTC day above each ceiling</caption>
                <thead>
                  <tr>
                    <th scope="col">Day (UTC)</th>
                    {minutes.columns.map((c) => (
                      <th key={c.id} scope="col" className="num">
                        {c.label}
                        {c.budgeted ? ` (budget ${minutes.budgetMinutes} min)` : ''}
                      </th>
                    ))}
                    <th scope="col" className="num">
                      Minutes with data
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {minutes.rows.map((r) => (
                    <tr key={r.day}>
                      <th scope="row" className="nowrap">
                        {r.day}
                      </th>
                      {r.cells.map((c, i) => (
                        <td
                          key={minutes.columns[i]?.id ?? i}
                          className={`num${c.flag === 'over-budget' ? ' is-over' : c.flag === 'above' ? ' is-above' : ''}`}
                        >
                          {c.text} min
                          {c.flag === 'over-budget' ? (
                            <span className="badge badge--concern">over budget</span>
                          ) : null}
                        </td>
                      ))}
                      <td className="num">
                        {r.covered} of 1,440
                        {r.partial ? <span className="cell-note"> partial day</span> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          </Disclosure>
        </section>
      ) : null}
    </div>
  );
}
