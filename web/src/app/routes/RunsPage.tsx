import { useState } from 'react';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { useRunList } from '../../features/archive/api/runs.ts';
import { RunFilters, type Filters } from '../../features/archive/components/RunFilters.tsx';
import { RunsTable } from '../../features/archive/components/RunsTable.tsx';
import { describeApiError, getRun } from '../../lib/api-client.ts';
import { Link, navigate, paths, useLocation } from '../router.tsx';
import { useSession } from '../session/SessionProvider.tsx';
import { usePageTitle } from './use-page-title.ts';

/** Filters and the page cursor live in the URL: back/forward and links work. */
function readQuery(search: string): Filters & { cursor: string } {
  const q = new URLSearchParams(search);
  const kind = q.get('kind');
  return {
    series: q.get('series') ?? '',
    instance: q.get('instance') ?? '',
    kind: kind === 'nvme' || kind === 'ebs' ? kind : '',
    cursor: q.get('cursor') ?? '',
  };
}

function toSearch(f: Filters & { cursor?: string }): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

type AddState = Record<string, 'adding' | 'added' | { error: string }>;

/** `/runs`: the archive — filter, page through, open a run, add it to the planning session. */
export default function RunsPage() {
  usePageTitle('Archive');
  const location = useLocation();
  const query = readQuery(location.search);
  const { series, instance, kind, cursor } = query;
  const list = useRunList({
    ...(series ? { series } : {}),
    ...(instance ? { instance } : {}),
    ...(kind ? { kind } : {}),
    ...(cursor ? { cursor } : {}),
  });
  const { addArchiveRun, state } = useSession();
  const [adding, setAdding] = useState<AddState>({});
  const inSession = new Set(
    state.inputs.flatMap((i) => (i.kind === 'fio' && i.serverRunId ? [i.serverRunId] : [])),
  );

  const add = async (id: string) => {
    setAdding((a) => ({ ...a, [id]: 'adding' }));
    try {
      addArchiveRun(await getRun(id));
      setAdding((a) => ({ ...a, [id]: 'added' }));
    } catch (error) {
      setAdding((a) => ({ ...a, [id]: { error: describeApiError(error) } }));
    }
  };

  const filtered = Boolean(series || instance || kind);

  return (
    <div className="page">
      <header className="page-head">
        <div>
          <h1 tabIndex={-1} id="page-title">
            Archive
          </h1>
          <p className="page-head__lead">
            Runs uploaded to this server, newest first. Open one, or add it to your session.
          </p>
        </div>
      </header>
      <section className="region" aria-labelledby="filters-heading">
        <h2 id="filters-heading" className="visually-hidden">
          Filters
        </h2>
        <RunFilters
          key={`${series}|${instance}|${kind}`}
          value={{ series, instance, kind }}
          onApply={(f) => navigate(`${paths.runs()}${toSearch(f)}`)}
        />
      </section>
      <section className="region" aria-labelledby="runs-heading">
        <h2 id="runs-heading" className="region__title">
          Runs
        </h2>
        {list.status === 'loading' ? <LoadingState label="Loading runs…" /> : null}
        {list.status === 'error' ? (
          <ErrorState title="The archive could not be loaded" message={list.error} onRetry={list.reload} />
        ) : null}
        {list.status === 'ready' && list.data.items.length === 0 ? (
          <EmptyState title={filtered ? 'No run matches these filters' : 'The archive is empty'}>
            <p>
              {filtered
                ? 'Clear a filter, or check the spelling of the series and instance type.'
                : 'Runs appear here when someone saves a planning session or CI uploads fio results (POST /api/runs).'}
            </p>
          </EmptyState>
        ) : null}
        {list.status === 'ready' && list.data.items.length > 0 ? (
          <>
            <RunsTable
              items={list.data.items}
              caption="Archived runs"
              nameOf={(r) => <Link to={paths.run(r.id)}>{r.labels.name ?? `Run ${r.id.slice(0, 8)}`}</Link>}
              actions={(r) => {
                const s = adding[r.id];
                if (inSession.has(r.id) || s === 'added')
                  return <span className="badge badge--ok">in session</span>;
                return (
                  <>
                    <button
                      type="button"
                      className="btn btn--small"
                      disabled={s === 'adding'}
                      onClick={() => add(r.id)}
                      aria-label={`Add to session: ${r.labels.name ?? r.id}`}
                    >
                      {s === 'adding' ? 'Adding…' : 'Add to session'}
                    </button>
                    {typeof s === 'object' ? <p className="field__error">{s.error}</p> : null}
                  </>
                );
              }}
            />
            <nav className="pager" aria-label="Pages of runs">
              {cursor ? (
                <Link
                  className="btn btn--small"
                  to={`${paths.runs()}${toSearch({ series, instance, kind })}`}
                >
                  First page
                </Link>
              ) : null}
              {list.data.nextCursor ? (
                <Link
                  className="btn btn--small"
                  to={`${paths.runs()}${toSearch({ series, instance, kind, cursor: list.data.nextCursor })}`}
                >
                  Next page
                </Link>
              ) : (
                <span className="field__hint">End of the list.</span>
              )}
            </nav>
          </>
        ) : null}
        {Object.values(adding).includes('added') ? (
          <p className="banner banner--info" role="status">
            Added to your session. <Link to={paths.plan()}>Go to the planning session</Link>
          </p>
        ) : null}
      </section>
    </div>
  );
}
