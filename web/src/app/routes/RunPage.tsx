import type { Run } from '@blockwise/shared/api';
import { roleOfEvidence } from '@blockwise/shared/demand';
import { sectionsOf, storedRunAnswerOf } from '@blockwise/shared/answer';
import { Region } from '../../components/Region.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { Warnings } from '../../components/Warnings.tsx';
import { useRun } from '../../features/archive/api/runs.ts';
import { describeVolume } from '../../features/archive/components/RunsTable.tsx';
import { RunGate } from '../../features/history/components/RunGate.tsx';
import { LatencyPanel } from '../../features/compare/components/LatencyPanel.tsx';
import { promiseListsOf, seriesOf, type RunView } from '../../features/compare/compare-rows.ts';
import { LimitsPanel } from '../../features/limits/components/LimitsPanel.tsx';
import { ProfilePanel } from '../../features/profile/components/ProfilePanel.tsx';
import { fmtInt, fmtSize } from '../../lib/format.ts';
import { COLORS } from '../../lib/palette.ts';
import { Link, navigate, paths } from '../router.tsx';
import { useSession } from '../session/SessionProvider.tsx';
import { StoredAnswer } from './plan/StoredAnswer.tsx';
import { usePageTitle } from './use-page-title.ts';

function RunDetail({ run }: { run: Run }) {
  const { addArchiveRun, state } = useSession();
  const title = run.labels.name ?? run.fileName ?? `Run ${run.id.slice(0, 8)}`;
  usePageTitle(title);
  const plan = run.summary.plan;
  const inSession = state.inputs.some((i) => i.kind === 'fio' && i.serverRunId === run.id);
  const view: RunView = {
    id: run.id,
    title,
    kind: run.labels.kind ?? null,
    instanceType: run.labels.instanceType ?? null,
    headline: run.summary.headline,
    plan,
  };
  const labels = run.labels;
  return (
    <div className="page">
      <header className="page-head">
        <div>
          <p className="page-head__kicker">
            <Link to={paths.runs()}>Archive</Link> / run
          </p>
          <h1 tabIndex={-1} id="page-title">
            {title}
          </h1>
        </div>
        <div className="page-head__actions">
          {inSession ? (
            <Link className="btn" to={paths.plan()}>
              In your session: open it
            </Link>
          ) : (
            <button
              type="button"
              className="btn btn--primary"
              onClick={() => {
                addArchiveRun(run);
                navigate(paths.plan());
              }}
            >
              Add to planning session
            </button>
          )}
        </div>
      </header>
      {plan ? (
        <StoredAnswer
          sections={sectionsOf({ kind: 'run' })}
          answer={storedRunAnswerOf(
            plan,
            roleOfEvidence({ kind: 'fio', report: run.report, replaysLoad: false }),
          )}
        />
      ) : null}
      <dl className="facts facts--inline">
        <div>
          <dt>Uploaded</dt>
          <dd>
            <time dateTime={run.createdAt}>{new Date(run.createdAt).toUTCString()}</time>
          </dd>
        </div>
        <div>
          <dt>Storage</dt>
          <dd>{describeVolume(labels)}</dd>
        </div>
        <div>
          <dt>Instance</dt>
          <dd>{labels.instanceType ?? '—'}</dd>
        </div>
        <div>
          <dt>Region</dt>
          <dd>{labels.region ?? '—'}</dd>
        </div>
        <div>
          <dt>fio</dt>
          <dd>
            {run.fioVersion ?? 'unknown'} · {fmtInt(run.summary.jobCount)} job
            {run.summary.jobCount === 1 ? '' : 's'}
          </dd>
        </div>
        <div>
          <dt>File</dt>
          <dd>
            <a href={run.rawUrl} download={run.fileName ?? `${run.id}.json`}>
              {run.fileName ?? 'raw file'}
            </a>{' '}
            ({fmtSize(run.sizeBytes)}, SHA-256 {run.rawSha256.slice(0, 12)}…)
          </dd>
        </div>
        {labels.series ? (
          <div>
            <dt>Series</dt>
            <dd>
              {labels.series}
              {labels.branch ? ` · ${labels.branch}` : ''}
              {labels.commit ? ` · ${labels.commit.slice(0, 10)}` : ''}
            </dd>
          </div>
        ) : null}
      </dl>
      {labels.series ? (
        <RunGate
          runId={run.id}
          historyLink={
            <Link to={paths.historySeries(labels.series, { branch: labels.branch ?? null, run: run.id })}>
              History of {labels.series}
            </Link>
          }
          link={(to, text) => <Link to={to}>{text}</Link>}
        />
      ) : null}
      {plan ? (
        <>
          <Region title="I/O profile" id="profile">
            <ProfilePanel plan={plan} />
          </Region>
          <Region title="What binds" id="limits">
            <LimitsPanel plan={plan} title={plan.target?.description ?? labels.instanceType ?? title} />
          </Region>
        </>
      ) : (
        <Region title="Benchmark checks" id="checks">
          <EmptyState title="No configuration in the labels">
            <p>
              This run was uploaded without an instance type or volume, so no limits were checked. Add it to a
              planning session to plan for a configuration.
            </p>
          </EmptyState>
          <Warnings warnings={run.summary.warnings} />
        </Region>
      )}
      <Region title="Latency" id="latency">
        <LatencyPanel
          title={title}
          seriesFor={(d) => [seriesOf(view, d, 'run', COLORS.ebs)]}
          promiseLists={promiseListsOf([view])}
        />
      </Region>
    </div>
  );
}

/** `/runs/:id`: one archived run. */
export default function RunPage({ id }: { id: string }) {
  const state = useRun(id);
  usePageTitle('Run');
  if (state.status === 'loading') {
    return (
      <div className="page">
        <h1 tabIndex={-1} id="page-title">
          Run
        </h1>
        <LoadingState label="Loading the run…" />
      </div>
    );
  }
  if (state.status === 'error') {
    const missing = state.code === 'run_not_found' || state.code === 'not_found';
    return (
      <div className="page">
        <h1 tabIndex={-1} id="page-title">
          Run
        </h1>
        <ErrorState
          title={missing ? 'No such run in the archive' : 'The run could not be loaded'}
          message={missing ? 'Check the link; run ids are 22 characters long.' : state.error}
          {...(missing ? {} : { onRetry: state.reload })}
        >
          <p>
            <Link to={paths.runs()}>Browse the archive</Link>
          </p>
        </ErrorState>
      </div>
    );
  }
  return <RunDetail run={state.data} />;
}
