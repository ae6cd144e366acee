import type { Audience } from '../audience.ts';
import type { InstanceSpec } from '../aws/instance-spec.ts';
import { missingPriceMessage, priceAvailable, type RateCard, type RegionRateCard } from '../aws/rate-card.ts';
import {
  descriptorOf,
  INSTANCE_BURST_MINUTES_PER_DAY,
  VOLUME_TYPES,
  type VolumeType,
} from '../aws/volume-types.ts';
import { demandFromFleetSeries, describeCensoring, type FleetDemand } from '../demand/fleet.ts';
import { monthlyCost } from '../plan/cost.ts';
import { attachContextOf } from '../plan/limits.ts';
import { tradeOf } from '../plan/alternatives.ts';
import { isUsable, rightSize, volumeOfRecommendation, type Recommendation } from '../plan/right-size.ts';
import {
  provisionedFieldsOf,
  volumeCapabilities,
  volumeWithSettings,
  type VolumeConfig,
} from '../plan/volume.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { formatInt, MiB, mbps, mbpsToMiBps, roundCents } from '../units.ts';
import { checkDelivered } from './delivered.ts';
import { headroomTarget } from '../plan/headroom.ts';
import { capsOf, instanceRows } from './instances.ts';
import { peakOf } from './peak.ts';
import { instanceEvidenceOf, judgeBinding, volumeEvidenceOf, type VolumeChecks } from './evidence.ts';
import { gcdMs } from './gcd.ts';
import { modeOf } from './metrics.ts';
import type {
  FleetAlternative,
  FleetBinding,
  FleetConfig,
  FleetInstance,
  FleetInstanceRow,
  FleetObserved,
  FleetPlan,
  FleetTotals,
  FleetUnused,
  FleetVolume,
  FleetVolumePlan,
  FleetVolumeStatus,
  PlanFleetInput,
  FleetMetrics,
  FleetSeriesSummary,
} from './schema.ts';

/**
 * The rule AWS documents for changing a volume again, shown under every list of commands. The
 * EC2 API reference (ModifyVolume) words it: wait for the modification to reach the completed
 * state; up to four modifications within a rolling 24-hour period, the volume in-use or available.
 * (Before 2025 the rule was one modification per six hours.) docs/fleet.md cites both pages.
 */
export const MODIFICATION_RULE =
  'A volume can be modified again only after its previous modification has completed (aws ec2 describe-volumes-modifications shows the state: modifying, optimizing, completed), and at most four times within a rolling 24-hour period; size can only grow, so a size increase has no rollback. Sources: Amazon EBS User Guide, "Requirements for Amazon EBS volume modifications", https://docs.aws.amazon.com/ebs/latest/userguide/modify-volume-requirements.html; Amazon EC2 API Reference, "ModifyVolume", https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ModifyVolume.html';

const DEFAULT_MIN_HISTORY_DAYS = 1;
const DEFAULT_MIN_POINTS = 12;
const DEFAULT_PERIOD_SECONDS = 300;

const isVolumeType = (t: string): t is VolumeType => (VOLUME_TYPES as readonly string[]).includes(t);
const n0 = formatInt;

/** The describe-volumes configuration as the cost and capability functions take it; null for `standard` (magnetic). */
export function volumeConfigOf(
  v: Pick<FleetVolume, 'type' | 'sizeGib' | 'iops' | 'throughputMibps'>,
): VolumeConfig | null {
  if (!isVolumeType(v.type)) return null;
  // describe-volumes reports gp2's baseline as Iops too: volumeWithSettings keeps only what the type takes.
  return volumeWithSettings({
    type: v.type,
    sizeGiB: v.sizeGib,
    iops: v.iops || null,
    throughputMiBps: v.throughputMibps || null,
  });
}

function costOf(config: VolumeConfig | null, card: RegionRateCard): number | null {
  if (config === null || !priceAvailable(card, config.type)) return null;
  return monthlyCost(config, card as RateCard).total;
}

function fleetConfigOf(
  config: VolumeConfig,
  card: RegionRateCard,
  instance: InstanceSpec | null,
): FleetConfig {
  const caps = volumeCapabilities(config, attachContextOf(instance));
  return {
    type: config.type,
    sizeGib: config.sizeGiB,
    iops: caps.iops,
    throughputMibps: caps.throughputMiBps,
    usdPerMonth: costOf(config, card),
  };
}

function currentOf(v: FleetVolume, card: RegionRateCard, instance: InstanceSpec | null): FleetConfig {
  const config = volumeConfigOf(v);
  if (config === null)
    return {
      type: v.type,
      sizeGib: v.sizeGib,
      iops: v.iops,
      throughputMibps: v.throughputMibps,
      usdPerMonth: null,
    };
  return fleetConfigOf(config, card, instance);
}

type VolumeSeries = Partial<Record<string, FleetSeriesSummary>>;

const partsOf = (series: VolumeSeries) => [
  series.VolumeReadOps,
  series.VolumeWriteOps,
  series.VolumeReadBytes,
  series.VolumeWriteBytes,
];

/**
 * The Period of a volume's points from their spacing, seconds; null when no series has two
 * points. All four metrics were queried with one Period, so the gcd of their spacings is a
 * multiple of it; when the sampled gaps all skipped periods (an idle volume), the number of points
 * over the span bounds it from above, and the largest whole-minute divisor under that bound is taken.
 */
