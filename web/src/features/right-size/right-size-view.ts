import {
  GP3,
  VOLUME_TRAITS,
  overProvisioningWaste,
  roundCents,
  type CostBreakdown,
  type Gp3Generation,
  type LatencyVerdict,
  type PlanResult,
  type RateCard,
  type Recommendation,
  type VolumeConfig,
  type VolumeType,
} from '@blockwise/shared';

/**
 * Right-sizing and what-if, shaped for tables and charts. Every cost is the domain's
 * (`rightSize`, `monthlyCost`, `overProvisioningWaste`); this module only picks and labels.
 */

export type PlanEntry = { title: string; plan: PlanResult };

export const STATUS_TEXT: Record<Recommendation['status'], string> = {
  meets: 'meets the target',
  'capped-by-instance': 'capped by the instance',
  'not-viable': 'not viable',
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

/** The configuration a recommendation stands for (only the fields its type provisions). */
export function configOf(rec: Recommendation): VolumeConfig {
  const v: VolumeConfig = { type: rec.type, sizeGiB: rec.sizeGiB };
  if (rec.type === 'gp3' || rec.type === 'io1' || rec.type === 'io2') v.iops = rec.iops;
  if (rec.type === 'gp3') v.throughputMiBps = rec.throughputMiBps;
  return v;
}

export type CostBar = {
  key: string;
  name: string;
  kind: 'candidate' | 'right-sized' | 'nvme';
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
        ...c.monthlyUsd,
        premium: 0,
        clusterTotal: c.clusterMonthlyUsd.total,
      });
  });
  const basis = plans.find((p) => p.plan.target?.kind === 'ebs')?.plan ?? plans[0]?.plan;
  for (const rec of basis?.rightSizing.recommendations ?? []) {
    if (rec.status === 'not-viable') continue;
    bars.push({
      key: `r-${rec.type}`,
      name: `${rec.type} right-sized`,
      kind: 'right-sized',
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
  const sameType = plan.rightSizing.recommendations.find(
    (r) => r.type === candidate.type && r.status !== 'not-viable',
  );
  if (sameType) {
    const w = overProvisioningWaste(candidate, configOf(sameType), card, nodes);
    rows.push({ label: `As configured (${plan.target?.description ?? candidate.type})`, ...w });
  }
  const gp3 = plan.rightSizing.recommendations.find((r) => r.type === 'gp3' && r.status !== 'not-viable');
  if (gp3) {
    const atMax: VolumeConfig = {
      type: 'gp3',
      sizeGiB: gp3.sizeGiB,
      iops: GP3.iops.max[gen].value,
      throughputMiBps: GP3.throughputMiBps.max[gen].value,
    };
    const w = overProvisioningWaste(atMax, configOf(gp3), card, nodes);
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
  const rec = plan.rightSizing.recommendations.find((r) => r.type === type && r.status !== 'not-viable');
  if (!current || !rec) return [];
  return [
    {
      label: `As configured (${plan.target?.description ?? type})`,
      provisioned: current.clusterMonthlyUsd,
      rightSized: rec.clusterMonthlyUsd,
      wasteUsd: roundCents(current.clusterMonthlyUsd.total - rec.clusterMonthlyUsd.total),
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
