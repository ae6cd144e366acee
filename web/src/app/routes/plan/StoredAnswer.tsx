import type { PlanResult } from '@blockwise/shared/plan';
import { AnswerBox } from './AnswerBox.tsx';
import { AnswerLines, type AnswerSection } from './AnswerLines.tsx';
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
}: {
  plan: PlanResult;
  /** Which configuration the answer is for (the plan's title in a comparison). */
  title?: string;
  sections: ReadonlySet<AnswerSection>;
}) {
  return (
    <AnswerBox note={title ? <>For {title}</> : undefined}>
      <AnswerLines answer={storedAnswerOf(plan)} sections={sections} />
    </AnswerBox>
  );
}
