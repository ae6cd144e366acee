import {
  GP3,
  VOLUME_TRAITS,
  type Gp3Generation,
  type RateCard,
  type VolumeType,
} from '@blockwise/shared/aws';
import {
  isUsable,
  overProvisioningWaste,
  volumeOfRecommendation,
  wasteOf,
  type CostBreakdown,
  type InstanceAdvice,
  type LatencyVerdict,
  type PlanResult,
  type Recommendation,
  type VolumeConfig,
} from '@blockwise/shared/plan';
import { fmtInt, fmtNum, fmtUsd } from '../../lib/format.ts';
import { describeRecommendation } from '../../lib/plan-text.ts';

/**
 * Right-sizing and what-if, shaped for tables and charts. Every cost is the domain's
 * (`rightSize`, `monthlyCost`, `overProvisioningWaste`); this module only picks and labels.
 */

export type PlanEntry = { title: string; plan: PlanResult };

export const STATUS_TEXT: Record<Recommendation['status'], string> = {
  meets: 'meets the target',
  'capped-by-instance': 'capped by the instance — does not meet the target',
  unpriced: 'no price in this region',
  'not-viable': 'not viable',
};

/** Badge tone per status: only `meets` is good news; a capped one does not meet the target. */
export const STATUS_TONE: Record<Recommendation['status'], 'ok' | 'watch' | 'concern'> = {
  meets: 'ok',
  'capped-by-instance': 'watch',
  unpriced: 'watch',
  'not-viable': 'concern',
};

export const SIDE_BY_SIDE: readonly VolumeType[] = ['gp3', 'io2', 'gp2'];

export type TypeColumn = {
  type: VolumeType;
  name: string;
  rec: Recommendation | null;
  traits: (typeof VOLUME_TRAITS)[VolumeType];
};

/** gp3 vs io2 vs gp2 (or any types), side by side: the right-sized configuration and what each promises. */
export function typeColumns(plan: PlanResult, types: readonly VolumeType[] = SIDE_BY_SIDE): TypeColumn[] {
  return types.map((type) => ({
    type,
    name: VOLUME_TRAITS[type].name,
    rec: plan.rightSizing.recommendations.find((r) => r.type === type) ?? null,
    traits: VOLUME_TRAITS[type],
  }));
}

/** Sized: a configuration exists (it may be capped by the instance, or lack a price). */
export const isSized = (rec: Recommendation) => rec.status !== 'not-viable';

/** The cells of one type's column in the side-by-side table, as text (— where there is nothing). */
export type RecommendationCells = {
  tone: 'ok' | 'watch' | 'concern';
  verdict: string;
  /** What to provision (per volume × count for a stripe). */
  provision: string;
  /** Capacity over all volumes; a stripe says how it is made up. */
  size: string;
  sizeNote: string | null;
  /** What the configuration delivers on this instance. */
  iops: string;
  throughput: string;
  perNode: string;
  cluster: string;
};

export const NO_PRICE = 'no price in this region';

export function recommendationCells(rec: Recommendation): RecommendationCells {
  const base = { tone: STATUS_TONE[rec.status], verdict: `${rec.rank}. ${STATUS_TEXT[rec.status]}` };
  if (!isSized(rec))
    return {
      ...base,
      provision: '—',
      size: '—',
      sizeNote: null,
      iops: '—',
      throughput: '—',
      perNode: '—',
      cluster: '—',
    };
  const count = rec.volumeCount ?? 1;
  const priced = rec.status !== 'unpriced';
  return {
    ...base,
    provision: describeRecommendation(rec) ?? '—',
    size: `${fmtInt(rec.sizeGiB)} GiB`,
    sizeNote:
      count > 1
        ? `total of ${fmtInt(count)} volumes × ${fmtInt(volumeOfRecommendation(rec).sizeGiB)} GiB (RAID 0)`
        : null,
    iops: fmtInt(rec.iops),
    throughput: `${fmtNum(rec.throughputMiBps, 1)} MiB/s`,
    perNode: priced ? fmtUsd(rec.monthlyUsd.total) : NO_PRICE,
    cluster: priced ? fmtUsd(rec.clusterMonthlyUsd.total) : NO_PRICE,
  };
}

export type InstanceOptionRow = {
  instanceType: string;
  role: 'cheapest' | 'alternative';
  bandwidth: string;
  iops: string;
  monthly: string;
  instanceStore: string;
};

/** The instance that sustains the target and the alternatives the domain lists under it. */
export function instanceOptionRows(advice: InstanceAdvice | null): InstanceOptionRow[] {
  if (!advice) return [];
  const options = [
    ...(advice.upgrade ? [{ option: advice.upgrade, role: 'cheapest' as const }] : []),
    ...(advice.alternatives ?? []).map((option) => ({ option, role: 'alternative' as const })),
  ];
  return options.map(({ option: o, role }) => ({
    instanceType: o.instanceType,
    role,
    bandwidth: `${fmtInt(o.baselineBandwidthMbps)} Mbps`,
    iops: `${fmtInt(o.baselineIops)} IOPS`,
    monthly:
      o.usdPerMonthUsEast1 !== null && o.usdPerMonthUsEast1 !== undefined
        ? fmtUsd(o.usdPerMonthUsEast1)
        : 'no us-east-1 price',
    instanceStore: o.instanceStore === undefined ? '—' : o.instanceStore ? 'local NVMe' : 'EBS only',
  }));
}

