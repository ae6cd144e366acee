import type { InstanceSpec } from '../aws/instance-spec.ts';
import { INSTANCE_BURST_MINUTES_PER_DAY } from '../aws/volume-types.ts';
import { demandOf } from '../plan/demand.ts';
import { attachContextOf } from '../plan/limits.ts';
import { volumeCapabilities, volumeWithSettings } from '../plan/volume.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { formatDecimal, formatInt, mbps, mbpsToMiBps } from '../units.ts';
import type { IacFinding, IacVolume } from './schema.ts';

/**
 * Volumes attached to one instance in the code share its EBS caps (DescribeInstanceTypes
 * EbsOptimizedInfo: baseline sustained, maximum for 30 minutes at least once every 24 hours), so
 * they are checked together, not one by one (docs/iac.md, "Volumes of one instance"):
 *
 * - what the volumes can deliver together, against what the instance sustains: the rest is paid
 *   for and never delivered (`instance_cap_below_volumes`);
 * - with demand, each judged volume carries it, so the instance sees their sum — peak + peak, the
 *   safe side, as one profile says nothing about when each volume peaks (`instance_limit_binds_together`).
 *
 * A group is the volumes of one `aws_instance` or `aws_launch_template` resource; an
 * `aws_ebs_volume` is attached through `aws_volume_attachment`, whose ids are unknown until apply,
 * so it is not grouped.
 */

const n0 = formatInt;
const n1 = (v: number) => formatDecimal(v, 1);

type Group = {
  instance: string;
  spec: InstanceSpec;
  ebs: NonNullable<InstanceSpec['ebs']>;
  volumes: IacVolume[];
};

function groupsOf(
  volumes: readonly IacVolume[],
  findInstance: (name: string) => InstanceSpec | undefined,
): Group[] {
  const byInstance = new Map<string, IacVolume[]>();
  for (const v of volumes) {
    if (!v.instance || !v.instanceType) continue;
    byInstance.set(v.instance, [...(byInstance.get(v.instance) ?? []), v]);
  }
  const groups: Group[] = [];
  for (const [instance, vols] of byInstance) {
    const spec = findInstance(vols[0]!.instanceType!);
    if (vols.length < 2 || !spec?.ebs) continue;
    groups.push({ instance, spec, ebs: spec.ebs, volumes: vols });
  }
  return groups;
}

export function checkInstanceGroups(input: {
  volumes: readonly IacVolume[];
  /** Volumes that passed the per-volume rules (an invalid one has no capability to add). */
  valid: (v: IacVolume) => boolean;
  findInstance: (name: string) => InstanceSpec | undefined;
  profile: IoProfile | null;
  judgeDemand?: (v: IacVolume) => boolean;
  headroom: number;
}): IacFinding[] {
  const findings: IacFinding[] = [];
  for (const g of groupsOf(input.volumes.filter(input.valid), input.findInstance)) {
    const name = g.spec.instanceType;
    const baseIops = g.ebs.baselineIops;
    const baseMib = mbpsToMiBps(mbps(g.ebs.baselineBandwidthMbps));
    const emit = (kind: IacFinding['kind'], code: string, message: string) =>
      findings.push({
        kind,
        code,
        file: g.volumes[0]!.file,
        subject: g.instance,
        message,
        wasteUsdPerMonth: null,
      });
    const caps = g.volumes.map((v) =>
      volumeCapabilities(volumeWithSettings(v.volume), attachContextOf(g.spec)),
    );
    const alone = caps.some((c) => c.iops > baseIops || c.throughputMiBps > baseMib + 1e-9);
    const iops = caps.reduce((s, c) => s + c.iops, 0);
    const mib = caps.reduce((s, c) => s + c.throughputMiBps, 0);
    // One volume alone above the cap is already reported on it (instance_cap_below_volume).
    if (!alone && (iops > baseIops || mib > baseMib + 1e-9))
      emit(
        'instance-cap',
        'instance_cap_below_volumes',
        `${g.volumes.length} volumes of ${g.instance} can deliver ${n0(iops)} IOPS and ${n1(mib)} MiB/s together; ${name} sustains ${n0(baseIops)} IOPS and ${n0(g.ebs.baselineBandwidthMbps)} Mbps = ${n1(baseMib)} MiB/s to all its EBS volumes together (its maximum, ${n0(g.ebs.maximumIops)} IOPS / ${n0(g.ebs.maximumBandwidthMbps)} Mbps, lasts ${INSTANCE_BURST_MINUTES_PER_DAY} minutes per 24 hours): what is above is paid for and never delivered for long`,
      );
    if (!input.profile) continue;
    const judged = g.volumes.filter((v) => !input.judgeDemand || input.judgeDemand(v));
    if (judged.length < 2) continue;
    const d = demandOf(input.profile);
    const factor = 1 + input.headroom;
    // One volume's demand alone above the baseline is already reported on it (instance_limit_binds).
    if (d.iops * factor > baseIops || d.throughputMiBps * factor > baseMib) continue;
    const sumIops = d.iops * judged.length * factor;
    const sumMib = d.throughputMiBps * judged.length * factor;
    if (sumIops <= baseIops && sumMib <= baseMib) continue;
    const over = [
      sumIops > baseIops
        ? `${judged.length} × ${n0(d.iops)} IOPS + ${Math.round(input.headroom * 100)}% = ${n0(sumIops)} IOPS, above its ${n0(baseIops)} baseline IOPS`
        : null,
      sumMib > baseMib
        ? `${judged.length} × ${n1(d.throughputMiBps)} MiB/s + ${Math.round(input.headroom * 100)}% = ${n1(sumMib)} MiB/s, above its ${n1(baseMib)} MiB/s baseline`
        : null,
    ]
      .filter(Boolean)
      .join(' and ');
    emit(
      'under',
      'instance_limit_binds_together',
      `the demand is applied to each of ${judged.length} volumes of ${g.instance} (${judged.map((v) => v.subject).join(', ')}), which share ${name}'s EBS caps: together ${over} (peaks added: one profile does not say when each volume peaks — the safe side). Beyond ${INSTANCE_BURST_MINUTES_PER_DAY} minutes a day the instance throttles them; pass --volume to name the volumes that carry this demand, or measure them with \`blockwise fleet plan\`, which sums their CloudWatch points time by time`,
    );
  }
  return findings;
}
