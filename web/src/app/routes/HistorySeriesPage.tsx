import { useMemo, useState } from 'react';
import { lazyChart } from '../../components/lazy-chart.ts';
import { ChartFrame } from '../../components/ChartFrame.tsx';
import { SelectField } from '../../components/Field.tsx';
import { Region } from '../../components/Region.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { Unit } from '../../components/Unit.tsx';
import { useRegressions, useSeriesRuns, useSeriesSettings } from '../../features/history/api/history.ts';
import { RegressionDetails } from '../../features/history/components/RegressionDetails.tsx';
import { RunsHistoryTable } from '../../features/history/components/RunsHistoryTable.tsx';
import '../../features/history/history.css';
import {
  FAMILY_CHARTS,
  branchesOf,
  drawnMetrics,
  familyRows,
  historyPoints,
  regressionMarkers,
  runsToCheck,
} from '../../features/history/history-view.ts';
import { fmtInt } from '../../lib/format.ts';
import type { RunRegression } from '@blockwise/shared/api';
import { Link, navigate, paths, useLocation } from '../router.tsx';
import { usePageTitle } from './use-page-title.ts';

const HistoryChart = lazyChart(() => import('../../features/history/components/HistoryChart.tsx'));

/** Regression reports are fetched for the newest runs shown, this many at first and per "check more". */
export const CHECK_BATCH = 20;
const CHART_HEIGHT = 260;

function Settings({ series }: { series: string }) {
  const settings = useSeriesSettings(series);
  if (settings.status === 'loading') return <p className="field__hint">Loading the series settings…</p>;
  if (settings.status === 'error')
    return (
      <p className="field__hint field__hint--warn">
        The series settings could not be loaded: {settings.error}
      </p>
    );
  const c = settings.data.config;
  return (
    <dl className="facts facts--inline">
      <div>
        <dt>Base branch</dt>
        <dd>{c.baseBranch}</dd>
      </div>
      <div>
        <dt>Baseline</dt>
        <dd>
          the last {c.baselineRuns} runs (at least {c.minBaselineRuns})
        </dd>
      </div>
      <div>
        <dt>Method</dt>
        <dd>
          {c.method}
          {c.method === 'sigma' ? ` (k = ${c.sigmaK})` : ''}
        </dd>
      </div>
      <div>
        <dt>Thresholds</dt>
        <dd>
          IOPS {c.thresholds.iops}%, throughput {c.thresholds.throughput}%, latency {c.thresholds.latency}%
        </dd>
      </div>
      <div>
        <dt>Settings</dt>
        <dd>
          {settings.data.stored
            ? `configured${settings.data.updatedAt ? `, ${settings.data.updatedAt.slice(0, 10)}` : ''}`
            : 'defaults'}
        </dd>
      </div>
    </dl>
  );
}

