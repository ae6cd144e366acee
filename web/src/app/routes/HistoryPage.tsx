import { Region } from '../../components/Region.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { SERIES_LIST_PAGE_SIZE, useSeriesList } from '../../features/history/api/history.ts';
import { SeriesList } from '../../features/history/components/SeriesList.tsx';
import '../../features/history/history.css';
import { fmtInt } from '../../lib/format.ts';
import { Link, paths } from '../router.tsx';
import { usePageTitle } from './use-page-title.ts';

/**
 * `/history`: the CI series in the archive, counted by the server (GET /api/series: one row per
 * series, most recently active first), 50 at a time.
 */
export default function HistoryPage() {
  usePageTitle('CI history');
  const list = useSeriesList();
  const first = list.pages === 0;

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
        {first && list.status === 'loading' ? <LoadingState label="Loading the series…" /> : null}
        {list.status === 'error' ? (
          <ErrorState
            title="The series could not be loaded"
            message={list.error ?? undefined}
            onRetry={list.retry}
          />
        ) : null}
        {!first && list.items.length === 0 && list.status !== 'error' ? (
          <EmptyState title="No CI series yet">
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
            <p>
              Runs uploaded without a series are in the <Link to={paths.runs()}>archive</Link>.
            </p>
          </EmptyState>
        ) : null}
        {list.items.length > 0 ? (
          <SeriesList
            rows={list.items}
            caption={`${fmtInt(list.items.length)} series, most recently active first`}
            seriesLink={(series) => <Link to={paths.historySeries(series)}>{series}</Link>}
            runLink={(id, text) => <Link to={paths.run(id)}>{text}</Link>}
          />
        ) : null}
        {!first && list.nextCursor ? (
          <div className="pager">
            <button
              type="button"
              className="btn btn--small"
              disabled={list.status === 'loading'}
              onClick={list.more}
            >
              {list.status === 'loading' ? 'Loading…' : `Show ${fmtInt(SERIES_LIST_PAGE_SIZE)} more series`}
            </button>
            <span className="field__hint" role="status">
              {list.status === 'loading' ? 'Loading more series…' : 'Less recently active series follow.'}
            </span>
          </div>
        ) : null}
      </Region>
    </div>
  );
}
