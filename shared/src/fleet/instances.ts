import type { InstanceSpec } from '../aws/instance-spec.ts';
import { INSTANCE_BURST_MINUTES_PER_DAY } from '../aws/volume-types.ts';
import { headroomTarget } from '../plan/headroom.ts';
import { instancesSustaining } from '../plan/right-size.ts';
import { formatInt, MiB, mbps, mbpsToMiBps } from '../units.ts';
import { attachmentsOf } from './concurrent.ts';
import { peakOf } from './peak.ts';
import type {
  ConcurrencyGrid,
  ConcurrencyStore,
  FleetInstanceRow,
  FleetVolume,
  FleetVolumePlan,
} from './schema.ts';

/**
 * Per-instance rows of a fleet plan (docs/fleet.md §2, "Instances"): the volumes of one instance
 * share its EBS caps — baseline sustained, maximum for 30 minutes at least once every 24 hours
 * (Amazon EBS-optimized instances) — so their rates are judged together, summed point by point
 * (concurrent.ts), never peak + peak when the points are there.
 */

const DAY_MS = 86_400_000;
const n0 = formatInt;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** An instance's EBS caps in the units the plan shows (IOPS; MiB/s floor-rounded from Mbps). */
export function capsOf(spec: InstanceSpec | null) {
  if (!spec?.ebs) return null;
  return {
    baselineIops: spec.ebs.baselineIops,
    baselineMibps: Math.floor(mbpsToMiBps(mbps(spec.ebs.baselineBandwidthMbps))),
    maximumIops: spec.ebs.maximumIops,
    maximumMibps: Math.floor(mbpsToMiBps(mbps(spec.ebs.maximumBandwidthMbps))),
  };
}

type Caps = NonNullable<ReturnType<typeof capsOf>>;

type Measured = {
  peakIops: number;
  peakMibps: number;
  peakAtMs: number | null;
  /** Worst UTC day's minutes above the baseline, days with any, days covered; null without points. */
  minutes: { worst: number; daysAbove: number; days: number } | null;
};

/** Peak of the summed rates, and minutes per UTC day above the baseline (whole periods). */
export function measureGrid(g: ConcurrencyGrid, periodSeconds: number, caps: Caps | null): Measured {
  let peakIops = 0;
  let peakMibps = 0;
  let peakAtMs: number | null = null;
  let peakScore = -1;
  const above = new Map<number, number>();
  for (let i = 0; i < g.length; i++) {
    const iops = g.ops[i]! / periodSeconds;
    const mibps = g.bytes[i]! / periodSeconds / MiB;
    peakIops = Math.max(peakIops, iops);
    peakMibps = Math.max(peakMibps, mibps);
    // The busiest point: the one nearest its caps (or with the most IOPS without caps).
    const score = caps ? Math.max(iops / caps.baselineIops, mibps / caps.baselineMibps) : iops;
    const t = g.originMs + i * g.stepMs;
    if (score > peakScore) {
      peakScore = score;
      peakAtMs = t;
    }
    if (caps && (iops > caps.baselineIops || mibps > caps.baselineMibps)) {
      const day = Math.floor(t / DAY_MS);
      above.set(day, (above.get(day) ?? 0) + periodSeconds / 60);
    }
  }
  const first = Math.floor(g.originMs / DAY_MS);
  const last = Math.floor((g.originMs + (g.length - 1) * g.stepMs) / DAY_MS);
  return {
    peakIops,
    peakMibps,
    peakAtMs,
    minutes: caps
      ? { worst: Math.max(0, ...above.values()), daysAbove: above.size, days: last - first + 1 }
      : null,
  };
}

/** Whether the instance's 30-minute daily burst carries what is above its baseline. */
export function burstVerdict(
  peak: { iops: number; mibps: number },
  caps: Caps | null,
  worstMinutes: number | null,
): FleetInstanceRow['burst'] {
  if (!caps) return 'unknown';
  if (peak.iops <= caps.baselineIops && peak.mibps <= caps.baselineMibps) return 'not-needed';
  if (peak.iops > caps.maximumIops || peak.mibps > caps.maximumMibps) return 'exceeds';
  if (worstMinutes === null) return 'unknown';
  return worstMinutes <= INSTANCE_BURST_MINUTES_PER_DAY ? 'carried' : 'exceeds';
}

export type InstanceRowsInput = {
  volumes: readonly FleetVolume[];
  plans: readonly FleetVolumePlan[];
  /** Instance id → its type and catalog spec (null when not in the catalog). */
  instances: ReadonlyMap<string, { instanceType: string; spec: InstanceSpec | null }>;
  store: ConcurrencyStore | undefined;
  headroom: number;
  /** Where to look for an instance that sustains the target (catalog `upgradePool`); none: not searched. */
  instancePool?: (spec: InstanceSpec) => readonly InstanceSpec[];
};

const PLANNED = new Set(['over', 'under', 'ok']);

