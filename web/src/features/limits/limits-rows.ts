import {
  bottleneckStateOf,
  utilizationStatus,
  type BottleneckState,
  type Limit,
  type PlanResult,
  type UtilizationStatus,
} from '@blockwise/shared/plan';
import { type Warning } from '@blockwise/shared/problem';
import { fmtInt, fmtNum, fmtPct } from '../../lib/format.ts';

/**
 * A plan's limits as chart rows: demand against each ceiling (volume IOPS and throughput, instance
 * baseline and burst, instance store), utilization as the domain computed it, the bottleneck
 * flagged, and every unit written out — including the unit AWS quotes (`native`: Mbps for instance
 * bandwidth) beside the MiB/s all throughput limits are compared in. Every verdict is the
 * domain's: `bottleneckStateOf` and `utilizationStatus`.
 */

/** `over`: beyond the ceiling's tolerance (or a ceiling the configuration cannot deliver for that long). */
export type LimitStatus = UtilizationStatus;

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
  /** The bottleneck row's badge: "bottleneck", "burst ceiling binds", or "not deliverable". */
  bottleneckBadge: string | null;
  /** The sustained ceiling the workload falls back to when a burst ceiling binds (`bursting`). */
  isSustainedFallback: boolean;
  status: LimitStatus;
  utilizationText: string;
  demandText: string;
  capacityText: string;
  /** IOPS demand if sequential I/O is not merged (the domain's worst case), when it differs. */
  unmergedText: string | null;
  /** The ceiling in the unit AWS quotes it in ("4,750" "Mbps"), when that differs. */
  native: { value: string; unit: string } | null;
  explanation: string;
  warnings: Warning[];
};

/** Above this the bars stop growing (a mislabelled run can show 2,000%) and say "off scale". */
export const MAX_AXIS_UTILIZATION = 3;

const BADGE: Record<BottleneckState, string> = {
  within: 'bottleneck',
  saturated: 'bottleneck',
  bursting: 'bottleneck: burst ceiling binds',
  impossible: 'not deliverable',
};

const amount = (v: number, unit: Limit['unit']) =>
  unit === 'IOPS' ? `${fmtInt(v)} IOPS` : `${fmtNum(v, 1)} MiB/s`;

export function limitRows(plan: PlanResult): { rows: LimitRow[]; axisMax: number } {
  const b = plan.bottleneck;
  const bottleneckId = b?.id ?? null;
  const state = b ? bottleneckStateOf(b) : null;
  const impossible = state === 'impossible';
  const fallbackId = b?.sustained?.id ?? null;
  const ordered = [...plan.limits.filter((l) => l.sustained), ...plan.limits.filter((l) => !l.sustained)];
  const rows = ordered.map((l): LimitRow => {
    const finite = Number.isFinite(l.utilization);
    const offScale = !finite || l.utilization > MAX_AXIS_UTILIZATION;
    const native =
      l.native && !(l.native.unit === l.unit && l.native.capacity === l.capacity)
        ? { value: fmtInt(l.native.capacity), unit: l.native.unit }
        : null;
    const isBottleneck = l.id === bottleneckId;
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
      isBottleneck,
      bottleneckBadge: isBottleneck && state ? BADGE[state] : null,
      isSustainedFallback: l.id === fallbackId,
      // A ceiling the configuration cannot deliver for that long is never "saturated".
      status: isBottleneck && impossible ? 'over' : utilizationStatus(l.utilization),
      utilizationText: fmtPct(l.utilization),
      demandText: amount(l.demand, l.unit),
      capacityText: amount(l.capacity, l.unit),
      unmergedText: l.demandUnmerged !== undefined ? amount(l.demandUnmerged, l.unit) : null,
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

export type BottleneckCallout = {
  state: BottleneckState;
  tone: 'concern' | 'watch' | 'info';
  /** The callout's lead, before the domain's explanation. */
  title: string;
  explanation: string;
  /** `bursting`: the burst ceiling that binds, and the sustained one behind it. */
  burst: { binding: string; sustained: string } | null;
};

/** Every lead but `impossible` names the bottleneck; that one never calls the ceiling "pinned". */
const TITLE: Record<BottleneckState, string> = {
  within: 'Bottleneck: ',
  saturated: 'Bottleneck: ',
  bursting: 'Bottleneck (burst ceiling): ',
  impossible: 'Not deliverable: ',
};

const TONE: Record<BottleneckState, BottleneckCallout['tone']> = {
  within: 'info',
  saturated: 'concern',
  bursting: 'watch',
  impossible: 'concern',
};

/** What the callout above the limits says, from the domain's bottleneck. */
export function bottleneckCallout(plan: PlanResult): BottleneckCallout | null {
  const b = plan.bottleneck;
  if (!b) return null;
  const state = bottleneckStateOf(b);
  const byId = (id: Limit['id']) => plan.limits.find((l) => l.id === id);
  let burst: BottleneckCallout['burst'] = null;
  if (state === 'bursting' && b.sustained) {
    const binding = byId(b.id);
    const sustained = byId(b.sustained.id);
    burst = {
      binding: `${binding?.label ?? b.id}: ${binding ? amount(binding.capacity, binding.unit) : '—'} (${fmtPct(b.utilization)})`,
      sustained: `${sustained?.label ?? b.sustained.id}: ${amount(b.sustained.capacity, b.sustained.unit)} (${fmtPct(b.sustained.utilization)})`,
    };
  }
  return { state, tone: TONE[state], title: TITLE[state], explanation: b.explanation, burst };
}
