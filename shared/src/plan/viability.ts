import { z } from 'zod';
import { isStorageOptimizedFamily, type InstanceSpec } from '../aws/instance-spec.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { readShare } from './demand.ts';
import { formatInt } from '../units.ts';

/**
 * When EBS is viable (docs/domain.md §11, after [guide]): residency (does the working set fit in RAM?)
 * × read/write dominance, plus the two hard cases — datasets far larger than RAM with > 50K read
 * IOPS, and storage-optimized families built around local NVMe.
 */
export const ResidencySchema = z.enum(['high', 'low', 'unknown']);
export type Residency = z.infer<typeof ResidencySchema>;

export const ViabilitySchema = z.object({
  verdict: z.enum(['ebs', 'ebs-likely', 'benchmark-first', 'nvme-likely', 'nvme-built-in']),
  dominance: z.enum(['read', 'write', 'balanced', 'idle']),
  message: z.string(),
});
export type Viability = z.infer<typeof ViabilitySchema>;

/** Reads above this share of operations make a workload read-dominant (below 1 − it, write-dominant). */
const DOMINANCE = 0.6;
const NVME_READ_IOPS = 50_000;

export function assessViability(input: {
  profile: IoProfile;
  instance: InstanceSpec | null;
  residency: Residency;
  datasetGiB?: number | null;
}): Viability {
  const share = readShare(input.profile);
  const dominance =
    share === null ? 'idle' : share >= DOMINANCE ? 'read' : share <= 1 - DOMINANCE ? 'write' : 'balanced';
  const memGiB = input.instance?.memoryMiB ? input.instance.memoryMiB / 1024 : null;

  if (input.instance && isStorageOptimizedFamily(input.instance.family)) {
    return {
      verdict: 'nvme-built-in',
      dominance,
      message: `${input.instance.family} is a storage-optimized family built around local NVMe: EBS is no substitute there. Compare against a general-purpose, memory- or compute-optimized type if you want EBS.`,
    };
  }
  const hugeDataset = input.datasetGiB != null && memGiB !== null && input.datasetGiB > 4 * memGiB;
  if ((hugeDataset || input.residency === 'low') && input.profile.read.iops > NVME_READ_IOPS) {
    return {
      verdict: 'nvme-likely',
      dominance,
      message: `The dataset is much larger than RAM and reads exceed ${formatInt(NVME_READ_IOPS)} IOPS: local NVMe is likely better and cheaper than provisioning that on EBS (remember it is ephemeral: data is lost on stop/terminate).`,
    };
  }
  if (input.residency === 'high') {
    return {
      verdict: 'ebs',
      dominance,
      message:
        dominance === 'read'
          ? 'High residency, read-dominant: reads come from RAM, so EBS gp3 serves the writes and the cold reads comfortably.'
          : 'High residency, write-dominant: EBS gp3 is the fit — writes are throughput the volume and instance caps can carry, reads come from RAM.',
    };
  }
  if (input.residency === 'low') {
    return dominance === 'read'
      ? {
          verdict: 'benchmark-first',
          dominance,
          message:
            'Low residency, read-dominant: reads go to the device. Benchmark both at your block size first and compare clat p99.',
        }
      : {
          verdict: 'ebs-likely',
          dominance,
          message:
            'Low residency, write-dominant: EBS is likely fine; benchmark at your block size to confirm.',
        };
  }
  return {
    verdict: dominance === 'read' ? 'benchmark-first' : 'ebs-likely',
    dominance,
    message:
      'Residency unknown (does the working set fit in RAM?). Write-dominant workloads usually do well on EBS gp3; read-dominant ones with a working set larger than RAM should be benchmarked on both, comparing clat p99.',
  };
}
