import type { Comparison } from '../api/contract.ts';
import { roleOfJobSettings, type RoleVerdict } from '../demand/evidence-role.ts';
import type { PlanResult } from '../plan/plan.ts';
import { formatDecimal, formatInt, MiB } from '../units.ts';
import { answerOf, type Answer } from './answer.ts';
import { answersWithPlans, storedRunTitle } from './capacity-answer.ts';

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
  const mibps = (t.read.bytesPerSec + t.write.bytesPerSec) / MiB;
  return {
    ...answer,
    needs: `Delivered ${formatInt(iops)} IOPS and ${formatDecimal(mibps, 0)} MiB/s — capacity evidence (${role.why}), not a workload’s need: add this run to a planning session with the workload’s peaks to size on them.`,
    provision: null,
    instance: null,
  };
}

/** The answer a share link opens with: the plan it words, which configuration it is for, its lines. */
export type StoredAnswer = { plan: PlanResult; title: string; answer: Answer };

/**
 * The answer of a stored comparison, as its share page (web) and its HTML (server) both say it.
 * Saved from a planning session: its first plan, as the planning page answers with the session's
 * first plan (a share link reads like the session it was saved from). Made from runs alone (no
 * session): the first run that was planned, answered as its run page answers — an unpaced fio
 * benchmark is capacity evidence ("Delivered …"), a rate-limited one replays a load (demand), read
 * from the rate caps kept with the run. null: nothing in it was planned (a session with capacity
 * evidence only: see storedCapacityAnswer).
 */
export function storedAnswerPlan(comparison: Pick<Comparison, 'plan' | 'result'>): StoredAnswer | null {
  const { result } = comparison;
  const first = result.plans[0];
  // Saved from a session without demand (capacity evidence only: no plan, or plans on a run at
  // saturation saved before replay marks were kept), no run's plan is its answer either —
  // storedCapacityAnswer says what each storage delivered.
  if (comparison.plan !== null)
    return first && answersWithPlans(comparison)
      ? { plan: first.plan, title: first.title, answer: storedAnswerOf(first.plan) }
      : null;
  const run = result.runs.find((r) => r.summary.plan);
  if (!run?.summary.plan) return null;
  const plan = run.summary.plan;
  return {
    plan,
    title: storedRunTitle(run, result.runs),
    answer: storedRunAnswerOf(plan, roleOfJobSettings(run.jobSettings)),
  };
}