/**
 * One row per running instance with planned volumes: their concurrent peak IOPS and MiB/s, minutes
 * per day above its baseline, whether its burst carries them, the headroom left, and the cheapest
 * instance whose baseline sustains peak × (1 + headroom).
 */
export function instanceRows(input: InstanceRowsInput): FleetInstanceRow[] {
  const planOf = new Map(input.plans.map((p) => [p.volumeId, p]));
  const members = new Map<string, FleetVolume[]>();
  for (const v of input.volumes) {
    const p = planOf.get(v.volumeId);
    if (!p?.observed || !PLANNED.has(p.status)) continue;
    for (const id of attachmentsOf(v)) members.set(id, [...(members.get(id) ?? []), v]);
  }
  const rows: FleetInstanceRow[] = [];
  for (const [instanceId, vols] of [...members].sort(([a], [b]) => a.localeCompare(b))) {
    const known = input.instances.get(instanceId);
    rows.push(rowOf(instanceId, vols, known, planOf, input));
  }
  return rows;
}

function rowOf(
  instanceId: string,
  vols: readonly FleetVolume[],
  known: { instanceType: string; spec: InstanceSpec | null } | undefined,
  planOf: ReadonlyMap<string, FleetVolumePlan>,
  input: InstanceRowsInput,
): FleetInstanceRow {
  const spec = known?.spec ?? null;
  const caps = capsOf(spec);
  const observed = vols.map((v) => planOf.get(v.volumeId)!.observed!);
  const period = Math.max(...observed.map((o) => o.periodSeconds));
  const grid = input.store?.grids.get(instanceId);
  const unaligned =
    input.store?.overflow.has(instanceId) === true ||
    vols.some((v) => input.store?.unaligned.has(v.volumeId));
  const multi = vols.filter((v) => v.alsoAttachedTo.length > 0).map((v) => v.volumeId);
  // The grid holds Sums: added point by point only when every volume's are over one Period and
  // fall at the same times (cells a whole number of Periods apart); else the peaks are added.
  const periods = [...new Set(observed.map((o) => o.periodSeconds))].sort((a, b) => a - b);
  const apart =
    periods.length > 1
      ? `its volumes' Sums are over different periods (${periods.join(' s, ')} s), not comparable point by point`
      : grid && grid.stepMs % (period * 1000) !== 0
        ? `its volumes' ${period} s points do not fall at the same times`
        : null;
  let method: FleetInstanceRow['method'];
  let m: Measured;
  if (vols.length === 1 && multi.length === 0) {
    method = 'single-volume';
    const o = observed[0]!;
    m = {
      peakIops: peakOf(o).iops,
      peakMibps: peakOf(o).mibps,
      peakAtMs: null,
      minutes: null,
    };
  } else if (grid && !unaligned && apart === null) {
    method = 'time-aligned';
    m = measureGrid(grid, period, caps);
  } else {
    // Points not placeable in time (or not kept): each volume's peak, added — an upper bound.
    method = 'summed-peaks';
    m = {
      peakIops: observed.reduce((s, o) => s + peakOf(o).iops, 0),
      peakMibps: observed.reduce((s, o) => s + peakOf(o).mibps, 0),
      peakAtMs: null,
      minutes: null,
    };
  }
  const peak = { iops: Math.round(m.peakIops), mibps: Math.round(m.peakMibps * 10) / 10 };
  const target = headroomTarget({ iops: m.peakIops, mibps: m.peakMibps }, input.headroom);
  const burst = burstVerdict(peak, caps, m.minutes?.worst ?? null);
  const needsMore =
    caps !== null && (target.iops > caps.baselineIops || target.throughputMibps > caps.baselineMibps);
  const next =
    needsMore && spec && input.instancePool
      ? (instancesSustaining(
          { iops: target.iops, throughputMiBps: target.throughputMibps },
          spec,
          input.instancePool(spec),
        )[0] ?? null)
      : null;
  const sustainedBy = next
    ? {
        instanceType: next.instanceType,
        baselineIops: next.baselineIops,
        baselineMibps: Math.floor(mbpsToMiBps(mbps(next.baselineBandwidthMbps))),
        usdPerMonthUsEast1: next.usdPerMonthUsEast1 ?? null,
      }
    : null;
  const row: FleetInstanceRow = {
    instanceId,
    instanceType: known?.instanceType ?? null,
    volumeIds: vols.map((v) => v.volumeId),
    multiAttachVolumeIds: multi,
    method,
    peakIops: peak.iops,
    peakMibps: peak.mibps,
    peakAt: m.peakAtMs === null ? null : new Date(m.peakAtMs).toISOString(),
    periodSeconds: period,
    baselineIops: caps?.baselineIops ?? null,
    baselineMibps: caps?.baselineMibps ?? null,
    maximumIops: caps?.maximumIops ?? null,
    maximumMibps: caps?.maximumMibps ?? null,
    minutesAboveBaselinePerDay: m.minutes?.worst ?? null,
    daysAboveBaseline: m.minutes?.daysAbove ?? null,
    days: m.minutes?.days ?? null,
    burst,
    headroomPct: caps
      ? {
          iops: round1(((caps.baselineIops - peak.iops) / caps.baselineIops) * 100),
          mibps: round1(((caps.baselineMibps - peak.mibps) / caps.baselineMibps) * 100),
        }
      : null,
    target,
    sustainedBy,
    verdict: '',
  };
  row.verdict = verdictOf(row, needsMore, input.headroom, unaligned ? null : apart);
  return row;
}

