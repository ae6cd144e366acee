import type { Answer, AnswerSection } from '@blockwise/shared/answer';
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
