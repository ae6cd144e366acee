import type { RoleVerdict } from '@blockwise/shared/demand';
import type { PlanResult } from '@blockwise/shared/plan';
import { fmtInt, fmtNum } from '../../lib/format.ts';
import { answerOf, type Answer } from '@blockwise/shared/answer';
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

/**
 * An archived run's answer. A fio run at saturation is capacity evidence (issue 27): it says what
 * this storage delivered, not what a workload needs — so the answer says what it delivered and
 * what bound it, and sizes nothing on it. A rate-limited run replays a load: it is demand, and its
 * stored plan answers as the planning page would.
 */
export function storedRunAnswerOf(plan: PlanResult, role: RoleVerdict): Answer {
  const answer = storedAnswerOf(plan);
  if (role.role === 'demand') return answer;
  const t = plan.profile;
  const iops = t.read.iops + t.write.iops;
  const mibps = (t.read.bytesPerSec + t.write.bytesPerSec) / 1_048_576;
  return {
    ...answer,
    needs: `Delivered ${fmtInt(iops)} IOPS and ${fmtNum(mibps, 0)} MiB/s — capacity evidence (${role.why}), not a workload’s need: add this run to a planning session with the workload’s peaks to size on them.`,
    provision: null,
    instance: null,
  };
}
