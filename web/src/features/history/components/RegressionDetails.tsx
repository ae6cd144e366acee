import { displayUnit, formatDeltaPct, formatMetricNumber, type MetricCheck } from '@blockwise/shared/history';
import type { ReactNode } from 'react';
import { LoadingState } from '../../../components/States.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import type { RegressionState } from '../api/history.ts';
import { appPath, fmtWhen, type HistoryPoint } from '../history-view.ts';
import { VERDICT_BADGE } from './RunsHistoryTable.tsx';

const num = (m: MetricCheck, v: number | null | undefined) =>
  v === null || v === undefined ? '—' : formatMetricNumber(v, m.unit);

const METRIC_VERDICT: Record<MetricCheck['verdict'], { text: string; tone: string }> = {
  regression: { text: 'regression', tone: 'concern' },
  improvement: { text: 'better', tone: 'ok' },
  ok: { text: 'ok', tone: 'ok' },
  skipped: { text: 'skipped', tone: '' },
};

/**
 * One run of the series: what the regression gate says about it (the server's report, as the CI
 * comment shows it), with the way to the run and to the frozen comparison with its baseline.
 */
export function RegressionDetails({
  point,
  state,
  runLink,
  comparisonLink,
}: {
  point: HistoryPoint;
  state: RegressionState | undefined;
  runLink: (id: string, text: string) => ReactNode;
  comparisonLink: (path: string, text: string) => ReactNode;
}) {
  const who = `${point.branch ?? 'no branch'}${point.commit ? ` @ ${point.commit.slice(0, 12)}` : ''}`;
  return (
    <div className="history-details">
      <p>
        <strong>{fmtWhen(point.createdAt)}</strong> · {who}
        {point.name ? ` · ${point.name}` : ''}
      </p>
      <div className="button-row">
        {runLink(point.id, 'Open this run')}
        {state?.status === 'ready' && appPath(state.report.comparisonUrl)
          ? comparisonLink(appPath(state.report.comparisonUrl)!, 'Compare with its baseline')
          : null}
      </div>
      {!state ? <LoadingState label="Checking this run against its baseline…" /> : null}
      {state?.status === 'error' ? (
        <p className="callout callout--concern" role="alert">
          The regression check could not be loaded: {state.error}
        </p>
      ) : null}
      {state?.status === 'ready' ? (
        <>
          <p
            className={`callout ${state.report.verdict === 'regression' ? 'callout--concern' : state.report.verdict === 'pass' ? 'callout--ok' : 'callout--info'}`}
          >
            <span className={`badge badge--${VERDICT_BADGE[state.report.verdict].tone || 'watch'}`}>
              {VERDICT_BADGE[state.report.verdict].text}
            </span>{' '}
            {state.report.message}
          </p>
          {!appPath(state.report.comparisonUrl) ? (
            <p className="field__hint">No baseline run to compare with.</p>
          ) : null}
          {state.report.metrics.length > 0 ? (
            <TableScroll label={`Regression check of the run of ${fmtWhen(point.createdAt)}`}>
              <table className="table table--dense">
                <caption>
                  Against {state.report.baselineRunIds.length} run
                  {state.report.baselineRunIds.length === 1 ? '' : 's'} on{' '}
                  {state.report.baseBranch ?? 'no base branch'} ({state.report.method}
                  {state.report.method === 'sigma' ? ` k=${state.report.sigmaK}` : ''}; thresholds: IOPS{' '}
                  {state.report.thresholds.iops}%, throughput {state.report.thresholds.throughput}%, latency{' '}
                  {state.report.thresholds.latency}%)
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Metric</th>
                    <th scope="col" className="num">
                      Baseline mean
                    </th>
                    <th scope="col" className="num">
                      This run
                    </th>
                    <th scope="col" className="num">
                      Δ
                    </th>
                    <th scope="col" className="num">
                      Limit
                    </th>
                    <th scope="col">Verdict</th>
                  </tr>
                </thead>
                <tbody>
                  {state.report.metrics.map((m) => {
                    const v = METRIC_VERDICT[m.verdict];
                    return (
                      <tr key={m.metric} className={m.verdict === 'regression' ? 'is-bottleneck' : undefined}>
                        <th scope="row">
                          {m.unit === 'IOPS' ? m.label : `${m.label} (${displayUnit(m.unit)})`}
                          {m.approximate ? <span className="cell-note"> upper bounds</span> : null}
                        </th>
                        <td className="num">{num(m, m.baseline?.mean)}</td>
                        <td className="num">{num(m, m.value)}</td>
                        <td className="num">{m.deltaPct === null ? '—' : formatDeltaPct(m.deltaPct)}</td>
                        <td className="num">{num(m, m.limit)}</td>
                        <td>
                          <span className={`badge${v.tone ? ` badge--${v.tone}` : ''}`}>{v.text}</span>
                          <p className="cell-note">{m.reason}</p>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </TableScroll>
          ) : null}
          {state.report.notes.length > 0 ? (
            <ul className="notes">
              {state.report.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
