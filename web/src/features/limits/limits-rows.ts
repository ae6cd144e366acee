import { SATURATED_UTILIZATION, type Limit, type PlanResult, type Warning } from '@blockwise/shared';
import { fmtInt, fmtNum, fmtPct } from '../../lib/format.ts';

/**
 * A plan's limits as chart rows: demand against each ceiling (volume IOPS and throughput, instance
 * baseline and burst, instance store), utilization as the domain computed it, the bottleneck
 * flagged, and every unit written out — including the unit AWS quotes (`native`: Mbps for instance
 * bandwidth) beside the MiB/s all throughput limits are compared in.
 */

export type LimitStatus = 'over' | 'saturated' | 'high' | 'ok';

export type LimitRow = {
  id: Limit['id'];
  label: string;
  /** "Volume IOPS" or "Instance EBS bandwidth (burst)": the axis label. */
  scope: Limit['scope'];
  sustained: boolean;
  unit: Limit['unit'];
  demand: number;
  capacity: number;
  /** demand ÷ capacity, from the domain. */
  utilization: number;
  /** What the bar draws: the utilization, held at the axis end when it runs off the scale. */
  plotted: number;
  offScale: boolean;
  isBottleneck: boolean;
  status: LimitStatus;
  utilizationText: string;
  demandText: string;
  capacityText: string;
  /** The ceiling in the unit AWS quotes it in ("4,750" "Mbps"), when that differs. */
  native: { value: string; unit: string } | null;
  explanation: string;
  warnings: Warning[];
};

/** Above this the bars stop growing (a mislabelled run can show 2,000%) and say "off scale". */
export const MAX_AXIS_UTILIZATION = 3;
/** Utilization shown as "high" (amber) from here; saturated from the domain's 95%. */
export const HIGH_UTILIZATION = 0.8;

function statusOf(u: number): LimitStatus {
  if (u > 1) return 'over';
  if (u >= SATURATED_UTILIZATION) return 'saturated';
  if (u >= HIGH_UTILIZATION) return 'high';
  return 'ok';
}

const amount = (v: number, unit: Limit['unit']) =>
  unit === 'IOPS' ? `${fmtInt(v)} IOPS` : `${fmtNum(v, 1)} MiB/s`;

export function limitRows(plan: PlanResult): { rows: LimitRow[]; axisMax: number } {
  const bottleneckId = plan.bottleneck?.id ?? null;
  const ordered = [...plan.limits.filter((l) => l.sustained), ...plan.limits.filter((l) => !l.sustained)];
  const rows = ordered.map((l): LimitRow => {
    const finite = Number.isFinite(l.utilization);
    const offScale = !finite || l.utilization > MAX_AXIS_UTILIZATION;
    const native =
      l.native && !(l.native.unit === l.unit && l.native.capacity === l.capacity)
        ? { value: fmtInt(l.native.capacity), unit: l.native.unit }
        : null;
    return {
      id: l.id,
      label: l.label,
      scope: l.scope,
      sustained: l.sustained,
      unit: l.unit,
      demand: l.demand,
      capacity: l.capacity,
      utilization: l.utilization,
      plotted: offScale ? MAX_AXIS_UTILIZATION : l.utilization,
      offScale,
      isBottleneck: l.id === bottleneckId,
      status: statusOf(l.utilization),
      utilizationText: fmtPct(l.utilization),
      demandText: amount(l.demand, l.unit),
      capacityText: amount(l.capacity, l.unit),
      native,
      explanation: l.explanation,
      warnings: plan.warnings.filter((w) => w.subject === l.id),
    };
  });
  const highest = Math.max(0, ...rows.map((r) => r.plotted));
  // The axis always shows 100% (the ceiling) with room to spare; steps of 50%.
  const axisMax = Math.min(MAX_AXIS_UTILIZATION, Math.max(1.2, Math.ceil((highest + 0.05) * 2) / 2));
  return { rows, axisMax };
}
