import { type Answer, type AnswerSection, type StoredCapacityAnswer } from '@blockwise/shared/answer';
import { AnswerBox } from './AnswerBox.tsx';
import { AnswerLines } from './AnswerLines.tsx';

/**
 * The answer of a stored plan (a share link's, an archived run's), in the same lines as the
 * planning page's: what it needs (or, for a benchmark, what it delivered), what binds, what to buy
 * and for how much a month. The numbers are the stored ones; nothing is recomputed. A share link's
 * HTML carries the same markup, painted by the server (server/src/routes/share/answer-html.ts).
 */
export function StoredAnswer({
  answer,
  title,
  sections,
}: {
  answer: Answer;
  /** Which configuration the answer is for (the plan's title in a comparison). */
  title?: string;
  sections: ReadonlySet<AnswerSection>;
}) {
  return (
    <AnswerBox note={title ? <>For {title}</> : undefined}>
      <AnswerLines answer={answer} sections={sections} />
    </AnswerBox>
  );
}

/**
 * A share link saved from a session with capacity evidence only: no plan was stored, so the answer
 * says what each storage delivered, compares them and asks for the workload's peaks, as the
 * planning page's answer did (CapacityAnswer). The server paints the same markup (answer-html.ts).
 */
export function StoredCapacity({ answer }: { answer: StoredCapacityAnswer }) {
  return (
    <AnswerBox note={<>{answer.note}</>}>
      <div className="answer__capacity">
        <p>
          <strong>{answer.lead.strong}</strong> {answer.lead.text}
        </p>
        <ul className="answer__lines">
          {answer.lines.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
        {answer.comparison ? <p>{answer.comparison}</p> : null}
        <p>{answer.ask}</p>
      </div>
    </AnswerBox>
  );
}
