import { lazy, Suspense } from 'react';
import { toPlanSession } from '../../session/session-state.ts';
import { sessionAnswerExport } from './answer-export.ts';
import type { PlanSessionView } from './use-plan-session.ts';

// Loaded once there is a plan to export (P10: the planning page's first load).
const ExportMenu = lazy(() =>
  import('../../../features/export/components/ExportMenu.tsx').then((m) => ({ default: m.ExportMenu })),
);

/** The page's heading and lead, the export menu once there is a plan, and the session's notices. */
export function PlanHeader({ session }: { session: PlanSessionView }) {
  const { state, dispatch, result, firstPlan, names } = session;
  return (
    <>
      <header className="page-head">
        <div>
          <h1 tabIndex={-1} id="page-title">
            Planning session
          </h1>
          <p className="page-head__lead">
            Bring fio results or the peaks your dashboards show. Blockwise says which limit binds, what to
            provision instead, what it costs per month — and whether the benchmark itself can be trusted.
          </p>
        </div>
        {result?.ok ? (
          <Suspense fallback={null}>
            <ExportMenu
              result={result.value}
              session={toPlanSession(state)}
              analysisVersion={firstPlan?.analysisVersion ?? ''}
              title="planning session"
              names={names}
              answer={sessionAnswerExport(session)}
            />
          </Suspense>
        ) : null}
      </header>

      {state.notice ? (
        <div
          className={`banner banner--${state.notice.tone}`}
          role={state.notice.tone === 'error' ? 'alert' : 'status'}
        >
          <p>{state.notice.text}</p>
          <button
            type="button"
            className="btn btn--small btn--ghost"
            onClick={() => dispatch({ type: 'notice-dismissed' })}
          >
            Dismiss
          </button>
        </div>
      ) : null}
      {state.origin.kind === 'comparison' ? (
        <p className="banner banner--info">
          Started from the shared comparison{' '}
          {state.origin.title ? `“${state.origin.title}”` : state.origin.id}. Changes here do not alter the
          shared link.
        </p>
      ) : null}
    </>
  );
}
