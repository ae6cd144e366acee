import type { InstanceSpec } from '../aws/instance-spec.ts';
import { describeRateCard, priceAvailable, type RateCard, type RegionRateCard } from '../aws/rate-card.ts';
import { descriptorOf, NON_NITRO, type Gp3Generation } from '../aws/volume-types.ts';
import { tradeOf } from '../plan/alternatives.ts';
import { io2NotNitroTerms } from '../plan/configuration-checks.ts';
import { monthlyCost, wasteOf, type CostBreakdown } from '../plan/cost.ts';
import { attachContextOf, computeLimits, type Limit } from '../plan/limits.ts';
import {
  gp3ForGp2,
  isUsable,
  rightSize,
  volumeOfRecommendation,
  type RightSizeResult,
} from '../plan/right-size.ts';
import {
  describeVolume,
  gp2BaselineIops,
  validateVolume,
  volumeCapabilities,
  volumeWithSettings,
  type VolumeConfig,
} from '../plan/volume.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { censoringOfSeries } from '../demand/demand.ts';
import { describeCensoring } from '../demand/fleet.ts';
import type { Censoring } from '../demand/censoring.ts';
import type { IoSeries } from '../timeseries/series.schema.ts';
import {
  bytesPerSec,
  bytesPerSecToMiBps,
  formatDecimal,
  formatInt,
  formatUsd,
  mbps,
  mbpsToMiBps,
  MiB,
} from '../units.ts';
import { checkInstanceGroups } from './instance-groups.ts';
import type { IacFinding, IacReport, IacVolume, IacVolumeResult } from './schema.ts';

/**
 * Judges what the code provisions (docs/iac.md): the combinations AWS rejects or caps, the
 * instance's EBS cap binding before the volume, and — given measured demand — over- and
 * under-provisioning against peak × (1 + headroom). Every limit, price and right-sizing comes
 * from plan/ (validateVolume, computeLimits, rightSize, monthlyCost): nothing is re-derived here.
 */

export type IacCheckInput = {
  volumes: readonly IacVolume[];
  /** Measured demand; null: only the rules that need none are applied. */
  profile: IoProfile | null;
  /**
   * The production series the demand was measured from (`--metrics`), when it was one: it was
   * delivered under each judged volume's own provisioned IOPS and throughput, so points pinned at
   * them make that volume's demand censored (demand/censoring.ts). Absent for fio runs (`--fio`,
   * `--series`): what a benchmark delivered on some other storage says nothing of these limits.
   */
  deliveredSeries?: IoSeries | null;
  /** Where the demand comes from, for people ("fio result run.json", "series pg-ci, run 01H…"). */
  demandSource?: string;
  /** Fraction above the peak to provision for (0.25 = 25%). */
  headroom: number;
  rateCard: RegionRateCard;
  /** Instance types by name (the catalog's findInstanceType). */
  findInstance: (name: string) => InstanceSpec | undefined;
  gp3Generation?: Gp3Generation;
  /** Which volumes the demand is for (all by default): a root volume does not carry the database's load. */
  judgeDemand?: (volume: IacVolume) => boolean;
  /** Smallest monthly waste reported as over-provisioning, USD (default 1: cents are noise). */
  minWasteUsd?: number;
};

const n0 = formatInt;
const n1 = (v: number) => formatDecimal(v, 1);
const pct = (u: number) => `${Math.round(u * 100)}%`;

export type Emit = (kind: IacFinding['kind'], code: string, message: string, waste?: number) => void;

/** The combinations AWS rejects or caps, whatever the demand (validateVolume, and the Nitro rule). */
function checkRules(v: IacVolume, instance: InstanceSpec | null, gen: Gp3Generation, emit: Emit): boolean {
  const problems = validateVolume(v.volume, gen);
  for (const p of problems) emit('invalid', p.code, p.message);
  const piops = descriptorOf(v.volume.type).provisionedIops ? (v.volume.iops ?? 0) : 0;
  if (piops > NON_NITRO.maxPiops.value) {
    const max = n0(NON_NITRO.maxPiops.value);
    if (instance?.hypervisor === 'xen')
      emit(
        'invalid',
        'requires_nitro',
        `${v.volume.type} at ${n0(piops)} IOPS on ${instance.instanceType}, which is not built on the Nitro System: AWS delivers at most ${max} IOPS per volume there, so ${n0(piops - NON_NITRO.maxPiops.value)} provisioned IOPS are paid for and never delivered`,
      );
    else if (instance && instance.hypervisor == null)
      emit(
        'note',
        'nitro_unknown',
        `${v.volume.type} above ${max} IOPS needs a Nitro instance; the catalog does not say whether ${instance.instanceType} is one: check skipped`,
      );
    else if (!instance)
      emit(
        'note',
        'nitro_unchecked',
        `${v.volume.type} above ${max} IOPS needs an instance built on the Nitro System (others cap it at ${max}); the instance type is not in the code here: check skipped`,
      );
  }
  if (v.volume.type === 'io2' && instance?.hypervisor === 'xen')
    emit('note', 'io2_not_nitro', io2NotNitroTerms(instance.instanceType));
  checkMultiAttach(v, emit);
  return problems.length === 0;
}

