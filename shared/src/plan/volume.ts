import { z } from 'zod';
import {
  descriptorOf,
  IO_ACCOUNTING_UNIT_BYTES,
  VolumeTypeSchema,
  type Gp3Generation,
  type VolumeType,
} from '../aws/volume-types.ts';
import type { AttachContext, SettingRange } from '../aws/volume-types/descriptor.ts';
import type { Problem } from '../problem.ts';
import { formatInt, unitSchema } from '../units.ts';

export { type AttachContext } from '../aws/volume-types/descriptor.ts';
export { gp2BaselineIops, gp2BurstSeconds, gp2ThroughputMiBps } from '../aws/volume-types/gp2.ts';
export { io1ThroughputMiBps } from '../aws/volume-types/io1.ts';

/**
 * One EBS volume configuration, or `count` identical volumes striped together (RAID 0: their
 * IOPS and throughput add up, up to the instance's cap — [piops-2012] in docs/domain.md striped 10 × 1,000-IOPS volumes).
 * Sizes in GiB, throughput in MiB/s (the EC2 API's units).
 */
export const VolumeConfigSchema = z.object({
  type: VolumeTypeSchema,
  sizeGiB: unitSchema.gib(z.number().positive().finite()),
  /** gp3 (default 3,000), io1/io2 (required). Ignored for gp2/st1/sc1, whose IOPS follow the size. */
  iops: unitSchema.iops(z.number().positive().finite()).optional(),
  /** gp3 only (default 125). */
  throughputMiBps: unitSchema.mibps(z.number().positive().finite()).optional(),
  /** Identical volumes striped together (RAID 0); 1 when absent. */
  count: z.number().int().min(1).max(64).optional(),
});
export type VolumeConfig = z.infer<typeof VolumeConfigSchema>;

const countOf = (v: VolumeConfig) => v.count ?? 1;

/** What a volume (or stripe set) delivers: sustained, and while burst credits last. */
export type VolumeCapabilities = {
  /** Sustained IOPS over all striped volumes. */
  iops: number;
  /** Sustained MiB/s over all striped volumes. */
  throughputMiBps: number;
  /** gp2 < 1 TiB (3,000 IOPS per volume while credits last); null when the type does not burst IOPS. */
  burstIops: number | null;
  /** gp2 below 334 GiB (its size's 128 or 250 MiB/s maximum), st1, sc1; null when the type does not burst throughput. */
  burstThroughputMiBps: number | null;
  /** EBS counts each I/O up to this size as one operation. */
  ioUnitBytes: number;
  /** SSD or HDD: which I/O accounting applies (plan/demand.ts). */
  media: 'ssd' | 'hdd';
  /** io1/io2 held to 32,000 IOPS per volume because the instance is not built on Nitro. */
  nitroCapped: boolean;
};

/** Sustained and burst capabilities of a (valid) volume configuration, on an instance of this kind. */
export function volumeCapabilities(
  volume: VolumeConfig,
  ctx: AttachContext = { nitro: null },
): VolumeCapabilities {
  const n = countOf(volume);
  const d = descriptorOf(volume.type);
  const one = d.capabilities(volume, ctx);
  // A stripe of n identical volumes: IOPS and throughput (sustained and burst) add up.
  return {
    iops: one.iops * n,
    throughputMiBps: one.throughputMiBps * n,
    burstIops: one.burstIops === null ? null : one.burstIops * n,
    burstThroughputMiBps: one.burstThroughputMiBps === null ? null : one.burstThroughputMiBps * n,
    ioUnitBytes: IO_ACCOUNTING_UNIT_BYTES[d.traits.media].value,
    media: d.traits.media,
    nitroCapped: one.nitroCapped,
  };
}

/**
 * How a configuration is named everywhere (plans, comparisons, warnings, the fio job panel):
 * "4 × gp3 500 GiB", and with `performance` the settings it was given: "gp3 1000 GiB, 16,000 IOPS, 1000 MiB/s".
 */
export function describeVolume(v: VolumeConfig, options: { performance?: boolean } = {}): string {
  const count = countOf(v);
  const head = `${count > 1 ? `${count} × ` : ''}${v.type} ${v.sizeGiB} GiB`;
  if (!options.performance) return head;
  const perf = [
    v.iops !== undefined ? `${formatInt(v.iops)} IOPS` : null,
    v.throughputMiBps !== undefined ? `${v.throughputMiBps} MiB/s` : null,
  ].filter(Boolean);
  return perf.length > 0 ? `${head}, ${perf.join(', ')}` : head;
}

