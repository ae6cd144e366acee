import {
  bottleneckStateOf,
  volumeOfRecommendation,
  type PlanResult,
  type Recommendation,
} from '@blockwise/shared/plan';
import { fmtInt, fmtNum, fmtPct } from './format.ts';

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

/**
 * What to provision, in words, from the domain's per-volume configuration:
 * "gp3 1,000 GiB, 11,327 IOPS, 712 MiB/s", or for a stripe
 * "4 × gp3 500 GiB, 16,000 IOPS, 1,000 MiB/s each (2,000 GiB total)". Only the settings the type
 * takes are named (gp2, st1, sc1: the size). null when the type is not viable.
 */
export function describeRecommendation(rec: Recommendation): string | null {
  if (rec.status === 'not-viable') return null;
  const v = volumeOfRecommendation(rec);
  const count = v.count ?? 1;
  const settings = [`${fmtInt(v.sizeGiB)} GiB`];
  if (v.iops !== undefined) settings.push(`${fmtInt(v.iops)} IOPS`);
  if (v.throughputMiBps !== undefined) settings.push(`${fmtNum(v.throughputMiBps, 0)} MiB/s`);
  const config = `${rec.type} ${settings.join(', ')}`;
  return count > 1 ? `${fmtInt(count)} × ${config} each (${fmtInt(rec.sizeGiB)} GiB total)` : config;
}
