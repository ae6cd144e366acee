import type { PlanResult } from '@blockwise/shared/plan';
import { memo, useMemo } from 'react';
import { ChartFrame } from '../../../components/ChartFrame.tsx';
import { LegendList } from '../../../components/LegendList.tsx';
import { EmptyState } from '../../../components/States.tsx';
import { Unit } from '../../../components/Unit.tsx';
import { Warnings } from '../../../components/Warnings.tsx';
import { sameData, samePropsBesidesWhatIf } from '../../../lib/same-data.ts';
import { CHART_SETTLE_MS, useSettledValue } from '../../../lib/use-settled-value.ts';
import { limitsChartHeight } from '../limits-chart-layout.ts';
import { limitsLegend } from '../limits-legend.ts';
import { bottleneckCallout, limitRows, type LimitRow } from '../limits-rows.ts';
import { TableScroll } from '../../../components/TableScroll.tsx';
import LimitsChartView from './LimitsChart.tsx';

/** Draws again only when its data changes (a what-if step re-derives equal rows as new arrays). */
const LimitsChart = memo(LimitsChartView, sameData);

const STATUS_TEXT = {
  over: 'over the ceiling',
  saturated: 'at the ceiling',
  ok: 'headroom',
} as const;

/**
 * Utilization, the column that decides, comes right after the ceiling's name: on a phone the table
 * scrolls sideways and the first two columns are what shows.
 */
function LimitsTable({ rows, caption }: { rows: LimitRow[]; caption: string }) {
  return (
    <table className="table table--dense">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Ceiling</th>
          <th scope="col" className="num">
            Utilization
          </th>
          <th scope="col" className="num">
            Demand
          </th>
          <th scope="col" className="num">
            Capacity
          </th>
          <th scope="col">Kind</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id} className={r.isBottleneck ? 'is-bottleneck' : undefined}>
            <th scope="row">
              {r.label}
              {r.bottleneckBadge ? <span className="badge badge--concern">{r.bottleneckBadge}</span> : null}
              {r.isSustainedFallback ? <span className="badge badge--watch">sustained fallback</span> : null}
              <p className="cell-note">{r.explanation}</p>
              <Warnings warnings={r.warnings} compact />
            </th>
            <td className="num">
              <span className={`util util--${r.status}`}>{r.utilizationText}</span>
              <span className="visually-hidden"> ({STATUS_TEXT[r.status]})</span>
            </td>
            <td className="num">
              {r.demandText}
              {r.unmergedText ? (
                <p className="cell-note">{r.unmergedText} if sequential I/O is not merged</p>
              ) : null}
            </td>
            <td className="num">
              {r.capacityText}
              {r.native ? (
                <p className="cell-note">
                  AWS quotes <span className="nowrap">{r.native.value}</span> <Unit unit={r.native.unit} />
                </p>
              ) : null}
            </td>
            <td>{r.sustained ? 'sustained' : 'burst (temporary)'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Which ceiling binds, for one configuration: all of them shown, the bottleneck highlighted. */
export const LimitsPanel = memo(LimitsPanelView, samePropsBesidesWhatIf);

function LimitsPanelView({ plan, title }: { plan: PlanResult; title: string }) {
  const current = useMemo(() => limitRows(plan), [plan]);
  const { rows } = current;
  const chartTitle = `What binds: ${title}`;
  // The chart draws the rows once a drag rests (bench P16), as every chart of a what-if drag
  // does (the table beside it follows each step). Its title rests with them: a candidate's title names its size, IOPS and throughput, so
  // a new title every step redrew the chart every step (the frame's heading follows at once).
  const drawn = useSettledValue(
    useMemo(() => ({ ...current, title: chartTitle }), [current, chartTitle]),
    CHART_SETTLE_MS,
  );
  const callout = bottleneckCallout(plan);
  if (rows.length === 0) {
    return (
      <EmptyState title="No ceilings to check for this configuration">
        <p>
          {plan.target === null
            ? 'Choose an instance type and an EBS volume (or label a run as NVMe on an instance with a store) to see which limit binds.'
            : 'The instance type is missing or has no published EBS or instance-store limits.'}
        </p>
      </EmptyState>
    );
  }
  const legend = limitsLegend(rows);
  return (
    <div className="limits">
      {callout ? (
        <div className={`callout callout--${callout.tone}`} data-state={callout.state}>
          <p>
            <strong>{callout.title}</strong>
            {callout.explanation}
          </p>
          {callout.burst ? (
            <dl className="facts">
              <div>
                <dt>Binds now (burst ceiling)</dt>
                <dd>{callout.burst.binding}</dd>
              </div>
              <div>
                <dt>Sustained ceiling after the burst</dt>
                <dd>{callout.burst.sustained}</dd>
              </div>
            </dl>
          ) : null}
        </div>
      ) : null}
      <ChartFrame
        title={chartTitle}
        caption={
          <>
            Utilization of each ceiling. IOPS in <Unit unit="IOPS" />, throughput compared in{' '}
            <Unit unit="MiB/s" /> (instance bandwidth is quoted by AWS in <Unit unit="Mbps" />
            ). Faded bars are burst ceilings.
          </>
        }
        height={limitsChartHeight(rows.length)}
        legend={legend}
        // Plain SVG, drawn with the panel: no chunk to load mid-drag, nothing to wait for in print.
        eager
      >
        <LimitsChart rows={drawn.rows} axisMax={drawn.axisMax} title={drawn.title} />
      </ChartFrame>
      <LegendList entries={legend} label={`Key to the bars: ${chartTitle}`} />
      <TableScroll className="limits__table" label={chartTitle}>
        <LimitsTable rows={rows} caption={chartTitle} />
      </TableScroll>
    </div>
  );
}
