import { CAPACITY_LEAD, SESSION_ASK } from '@blockwise/shared/answer';
import type { DeliveredRow } from './demand-view.ts';
import { PeaksForm } from './PeaksForm.tsx';
import type { PlanSessionView } from './use-plan-session.ts';

/**
 * The answer when the session holds capacity evidence only (fio runs at saturation, sysbench):
 * what each storage delivered and how they compare — never "Needs …", since a benchmark at
 * saturation says what the storage can do, not what the workload asks — and the workload's peaks
 * asked for in place.
 */
export function CapacityAnswer({
  rows,
  comparison,
  session,
  onPeaksAdded,
}: {
  rows: readonly DeliveredRow[];
  comparison: string | null;
  session: Pick<PlanSessionView, 'dispatch' | 'state'>;
  onPeaksAdded: (id: string) => void;
}) {
  return (
    <div className="answer__capacity">
      <p>
        <strong>No demand yet.</strong> {CAPACITY_LEAD}
      </p>
      <ul className="answer__lines">
        {rows.map((r) => (
          <li key={r.id}>
            {r.title} ({r.kindLabel}) delivered {r.text}.
          </li>
        ))}
      </ul>
      {comparison ? <p>{comparison}</p> : null}
      <p>
        <strong>{SESSION_ASK.question}</strong> {SESSION_ASK.enter}{' '}
        <a href="#data">{SESSION_ASK.importMetrics}</a>
        {SESSION_ASK.then}
      </p>
      <PeaksForm session={session} onAdded={onPeaksAdded} />
    </div>
  );
}
