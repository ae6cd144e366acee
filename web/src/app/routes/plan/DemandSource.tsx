import { useId } from 'react';
import type { DemandSourceOption } from './demand-view.ts';
import type { PlanSessionView } from './use-plan-session.ts';

/**
 * Which demand source "Needs …" comes from — its name, statistic and resolution — with a control
 * to size on another one, and the offer to plan for a newer source that arrived after the user's
 * choice ("Plan for this", in the answer box itself).
 */
export function DemandSource({
  sources,
  plannedRef,
  waiting,
  dispatch,
}: {
  sources: readonly DemandSourceOption[];
  plannedRef: string | null;
  waiting: DemandSourceOption | null;
  dispatch: PlanSessionView['dispatch'];
}) {
  const id = useId();
  const planned = sources.find((s) => s.ref === plannedRef);
  if (!planned) return null;
  const choose = (ref: string) => dispatch({ type: 'settings-changed', settings: { profileRef: ref } });
  return (
    <div className="answer__source">
      <p>
        Demand from {planned.description}.
        {sources.length > 1 ? (
          <>
            {' '}
            <label htmlFor={`${id}-source`}>Size on</label>{' '}
            <select
              id={`${id}-source`}
              className="input input--inline"
              value={planned.ref}
              onChange={(e) => choose(e.target.value)}
            >
              {sources.map((s) => (
                <option key={s.ref} value={s.ref}>
                  {s.title}
                </option>
              ))}
            </select>
          </>
        ) : null}
      </p>
      {waiting ? (
        <p className="answer__waiting">
          New demand: <strong>{waiting.title}</strong> ({waiting.description}) waits to be planned for.{' '}
          <button type="button" className="btn btn--small btn--primary" onClick={() => choose(waiting.ref)}>
            Plan for this
          </button>
        </p>
      ) : null}
    </div>
  );
}
