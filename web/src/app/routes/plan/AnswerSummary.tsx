import { useEffect, useRef, useState, type ReactNode } from 'react';
import './demand.css';
import { answerOf } from '@blockwise/shared/answer';
import { AnswerLines } from './AnswerLines.tsx';
import { AnswerStatus } from './AnswerStatus.tsx';
import { CapacityAnswer } from './CapacityAnswer.tsx';
import { DatasetField } from './DatasetField.tsx';
import { DemandSource } from './DemandSource.tsx';
import { GrowthFields } from './GrowthFields.tsx';
import { deliveredOfSession, storeHoldsText } from './demand-view.ts';
import { TryExample } from './TryExample.tsx';
import type { PlanSessionView } from './use-plan-session.ts';

/**
 * The answer first: one screen at the top of the planning page, from the same analysis the
 * sections below show (the first plan), updated as the inputs change, each line linking down to
 * its detail. When a form's submit asked for it, it takes focus once it has something to say.
 */
export function AnswerSummary({ session }: { session: PlanSessionView }) {
  const { analysis, catalog, result, firstPlan, eff, takeAnswerFocus, state, dispatch } = session;
  const heading = useRef<HTMLHeadingElement>(null);
  const settled = !analysis.hasProfiles || catalog.status !== 'loading';
  const ready = analysis.hasProfiles && settled && result !== null;

  useEffect(() => {
    if (ready && takeAnswerFocus()) heading.current?.focus();
  });

  let body: ReactNode;
  if (!analysis.hasProfiles) {
    body = (
      <div className="answer__empty">
        <p>
          No data yet. <a href="#data">Bring fio results or your dashboards’ peaks</a>, or load a realistic
          session in one click:
        </p>
        <TryExample session={session} />
      </div>
    );
  } else if (catalog.status === 'loading') {
    body = <p role="status">Loading the AWS catalog (instance types and prices)…</p>;
  } else if (catalog.status === 'error') {
    body = <p>The AWS catalog could not be loaded: {catalog.error}</p>;
  } else if (result && !result.ok) {
    body = <p>This session cannot be planned yet: {result.error.message}</p>;
  } else if (firstPlan && analysis.demand.ref === null) {
    // Capacity evidence only: what each storage delivered, and the peaks asked for in place.
    const { rows, comparison } = deliveredOfSession(state.inputs, analysis);
    body = (
      <CapacityAnswer
        rows={rows}
        comparison={comparison}
        session={session}
        onPeaksAdded={session.notePeaksAdded}
      />
    );
  } else if (firstPlan) {
    const premium = eff.instanceType ? analysis.nvmePremiums[eff.instanceType] : undefined;
    const a = answerOf(firstPlan, eff.nodes, premium, eff.datasetGiB);
    // The NVMe alternative is checked against the dataset: its store after formatting.
    const store = premium
      ? storeHoldsText(
          catalog.catalog?.findInstanceType(premium.dType) ?? null,
          eff.datasetGiB,
          eff.datasetGrowth ?? null,
        )
      : null;
    body = (
      <AnswerLines
        answer={a}
        needsExtra={
          <>
            <DemandSource
              sources={session.demandSources}
              plannedRef={analysis.demand.ref}
              waiting={session.waitingSource}
              dispatch={dispatch}
            />
            <DatasetField id="answer-dataset" datasetGiB={eff.datasetGiB} dispatch={dispatch} />
            <GrowthFields id="answer-growth" growth={eff.datasetGrowth ?? null} dispatch={dispatch} />
          </>
        }
        nvmeExtra={
          store ? (
            <>
              {' '}
              <span className={store.holds === false ? 'answer__binds--concern' : undefined}>
                {premium?.dType}: {store.text}
              </span>
            </>
          ) : null
        }
      />
    );
  } else body = null;

  return (
    <section className="answer" aria-labelledby="answer-title" id="answer">
      <div className="answer__head">
        <h2 className="answer__title" id="answer-title" tabIndex={-1} ref={heading}>
          The answer
        </h2>
        <NewSession session={session} onCleared={() => heading.current?.focus()} />
      </div>
      <AnswerStatus status={session.actionStatus} />
      {body}
    </section>
  );
}

/**
 * "New session": clears the page and the copy kept in this browser. Unsaved work is not thrown
 * away on one click: the button asks first.
 */
function NewSession({ session, onCleared }: { session: PlanSessionView; onCleared: () => void }) {
  const { state, dispatch, isUnsaved } = session;
  const [asking, setAsking] = useState(false);
  if (state.inputs.length === 0 && state.origin.kind === 'new') return null;
  const clear = () => {
    setAsking(false);
    dispatch({ type: 'reset' });
    onCleared();
  };
  if (asking)
    return (
      <div className="answer__confirm" role="group" aria-label="Discard the unsaved session?">
        <span>Discard this session? It was not saved or shared.</span>
        <button type="button" className="btn btn--small btn--primary" onClick={clear} autoFocus>
          Discard and start anew
        </button>
        <button type="button" className="btn btn--small btn--ghost" onClick={() => setAsking(false)}>
          Keep it
        </button>
      </div>
    );
  return (
    <button
      type="button"
      className="btn btn--small"
      onClick={() => (isUnsaved() ? setAsking(true) : clear())}
    >
      New session
    </button>
  );
}