export function periodOfSeries(series: VolumeSeries): number | null {
  let spacing = 0;
  let bound = Infinity;
  for (const s of partsOf(series)) {
    if (!s) continue;
    spacing = gcdMs(spacing, s.spacingMs);
    if (s.count >= 2 && s.lastMs > s.firstMs) bound = Math.min(bound, (s.lastMs - s.firstMs) / (s.count - 1));
  }
  if (spacing === 0) return null;
  if (spacing <= bound) return spacing / 1000;
  for (let d = spacing - 60_000; d >= 60_000; d -= 60_000)
    if (spacing % d === 0 && d <= bound) return d / 1000;
  return 60;
}

/**
 * The reference Period: the one given, else the most common among the volumes (CloudWatch answers
 * every query of a request at its Period), else 300 s (`fleet query`'s default).
 */
function referencePeriodOf(inferred: ReadonlyMap<string, number | null>, given: number | undefined): number {
  if (given !== undefined) return given;
  const counts = new Map<number, number>();
  for (const p of inferred.values()) if (p !== null) counts.set(p, (counts.get(p) ?? 0) + 1);
  return modeOf(counts) ?? DEFAULT_PERIOD_SECONDS;
}

/**
 * A volume's Period: its own, unless that is a multiple of the reference — then the volume's
 * points merely skipped periods without I/O (an hourly job on 5-minute data), and the reference
 * is its Period; dividing by the longer one would understate its rates.
 */
function volumePeriodOf(inferred: number | null, reference: number): number {
  if (inferred === null || inferred % reference === 0) return reference;
  return inferred;
}

/** The observed peaks as an I/O profile (access unknown: random is assumed, the safe side; HDD volumes sequential). */
function profileOf(v: FleetVolume, o: FleetObserved): IoProfile {
  // The finest evidence (the busiest minute) scales both directions up to the peak it shows.
  const sumIops = o.readIops + o.writeIops;
  const sumMibps = o.readMibps + o.writeMibps;
  const { iops: peakIops, mibps: peakMibps } = peakOf(o);
  const fi = sumIops > 0 ? peakIops / sumIops : 1;
  const fm = sumMibps > 0 ? peakMibps / sumMibps : 1;
  const dir = (iops: number, mibps: number) => ({
    iops,
    bytesPerSec: mibps * MiB,
    blockSizeBytes: iops > 0 && mibps > 0 ? (mibps * MiB) / iops : null,
    latency: null,
  });
  const hdd = isVolumeType(v.type) && descriptorOf(v.type).traits.media === 'hdd';
  const pattern = hdd ? 'sequential' : 'random';
  return {
    source: 'observed',
    label: v.volumeId,
    read: dir(sumIops > 0 ? o.readIops * fi : peakIops / 2, sumMibps > 0 ? o.readMibps * fm : peakMibps / 2),
    write: dir(
      sumIops > 0 ? o.writeIops * fi : peakIops / 2,
      sumMibps > 0 ? o.writeMibps * fm : peakMibps / 2,
    ),
    durationSec: o.days * 86_400,
    benchmark: null,
    warnings: [],
    access: { read: pattern, write: pattern, origin: 'assumed' },
  };
}

/**
 * Types a volume may move to by modify-volume without changing what it is for: General Purpose
 * SSD → gp3 (or stays gp2 when that is cheaper); io1/io2 stay Provisioned IOPS (io2: same price,
 * more durable); HDD stays HDD. Never SSD → HDD: the access pattern is unknown. Each type's
 * descriptor lists them (`alternatives`, aws/volume-types/*.ts): a new type says its own, rather
 * than falling through to some other family's.
 */
function candidateTypes(type: VolumeType): VolumeType[] {
  return [...descriptorOf(type).alternatives];
}

type Limit = { id: FleetBinding['id']; cap: number; demand: number; what: string };

/** The limit the peak is closest to (highest utilization), volume and instance together. */
function bindingOf(o: FleetObserved, current: FleetConfig, instance: InstanceSpec | null): FleetBinding {
  const { iops: iopsPeak, mibps: mibPeak } = peakOf(o);
  const limits: Limit[] = [];
  if (current.iops)
    limits.push({
      id: 'volume-iops',
      cap: current.iops,
      demand: iopsPeak,
      what: `the ${current.type} volume's ${n0(current.iops)} IOPS`,
    });
  if (current.throughputMibps)
    limits.push({
      id: 'volume-throughput',
      cap: current.throughputMibps,
      demand: mibPeak,
      what: `the ${current.type} volume's ${n0(current.throughputMibps)} MiB/s`,
    });
  if (instance?.ebs) {
    limits.push({
      id: 'instance-iops',
      cap: instance.ebs.baselineIops,
      demand: iopsPeak,
      what: `${instance.instanceType}'s ${n0(instance.ebs.baselineIops)} baseline EBS IOPS`,
    });
    const mib = Math.floor(mbpsToMiBps(mbps(instance.ebs.baselineBandwidthMbps)));
    limits.push({
      id: 'instance-throughput',
      cap: mib,
      demand: mibPeak,
      what: `${instance.instanceType}'s ${n0(mib)} MiB/s baseline EBS bandwidth (${n0(instance.ebs.baselineBandwidthMbps)} Mbps)`,
    });
  }
  if (limits.length === 0) return { id: 'none', explanation: 'no known limit' };
  const top = limits.reduce((a, b) => (b.demand / b.cap > a.demand / a.cap ? b : a));
  const unit = top.id.endsWith('iops') ? 'IOPS' : 'MiB/s';
  return {
    id: top.id,
    explanation: `peak ${n0(top.demand)} ${unit} is ${Math.round((top.demand / top.cap) * 100)}% of ${top.what}`,
  };
}

