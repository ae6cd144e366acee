import type { PlanResult } from '@blockwise/shared/plan';
import { AnswerBox } from './AnswerBox.tsx';
import { AnswerLines, type AnswerSection } from './AnswerLines.tsx';
import type { Answer } from '@blockwise/shared/answer';
import { storedAnswerOf } from '../stored-answer-plan.ts';

/**
 * The answer of a stored plan (a share link's first plan, an archived run's plan), in the same
 * lines as the planning page's: what it needs, what binds, what to buy and for how much a month.
 * The numbers are the stored ones; nothing is recomputed.
 */
export function StoredAnswer({
  plan,
  title,
  sections,
  answer,
}: {
  plan: PlanResult;
  /** The answer when the caller words it (an archived run's capacity evidence); else the plan's. */
  answer?: Answer;
  /** Which configuration the answer is for (the plan's title in a comparison). */
  title?: string;
  sections: ReadonlySet<AnswerSection>;
}) {
  return (
    <AnswerBox note={title ? <>For {title}</> : undefined}>
      <AnswerLines answer={answer ?? storedAnswerOf(plan)} sections={sections} />
    </AnswerBox>
  );
}