/** The row in one sentence: together vs the baseline, minutes a day, the burst, headroom, the way out. */
export function verdictOf(
  r: FleetInstanceRow,
  needsMore: boolean,
  headroom: number,
  apart: string | null = null,
): string {
  const name = r.instanceType ?? r.instanceId;
  const together = r.volumeIds.length > 1 ? 'together ' : '';
  const how =
    r.method === 'summed-peaks' && apart !== null
      ? ` (peaks added: ${apart}, an upper bound)`
      : r.method === 'summed-peaks'
        ? " (peaks added: the points could not be aligned in time within the planner's bounds — whole minutes, 455 days, cells per request — an upper bound)"
        : r.method === 'single-volume'
          ? ''
          : ` (VolumeRead/WriteOps and Bytes Sums added point by point at ${r.periodSeconds} s)`;
  if (r.baselineIops === null || r.baselineMibps === null)
    return `${together}${n0(r.peakIops)} IOPS, ${r.peakMibps} MiB/s${how}; ${name}'s EBS limits are not in the catalog`;
  const over: string[] = [];
  if (r.peakIops > r.baselineIops) over.push(`${n0(r.peakIops)} > ${n0(r.baselineIops)} baseline IOPS`);
  if (r.peakMibps > r.baselineMibps) over.push(`${r.peakMibps} > ${n0(r.baselineMibps)} baseline MiB/s`);
  const parts: string[] = [];
  if (over.length === 0) {
    const left = Math.min(r.headroomPct!.iops, r.headroomPct!.mibps);
    parts.push(
      `${together}${n0(r.peakIops)} IOPS, ${r.peakMibps} MiB/s${how}: within ${name}'s ${n0(r.baselineIops)} IOPS / ${n0(r.baselineMibps)} MiB/s baseline, ${left}% headroom left`,
    );
  } else {
    const minutes =
      r.minutesAboveBaselinePerDay === null
        ? r.method === 'single-volume'
          ? ' (minutes per day not counted for a lone volume: its points are not kept, only its statistic)'
          : ' (minutes per day unknown without time-aligned points)'
        : ` for ${n0(r.minutesAboveBaselinePerDay)} min/day at worst (${r.daysAboveBaseline} of ${r.days} days)`;
    parts.push(`${together}${over.join(' and ')}${minutes}${how} on ${name}`);
    const burstText = {
      carried: `carried by its burst (up to ${n0(r.maximumIops!)} IOPS / ${n0(r.maximumMibps!)} MiB/s for ${INSTANCE_BURST_MINUTES_PER_DAY} min per 24 h)`,
      exceeds:
        r.peakIops > r.maximumIops! || r.peakMibps > r.maximumMibps!
          ? `above even its burst maximum (${n0(r.maximumIops!)} IOPS / ${n0(r.maximumMibps!)} MiB/s): throttled`
          : `longer than the ${INSTANCE_BURST_MINUTES_PER_DAY} minutes a day its burst lasts: throttled to the baseline once the burst is spent`,
      unknown: `its burst (${INSTANCE_BURST_MINUTES_PER_DAY} min per 24 h) may or may not carry it`,
      'not-needed': '',
    }[r.burst];
    parts.push(burstText);
    parts.push('no headroom');
  }
  if (needsMore)
    parts.push(
      r.sustainedBy
        ? `${r.sustainedBy.instanceType} sustains the ${n0(r.target.iops)} IOPS / ${n0(r.target.throughputMibps)} MiB/s target (peak × ${1 + headroom}) on its baseline (${n0(r.sustainedBy.baselineIops)} IOPS, ${n0(r.sustainedBy.baselineMibps)} MiB/s${r.sustainedBy.usdPerMonthUsEast1 !== null ? `, $${r.sustainedBy.usdPerMonthUsEast1.toFixed(2)}/month on demand in us-east-1` : ''})`
        : `no replacement instance found whose baseline carries the ${n0(r.target.iops)} IOPS / ${n0(r.target.throughputMibps)} MiB/s target`,
    );
  if (r.multiAttachVolumeIds.length > 0)
    parts.push(
      `${r.multiAttachVolumeIds.join(', ')} ${r.multiAttachVolumeIds.length === 1 ? 'is' : 'are'} Multi-Attach: CloudWatch's VolumeReadOps/WriteOps report the volume's total over all attachments, counted in full toward each instance (an upper bound for each)`,
    );
  return parts.filter(Boolean).join('; ');
}