/** The settings modify-volume takes for a type (none for `standard`, which is never modified). */
const takesOf = (type: string) =>
  isVolumeType(type) ? provisionedFieldsOf(type) : { iops: false, throughputMiBps: false };

/** `--volume-type gp3 --size 100 --iops 3000 --throughput 125`, only the flags the type takes. */
function modifyFlags(c: FleetConfig, withSize: boolean): string {
  const parts = [`--volume-type ${c.type}`];
  const takes = takesOf(c.type);
  if (withSize) parts.push(`--size ${c.sizeGib}`);
  if (takes.iops && c.iops !== null) parts.push(`--iops ${c.iops}`);
  if (takes.throughputMiBps && c.throughputMibps !== null) parts.push(`--throughput ${c.throughputMibps}`);
  return parts.join(' ');
}

/** modify-volume, its rollback (not for size), and the aws_ebs_volume attribute diff. */
export function commandsFor(
  volumeId: string,
  current: FleetConfig,
  rec: FleetConfig,
): FleetVolumePlan['commands'] {
  const grows = rec.sizeGib > current.sizeGib;
  const modify = [`aws ec2 modify-volume --volume-id ${volumeId} ${modifyFlags(rec, true)}`];
  const rollback = [
    `aws ec2 describe-volumes-modifications --volume-ids ${volumeId} --query 'VolumesModifications[0].ModificationState'  # wait for completed`,
    `aws ec2 modify-volume --volume-id ${volumeId} ${modifyFlags(current, false)}`,
  ];
  if (grows)
    rollback.push(
      `# size grew ${current.sizeGib} → ${rec.sizeGib} GiB: no rollback (EBS volumes can only grow)`,
    );
  const attr = (c: FleetConfig) => ({
    type: `"${c.type}"`,
    size: String(c.sizeGib),
    iops: takesOf(c.type).iops ? String(c.iops) : null,
    throughput: takesOf(c.type).throughputMiBps ? String(c.throughputMibps) : null,
  });
  const a = attr(current);
  const b = attr(rec);
  const lines = (['type', 'size', 'iops', 'throughput'] as const).flatMap((k) => {
    const pad = k.padEnd(10);
    if (a[k] === b[k]) return a[k] === null ? [] : [`   ${pad} = ${a[k]}`];
    return [
      ...(a[k] === null ? [] : [`-  ${pad} = ${a[k]}`]),
      ...(b[k] === null ? [] : [`+  ${pad} = ${b[k]}`]),
    ];
  });
  return {
    modify,
    rollback,
    terraform: [`resource "aws_ebs_volume" "…" { # ${volumeId}`, ...lines, '}'].join('\n'),
  };
}

const noCommands = { modify: [], rollback: [], terraform: '' };

function unusedOf(
  v: FleetVolume,
  reason: FleetUnused['reason'],
  current: FleetConfig,
  snapshotUsdPerGibMonth: number | null,
): FleetUnused {
  // Assumption: the snapshot holds the whole volume (the first snapshot copies every written block; an upper bound).
  const snapshot = snapshotUsdPerGibMonth === null ? null : roundCents(v.sizeGib * snapshotUsdPerGibMonth);
  const saving = current.usdPerMonth === null ? null : roundCents(current.usdPerMonth - (snapshot ?? 0));
  const commands = [
    `aws ec2 create-snapshot --volume-id ${v.volumeId} --description "before deleting ${v.volumeId}"`,
    'aws ec2 wait snapshot-completed --snapshot-ids <snapshot id printed above>',
    ...(reason === 'stopped_instance' ? [`aws ec2 detach-volume --volume-id ${v.volumeId}`] : []),
    `aws ec2 delete-volume --volume-id ${v.volumeId}`,
  ];
  return {
    volumeId: v.volumeId,
    reason,
    instanceId: v.instanceId,
    sizeGib: v.sizeGib,
    usdPerMonth: current.usdPerMonth,
    snapshotUsdPerMonth: snapshot,
    savingUsdPerMonth: saving,
    commands,
  };
}

type Ctx = Required<Pick<PlanFleetInput, 'headroom' | 'statistic' | 'minHistoryDays' | 'minPoints'>> & {
  card: RegionRateCard;
  pool: (spec: InstanceSpec) => readonly InstanceSpec[];
  ignoreRecurring: boolean;
  audience: Audience;
};

/** The instance as right-sizing sees it once its EBS caps are set aside (Nitro and attachments kept). */
const withoutCaps = (instance: InstanceSpec | null): InstanceSpec | null =>
  instance ? { ...instance, ebs: null } : null;

/**
 * io1/io2 → gp3 whenever gp3 meets the target (plan/alternatives.ts): listed beside the
 * recommendation with its cost and what it gives up, never chosen silently.
 */