/** `/history/:series`: one CI series over time — a chart per metric family, regressions marked, a run's report. */
export default function HistorySeriesPage({ series }: { series: string }) {
  usePageTitle(`History: ${series}`);
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  const branch = query.get('branch') || null;
  const selectedId = query.get('run') || null;
  const runs = useSeriesRuns(series, branch);
  const points = useMemo(() => historyPoints(runs.items), [runs.items]);
  const newestFirst = useMemo(() => [...points].reverse(), [points]);
  const branches = useMemo(() => {
    const seen = branchesOf(runs.items);
    return branch && !seen.includes(branch) ? [branch, ...seen] : seen;
  }, [runs.items, branch]);
  const [budget, setBudget] = useState(CHECK_BATCH);
  const wantedIds = useMemo(() => runsToCheck(points, budget, selectedId), [points, budget, selectedId]);
  const wanted = useMemo(() => new Set(wantedIds), [wantedIds]);
  const states = useRegressions(wantedIds);
  const reports = useMemo(() => {
    const m = new Map<string, RunRegression>();
    for (const [id, s] of states) if (s.status === 'ready') m.set(id, s.report);
    return m;
  }, [states]);
  const selected = selectedId ? (points.find((p) => p.id === selectedId) ?? null) : null;
  const checked = wantedIds.filter((id) => states.has(id)).length;
  const flagged = [...reports.values()].filter((r) => r.verdict === 'regression').length;

  const select = (id: string) =>
    navigate(paths.historySeries(series, { branch, run: id }), { replace: true });
  const runLink = (id: string, text: string) => <Link to={paths.run(id)}>{text}</Link>;

  return (
    <div className="page">
      <header className="page-head">
        <div>
          <p className="page-head__kicker">
            <Link to={paths.history()}>CI history</Link> / series
          </p>
          <h1 tabIndex={-1} id="page-title">
            {series}
          </h1>
          <Settings series={series} />
        </div>
      </header>

      <section className="region" aria-labelledby="history-filter-heading">
        <h2 id="history-filter-heading" className="visually-hidden">
          Filter
        </h2>
        <div className="history-filters">
          <SelectField
            label="Branch"
            value={branch ?? ''}
            onChange={(e) => navigate(paths.historySeries(series, { branch: e.target.value || null }))}
          >
            <option value="">All branches</option>
            {branches.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </SelectField>
          <p className="field__hint">
            {runs.status === 'ready' || runs.pages > 0
              ? `${fmtInt(points.length)} run${points.length === 1 ? '' : 's'} loaded${runs.nextCursor ? ' (older ones below)' : ''}.`
              : ''}
          </p>
        </div>
      </section>

      {runs.pages === 0 && runs.status === 'loading' ? (
        <LoadingState label={`Loading the runs of ${series}…`} />
      ) : null}
      {runs.status === 'error' ? (
        <ErrorState
          title="The history could not be loaded"
          message={runs.error ?? undefined}
          onRetry={runs.retry}
        />
      ) : null}
      {runs.pages > 0 && points.length === 0 && runs.status !== 'error' ? (
        <EmptyState
          title={branch ? `No runs of ${series} on ${branch}` : `No runs in the series ${series} yet`}
        >
          <p>
            {branch ? (
              <>
                Pick another branch, or <Link to={paths.historySeries(series)}>show all branches</Link>.
              </>
            ) : (
              <>
                Runs appear when CI uploads with{' '}
                <code>blockwise upload --series {series} --branch BRANCH --commit SHA</code>.{' '}
                <Link to={paths.history()}>All series</Link>
              </>
            )}
          </p>
        </EmptyState>
      ) : null}

      {points.length > 0 ? (
        <>
          <Region
            title="Metrics over time"
            id="metrics"
            description={
              <>
                One point per run, by upload time (UTC). Red rings: runs the storage regression gate flagged,
                on the metrics that regressed — {fmtInt(checked)} of the {fmtInt(points.length)} runs shown
                checked so far
                {flagged > 0 ? `, ${fmtInt(flagged)} flagged` : ''}. Click a run to see its report.
              </>
            }
          >
            <div className="history-charts">
              {FAMILY_CHARTS.map((chart) => {
                const metrics = drawnMetrics(points, chart);
                const title = `${series}: ${chart.title}`;
                if (metrics.length === 0)
                  return (
                    <EmptyState key={chart.family} title={`No ${chart.title.toLowerCase()} in these runs`}>
                      <p>
                        {chart.family === 'latency'
                          ? 'fio reported no completion-latency percentiles (clat_percentiles=0, or no I/O).'
                          : 'These runs did no I/O in either direction.'}
                      </p>
                    </EmptyState>
                  );
                return (
                  <ChartFrame
                    key={chart.family}
                    title={title}
                    caption={
                      <>
                        {chart.unitName} (<Unit unit={chart.unit} />) per run
                        {chart.family === 'latency'
                          ? ', log scale; solid read, dashed write'
                          : '; solid read, dashed write'}
                      </>
                    }
                    height={CHART_HEIGHT}
                  >
                    <HistoryChart
                      rows={familyRows(points, chart)}
                      chart={chart}
                      metrics={metrics}
                      markers={regressionMarkers(points, reports, chart)}
                      selected={selected ? { id: selected.id, t: selected.t } : null}
                      onSelect={select}
                      title={title}
                      height={CHART_HEIGHT}
                    />
                  </ChartFrame>
                );
              })}
            </div>
            {budget < points.length ? (
              <div className="pager">
                <button
                  type="button"
                  className="btn btn--small"
                  onClick={() => setBudget((b) => b + CHECK_BATCH)}
                >
                  Check the next {CHECK_BATCH} runs for regressions
                </button>
              </div>
            ) : null}
          </Region>

          {selectedId ? (
            <Region title="Selected run" id="selected-run" resetKey={selectedId}>
              {selected ? (
                <RegressionDetails
                  point={selected}
                  state={states.get(selected.id)}
                  runLink={(id, text) => (
                    <Link className="btn btn--small" to={paths.run(id)}>
                      {text}
                    </Link>
                  )}
                  comparisonLink={(path, text) => (
                    <Link className="btn btn--small btn--primary" to={path}>
                      {text}
                    </Link>
                  )}
                />
              ) : (
                <p className="field__hint">
                  That run is not among the runs loaded here. {runLink(selectedId, 'Open it')}.
                </p>
              )}
            </Region>
          ) : null}

          <Region title="Runs" id="runs">
            <RunsHistoryTable
              points={newestFirst}
              reports={states}
              wanted={wanted}
              selected={selectedId}
              onSelect={select}
              runLink={runLink}
              caption={`Runs of ${series}${branch ? ` on ${branch}` : ''}, newest first`}
            />
            {runs.nextCursor ? (
              <div className="pager">
                <button
                  type="button"
                  className="btn btn--small"
                  disabled={runs.status === 'loading'}
                  onClick={runs.more}
                >
                  {runs.status === 'loading' ? 'Loading older runs…' : 'Load older runs'}
                </button>
              </div>
            ) : (
              <p className="field__hint">All runs are loaded.</p>
            )}
          </Region>
        </>
      ) : null}
    </div>
  );
}
