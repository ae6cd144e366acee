import type { RunRegression } from '@blockwise/shared/api';
import type { ReactNode } from 'react';
import { useApiQuery } from '../../../lib/query.ts';
import { regressionQuery } from '../api/history.ts';
import { appPath } from '../history-view.ts';
import { VERDICT_BADGE } from './RunsHistoryTable.tsx';

/** The verdict as CI reports it: the gate fails only on a regression; the rest pass, with their reason. */
export const GATE_OUTCOME: Record<RunRegression['verdict'], string> = {
  pass: 'Gate passed',
  regression: 'Gate failed',
  'insufficient-history': 'Gate passed: no baseline yet',
  'no-base': 'Gate passed: no baseline branch',
};

const CALLOUT: Record<RunRegression['verdict'], string> = {
  pass: 'callout--ok',
  regression: 'callout--concern',
  'insufficient-history': 'callout--info',
  'no-base': 'callout--info',
};

/**
 * The regression gate's verdict on a run of a CI series (GET /api/runs/:id/regression, the report
 * the CI comment shows): pass, fail, or no baseline, with the reason — on the run's page, the URL
 * CI prints, so whoever follows it sees the outcome first.
 */
export function RunGate({
  runId,
  historyLink,
  link,
}: {
  runId: string;
  /** The way to the series' history (the page's router makes the link). */
  historyLink: ReactNode;
  link: (path: string, text: string) => ReactNode;
}) {
  const state = useApiQuery(regressionQuery(runId));
  if (state.status === 'loading')
    return (
      <section className="run-gate" aria-label="Regression gate" aria-busy="true">
        <p className="callout callout--info">Checking this run against its series’ baseline…</p>
      </section>
    );
  if (state.status === 'error')
    return (
      <section className="run-gate" aria-label="Regression gate">
        <p className="callout callout--concern" role="alert">
          The regression gate’s verdict could not be loaded: {state.error}{' '}
          <button type="button" className="btn btn--small" onClick={state.reload}>
            Retry
          </button>
        </p>
      </section>
    );
  const report = state.data;
  const badge = VERDICT_BADGE[report.verdict];
  const comparison = appPath(report.comparisonUrl);
  return (
    <section className="run-gate" aria-label="Regression gate" data-verdict={report.verdict}>
      <div className={`callout ${CALLOUT[report.verdict]}`}>
        <p>
          <strong>{GATE_OUTCOME[report.verdict]}</strong>{' '}
          <span className={`badge badge--${badge.tone || 'watch'}`}>{badge.text}</span> {report.message}
        </p>
        <p className="button-row">
          {historyLink}
          {comparison ? link(comparison, 'Compare with its baseline') : null}
        </p>
      </div>
    </section>
  );
}