function gp3Alternative(
  v: FleetVolume,
  o: FleetObserved,
  sizingInstance: InstanceSpec | null,
  instance: InstanceSpec | null,
  current: FleetConfig,
  rec: FleetConfig | null,
  ctx: Ctx,
): FleetAlternative[] {
  if (!isVolumeType(v.type) || !descriptorOf(v.type).provisionedIops) return [];
  const result = rightSize({
    profile: profileOf(v, o),
    headroom: ctx.headroom,
    minSizeGiB: v.sizeGib,
    instance: sizingInstance,
    rateCard: ctx.card,
    types: ['gp3'],
  });
  const gp3 = result.recommendations.find(
    (r: Recommendation) => r.status === 'meets' && (r.volumeCount ?? 1) === 1,
  );
  if (!gp3) return [];
  const config = fleetConfigOf(volumeOfRecommendation(gp3), ctx.card, instance);
  const saving =
    current.usdPerMonth !== null && config.usdPerMonth !== null
      ? roundCents(current.usdPerMonth - config.usdPerMonth)
      : null;
  const beside =
    rec && rec.type === 'io2'
      ? `; beside it, io2 (${rec.usdPerMonth !== null ? `$${rec.usdPerMonth.toFixed(2)}/month` : 'unpriced'}) keeps sub-millisecond latency and 99.999 % durability`
      : '';
  return [
    {
      config,
      savingUsdPerMonth: saving,
      trade: `${tradeOf(v.type, 'gp3')}${beside}`,
      modify: `aws ec2 modify-volume --volume-id ${v.volumeId} ${modifyFlags(config, true)}`,
    },
  ];
}

/**
 * Why a recommendation stops below the target: the instance's baseline EBS limits, not the volume,
 * bind. Says which limit, and the two ways out: an instance type with a higher baseline, or the
 * instance's EBS burst (its maximum, for 30 minutes at least once every 24 hours) if the peaks are
 * that short (InstanceSpec; aws/volume-types.ts INSTANCE_BURST_MINUTES_PER_DAY).
 */
function instanceCapNote(
  instance: InstanceSpec & { ebs: NonNullable<InstanceSpec['ebs']> },
  target: { iops: number; throughputMibps: number },
): string {
  const ebs = instance.ebs;
  const mib = Math.floor(mbpsToMiBps(mbps(ebs.baselineBandwidthMbps)));
  const over: string[] = [];
  if (target.iops > ebs.baselineIops)
    over.push(`${n0(ebs.baselineIops)} baseline EBS IOPS, below the ${n0(target.iops)} IOPS target`);
  if (target.throughputMibps > mib)
    over.push(
      `${n0(mib)} MiB/s baseline EBS bandwidth, below the ${n0(target.throughputMibps)} MiB/s target`,
    );
  const name = instance.instanceType;
  return `recommendation capped at ${name}'s ${over.join(' and ') || 'baseline EBS limits'}: the instance, not the volume, binds — move to an instance type with a higher EBS baseline, or rely on ${name}'s EBS burst (up to ${n0(ebs.maximumIops)} IOPS, ${n0(ebs.maximumBandwidthMbps)} Mbps) if the peaks last at most ${INSTANCE_BURST_MINUTES_PER_DAY} minutes a day`;
}