/**
 * What can be set on a volume of this type, and within which range: the size always; IOPS on gp3,
 * io1 and io2; throughput on gp3 only. gp2's IOPS and throughput and st1/sc1's throughput follow
 * the size, so they have no range (null). Every bound is the type's published limit (its descriptor).
 */
export function settingRangesOf(
  type: VolumeType,
  gen: Gp3Generation = 'current',
): { sizeGiB: SettingRange; iops: SettingRange | null; throughputMiBps: SettingRange | null } {
  return descriptorOf(type).settingRanges(gen);
}

/** Which performance settings a type takes (the ones `settingRangesOf` gives a range). */
export function provisionedFieldsOf(type: VolumeType): { iops: boolean; throughputMiBps: boolean } {
  const r = settingRangesOf(type);
  return { iops: r.iops !== null, throughputMiBps: r.throughputMiBps !== null };
}

/** What a type includes without provisioning (gp3: 3,000 IOPS and 125 MiB/s); null where nothing is included. */
export function includedSettingsOf(type: VolumeType): {
  iops: number | null;
  throughputMiBps: number | null;
} {
  return descriptorOf(type).included;
}

/**
 * A configuration with only the settings its type takes: IOPS dropped from gp2/st1/sc1,
 * throughput from all but gp3. null/undefined settings (and count) are left out.
 */
export function volumeWithSettings(v: {
  type: VolumeType;
  sizeGiB: number;
  iops?: number | null | undefined;
  throughputMiBps?: number | null | undefined;
  count?: number | null | undefined;
}): VolumeConfig {
  const takes = provisionedFieldsOf(v.type);
  const volume: VolumeConfig = { type: v.type, sizeGiB: v.sizeGiB };
  if (takes.iops && v.iops !== undefined && v.iops !== null) volume.iops = v.iops;
  if (takes.throughputMiBps && v.throughputMiBps !== undefined && v.throughputMiBps !== null)
    volume.throughputMiBps = v.throughputMiBps;
  if (v.count !== undefined && v.count !== null) volume.count = v.count;
  return volume;
}

/** The volume fields of a run's labels (structurally `RunLabels`: records/run.ts). */
export type VolumeLabels = {
  volumeType?: VolumeType | undefined;
  volumeSizeGiB?: number | undefined;
  volumeIops?: number | undefined;
  volumeThroughputMiBps?: number | undefined;
  volumeCount?: number | undefined;
};

/**
 * The configuration a run's labels describe, with only the settings its type takes; null when
 * the labels name no volume type or no size. The caller decides what `kind` means (NVMe has none).
 */
export function volumeFromLabels(labels: VolumeLabels): VolumeConfig | null {
  if (labels.volumeType === undefined || labels.volumeSizeGiB === undefined) return null;
  return volumeWithSettings({
    type: labels.volumeType,
    sizeGiB: labels.volumeSizeGiB,
    iops: labels.volumeIops,
    throughputMiBps: labels.volumeThroughputMiBps,
    count: labels.volumeCount,
  });
}

/** The labels a run on this configuration carries: only the settings its type takes, a count above 1. */
export function volumeToLabels(
  volume: VolumeConfig,
): VolumeLabels & { volumeType: VolumeType; volumeSizeGiB: number } {
  const v = volumeWithSettings(volume);
  const labels: VolumeLabels & { volumeType: VolumeType; volumeSizeGiB: number } = {
    volumeType: v.type,
    volumeSizeGiB: v.sizeGiB,
  };
  if (v.iops !== undefined) labels.volumeIops = v.iops;
  if (v.throughputMiBps !== undefined) labels.volumeThroughputMiBps = v.throughputMiBps;
  // One volume is the default: its run carries no count label.
  if (v.count !== undefined && v.count > 1) labels.volumeCount = v.count;
  return labels;
}

/**
 * Checks a configuration against the type's ranges and ratio rules. Returns every problem, each
 * naming the field (`sizeGiB`, `iops`, `throughputMiBps`, `count`) and the allowed range — so the
 * CLI can name the flag and the web app the input.
 */
export function validateVolume(volume: VolumeConfig, gp3Generation: Gp3Generation = 'current'): Problem[] {
  return descriptorOf(volume.type).validate(volume, gp3Generation);
}
