import { bottleneckStateOf, type PlanResult } from '@blockwise/shared/plan';
import { fmtPct } from './format.ts';

/**
 * Plans in short words, for any feature's tables and tabs (features do not import each other).
 * Every number and verdict is the domain's; this only words them.
 */

/** "Volume IOPS at 80%", "… (burst) at 100%, sustained 667%", "… not deliverable (250%)". */
export function bottleneckText(plan: PlanResult): string | null {
  const b = plan.bottleneck;
  if (!b) return null;
  const label = plan.limits.find((l) => l.id === b.id)?.label ?? b.id;
  const state = bottleneckStateOf(b);
  if (state === 'impossible') return `${label} not deliverable (${fmtPct(b.utilization, 0)})`;
  if (state === 'bursting' && b.sustained)
    return `${label} at ${fmtPct(b.utilization, 0)}, sustained ${fmtPct(b.sustained.utilization, 0)}`;
  return `${label} at ${fmtPct(b.utilization, 0)}${state === 'saturated' ? ' (saturated)' : ''}`;
}

// What to provision, in words: the answer's own wording (shared), so every table says it alike.
export { describeRecommendation } from '@blockwise/shared/answer';