/**
 * Multi-Attach: EC2 takes `MultiAttachEnabled` for io1 and io2 only (EC2 API Reference,
 * CreateVolume / ModifyVolume `MultiAttachEnabled`: "supported with io1 and io2 volumes only"),
 * and refuses the volume otherwise. The EBS CSI driver asks for it when a claim is ReadWriteMany
 * in Block mode, and only for io2 (its pkg/cloud/cloud.go CreateDisk: "multi-attach is only
 * supported for io2 volumes"); ReadWriteMany in Filesystem mode it refuses for every type
 * (pkg/driver/controller.go isValidCapability: only block devices may be multi-node writers).
 */
function checkMultiAttach(v: IacVolume, emit: Emit): void {
  const type = v.volume.type;
  if (v.multiAttach === 'multi_attach_enabled' && type !== 'io1' && type !== 'io2')
    emit(
      'invalid',
      'multi_attach_not_supported',
      `multi_attach_enabled on ${type}: EC2 supports Multi-Attach on io1 and io2 volumes only and refuses to create this volume; use io2 (or io1), or attach it to one instance`,
    );
  else if (v.multiAttach === 'ReadWriteMany Block' && type !== 'io2')
    emit(
      'driver',
      'multi_attach_not_supported',
      `ReadWriteMany in Block mode asks the EBS CSI driver for Multi-Attach, which it supports for io2 only: the ${type} volume is refused ("multi-attach is only supported for io2 volumes"); use an io2 StorageClass, or ReadWriteOnce`,
    );
  else if (v.multiAttach === 'ReadWriteMany Filesystem')
    emit(
      'driver',
      'multi_attach_needs_block',
      `ReadWriteMany without volumeMode: Block: the EBS CSI driver supports multi-node access for block volumes only and refuses the claim; a shared file system needs a cluster-aware one on a Block io2 volume, or EFS`,
    );
}

/** The instance's sustained EBS ceilings, when the catalog has them. */
function instanceCeilings(instance: InstanceSpec | null) {
  if (!instance?.ebs) return null;
  return {
    iops: instance.ebs.baselineIops,
    throughputMiBps: mbpsToMiBps(mbps(instance.ebs.baselineBandwidthMbps)),
  };
}

/** Limits the demand × (1 + headroom) runs over, sorted by how far. */
function overrun(limits: readonly Limit[], scope: Limit['scope'], factor: number): Limit[] {
  return limits
    .filter((l) => l.sustained && l.scope === scope && l.demand * factor > l.capacity)
    .sort((a, b) => b.utilization - a.utilization);
}

function describeTarget(rs: RightSizeResult): string {
  return `${n0(rs.target.iops)} IOPS / ${n0(rs.target.throughputMiBps)} MiB/s (peak + ${pct(rs.target.headroom)} headroom)`;
}

export type CensoringAt = ReturnType<typeof censoringOfSeries>;

/** The instance the volume attaches to, from the catalog; a type the catalog lacks is a note. */
export function instanceOf(
  v: IacVolume,
  findInstance: IacCheckInput['findInstance'],
  emit: Emit,
): InstanceSpec | null {
  if (!v.instanceType) return null;
  const instance = findInstance(v.instanceType) ?? null;
  if (!instance)
    emit(
      'note',
      'instance_unknown',
      `instance type ${v.instanceType} is not in the catalog: its EBS caps are not checked`,
    );
  return instance;
}

/** What the volume costs a month, or null (and a note) when the card has no price for its type. */
export function priceOf(config: VolumeConfig, card: RegionRateCard, emit: Emit): CostBreakdown | null {
  if (priceAvailable(card, config.type)) return monthlyCost(config, card as RateCard);
  emit(
    'note',
    'price_missing',
    `no ${config.type} price in ${describeRateCard(card)}: its cost is not judged`,
  );
  return null;
}

