import type { nvmePremium } from '../aws/instances.ts';
import { datasetCapacityText } from '../plan/dataset-growth.ts';
import type { PlanResult } from '../plan/plan.ts';
import { volumeOfRecommendation, type Recommendation } from '../plan/right-size.ts';
import { formatDecimal, formatInt, formatPercent, formatUsd } from '../units.ts';

/** The catalog's NVMe premium of the session's instance (null: the catalog pairs no d variant). */
type NvmePremium = ReturnType<typeof nvmePremium>;

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
  const settings = [`${formatInt(v.sizeGiB)} GiB`];
  if (v.iops !== undefined) settings.push(`${formatInt(v.iops)} IOPS`);
  if (v.throughputMiBps !== undefined) settings.push(`${formatDecimal(v.throughputMiBps, 0)} MiB/s`);
  const config = `${rec.type} ${settings.join(', ')}`;
  return count > 1 ? `${formatInt(count)} × ${config} each (${formatInt(rec.sizeGiB)} GiB total)` : config;
}

/**
 * The planning page's one-screen answer, in sentences: what the workload needs, which limit binds
 * (and at what utilization) on which instance, what to provision for how much a month, and what
 * the NVMe alternative costs. Every number is taken from the session's analysis (the first plan's
 * right-sizing, bottleneck and the catalog's NVMe premium): nothing is re-derived here.
 */
export type Answer = {
  needs: string;
  /** Which limit binds, at what utilization, on which instance (null: no configuration to check). */
  binds: string | null;
  bindsTone: 'ok' | 'watch' | 'concern';
  /** What to provision and its monthly cost, with the prices' region and date. */
  provision: string | null;
  /** When the instance cannot carry the target: the cheapest one that can, from the domain's advice. */
  instance: string | null;
  nvme: string | null;
  /** "us-east-1 prices of 2024-07-18" (the rate card section names the source). */
  prices: string;
};

/** The recommendation the answer names: the best-ranked sized one (priced first). */
function chosenRecommendation(plan: PlanResult): Recommendation | null {
  const sized = plan.rightSizing.recommendations.filter((r) => r.status !== 'not-viable');
  const best = (rs: Recommendation[]) => [...rs].sort((a, b) => a.rank - b.rank)[0] ?? null;
  return best(sized.filter((r) => r.status !== 'unpriced')) ?? best(sized);
}

/** "13,125 IOPS, 596 MiB/s" of a recommendation, without its size. */
function describePerformance(rec: Recommendation): string {
  const v = volumeOfRecommendation(rec);
  const parts: string[] = [];
  if (v.iops !== undefined) parts.push(`${formatInt(v.iops)} IOPS`);
  if (v.throughputMiBps !== undefined) parts.push(`${formatDecimal(v.throughputMiBps, 0)} MiB/s`);
  const count = v.count ?? 1;
  return `${count > 1 ? `${formatInt(count)} volumes of ` : ''}${parts.join(', ') || 'its baseline'}`;
}

function bindsText(plan: PlanResult): Pick<Answer, 'binds' | 'bindsTone'> {
  const b = plan.bottleneck;
  if (!b) return { binds: null, bindsTone: 'watch' };
  const on = plan.instanceType ? ` on ${plan.instanceType}` : ' (no instance picked: volume limits only)';
  const state = b.state ?? (b.saturated ? 'saturated' : 'within');
  const tone = state === 'within' ? (b.utilization >= 0.8 ? 'watch' : 'ok') : 'concern';
  // The domain's own sentence ("Instance EBS bandwidth binds at 87.2% (520 of 596 MiB/s)").
  const what = b.explanation.replace(/\.$/, '');
  return {
    binds: `${what}${on}${plan.target ? `, with ${plan.target.description}` : ''}.`,
    bindsTone: tone,
  };
}

/**
 * The capacity part of "Needs …": never a made-up 1 GiB. Without a dataset size and a volume to
 * take it from, the plan warns `capacity_unknown` and the answer says "capacity not known".
 */
function capacityText(plan: PlanResult, datasetGiB: number | null | undefined): string {
  const gib = plan.rightSizing.target.minSizeGiB;
  if (plan.warnings.some((w) => w.code === 'capacity_unknown')) return 'capacity not known';
  if (datasetGiB === null) return `${formatInt(gib)} GiB (the volume’s size; the dataset size is not given)`;
  if (plan.dataset?.growth && gib === plan.dataset.provisionGiB) return datasetCapacityText(plan.dataset);
  return `${formatInt(gib)} GiB`;
}

/**
 * The answer's sentences. `datasetGiB` (the session's, when the caller knows it) lets the capacity
 * part say where the size comes from; omitted, the plan alone decides (`capacity_unknown`).
 */
export function answerOf(
  plan: PlanResult,
  nodes: number,
  premium: NvmePremium | undefined,
  datasetGiB?: number | null,
): Answer {
  const t = plan.rightSizing.target;
  const capacityUnknown = plan.warnings.some((w) => w.code === 'capacity_unknown');
  const rec = chosenRecommendation(plan);
  const priced = rec && rec.status !== 'unpriced';
  const cost = !rec
    ? ''
    : priced
      ? ` for ${formatUsd(rec.monthlyUsd.total)}/month${nodes > 1 ? ` per node (${formatUsd(rec.clusterMonthlyUsd.total)}/month for ${formatInt(nodes)} nodes)` : ''}`
      : ' (no price for it in this region)';
  const capped =
    rec?.status === 'capped-by-instance' ? ' — capped by the instance: it does not meet the target' : '';
  const upgrade = plan.rightSizing.instanceAdvice?.upgrade ?? null;
  const advice = plan.rightSizing.instanceAdvice;
  const instance = advice
    ? upgrade
      ? `${plan.instanceType ?? 'The instance'} cannot sustain the target; ${upgrade.instanceType} can (${formatInt(upgrade.baselineBandwidthMbps)} Mbps, ${formatInt(upgrade.baselineIops)} IOPS${upgrade.usdPerMonthUsEast1 != null ? `, ${formatUsd(upgrade.usdPerMonthUsEast1)}/month on demand in us-east-1` : ''}).`
      : advice.message
    : null;
  const nvme = plan.cost.nvme
    ? `The NVMe alternative costs ${formatUsd(plan.cost.nvme.monthlyPremiumUsd)}/month more than the same instance without local storage.`
    : premium
      ? `The NVMe alternative, ${premium.dType}, costs ${formatUsd(premium.usdPerMonth)}/month more than ${premium.baseType} (on demand, ${premium.region}).`
      : null;
  return {
    needs: `Needs ${formatInt(t.iops)} IOPS and ${formatDecimal(t.throughputMiBps, 0)} MiB/s: the peak plus ${formatPercent(t.headroom, 0)} headroom; ${capacityText(plan, datasetGiB)}.`,
    ...bindsText(plan),
    provision: rec
      ? capacityUnknown
        ? `Provision ${rec.type} for ${describePerformance(rec)}; its size waits for the dataset size (capacity not known), so no monthly cost is given.`
        : `Provision ${describeRecommendation(rec)}${cost}${capped}.`
      : null,
    instance,
    nvme,
    prices: `${plan.rates.region} prices of ${plan.rates.date}`,
  };
}