/** Right-sizes one volume that has enough history. */
function planMeasured(
  v: FleetVolume,
  base: FleetVolumePlan,
  demand: FleetDemand,
  instance: InstanceSpec | null,
  ctx: Ctx,
): FleetVolumePlan {
  const o = demand.observed;
  const current = base.current;
  const factor = 1 + ctx.headroom;
  const peak = peakOf(o);
  const target = headroomTarget(peak, ctx.headroom);
  const binding = bindingOf(o, current, instance);
  const notes = [...base.notes, ...demand.notes];
  if (!o.exact)
    notes.push(
      `the ${ctx.statistic} is an upper bound: the points arrived in an order that let the summary drop the exact value`,
    );
  if (!isVolumeType(v.type)) {
    notes.push(
      `${v.type} (previous-generation magnetic) is not right-sized: migrate by snapshot and restore`,
    );
    return { ...base, status: 'ok', observed: o, target, binding, notes };
  }
  const caps = {
    iops: Math.min(current.iops ?? Infinity, instance?.ebs?.baselineIops ?? Infinity),
    mib: Math.min(current.throughputMibps ?? Infinity, capsOf(instance)?.baselineMibps ?? Infinity),
  };
  // Pinned at the limit: demand is at least the limit, unknown above it — never right-sized (demand/censoring.ts).
  const censored = demand.censoring.length > 0;
  const short = censored || target.iops > caps.iops || target.throughputMibps > caps.mib;
  const result = rightSize({
    profile: profileOf(v, o),
    headroom: ctx.headroom,
    minSizeGiB: v.sizeGib, // modify-volume can only grow a volume
    instance,
    rateCard: ctx.card,
    types: candidateTypes(v.type),
  });
  let best = result.recommendations.find((r) => isUsable(r) && (r.volumeCount ?? 1) === 1) ?? null;
  // Never below what is delivered today, silently (delivered.ts).
  const delivered =
    best?.status === 'capped-by-instance'
      ? checkDelivered({
          peak,
          target,
          instance,
          headroom: ctx.headroom,
          pool: instance ? ctx.pool(instance) : [],
        })
      : ({ kind: 'none' } as const);
  let sizingInstance = instance;
  if (delivered.kind === 'keep-target') {
    sizingInstance = withoutCaps(instance);
    const uncapped = rightSize({
      profile: profileOf(v, o),
      headroom: ctx.headroom,
      minSizeGiB: v.sizeGib,
      instance: sizingInstance,
      rateCard: ctx.card,
      types: candidateTypes(v.type),
    });
    best = uncapped.recommendations.find((r) => isUsable(r) && (r.volumeCount ?? 1) === 1) ?? best;
  }
  let risk: string | null = null;
  if (short) {
    const instanceBinds = binding.id.startsWith('instance');
    risk = censored
      ? `${demand.censoring.map(describeCensoring).join('; ')}: raise the limit (to at least the target, ${n0(target.iops)} IOPS / ${n0(target.throughputMibps)} MiB/s) and measure again before sizing down`
      : `target ${n0(target.iops)} IOPS / ${n0(target.throughputMibps)} MiB/s (peak × ${factor}) exceeds what is delivered: ${binding.explanation}${instanceBinds ? '; the instance, not the volume, must change' : ''}`;
    if (current.type === 'gp2' && v.sizeGib < 1000)
      notes.push('gp2 below 1 TiB bursts to 3,000 IOPS while credits last: the peak may be a burst');
  }
  if (best === null) {
    notes.push(
      `no single ${candidateTypes(v.type).join('/')} volume carries the target: ${result.recommendations[0]?.reasons.join('; ') ?? ''}`,
    );
    return { ...base, status: short ? 'under' : 'ok', observed: o, target, binding, risk, notes, censored };
  }
  if (current.usdPerMonth === null && !priceAvailable(ctx.card, v.type as VolumeType))
    notes.push(missingPriceMessage(ctx.card, v.type as VolumeType));
  const rec = fleetConfigOf(volumeOfRecommendation(best), ctx.card, instance);
  const saving =
    current.usdPerMonth !== null && rec.usdPerMonth !== null
      ? roundCents(current.usdPerMonth - rec.usdPerMonth)
      : 0;
  const changes = short || saving > 0;
  if (best.status === 'capped-by-instance' && instance?.ebs)
    notes.push(instanceCapNote({ ...instance, ebs: instance.ebs }, target));
  if (delivered.kind === 'cap') notes.push(delivered.note);
  const instanceFlag = delivered.kind === 'keep-target' ? delivered.flag : null;
  if (instanceFlag) notes.push(instanceFlag.reason, instanceFlag.cappingGivesUp);
  const alternatives = gp3Alternative(v, o, sizingInstance, instance, current, rec, ctx);
  const status: FleetVolumeStatus = short ? 'under' : saving > 0 ? 'over' : 'ok';
  if (!changes)
    return {
      ...base,
      status,
      observed: o,
      target,
      binding,
      risk,
      notes,
      alternatives,
      instanceFlag,
      censored,
    };
  if (rec.sizeGib > current.sizeGib)
    notes.push(
      `size raised ${current.sizeGib} → ${rec.sizeGib} GiB: ${best.reasons.find((r) => r.startsWith('size')) ?? 'for IOPS per GiB'}`,
    );
  return {
    ...base,
    status,
    observed: o,
    target,
    binding,
    recommended: rec,
    savingUsdPerMonth: saving,
    risk,
    commands: commandsFor(v.volumeId, current, rec),
    notes,
    alternatives,
    instanceFlag,
    censored,
  };
}

/**
 * Volumes whose data is incomplete: a result answered `StatusCode` `PartialData` — more points
 * follow with the response's NextToken [cw-api] (a result without a StatusCode in a response with
 * a NextToken counts as one) — and no later metrics file holds the volume (the next page).
 * Results marked `Complete` in a NextToken response are whole: the next page holds other results.
 */
function incompleteVolumes(pages: FleetMetrics['pages']): Map<string, string> {
  const out = new Map<string, string>();
  pages.forEach((p, i) => {
    const later = new Set(pages.slice(i + 1).flatMap((q) => q.volumeIds));
    for (const id of p.partialVolumeIds)
      if (!later.has(id))
        out.set(
          id,
          `${p.file}: CloudWatch answered PartialData for this volume${p.nextToken ? ' (the response has a NextToken: more pages exist)' : ''} and no later metrics file continues it — its points are only this page's; fetch all pages (the AWS CLI does unless --max-items or --no-paginate was used)`,
        );
  });
  return out;
}

/**
 * Plans a fleet: per volume the current configuration and cost, the observed peak, the binding
 * limit, the cheapest configuration meeting peak × (1 + headroom) (plan/right-size.ts), and the
 * commands; totals per type, per instance, and for the fleet. Every volume is listed.
 */