export type CostBar = {
  key: string;
  name: string;
  kind: 'candidate' | 'right-sized' | 'nvme';
  /** Right-sized bars: whether the configuration meets the target or is capped by the instance. */
  status: Recommendation['status'] | null;
  /** Per node per month (USD), by component; `premium` is the NVMe d-variant premium. */
  storage: number;
  iops: number;
  throughput: number;
  premium: number;
  total: number;
  /** × nodes, as the domain computed it (null for NVMe: priced per instance). */
  clusterTotal: number | null;
};

/**
 * Stacked cost bars per node per month (storage / IOPS / throughput): each candidate as
 * configured, then the right-sized recommendation of each viable type, then the NVMe premium.
 */
export function costBars(plans: readonly PlanEntry[]): CostBar[] {
  const bars: CostBar[] = [];
  plans.forEach(({ title, plan }, i) => {
    const c = plan.cost.current;
    if (c)
      bars.push({
        key: `c${i}`,
        name: title,
        kind: 'candidate',
        status: null,
        ...c.monthlyUsd,
        premium: 0,
        clusterTotal: c.clusterMonthlyUsd.total,
      });
  });
  const basis = plans.find((p) => p.plan.target?.kind === 'ebs')?.plan ?? plans[0]?.plan;
  for (const rec of basis?.rightSizing.recommendations ?? []) {
    if (!isUsable(rec)) continue;
    const count = rec.volumeCount ?? 1;
    bars.push({
      key: `r-${rec.type}`,
      name: `${rec.type} right-sized${count > 1 ? ` (${count} × stripe)` : ''}`,
      kind: 'right-sized',
      status: rec.status,
      ...rec.monthlyUsd,
      premium: 0,
      clusterTotal: rec.clusterMonthlyUsd.total,
    });
  }
  plans.forEach(({ title, plan }, i) => {
    const n = plan.cost.nvme;
    if (n)
      bars.push({
        key: `n${i}`,
        name: title,
        kind: 'nvme',
        status: null,
        storage: 0,
        iops: 0,
        throughput: 0,
        premium: n.monthlyPremiumUsd,
        total: n.monthlyPremiumUsd,
        clusterTotal: null,
      });
  });
  return bars;
}

/** The session's node count as the plans recorded it (every EBS plan stores it). */
export function nodesOf(plans: readonly PlanEntry[]): number {
  return plans.find((p) => p.plan.cost.current)?.plan.cost.current?.nodes ?? 1;
}

export type WasteRow = {
  label: string;
  provisioned: CostBreakdown;
  rightSized: CostBreakdown;
  wasteUsd: number;
};

/**
 * Over-provisioning, the seed's "4 nodes at max vs right-sized" view, computed live with
 * `overProvisioningWaste`: the candidate as configured, and gp3 at its maximum, each against the
 * right-sized configuration of the same type.
 */
export function liveWaste(
  candidate: VolumeConfig,
  plan: PlanResult,
  card: RateCard,
  nodes: number,
  gen: Gp3Generation,
): WasteRow[] {
  const rows: WasteRow[] = [];
  const sameType = plan.rightSizing.recommendations.find((r) => r.type === candidate.type && isUsable(r));
  if (sameType) {
    const w = overProvisioningWaste(candidate, volumeOfRecommendation(sameType), card, nodes);
    rows.push({ label: `As configured (${plan.target?.description ?? candidate.type})`, ...w });
  }
  const gp3 = plan.rightSizing.recommendations.find((r) => r.type === 'gp3' && isUsable(r));
  if (gp3) {
    const atMax: VolumeConfig = {
      ...volumeOfRecommendation(gp3),
      iops: GP3.iops.max[gen].value,
      throughputMiBps: GP3.throughputMiBps.max[gen].value,
    };
    const w = overProvisioningWaste(atMax, volumeOfRecommendation(gp3), card, nodes);
    rows.push({
      label: `gp3 at maximum (${GP3.iops.max[gen].value.toLocaleString('en-US')} IOPS, ${GP3.throughputMiBps.max[gen].value.toLocaleString('en-US')} MiB/s)`,
      ...w,
    });
  }
  return rows;
}

/**
 * The same view from a stored plan (a share link): the plan's cluster cost against the right-sized
 * configuration of the candidate's type, both as the domain stored them.
 */
export function storedWaste(plan: PlanResult, type: VolumeType): WasteRow[] {
  const current = plan.cost.current;
  const rec = plan.rightSizing.recommendations.find((r) => r.type === type && isUsable(r));
  if (!current || !rec) return [];
  return [
    {
      label: `As configured (${plan.target?.description ?? type})`,
      ...wasteOf(current.clusterMonthlyUsd, rec.clusterMonthlyUsd),
    },
  ];
}

/** The verdict at the percentile the user focuses on, per direction. */
export function focusVerdicts(
  plan: PlanResult,
  percentile: string,
): { read: LatencyVerdict | null; write: LatencyVerdict | null } {
  const pick = (d: 'read' | 'write') =>
    plan.latency[d]?.verdicts.find((v) => v.percentile === percentile) ?? null;
  return { read: pick('read'), write: pick('write') };
}
