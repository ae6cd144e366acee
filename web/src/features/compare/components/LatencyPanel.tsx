import type { LatencyComparison } from '@blockwise/shared/plan';
import { useId, useState } from 'react';
import { lazyChart } from '../../../components/lazy-chart.ts';
import { ChartFrame } from '../../../components/ChartFrame.tsx';
import { EmptyState } from '../../../components/States.tsx';
import { fmtDelta, fmtMs, fmtPercentile } from '../../../lib/format.ts';
import {
  cliffLegend,
  cliffPoints,
  latencyRows,
  type LatencySeries,
  type PromiseList,
} from '../compare-rows.ts';
import { TableScroll } from '../../../components/TableScroll.tsx';

const LatencyChart = lazyChart(() => import('./LatencyChart.tsx'));

export const VERDICT_TEXT = { ok: 'ok', watch: 'watch', concern: 'concern' } as const;

const OVERALL_TEXT: Record<LatencyComparison['overall'], string> = {
  'ebs-as-good': 'EBS is as good as NVMe for typical load',
  'ebs-acceptable': 'EBS is acceptable',
  investigate: 'Investigate: EBS tail latency is notably worse',
  'insufficient-data': 'Not enough percentiles to compare',
};

function VerdictBadge({ verdict }: { verdict: 'ok' | 'watch' | 'concern' }) {
  return <span className={`badge badge--${verdict}`}>{VERDICT_TEXT[verdict]}</span>;
}

/** Latency percentiles of one or more runs for a direction; verdicts per run and cliffs marked. */
export function LatencyPanel({
  title,
  seriesFor,
  comparisonFor,
  promiseLists = [],
}: {
  title: string;
  seriesFor: (direction: 'read' | 'write') => LatencySeries[];
  /**
   * EBS vs NVMe for a direction (compareLatency, from the pair's comparison); `withheld` when the
   * runs ran different fio jobs, so no verdict is given. Absent: one run's latency, no comparison.
   */
  comparisonFor?: (direction: 'read' | 'write') => LatencyComparison | null | 'withheld';
  /** Each run's clat p99 against each EBS type's promise (compare-rows.ts promiseListsOf). */
  promiseLists?: readonly PromiseList[];
}) {
  const id = useId();
  const [direction, setDirection] = useState<'read' | 'write'>('read');
  const series = seriesFor(direction);
  const { rows, ticks, domain } = latencyRows(series);
  const cliffs = cliffPoints(series);
  const chartTitle = `${title}: ${direction} completion latency`;
  const judged = series.filter((s) => s.verdicts.length > 0);
  const comparison = comparisonFor?.(direction) ?? null;

  return (
    <div className="latency">
      <fieldset className="segmented">
        <legend className="visually-hidden">Latency direction</legend>
        {(['read', 'write'] as const).map((d) => (
          <label key={d} className={`segmented__item${direction === d ? ' is-checked' : ''}`}>
            <input
              type="radio"
              name={`${id}-dir`}
              value={d}
              checked={direction === d}
              onChange={() => setDirection(d)}
            />
            {d === 'read' ? 'Reads' : 'Writes'}
          </label>
        ))}
      </fieldset>
      {domain === null ? (
        <EmptyState title={`No ${direction} latency percentiles`}>
          <p>
            These runs report no {direction} completion-latency percentiles (no {direction}s, or fio ran with
            clat_percentiles=0). Typed-in metrics can include p50…p99.99.
          </p>
        </EmptyState>
      ) : (
        <ChartFrame
          title={chartTitle}
          caption="clat percentiles in ms, log scale; red rings mark cliffs (a jump ≥ 3× between successive percentiles)"
          height={300}
          legend={cliffLegend(cliffs)}
          table={
            <table className="table table--dense">
              <caption className="visually-hidden">{chartTitle}</caption>
              <thead>
                <tr>
                  <th scope="col">Percentile</th>
                  {series.map((s) => (
                    <th key={s.key} scope="col" className="num">
                      {s.name} (ms)
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.percentile}>
                    <th scope="row">{r.label}</th>
                    {series.map((s) => (
                      <td key={s.key} className="num">
                        {typeof r[s.key] === 'number' ? fmtMs(r[s.key] as number) : '—'}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          }
        >
          <LatencyChart
            rows={rows}
            series={series}
            ticks={ticks}
            domain={domain}
            cliffs={cliffs}
            title={chartTitle}
          />
        </ChartFrame>
      )}
      {cliffs.length > 0 ? (
        <div className="callout callout--concern">
          <strong>Cliffs (stalls: queuing, throttling or credit exhaustion):</strong>
          <ul>
            {cliffs.map((c) => (
              <li key={`${c.key}-${c.label}`}>{c.text}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {judged.length > 0 ? (
        <TableScroll label={`Latency verdicts, ${direction}s: ${title}`}>
          <table className="table table--dense">
            <caption>
              Verdicts against the guide’s thresholds ({direction}s
              {judged.some((s) => s.approximate) ? '; some values are per-job upper bounds' : ''})
            </caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                {judged[0]!.verdicts.map((v) => (
                  <th key={v.percentile} scope="col">
                    {fmtPercentile(v.percentile)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {judged.map((s) => (
                <tr key={s.key}>
                  <th scope="row">{s.name}</th>
                  {s.verdicts.map((v) => (
                    <td key={v.percentile}>
                      {fmtMs(v.valueMs)} <VerdictBadge verdict={v.verdict} />
                      <span className="cell-note">
                        ok &lt; {fmtMs(v.okBelowMs)}, concern &gt; {fmtMs(v.concernAboveMs)}
                      </span>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : series.some((s) => s.percentiles) ? (
        <p className="field__hint">
          Verdicts need the run’s configuration: label it with an instance type or a volume.
        </p>
      ) : null}
      {comparison === 'withheld' ? (
        <p className="callout callout--info">
          <strong>EBS vs NVMe ({direction}s): </strong>no verdict — the runs ran different fio jobs, so their
          latencies are shown side by side but not judged against each other.
        </p>
      ) : comparison ? (
        <div
          className={`callout ${comparison.overall === 'investigate' ? 'callout--concern' : 'callout--ok'}`}
        >
          <p>
            <strong>EBS vs NVMe ({direction}s): </strong>
            {OVERALL_TEXT[comparison.overall]}
            {comparison.approximate ? ' (approximate: per-job bounds)' : ''}
          </p>
          <ul>
            {comparison.findings.map((f) => (
              <li key={f.code}>{f.message}</li>
            ))}
          </ul>
          {comparison.rows.length > 0 ? (
            <p className="cell-note">
              Δ by percentile (EBS vs NVMe):{' '}
              {comparison.rows
                .filter((r) => Number(r.percentile) >= 50)
                .map((r) => `${fmtPercentile(r.percentile)} ${fmtDelta(r.delta)}`)
                .join(' · ')}
            </p>
          ) : null}
        </div>
      ) : null}
      {promiseLists.map((l) => (
        <div key={l.key} className="callout callout--info">
          <p>
            <strong>{l.headline}</strong>
          </p>
          <ul>
            {l.promises.map((p) => (
              <li key={p.type}>{p.message}</li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
