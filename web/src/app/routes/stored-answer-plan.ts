import type { PlanResult } from '@blockwise/shared/plan';
import { answerOf, type Answer } from './plan/answer.ts';
import type { ComparisonResult } from '@blockwise/shared/records';
import type { AnswerSection } from './plan/AnswerLines.tsx';

/**
 * The plan a stored comparison answers with: its first plan, as the planning page answers with
 * the session's first plan (a share link reads like the session it was saved from); else the
 * first run planned from its own labels. null: nothing in it was planned.
 */
export function storedAnswerPlan(result: ComparisonResult): { plan: PlanResult; title: string } | null {
  const first = result.plans[0];
  if (first) return { plan: first.plan, title: first.title };
  const run = result.runs.find((r) => r.summary.plan);
  return run?.summary.plan ? { plan: run.summary.plan, title: run.labels.name ?? 'the first run' } : null;
}

/** The sections a share link with plans shows (ComparisonView's regions). */
export const SHARE_SECTIONS: ReadonlySet<AnswerSection> = new Set([
  'profile',
  'limits',
  'right-size',
  'compare',
  'rates',
]);

/** The sections of an archived run's page (and of a share link without plans). */
export const RUN_SECTIONS: ReadonlySet<AnswerSection> = new Set(['profile', 'limits']);

/** A stored plan's answer: costed for the node count it was planned with, no live NVMe premium. */
export function storedAnswerOf(plan: PlanResult): Answer {
  return answerOf(plan, plan.cost.current?.nodes ?? 1, undefined);
}
