import { z } from 'zod';

/**
 * One EC2 instance type as the planner sees it. Bandwidth in Mbps (10^6 bit/s) and IOPS exactly as
 * AWS reports them (DescribeInstanceTypes `EbsOptimizedInfo`): throughput caps are measured with
 * 128 KiB I/O, IOPS caps with 16 KiB I/O. `baseline*` is sustained; `maximum*` is reachable for
 * 30 minutes at least once every 24 hours. A user can also describe an instance by hand (custom).
 */
export const InstanceEbsLimitsSchema = z.object({
  baselineBandwidthMbps: z.number().positive(),
  baselineIops: z.number().positive(),
  maximumBandwidthMbps: z.number().positive(),
  maximumIops: z.number().positive(),
});

export const InstanceStoreSchema = z.object({
  volumes: z.number().int().positive(),
  volumeSizeGB: z.number().positive(),
  /** e.g. `nvme-ssd`, `ssd`, `hdd`, `nvme-hdd`. */
  kind: z.string(),
  /** 4 KiB random read / write IOPS at queue-depth saturation over ALL store volumes (AWS docs); null when AWS gives none. */
  randomReadIops: z.number().positive().nullable(),
  writeIops: z.number().positive().nullable(),
});

export const InstanceSpecSchema = z.object({
  instanceType: z.string().min(1).max(64),
  family: z.string(),
  vCpus: z.number().int().positive().nullable(),
  memoryMiB: z.number().positive().nullable(),
  currentGeneration: z.boolean().nullable(),
  /** null: not EBS-optimized, or AWS publishes no dedicated EBS limits for this type. */
  ebs: InstanceEbsLimitsSchema.nullable(),
  instanceStore: InstanceStoreSchema.nullable(),
  /** On-demand Linux price in us-east-1 (the only region in the price data). */
  usdPerHourUsEast1: z.number().nonnegative().nullable(),
  /** Where the limits come from: a catalog source id, or `custom` when typed in by the user. */
  source: z.string(),
  /**
   * `nitro` or `xen` (DescribeInstanceTypes `Hypervisor`; bare metal runs on the Nitro System);
   * null when unknown. io1/io2 above 32,000 IOPS need a Nitro instance (plan/configuration-checks.ts, `requires_nitro`).
   */
  hypervisor: z.enum(['nitro', 'xen']).nullable().optional(),
  /** `x86_64`, `arm64`, … : moving to another architecture means rebuilding the software. */
  architecture: z.string().nullable().optional(),
  /**
   * EBS volumes the instance can attach (DescribeInstanceTypes `EbsInfo.MaximumEbsAttachments`),
   * the root volume included; `shared` limit types count network interfaces and instance store
   * volumes against the same number.
   */
  maximumEbsAttachments: z.number().int().positive().nullable().optional(),
  ebsAttachmentLimitType: z.enum(['shared', 'dedicated']).nullable().optional(),
});
export type InstanceSpec = z.infer<typeof InstanceSpecSchema>;

/** Storage-optimized families are built around local NVMe: EBS is no substitute (docs/domain.md §11). */
export function isStorageOptimizedFamily(family: string): boolean {
  return /^(i\d|im\d|is\d|d\d|h\d)/.test(family);
}

/** "r5d.4xlarge" → "r5d"; "u-6tb1.metal" → "u-6tb1". */
export function familyOf(instanceType: string): string {
  const dot = instanceType.indexOf('.');
  return dot === -1 ? instanceType : instanceType.slice(0, dot);
}

export function sizeOf(instanceType: string): string {
  const dot = instanceType.indexOf('.');
  return dot === -1 ? '' : instanceType.slice(dot + 1);
}

/** Instance family series and generation: "r6id" → { series: 'r', generation: 6, suffix: 'id' }. */
export function parseFamily(family: string): FamilyParts | null {
  // Memoized: right-sizing asks it of every candidate instance, for every plan (a few hundred families).
  let parts = familyParts.get(family);
  if (parts === undefined) {
    const m = /^([a-z]+)(\d+)([a-z-]*)$/.exec(family);
    parts = m ? { series: m[1]!, generation: Number(m[2]), suffix: m[3]! } : null;
    familyParts.set(family, parts);
  }
  return parts;
}
type FamilyParts = { series: string; generation: number; suffix: string };
const familyParts = new Map<string, FamilyParts | null>();

/**
 * The category AWS files a family under, for suggesting a move to another family of the same
 * kind (AWS EC2 "Instance types" guide: general purpose m, compute optimized c, memory optimized
 * r/x/z). Other series (burstable, storage, accelerated, HPC) get no cross-family suggestions.
 */
export type InstanceCategory = 'general' | 'compute' | 'memory';
export function categoryOf(family: string): InstanceCategory | null {
  const series = parseFamily(family)?.series;
  if (series === 'm') return 'general';
  if (series === 'c') return 'compute';
  if (series === 'r' || series === 'x' || series === 'z') return 'memory';
  return null;
}

export function instanceBursts(spec: InstanceSpec): boolean {
  return (
    spec.ebs !== null &&
    (spec.ebs.maximumBandwidthMbps > spec.ebs.baselineBandwidthMbps ||
      spec.ebs.maximumIops > spec.ebs.baselineIops)
  );
}