/**
 * The instance's EBS cap binding before the volume (what the volume can deliver above the cap is
 * paid for and never delivered); a Terraform volume judged against demand without an instance in
 * the code is a note that the caps went unchecked.
 */
export function checkInstanceCap(
  v: IacVolume,
  config: VolumeConfig,
  instance: InstanceSpec | null,
  demandGiven: boolean,
  emit: Emit,
): void {
  const ceil = instanceCeilings(instance);
  const caps = volumeCapabilities(config, attachContextOf(instance));
  const iopsAbove = ceil !== null && caps.iops > ceil.iops;
  const mibpsAbove = ceil !== null && caps.throughputMiBps > ceil.throughputMiBps + 1e-9;
  if (ceil && instance && (iopsAbove || mibpsAbove)) {
    const parts = [
      iopsAbove ? `${n0(caps.iops)} IOPS (the instance sustains ${n0(ceil.iops)})` : null,
      mibpsAbove
        ? `${n1(caps.throughputMiBps)} MiB/s (the instance sustains ${n0(instance.ebs!.baselineBandwidthMbps)} Mbps = ${n1(ceil.throughputMiBps)} MiB/s to all its EBS volumes together)`
        : null,
    ].filter(Boolean);
    emit(
      'instance-cap',
      'instance_cap_below_volume',
      `${instance.instanceType}'s EBS cap binds before the volume: ${describeVolume(config, { performance: true })} can deliver ${parts.join(' and ')}; what is above the instance's cap is paid for and never delivered`,
    );
  } else if (v.instanceType === null && v.origin === 'terraform' && demandGiven)
    emit(
      'note',
      'instance_not_in_code',
      'no instance type attached in the code: the instance caps are not checked',
    );
}

/** What one volume is judged with once demand applies to it. */
export type DemandContext = {
  v: IacVolume;
  config: VolumeConfig;
  instance: InstanceSpec | null;
  input: IacCheckInput & { profile: IoProfile };
  rs: RightSizeResult;
  emit: Emit;
};

/**
 * The limits the metrics were pinned at (demand_censored): judged under the volume as it is today
 * — the plan's `before` when it changes the volume, else what the code provisions. A change that
 * raises every pinned limit does what the finding asks: a note, not a failure.
 */
export function checkCensoring(d: DemandContext, censoringAt: CensoringAt | null): Censoring[] {
  const { v, config, instance } = d;
  const delivered = v.current ? volumeWithSettings(v.current) : config;
  const censoring = censoringAt ? censoringAt(deliveredLimitsOf(delivered, instance)) : [];
  if (censoring.length === 0) return censoring;
  const raised = v.current ? raisedLimits(censoring, config, instance) : false;
  d.emit(
    raised ? 'note' : 'under',
    'demand_censored',
    censoredMessage(
      config,
      v.current ? delivered : null,
      raised,
      censoring,
      d.input.deliveredSeries!.periodSec,
      d.rs,
    ),
  );
  return censoring;
}

/** The volume's and the instance's limits the demand + headroom runs over; answers the volume's. */
export function checkShortfalls(d: DemandContext): Limit[] {
  const { config, instance, input, rs, emit } = d;
  const factor = 1 + input.headroom;
  const limits = computeLimits(input.profile, { kind: 'ebs', volume: config }, instance);
  const volumeShort = overrun(limits, 'volume', factor);
  for (const l of volumeShort)
    emit(
      'under',
      'under_provisioned',
      `${l.label} will bind: demand ${n1(l.demand)} ${l.unit} + ${pct(input.headroom)} headroom = ${n1(l.demand * factor)} ${l.unit}, above the ${n1(l.capacity)} ${l.unit} provisioned (${pct(l.utilization)} of it at the peak). ${l.explanation}`,
    );
  for (const l of overrun(limits, 'instance', factor))
    emit(
      'under',
      'instance_limit_binds',
      `${l.label} will bind before any volume setting helps: demand ${n1(l.demand)} ${l.unit} + ${pct(input.headroom)} headroom = ${n1(l.demand * factor)} ${l.unit}. ${rs.instanceAdvice?.message ?? l.explanation}`,
    );
  return volumeShort;
}

/**
 * The cheapest usable right-sizing, and over-provisioning when it costs less by at least the
 * minimum waste and no volume limit is short. Censored demand is at least the limit, unknown
 * above it: never right-sized, never over (checkVolume does not call this step then).
 */
