import { ChartFrame } from '../../../components/ChartFrame.tsx';
import { Disclosure } from '../../../components/Disclosure.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { Unit } from '../../../components/Unit.tsx';
import { lazyChart } from '../../../components/lazy-chart.ts';
import { fmtInt } from '../../../lib/format.ts';
import type { ImportedSeries } from '../metrics-reader.ts';
import type { chartData, minutesAboveTable } from '../series-view.ts';
import { periodText, type LimitLine, type PlanContext } from '../series-view.ts';
import { LINE_STYLE, SERIES_COLORS, demandLegend } from './line-style.ts';

const DemandChart = lazyChart(() => import('./DemandChart.tsx'));

const CHART_HEIGHT = 260;

/** Demand over time, IOPS and throughput, each against the ceilings of the same unit (charts do no arithmetic: chartData does). */
export function SeriesDemand({
  id,
  title,
  imported,
  charts,
  lines,
  plan,
}: {
  id: string;
  title: string;
  imported: ImportedSeries;
  charts: ReturnType<typeof chartData>;
  lines: readonly LimitLine[];
  plan: PlanContext | null;
}) {
  const { series, summary } = imported;
  return (
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

const cellClass = (flag: 'over-budget' | 'above' | null) =>
  `num${flag === 'over-budget' ? ' is-over' : flag === 'above' ? ' is-above' : ''}`;

/**
 * Minutes per UTC day above each ceiling: an instance may exceed its baseline for its burst budget
 * (minutes once every 24 hours), so a day over it is called out; time above a volume's ceiling is
 * throttled.
 */
export function SeriesMinutes({
  id,
  title,
  periodSec,
  minutes,
}: {
  id: string;
  title: string;
  periodSec: number;
  minutes: ReturnType<typeof minutesAboveTable>;
}) {
  return (
    <section className="series-panel__section" aria-labelledby={`${id}-minutes`}>
      <h3 className="subhead" id={`${id}-minutes`}>
        Minutes per day above each ceiling
      </h3>
      <p className="field__hint">
        Read + write demand, per UTC day, at the file’s {periodText(periodSec)} resolution. An instance may
        exceed its baseline for {minutes.budgetMinutes} minutes at least once every 24 hours; more is over its
        burst budget. Time above a volume’s or a burst ceiling is throttled.
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
                    <td key={minutes.columns[i]?.id ?? i} className={cellClass(c.flag)}>
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
  );
}
