import type { ReactNode } from 'react';

/**
 * The frame of "The answer" on a page that shows a stored result (a share link, an archived run,
 * a saved fleet plan): the planning page's answer box, read-only, first on screen.
 */
export function AnswerBox({ children, note }: { children: ReactNode; note?: ReactNode }) {
  return (
    <section className="answer" aria-labelledby="answer-title" id="answer">
      <div className="answer__head">
        <h2 className="answer__title" id="answer-title">
          The answer
        </h2>
        {note ? <span className="answer__note">{note}</span> : null}
      </div>
      {children}
    </section>
  );
}