export function planFleet(input: PlanFleetInput): FleetPlan {
  const card = input.catalog.rateCard;
  const ctx: Ctx = {
    card,
    headroom: input.headroom,
    statistic: input.statistic,
    minHistoryDays: input.minHistoryDays ?? DEFAULT_MIN_HISTORY_DAYS,
    minPoints: input.minPoints ?? DEFAULT_MIN_POINTS,
    pool: input.catalog.instancePool ?? (() => []),
    ignoreRecurring: input.ignoreRecurring === true,
    audience: input.audience ?? 'cli',
  };
  const incomplete = incompleteVolumes(input.metrics.pages ?? []);
  // Each volume's Period from its timestamps (docs/fleet.md §2): a 90-day query at 3,600 s divided by 300 would be 12× too high.
  const inferred = new Map<string, number | null>();
  for (const v of input.volumes) {
    const series = input.metrics.series.get(v.volumeId);
    inferred.set(v.volumeId, series ? periodOfSeries(series) : null);
  }
  const referencePeriod = referencePeriodOf(inferred, input.periodSeconds);
  const instances = new Map<string, FleetInstance>((input.instances ?? []).map((i) => [i.instanceId, i]));
  const specs = new Map<string, InstanceSpec | null>();
  const specOf = (type: string) => {
    if (!specs.has(type)) specs.set(type, input.catalog.findInstance(type) ?? null);
    return specs.get(type)!;
  };
  const notes: string[] = [];
  const unknownTypes = new Set<string>();
  const volumes: FleetVolumePlan[] = [];
  const unused: FleetUnused[] = [];
  const noData: FleetPlan['noData'] = [];

  for (const v of input.volumes) {
    const inst = v.instanceId ? instances.get(v.instanceId) : undefined;
    const spec = inst ? specOf(inst.instanceType) : null;
    if (inst && spec === null) unknownTypes.add(inst.instanceType);
    const current = currentOf(v, card, spec);
    const base: FleetVolumePlan = {
      volumeId: v.volumeId,
      name: v.name,
      instanceId: v.instanceId,
      instanceType: inst?.instanceType ?? null,
      status: 'ok',
      current,
      observed: null,
      target: null,
      binding: null,
      recommended: null,
      savingUsdPerMonth: 0,
      risk: null,
      commands: noCommands,
      notes:
        current.usdPerMonth === null
          ? [isVolumeType(v.type) ? missingPriceMessage(card, v.type) : `no price for ${v.type}`]
          : [],
    };
    const period = volumePeriodOf(inferred.get(v.volumeId) ?? null, referencePeriod);
    const demand = demandFromFleetSeries(input.metrics.series.get(v.volumeId), {
      statistic: ctx.statistic,
      periodSeconds: period,
      ignoreRecurring: ctx.ignoreRecurring,
      audience: ctx.audience,
      limits: { iops: current.iops, mibps: current.throughputMibps },
    });
    const o = demand?.observed ?? null;
    const cut = incomplete.get(v.volumeId);
    if (cut !== undefined) {
      base.incomplete = true;
      base.notes.push(`incomplete data: ${cut}`);
    }
    const idle =
      v.state === 'available'
        ? 'unattached'
        : inst && (inst.state === 'stopped' || inst.state === 'stopping')
          ? 'stopped_instance'
          : null;
    if (idle) {
      unused.push(unusedOf(v, idle, current, input.catalog.snapshotUsdPerGibMonth));
      volumes.push(withEvidenceOnly({ ...base, status: idle, observed: o }, input.metrics, v, period));
      continue;
    }
    if (o === null || demand === null) {
      volumes.push(withEvidenceOnly({ ...base, status: 'no_data' }, input.metrics, v, period));
      noData.push({
        volumeId: v.volumeId,
        status: 'no_data',
        reason: 'no CloudWatch points for this volume in the metrics files',
      });
      continue;
    }
    if (o.days < ctx.minHistoryDays || o.points < ctx.minPoints) {
      volumes.push(
        withEvidenceOnly({ ...base, status: 'too_little_history', observed: o }, input.metrics, v, period),
      );
      noData.push({
        volumeId: v.volumeId,
        status: 'too_little_history',
        reason: `${o.points} points over ${o.days} days; at least ${ctx.minPoints} points and ${ctx.minHistoryDays} day(s) are needed`,
      });
      continue;
    }
    const checks = input.metrics.evidence
      ? volumeEvidenceOf(input.metrics, v, { iops: current.iops, mibps: current.throughputMibps }, period)
      : null;
    volumes.push(
      withChecks(
        planMeasured(v, base, checks ? withExceededDemand(demand, checks, current) : demand, spec, ctx),
        checks,
        v.instanceId ? instanceEvidenceOf(input.metrics, v.instanceId) : null,
      ),
    );
  }
  const rows = instanceRows({
    volumes: input.volumes,
    plans: volumes,
    instances: new Map(
      [...instances.values()].map((i) => [
        i.instanceId,
        { instanceType: i.instanceType, spec: specOf(i.instanceType) },
      ]),
    ),
    store: input.metrics.concurrency,
    headroom: ctx.headroom,
    ...(input.catalog.instancePool ? { instancePool: input.catalog.instancePool } : {}),
  });
  notePeers(volumes, rows);
  if (input.metrics.evidence) {
    for (const r of rows) {
      const e = instanceEvidenceOf(input.metrics, r.instanceId);
      if (e) r.evidence = e;
    }
    notes.push(evidenceNote(volumes, rows));
  }
  if (rows.some((r) => r.method === 'time-aligned'))
    notes.push(
      `instances: their volumes' rates are summed point by point; minutes above an instance's baseline count whole ${referencePeriod}-second periods (a period whose average is above the baseline counts in full; a burst shorter than a period inside a quieter average is not seen)`,
    );
  // A volume with no data at all while a page was left out may be on the missing pages.
  const pages = input.metrics.pages ?? [];
  const cutShort = pages[pages.length - 1]?.nextToken === true;
  for (const v of volumes)
    if (v.status === 'no_data' && cutShort && !incomplete.has(v.volumeId)) {
      v.incomplete = true;
      incomplete.set(
        v.volumeId,
        'no points, and the last metrics file has a NextToken: this volume may be on the pages not given',
      );
      v.notes.push(`incomplete data: ${incomplete.get(v.volumeId)}`);
    }
  if (unknownTypes.size > 0)
    notes.push(
      `instance types not in the catalog (their EBS caps are not applied): ${[...unknownTypes].sort().join(', ')}`,
    );
  if (input.metrics.warnings.length > 0) notes.push(...input.metrics.warnings.slice(0, 20));
  notes.push(
    'read and write peaks are summed (they may not coincide: the safe side); access is assumed random',
  );
  const otherPeriods = volumes.filter((v) => v.observed && v.observed.periodSeconds !== referencePeriod);
  notes.push(
    `rates are Sums per period ÷ the period: ${referencePeriod} s ${input.periodSeconds !== undefined ? '(given)' : 'from the spacing of the timestamps'}${otherPeriods.length > 0 ? `; ${otherPeriods.length} volume(s) at another period (observed.periodSeconds)` : ''}`,
  );
  if (input.catalog.snapshotUsdPerGibMonth === null)
    notes.push(
      'snapshot storage is not included in the deletion savings: the catalog has no snapshot price for this region',
    );
  return {
    region: input.region ?? card.region,
    statistic: ctx.statistic,
    headroom: ctx.headroom,
    periodSeconds: referencePeriod,
    minHistoryDays: ctx.minHistoryDays,
    priceDate: card.date,
    priceSource: card.source,
    snapshotUsdPerGibMonth: input.catalog.snapshotUsdPerGibMonth,
    volumes,
    totals: totalsOf(volumes, unused),
    unused,
    noData,
    instances: rows,
    modificationRule: MODIFICATION_RULE,
    notes,
    complete: incomplete.size === 0,
    incomplete: [...incomplete].map(([volumeId, reason]) => ({ volumeId, reason })),
    ignoreRecurring: ctx.ignoreRecurring,
  };
}

