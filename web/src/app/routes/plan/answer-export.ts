import { answerOf, SESSION_ASK } from '@blockwise/shared/answer';
import { capacityExport } from '../../../features/export/capacity-export.ts';
import type { AnswerExport } from '../../../features/export/export-rows.ts';
import { deliveredOfSession } from './demand-view.ts';
import type { PlanSessionView } from './use-plan-session.ts';

/** The answer box's ask (CapacityAnswer), as text. */
const SESSION_ASK_TEXT = `${SESSION_ASK.question} ${SESSION_ASK.enter} ${SESSION_ASK.importMetrics}${SESSION_ASK.then}`;

/**
 * The planning page's answer as the CSV's first rows: the first plan's lines when the session has
 * demand; with none, what each storage delivered, as its answer box says (the plans below are a
 * what-if on a benchmark, not what the workload needs).
 */
export function sessionAnswerExport(
  view: Pick<PlanSessionView, 'state' | 'analysis' | 'result' | 'firstPlan' | 'eff'>,
): AnswerExport | undefined {
  const { state, analysis, result, firstPlan, eff } = view;
  if (!firstPlan || !result?.ok) return undefined;
  if (analysis.demand.ref === null) {
    const { rows, comparison } = deliveredOfSession(state.inputs, analysis);
    return capacityExport(rows, comparison, SESSION_ASK_TEXT, result.value.rates);
  }
  return {
    for: result.value.plans[0]?.title ?? 'the session',
    ...answerOf(
      firstPlan,
      eff.nodes,
      eff.instanceType ? analysis.nvmePremiums[eff.instanceType] : undefined,
      eff.datasetGiB,
    ),
  };
}
