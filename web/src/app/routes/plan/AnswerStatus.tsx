import type { ActionStatus } from './demand-view.ts';

/**
 * The answer box's status line: the outcome of the last action (files read or failed, peaks
 * added, a source waiting to be planned for), announced politely by screen readers.
 */
export function AnswerStatus({ status }: { status: ActionStatus | null }) {
  return (
    <p
      className={`answer__status${status ? ` answer__status--${status.tone}` : ''}`}
      role="status"
      aria-live="polite"
      aria-atomic="true"
    >
      {status?.text ?? ''}
    </p>
  );
}
