import { z } from 'zod';
import { familyOf, parseFamily, sizeOf } from '../instance-spec.ts';
import type { InstanceRow } from '../catalog-schema.ts';

/**
 * `aws ec2 describe-instance-types --output json` output, as a user saves it: the fields the
 * catalog reads (AWS EC2 API reference, InstanceTypeInfo). Everything else passes unread.
 * `EbsInfo.MaximumEbsAttachments` / `AttachmentLimitType` were added in 2025 and are absent from
 * older saved outputs; `Hypervisor` is absent for bare metal (`*.metal`), which runs on Nitro.
 */
const int = z.number().int().nonnegative();
const num = z.number().nonnegative().finite();
const InstanceTypeInfoSchema = z.object({
  InstanceType: z.string().regex(/^[a-z0-9-]+\.[a-z0-9-]+$/, 'expected a type such as m5.large'),
  CurrentGeneration: z.boolean().optional(),
  BareMetal: z.boolean().optional(),
  Hypervisor: z.string().optional(),
  ProcessorInfo: z.object({ SupportedArchitectures: z.array(z.string()).optional() }).optional(),
  VCpuInfo: z.object({ DefaultVCpus: int.optional() }).optional(),
  MemoryInfo: z.object({ SizeInMiB: num.optional() }).optional(),
  InstanceStorageSupported: z.boolean().optional(),
  InstanceStorageInfo: z
    .object({
      TotalSizeInGB: num.optional(),
      Disks: z.array(z.object({ SizeInGB: num, Count: int, Type: z.string() })).optional(),
      NvmeSupport: z.string().optional(),
    })
    .optional(),
  EbsInfo: z
    .object({
      EbsOptimizedSupport: z.string().optional(),
      EbsOptimizedInfo: z
        .object({
          BaselineBandwidthInMbps: num.optional(),
          BaselineIops: num.optional(),
          MaximumBandwidthInMbps: num.optional(),
          MaximumIops: num.optional(),
        })
        .optional(),
      MaximumEbsAttachments: int.optional(),
      AttachmentLimitType: z.enum(['shared', 'dedicated']).optional(),
    })
    .optional(),
});
type InstanceTypeInfo = z.infer<typeof InstanceTypeInfoSchema>;

export const DescribeInstanceTypesSchema = z.object({ InstanceTypes: z.array(InstanceTypeInfoSchema) });

/** One type as the file describes it; `attachments` undefined when the file predates the field. */
export type DescribedInstance = {
  instanceType: string;
  family: string;
  vCpus: number | null;
  memoryMiB: number | null;
  currentGeneration: boolean | null;
  ebs: { baselineMbps: number; baselineIops: number; maximumMbps: number; maximumIops: number } | null;
  store: { volumes: number; sizeGB: number; kind: string } | null;
  hypervisor: 'nitro' | 'xen' | null;
  architecture: string | null;
  attachments?: { maximum: number; limitType: 'shared' | 'dedicated' | null };
};

/** 'nitro' | 'xen' | null; bare metal has no `Hypervisor` but runs on the Nitro System (AWS EC2 docs, "Instances built on the Nitro System"). */
function hypervisorOf(info: InstanceTypeInfo): 'nitro' | 'xen' | null {
  if (info.BareMetal || info.InstanceType.includes('.metal')) return 'nitro';
  const h = (info.Hypervisor ?? '').toLowerCase();
  if (h.startsWith('nitro')) return 'nitro';
  if (h.startsWith('xen')) return 'xen';
  return null;
}

/** The first architecture listed, x86_64 before i386 (i386 types also run x86_64). */
function architectureOf(info: InstanceTypeInfo): string | null {
  const list = info.ProcessorInfo?.SupportedArchitectures ?? [];
  return list.includes('x86_64') ? 'x86_64' : (list[0] ?? null);
}

/** `nvme-ssd`, `ssd`, `hdd`, … from the disk type and whether the store is NVMe. */
export function storeKindOf(diskType: string, nvmeSupport: string | undefined): string {
  const nvme = nvmeSupport === 'required' || nvmeSupport === 'supported';
  return `${nvme ? 'nvme-' : ''}${diskType.toLowerCase()}`;
}

function describe(info: InstanceTypeInfo): DescribedInstance {
  const limits = info.EbsInfo?.EbsOptimizedInfo;
  const disk = info.InstanceStorageInfo?.Disks?.[0];
  const ebsInfo = info.EbsInfo;
  return {
    instanceType: info.InstanceType,
    family: familyOf(info.InstanceType),
    vCpus: info.VCpuInfo?.DefaultVCpus ?? null,
    memoryMiB: info.MemoryInfo?.SizeInMiB ?? null,
    currentGeneration: info.CurrentGeneration ?? null,
    ebs:
      limits?.BaselineBandwidthInMbps &&
      limits.BaselineIops &&
      limits.MaximumBandwidthInMbps &&
      limits.MaximumIops
        ? {
            baselineMbps: limits.BaselineBandwidthInMbps,
            baselineIops: limits.BaselineIops,
            maximumMbps: limits.MaximumBandwidthInMbps,
            maximumIops: limits.MaximumIops,
          }
        : null,
    store:
      info.InstanceStorageSupported !== false && disk && disk.Count > 0 && disk.SizeInGB > 0
        ? {
            volumes: disk.Count,
            sizeGB: disk.SizeInGB,
            kind: storeKindOf(disk.Type, info.InstanceStorageInfo?.NvmeSupport),
          }
        : null,
    hypervisor: hypervisorOf(info),
    architecture: architectureOf(info),
    ...(ebsInfo?.MaximumEbsAttachments !== undefined
      ? {
          attachments: {
            maximum: ebsInfo.MaximumEbsAttachments,
            limitType: ebsInfo.AttachmentLimitType ?? null,
          },
        }
      : {}),
  };
}