/**
 * Each volume of an instance whose volumes together go above its baseline says so: judged alone it
 * may look fine (two volumes at 2,500 IOPS each on a 3,600-IOPS instance).
 */
function notePeers(volumes: readonly FleetVolumePlan[], rows: readonly FleetInstanceRow[]) {
  const byId = new Map(volumes.map((v) => [v.volumeId, v]));
  for (const r of rows) {
    if (r.volumeIds.length < 2 || r.burst === 'not-needed') continue;
    for (const id of r.volumeIds) {
      const others = r.volumeIds.filter((x) => x !== id);
      byId.get(id)?.notes.push(`shares ${r.instanceId} with ${others.join(', ')}: ${r.verdict}`);
    }
  }
}

type Row = FleetTotals['fleet'];
const emptyRow = (): Omit<Row, 'unusedSavingUsdPerMonth'> => ({
  volumes: 0,
  currentUsdPerMonth: 0,
  recommendedUsdPerMonth: 0,
  savingUsdPerMonth: 0,
  riskCount: 0,
  unpricedCount: 0,
});

/** A volume without a price (now or recommended) is counted, not summed as $0. */
function addTo(row: Omit<Row, 'unusedSavingUsdPerMonth'>, v: FleetVolumePlan) {
  const cur = v.current.usdPerMonth;
  const rec = v.recommended ? v.recommended.usdPerMonth : cur;
  row.volumes++;
  if (v.status === 'under') row.riskCount++;
  if (cur === null || rec === null) {
    row.unpricedCount++;
    return;
  }
  row.currentUsdPerMonth = roundCents(row.currentUsdPerMonth + cur);
  row.recommendedUsdPerMonth = roundCents(row.recommendedUsdPerMonth + rec);
  row.savingUsdPerMonth = roundCents(row.savingUsdPerMonth + v.savingUsdPerMonth);
}

function totalsOf(volumes: readonly FleetVolumePlan[], unused: readonly FleetUnused[]): FleetTotals {
  const byType = new Map<string, ReturnType<typeof emptyRow>>();
  const byInstance = new Map<
    string,
    ReturnType<typeof emptyRow> & { instanceId: string | null; instanceType: string | null }
  >();
  const fleet = emptyRow();
  for (const v of volumes) {
    const t = byType.get(v.current.type) ?? emptyRow();
    byType.set(v.current.type, t);
    addTo(t, v);
    const key = v.instanceId ?? '';
    const i = byInstance.get(key) ?? {
      ...emptyRow(),
      instanceId: v.instanceId,
      instanceType: v.instanceType,
    };
    byInstance.set(key, i);
    addTo(i, v);
    addTo(fleet, v);
  }
  const unusedSaving = roundCents(unused.reduce((s, u) => s + (u.savingUsdPerMonth ?? 0), 0));
  return {
    byVolumeType: [...byType]
      .map(([type, row]) => ({ type, ...row }))
      .sort((a, b) => b.savingUsdPerMonth - a.savingUsdPerMonth || a.type.localeCompare(b.type)),
    byInstance: [...byInstance.values()].sort(
      (a, b) =>
        b.savingUsdPerMonth - a.savingUsdPerMonth || (a.instanceId ?? '').localeCompare(b.instanceId ?? ''),
    ),
    fleet: { ...fleet, unusedSavingUsdPerMonth: unusedSaving },
  };
}