export function checkOverProvisioned(
  d: DemandContext,
  cost: CostBreakdown | null,
  volumeShort: readonly Limit[],
): IacVolumeResult['rightSized'] {
  const { config, input, rs, emit } = d;
  const best = rs.recommendations.find(isUsable);
  if (!best) return null;
  const volume = volumeOfRecommendation(best);
  if (volumeShort.length === 0 && cost) {
    const { wasteUsd } = wasteOf(cost, best.monthlyUsd);
    const card = input.rateCard;
    if (wasteUsd >= (input.minWasteUsd ?? 1))
      emit(
        'over',
        'over_provisioned',
        `${describeVolume(config, { performance: true })} costs ${formatUsd(cost.total)}/month; the demand needs ${describeTarget(rs)}, which ${describeVolume(volume, { performance: true })} meets for ${formatUsd(best.monthlyUsd.total)}/month: ${formatUsd(wasteUsd)}/month wasted (${card.region ?? 'custom'} prices of ${card.date})${descriptorOf(config.type).provisionedIops && best.type !== config.type ? `. The trade: ${tradeOf(config.type, best.type)}` : ''}`,
        wasteUsd,
      );
  }
  return { type: best.type, volume, monthlyUsd: best.monthlyUsd };
}

/** One volume: rules, price, the instance cap, then demand (censoring, shortfalls, over), then the gp2 hint. */
function checkVolume(
  v: IacVolume,
  input: IacCheckInput,
  gen: Gp3Generation,
  findings: IacFinding[],
  censoringAt: CensoringAt | null,
): IacVolumeResult {
  const emit: Emit = (kind, code, message, waste) =>
    findings.push({ kind, code, file: v.file, subject: v.subject, message, wasteUsdPerMonth: waste ?? null });
  const instance = instanceOf(v, input.findInstance, emit);
  const result: IacVolumeResult = { ...v, monthlyUsd: null, rightSized: null };
  if (!checkRules(v, instance, gen, emit)) return result;
  const config = volumeWithSettings(v.volume);
  const cost = priceOf(config, input.rateCard, emit);
  result.monthlyUsd = cost;
  checkInstanceCap(v, config, instance, Boolean(input.profile), emit);
  const hint = () => hintGp3(config, cost, input.rateCard, gen, input.minWasteUsd ?? 1, emit);
  const profile = input.profile;
  if (!profile || (input.judgeDemand && !input.judgeDemand(v))) {
    hint();
    return result;
  }
  const rs = rightSize({
    profile,
    headroom: input.headroom,
    minSizeGiB: config.sizeGiB * (config.count ?? 1),
    instance,
    rateCard: input.rateCard,
    gp3Generation: gen,
  });
  const d: DemandContext = { v, config, instance, input: { ...input, profile }, rs, emit };
  const censoring = checkCensoring(d, censoringAt);
  const volumeShort = checkShortfalls(d);
  if (censoring.length === 0) result.rightSized = checkOverProvisioned(d, cost, volumeShort);
  // Demand that found nothing cheaper still leaves gp2 → gp3 at equal performance.
  if (!findings.some((f) => f.subject === v.subject && f.file === v.file && f.kind === 'over')) hint();
  return result;
}

/**
 * The limits a volume's metrics were delivered under: what the code provisions, as the planner
 * models it (volumeCapabilities: gp2's baseline, io1/io2 as the instance delivers them) — the same
 * limits `plan --metrics` passes for censoring.
 */
function deliveredLimitsOf(config: VolumeConfig, instance: InstanceSpec | null) {
  const caps = volumeCapabilities(config, attachContextOf(instance));
  return { iops: caps.iops, bytesPerSec: caps.throughputMiBps * MiB };
}

/** Whether the code provisions more than each pinned limit the metrics were delivered under. */
function raisedLimits(censoring: readonly Censoring[], config: VolumeConfig, instance: InstanceSpec | null) {
  const planned = deliveredLimitsOf(config, instance);
  return censoring.every((c) => (c.quantity === 'iops' ? planned.iops : planned.bytesPerSec) > c.limit);
}

function censoredMessage(
  config: VolumeConfig,
  current: VolumeConfig | null,
  raised: boolean,
  censoring: readonly Censoring[],
  stepSec: number,
  rs: RightSizeResult,
): string {
  const how = censoring
    .map(
      (c) =>
        `${describeCensoring(c)} (${n0(c.pointsAtLimit)} of ${n0(c.points)} points of ${n0(stepSec)} s within 5 % of the limit)`,
    )
    .join('; ');
  const volume = current
    ? `measured as ${describeVolume(current, { performance: true })} (this plan makes it ${describeVolume(config, { performance: true })})`
    : describeVolume(config, { performance: true });
  const ask = raised
    ? 'this plan raises the limit: measure again once it is applied'
    : 'raise the limit and measure again';
  return `${volume}: ${how}: ${ask} — the target ${describeTarget(rs)} is only a lower bound. Neither right-sized nor over-provisioned on this evidence`;
}

