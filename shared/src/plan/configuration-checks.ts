import type { InstanceSpec } from '../aws/instance-spec.ts';
import { descriptorOf, NON_NITRO } from '../aws/volume-types.ts';
import type { Warning } from '../problem.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { formatInt } from '../units.ts';
import { nvmeSpecApplies, type LimitTarget } from './limits.ts';

/**
 * Configurations AWS will not run as described, and analyses that lack what a verdict needs.
 * Each warning has a stable code (part of the CLI/HTTP contract, docs/domain.md "Warning codes").
 */
export const CONFIGURATION_CHECK_CODES = [
  'requires_nitro',
  'io2_not_nitro',
  'attachment_limit',
  'instance_data_missing',
  'nvme_ceiling_unknown',
  'access_assumed_random',
  'capacity_unknown',
] as const;

const n0 = formatInt;

/**
 * What the recommendations must hold, GiB: the dataset or the measured configuration's whole
 * capacity (a stripe keeps size × count), whichever is larger. Unknown for local NVMe without a
 * dataset: the store's size says nothing of how much of it is used.
 */
export function capacityToHold(
  target: LimitTarget | null,
  datasetGiB: number | null,
): { gib: number; unknown: boolean } {
  const current = target?.kind === 'ebs' ? target.volume.sizeGiB * (target.volume.count ?? 1) : null;
  if (datasetGiB !== null || current !== null)
    return { gib: Math.max(datasetGiB ?? 0, current ?? 0, 1), unknown: false };
  return { gib: 1, unknown: true };
}

/**
 * What AWS does and does not promise an io2 volume on an instance not built on Nitro, and what
 * Blockwise plans with instead (aws/volume-types.ts NON_NITRO): said by `plan` and `check-iac`.
 */
export function io2NotNitroTerms(instanceType: string): string {
  return `${instanceType} is not built on the Nitro System. AWS's current EBS User Guide (Provisioned IOPS SSD volumes) says only that io2 volumes on such instances can achieve up to ${n0(NON_NITRO.maxPiops.value)} IOPS: no throughput figure and no guarantee. The 2023 EC2 User Guide (EBS volume types) guaranteed up to ${n0(NON_NITRO.maxPiops.value)} IOPS and ${n0(NON_NITRO.maxMiBps.value)} MiB/s; the limits use those figures, which AWS no longer publishes. Benchmark on the instance before relying on more, or move to a Nitro instance (io2 Block Express: up to 4,000 MiB/s).`;
}

export function checkConfiguration(input: {
  profile: IoProfile;
  target: LimitTarget | null;
  instance: InstanceSpec | null;
}): Warning[] {
  const { profile, target, instance } = input;
  const warnings: Warning[] = [];
  const volume = target?.kind === 'ebs' ? target.volume : null;
  const count = volume?.count ?? 1;

  if (instance && !instance.ebs && target?.kind !== 'nvme')
    warnings.push({
      code: 'instance_data_missing',
      message: `The catalog has no EBS limits for ${instance.instanceType} (AWS publishes none for it: not EBS-optimized, or a previous generation): its instance caps are not checked, and no instance limit can be named as the bottleneck.`,
      subject: 'instanceType',
    });

  if (
    volume &&
    instance?.hypervisor === 'xen' &&
    descriptorOf(volume.type).provisionedIops &&
    (volume.iops ?? 0) > NON_NITRO.maxPiops.value
  )
    warnings.push({
      code: 'requires_nitro',
      message: `${volume.type} above ${n0(NON_NITRO.maxPiops.value)} IOPS needs an instance built on the Nitro System; ${instance.instanceType} runs on Xen, so each volume delivers at most ${n0(NON_NITRO.maxPiops.value)} of its ${n0(volume.iops ?? 0)} provisioned IOPS (AWS EBS User Guide, Provisioned IOPS SSD volumes). The limits below use ${n0(NON_NITRO.maxPiops.value)}; the extra IOPS are paid for and never delivered.`,
      subject: 'iops',
    });

  if (volume?.type === 'io2' && instance?.hypervisor === 'xen')
    warnings.push({
      code: 'io2_not_nitro',
      message: io2NotNitroTerms(instance.instanceType),
      subject: 'instanceType',
    });

  const attachments = instance?.maximumEbsAttachments;
  if (volume && attachments && count + 1 > attachments)
    warnings.push({
      code: 'attachment_limit',
      message: `${instance!.instanceType} attaches at most ${n0(attachments)} EBS volumes${instance!.ebsAttachmentLimitType === 'shared' ? ' — a limit it shares with network interfaces and instance store volumes' : ''} (DescribeInstanceTypes MaximumEbsAttachments): ${count} data volumes plus the root volume do not fit.`,
      subject: 'count',
    });

  if (target?.kind === 'nvme' && instance?.instanceStore) {
    const unjudged = (['read', 'write'] as const).filter(
      (dir) => profile[dir].iops > 0 && !nvmeSpecApplies(profile[dir]),
    );
    if (unjudged.length > 0) {
      const sizes = unjudged.map((dir) => `${dir}s of ${n0((profile[dir].blockSizeBytes ?? 0) / 1024)} KiB`);
      warnings.push({
        code: 'nvme_ceiling_unknown',
        message: `AWS publishes instance store performance only as 4 KiB random IOPS (${instance.instanceType}: ${instance.instanceStore.randomReadIops !== null ? n0(instance.instanceStore.randomReadIops) : '—'} read, ${instance.instanceStore.writeIops !== null ? n0(instance.instanceStore.writeIops) : '—'} write). For ${sizes.join(' and ')} no ceiling is known — larger I/O runs into a throughput limit AWS does not publish — so no bottleneck verdict is given for them. Compare against an EBS run of the same job instead.`,
        subject: 'instanceStore',
      });
    }
  }

  const access = profile.access;
  if ((!access || access.origin === 'assumed') && profile.read.iops + profile.write.iops > 0)
    warnings.push({
      code: 'access_assumed_random',
      message:
        'Nobody said whether this I/O is random or sequential, so random is assumed: each I/O counts as one EBS operation and HDD volumes are ruled out. If it is sequential (logs, scans, backups), say so: contiguous I/O of 32 KiB or more merges into fewer operations.',
      subject: 'access',
    });
  return warnings;
}
