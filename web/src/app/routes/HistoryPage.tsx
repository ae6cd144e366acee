import { useMemo } from 'react';
import { Region } from '../../components/Region.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { SCAN_PAGE_SIZE, SCAN_PAGES_PER_LOAD, useSeriesScan } from '../../features/history/api/history.ts';
import { SeriesList } from '../../features/history/components/SeriesList.tsx';
import { seriesIndex } from '../../features/history/history-view.ts';
import '../../features/history/history.css';
import { fmtInt } from '../../lib/format.ts';
import { Link, paths } from '../router.tsx';
import { usePageTitle } from './use-page-title.ts';

/**
 * `/history`: the CI series in the archive. There is no series-list endpoint: the archive's run
 * listing is scanned (newest first, 1,000 runs per load) and grouped by the `series` label.
 */
export default function HistoryPage() {
  usePageTitle('CI history');
  const scan = useSeriesScan();
  const rows = useMemo(() => seriesIndex(scan.items), [scan.items]);
  const first = scan.pages === 0;

  return (
    <div className="page">
      <header className="page-head">
        <div>
          <h1 tabIndex={-1} id="page-title">
            CI history
          </h1>
          <p className="page-head__lead">
            Benchmark runs uploaded by CI, grouped by series: IOPS, throughput and latency over time per
            branch, and what the storage regression gate said about each run.
          </p>
        </div>
      </header>
      <Region title="Series" id="series">
        {first && scan.status === 'loading' ? (
          <LoadingState label="Scanning the archive for series…" />
        ) : null}
        {scan.status === 'error' ? (
          <ErrorState
            title="The archive could not be scanned"
            message={scan.error ?? undefined}
            onRetry={scan.retry}
          />
        ) : null}
        {!first && rows.length === 0 && scan.status !== 'error' ? (
          <EmptyState title={scan.items.length === 0 ? 'The archive is empty' : 'No CI series yet'}>
            <p>
              A series appears when CI uploads fio results with a series name, a branch and a commit, for
              example:
            </p>
            <pre className="history-code">
              <code>
                blockwise upload result.json --server $BLOCKWISE_URL --series pg-data-volume --branch main
                --commit $GIT_SHA
              </code>
            </pre>
            {scan.items.length > 0 ? (
              <p>
                None of the latest {fmtInt(scan.items.length)} runs has a series label.{' '}
                <Link to={paths.runs()}>Browse the archive</Link>.
              </p>
            ) : null}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? (
          <SeriesList
            rows={rows}
            caption={`Series among the latest ${fmtInt(scan.items.length)} runs of the archive, most recently active first`}
            seriesLink={(series) => <Link to={paths.historySeries(series)}>{series}</Link>}
            runLink={(id, text) => <Link to={paths.run(id)}>{text}</Link>}
          />
        ) : null}
        {!first && scan.nextCursor ? (
          <div className="pager">
            <button
              type="button"
              className="btn btn--small"
              disabled={scan.status === 'loading'}
              onClick={scan.more}
            >
              {scan.status === 'loading'
                ? 'Scanning…'
                : `Scan ${fmtInt(SCAN_PAGE_SIZE * SCAN_PAGES_PER_LOAD)} older runs`}
            </button>
            <span className="field__hint" role="status">
              {scan.status === 'loading' ? 'Scanning older runs…' : 'Older runs may hold more series.'}
            </span>
          </div>
        ) : null}
      </Region>
    </div>
  );
}