/**
 * gp2 → gp3 at equal performance, whatever the demand: gp3 with at least gp2's baseline IOPS (and
 * its 3,000 burst) and its best throughput, burst included (gp3ForGp2), costs less at most sizes
 * (us-east-1: $0.08 against $0.10 per GiB-month). Shown when it saves at least `minUsd` a month.
 */
function hintGp3(
  config: VolumeConfig,
  cost: CostBreakdown | null,
  card: RegionRateCard,
  gen: Gp3Generation,
  minUsd: number,
  emit: Emit,
): void {
  if (config.type !== 'gp2' || !cost || !priceAvailable(card, 'gp3')) return;
  const gp3 = { ...gp3ForGp2(config.sizeGiB, gen), ...(config.count ? { count: config.count } : {}) };
  const gp3Cost = monthlyCost(gp3, card as RateCard);
  const { wasteUsd: saving } = wasteOf(cost, gp3Cost);
  if (saving < minUsd) return;
  const baseline = gp2BaselineIops(config.sizeGiB);
  const burst = baseline < 3000 ? ' and 3,000 burst' : '';
  const perVolume = (config.count ?? 1) > 1 ? ' per volume' : '';
  emit(
    'hint',
    'gp2_to_gp3',
    `${describeVolume(config)} costs ${formatUsd(cost.total)}/month; ${describeVolume(gp3, { performance: true })} keeps gp2's ${n0(baseline)} baseline IOPS${burst} and its best ${n0(gp3.throughputMiBps ?? 0)} MiB/s${perVolume}, with no burst credits to run out, for ${formatUsd(gp3Cost.total)}/month: ${formatUsd(saving)}/month saved at equal performance, no demand needed (${card.region ?? 'custom'} prices of ${card.date}); aws ec2 modify-volume changes the type in place`,
    saving,
  );
}

/** The peak the profile asks for and the target right-sizing aims at (from rightSize, not re-derived). */
function demandSummary(input: IacCheckInput): IacReport['demand'] {
  const profile = input.profile;
  if (!profile) return null;
  const rs = rightSize({
    profile,
    headroom: input.headroom,
    minSizeGiB: 1,
    instance: null,
    rateCard: input.rateCard,
    types: ['gp3'],
  });
  return {
    source: input.demandSource ?? profile.label ?? profile.source,
    peakIops: profile.read.iops + profile.write.iops,
    peakThroughputMiBps: bytesPerSecToMiBps(
      bytesPerSec(profile.read.bytesPerSec + profile.write.bytesPerSec),
    ),
    headroom: input.headroom,
    targetIops: rs.target.iops,
    targetThroughputMiBps: rs.target.throughputMiBps,
  };
}

/** Checks every volume; findings come out per volume, in the order the files declare them. */
export function checkIac(input: IacCheckInput): IacReport {
  const gen = input.gp3Generation ?? 'current';
  const findings: IacFinding[] = [];
  // read + write of the metrics summed once, then checked under each volume's limits.
  const censoringAt = input.deliveredSeries ? censoringOfSeries(input.deliveredSeries) : null;
  const volumes = input.volumes.map((v) => checkVolume(v, input, gen, findings, censoringAt));
  // Volumes of one instance in the code share its caps: checked together too (instance-groups.ts).
  findings.push(
    ...checkInstanceGroups({
      volumes: input.volumes,
      valid: (v) => validateVolume(v.volume, gen).length === 0,
      findInstance: input.findInstance,
      profile: input.profile,
      headroom: input.headroom,
      ...(input.judgeDemand ? { judgeDemand: input.judgeDemand } : {}),
    }),
  );
  return { volumes, findings, demand: demandSummary(input), prices: describeRateCard(input.rateCard) };
}

/** Which findings fail the build for `--fail-on`: over, under, any (every kind but notes and hints), none. */
export const IAC_FAIL_ON = ['over', 'under', 'any', 'none'] as const;
export type IacFailOn = (typeof IAC_FAIL_ON)[number];

export function failingFindings(findings: readonly IacFinding[], failOn: IacFailOn): IacFinding[] {
  if (failOn === 'none') return [];
  if (failOn === 'any') return findings.filter((f) => f.kind !== 'note' && f.kind !== 'hint');
  return findings.filter((f) => f.kind === failOn);
}