/** The instance types of a saved describe-instance-types output, or the first malformed field. */
export function parseDescribeInstanceTypes(
  json: unknown,
): { ok: true; instances: DescribedInstance[] } | { ok: false; path: string; message: string } {
  const parsed = DescribeInstanceTypesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, path: issue.path.join('.') || '(top level)', message: issue.message };
  }
  const seen = new Set<string>();
  for (const [i, info] of parsed.data.InstanceTypes.entries()) {
    if (seen.has(info.InstanceType))
      return {
        ok: false,
        path: `InstanceTypes.${i}.InstanceType`,
        message: `${info.InstanceType} listed twice`,
      };
    seen.add(info.InstanceType);
  }
  return { ok: true, instances: parsed.data.InstanceTypes.map(describe) };
}

/**
 * The catalog's rows with `described` merged over them: a described type's row takes the file's
 * limits, layout and attributes (source `sourceId`); what the file cannot say stays: the store's
 * IOPS (AWS docs tables) while the layout is unchanged, and the attachment limit when the file
 * predates it, each with its own source column. Types the file does not list are kept.
 */
export function mergeInstanceRows(
  rows: readonly InstanceRow[],
  described: readonly DescribedInstance[],
  sourceId: string,
): InstanceRow[] {
  const byType = new Map(rows.map((r) => [r[0], r]));
  for (const d of described) {
    const old = byType.get(d.instanceType);
    const sameLayout =
      old !== undefined && d.store !== null && old[9] === d.store.volumes && old[10] === d.store.sizeGB;
    const keepStoreIops = sameLayout && old[19] !== null;
    byType.set(d.instanceType, [
      d.instanceType,
      d.family,
      d.vCpus,
      d.memoryMiB,
      d.currentGeneration,
      d.ebs?.baselineMbps ?? null,
      d.ebs?.baselineIops ?? null,
      d.ebs?.maximumMbps ?? null,
      d.ebs?.maximumIops ?? null,
      d.store?.volumes ?? null,
      d.store?.sizeGB ?? null,
      // The docs' store type (kept with its IOPS) names HDD-backed NVMe the API calls "hdd".
      keepStoreIops ? old[11] : (d.store?.kind ?? null),
      keepStoreIops ? old[12] : null,
      keepStoreIops ? old[13] : null,
      d.hypervisor,
      d.architecture,
      d.attachments ? d.attachments.maximum : (old?.[16] ?? null),
      d.attachments ? d.attachments.limitType : (old?.[17] ?? null),
      sourceId,
      keepStoreIops ? old[19] : null,
      d.attachments ? sourceId : (old?.[20] ?? null),
    ]);
  }
  return [...byType.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** Instance store IOPS from AWS's documentation tables (not in the API), per type. */
export const StoreIopsFileSchema = z.object({
  measurementConditions: z.string(),
  instances: z.array(
    z.object({
      instanceType: z.string(),
      /** "NVMe SSD", "SSD", "HDD", … as the docs' table says. */
      storeType: z.string().nullable(),
      volumeCount: int,
      volumeSizeGB: num,
      randomReadIops: num.nullable(),
      writeIops: num.nullable(),
    }),
  ),
});
export type StoreIopsFile = z.infer<typeof StoreIopsFileSchema>;

/**
 * Sets the store kind and IOPS of each listed type whose store layout matches the docs' (count
 * and size); returns the rows and the types skipped because the layout differs.
 */
export function applyStoreIops(
  rows: readonly InstanceRow[],
  file: StoreIopsFile,
  sourceId: string,
): { rows: InstanceRow[]; skipped: string[] } {
  const byType = new Map(file.instances.map((e) => [e.instanceType, e]));
  const skipped: string[] = [];
  const out = rows.map((row): InstanceRow => {
    const e = byType.get(row[0]);
    if (!e) return row;
    if (row[9] !== e.volumeCount || row[10] !== e.volumeSizeGB) {
      skipped.push(row[0]);
      return row;
    }
    const copy = [...row] as InstanceRow;
    if (e.storeType) copy[11] = e.storeType.toLowerCase().replace(/\s+/g, '-');
    copy[12] = e.randomReadIops;
    copy[13] = e.writeIops;
    copy[19] = e.randomReadIops === null && e.writeIops === null ? null : sourceId;
    return copy;
  });
  return { rows: out, skipped };
}

/**
 * Base / `d` pairs: r5.4xlarge / r5d.4xlarge, m6i / m6id, m5n / m5dn, c7g / c7gd: the `d` type
 * has an instance store, the base none, and both the same vCPU and memory (all 322 pairs of
 * the built-in data also have the same EBS limits).
 */
export function deriveDVariantPairs(rows: readonly InstanceRow[]): [string, string][] {
  const byType = new Map(rows.map((r) => [r[0], r]));
  const pairs: [string, string][] = [];
  for (const row of rows) {
    if (row[9] === null) continue;
    const parts = parseFamily(row[1]);
    if (!parts) continue;
    const size = sizeOf(row[0]);
    for (let i = 0; i < parts.suffix.length; i++) {
      if (parts.suffix[i] !== 'd') continue;
      const baseType = `${parts.series}${parts.generation}${parts.suffix.slice(0, i)}${parts.suffix.slice(i + 1)}.${size}`;
      const base = byType.get(baseType);
      if (base && base[9] === null && base[2] === row[2] && base[3] === row[3])
        pairs.push([baseType, row[0]]);
    }
  }
  return pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