/* ---------- AWS's own evidence (evidence.ts; issue 28) ---------- */

/**
 * Demand with the exceeded checks fed in: a check that fired is censoring (`exceeded-check`: the
 * workload asked for more than the limit in those minutes), and the observed peak is at least the
 * limit it exceeded — a 5-minute Sum averages those minutes away. So such a volume is never
 * "over-provisioned" and its recommendation never goes below today's limit.
 */
function withExceededDemand(demand: FleetDemand, checks: VolumeChecks, current: FleetConfig): FleetDemand {
  if (checks.censoring.length === 0) return demand;
  const o = demand.observed;
  const peak = peakOf(o);
  const iopsFired = checks.censoring.some((c) => c.quantity === 'iops');
  const tputFired = checks.censoring.some((c) => c.quantity === 'throughput');
  const peakIops = iopsFired && current.iops ? Math.max(peak.iops, current.iops) : peak.iops;
  const peakMibps =
    tputFired && current.throughputMibps ? Math.max(peak.mibps, current.throughputMibps) : peak.mibps;
  const notes = [...demand.notes];
  if (peakIops > peak.iops || peakMibps > peak.mibps)
    notes.push(
      `observed peak raised to the limit it exceeded (${n0(peakIops)} IOPS / ${n0(peakMibps)} MiB/s): the exceeded checks show demand above it; the Sums (${n0(peak.iops)} IOPS / ${n0(peak.mibps)} MiB/s) average those minutes away`,
    );
  return {
    ...demand,
    observed: { ...o, peakIops, peakMibps },
    censoring: [
      ...demand.censoring.filter((c) => !checks.censoring.some((x) => x.quantity === c.quantity)),
      ...checks.censoring,
    ],
    notes,
  };
}

/**
 * The plan beside the checks: what they say of the binding limit (confirmed, or contradicted and
 * then trusted), and a volume throttled by its instance alone is at risk, never "over-provisioned".
 */
function withChecks(
  plan: FleetVolumePlan,
  checks: VolumeChecks | null,
  instanceEvidence: ReturnType<typeof instanceEvidenceOf>,
): FleetVolumePlan {
  if (checks === null) return plan;
  const evidence = { ...checks.evidence, findings: [...checks.evidence.findings] };
  if (plan.binding === null) return { ...plan, evidence };
  const judged = judgeBinding(evidence, plan.binding, instanceEvidence, plan.instanceId);
  evidence.bindingCheck = judged.bindingCheck;
  if (judged.sentence) evidence.findings.unshift(judged.sentence);
  if (judged.bindingCheck !== 'contradicted') return { ...plan, evidence };
  evidence.modelBinding = plan.binding.id;
  const out: FleetVolumePlan = { ...plan, binding: judged.binding, evidence };
  const throttledByInstance = judged.binding.id.startsWith('instance');
  // The volume's own limit never held it back: changing the volume is not the fix (nor a saving to take).
  if (throttledByInstance && (plan.status === 'over' || plan.status === 'ok' || plan.status === 'under'))
    return {
      ...out,
      status: 'under',
      risk: judged.sentence,
      recommended: null,
      savingUsdPerMonth: 0,
      commands: noCommands,
      alternatives: [],
    };
  return out;
}

/** Volumes the plan does not size still show what the checks saw. */
function withEvidenceOnly(
  plan: FleetVolumePlan,
  metrics: FleetMetrics,
  v: FleetVolume,
  periodSeconds: number,
): FleetVolumePlan {
  if (!metrics.evidence) return plan;
  const checks = volumeEvidenceOf(metrics, v, { iops: null, mibps: null }, periodSeconds);
  return checks ? { ...plan, evidence: checks.evidence } : plan;
}

/** The fleet's evidence in one line: what was read, and how much of it fired. */
function evidenceNote(volumes: readonly FleetVolumePlan[], rows: readonly FleetInstanceRow[]): string {
  const withData = volumes.filter((v) => v.evidence && v.evidence.throttledMinutes !== null);
  const throttled = withData.filter((v) => (v.evidence!.throttledMinutes ?? 0) > 0);
  const contradicted = volumes.filter((v) => v.evidence?.bindingCheck === 'contradicted');
  const instances = rows.filter(
    (r) => (r.evidence?.iopsExceededMinutes ?? 0) > 0 || (r.evidence?.throughputExceededMinutes ?? 0) > 0,
  );
  return `AWS's exceeded checks (CloudWatch, 0/1 per minute, summed per period): ${throttled.length} of ${withData.length} volume(s) with check data throttled by their own limit, ${instances.length} instance(s) by their EBS limit; ${contradicted.length} binding limit(s) contradicted by the checks and replaced by what they show; volumes without check data say "no data", not 0`;
}
