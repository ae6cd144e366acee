import { useEffect, useRef, useState } from 'react';
import { Region } from '../../../components/Region.tsx';
import { FileDrop } from '../../../features/ingest/components/FileDrop.tsx';
import { ObservedForm } from '../../../features/ingest/components/ObservedForm.tsx';
import { MetricsDrop } from '../../../features/metrics-import/components/MetricsDrop.tsx';
import { newObservedId } from '../../session/session-state.ts';
import { InstancePicker } from './InstancePicker.tsx';
import { inputCardProps, SessionInputCard } from './SessionInputCard.tsx';
import type { PlanSessionView } from './use-plan-session.ts';

/** "Bring data": fio/sysbench files, typed-in peaks, metrics exports, and the session's inputs. */
export function BringDataSection({ session }: { session: PlanSessionView }) {
  const { state, dispatch, addFiles, addMetricsFiles, requestAnswerFocus, lastAction, actionStatus } =
    session;
  // The outcome of an action, next to the control pressed (the answer's status line announces it).
  const statusBeside = (control: 'files' | 'metrics' | 'peaks') =>
    lastAction?.control === control && actionStatus ? (
      <p className={`action-status action-status--${actionStatus.tone}`}>{actionStatus.text}</p>
    ) : null;
  const [addingObserved, setAddingObserved] = useState(false);
  // The typed-in form replaces its "Type in metrics…" button: focus moves into the form when it
  // opens and back to the button when it closes, instead of falling to <body>.
  const typeInButton = useRef<HTMLButtonElement>(null);
  const refocusTypeIn = useRef(false);
  const closeObserved = () => {
    refocusTypeIn.current = true;
    setAddingObserved(false);
  };
  useEffect(() => {
    if (addingObserved || !refocusTypeIn.current) return;
    refocusTypeIn.current = false;
    typeInButton.current?.focus();
  }, [addingObserved]);

  return (
    <Region
      title="Bring data"
      description="fio result files and sysbench fileio outputs (read in your browser), production metrics exported from CloudWatch or Grafana, and numbers typed in from any dashboard."
      id="data"
    >
      <div className="grid-2 grid-2--data">
        <div>
          <FileDrop onFiles={addFiles} />
          {statusBeside('files')}
        </div>
        <div className="observed-entry">
          {addingObserved ? (
            <ObservedForm
              autoFocus
              onSubmit={(metrics) => {
                const id = newObservedId();
                dispatch({ type: 'observed-added', input: { kind: 'observed', id, metrics } });
                session.notePeaksAdded(id);
                // Submitted: focus goes to the answer that appears at the top, not back to the button.
                requestAnswerFocus();
                setAddingObserved(false);
              }}
              onCancel={closeObserved}
            />
          ) : (
            <div className="dropzone dropzone--plain">
              <p className="dropzone__title">No fio file? Type in your peaks</p>
              <p className="dropzone__hint">
                Peak read/write IOPS and throughput from a dashboard, in any unit, with optional latency
                percentiles.
              </p>
              <button
                ref={typeInButton}
                type="button"
                className="btn btn--primary"
                onClick={() => setAddingObserved(true)}
              >
                Type in metrics…
              </button>
              {statusBeside('peaks')}
            </div>
          )}
        </div>
        <div style={{ gridColumn: '1 / -1' }}>
          <MetricsDrop onFiles={addMetricsFiles} />
          {statusBeside('metrics')}
        </div>
      </div>
      {state.inputs.length > 0 ? (
        <>
          <h3 className="subhead" id="inputs-heading">
            In this session ({state.inputs.length})
          </h3>
          <ul className="input-list" aria-labelledby="inputs-heading">
            {state.inputs.map((input) => (
              <SessionInputCard key={input.id} {...inputCardProps(input, session)} />
            ))}
          </ul>
        </>
      ) : null}
      <InstancePicker
        value={session.state.settings.instanceType}
        instanceTypes={session.instanceTypes}
        catalogError={session.catalog.error}
        onInterest={session.requestCatalog}
        labelledRun={session.labelledRun}
        dispatch={session.dispatch}
        applyRunConfig={session.applyRunConfig}
      />
    </Region>
  );
}
