import { IO_ACCOUNTING_UNIT_BYTES, MERGE_MIN_IO_BYTES } from '../aws/volume-types.ts';
import {
  accessOf,
  type AccessPattern,
  type DirectionLoad,
  type IoProfile,
} from '../profile/io-profile.schema.ts';
import { MiB } from '../units.ts';

/**
 * What a workload asks of EBS, in the units the limits are quoted in — EBS's I/O accounting
 * (docs/domain.md, "I/O accounting"; AWS EBS User Guide, "I/O characteristics and monitoring"):
 *
 * - An I/O up to the accounting unit — 256 KiB on SSD volumes (gp2/gp3/io1/io2), 1,024 KiB on HDD
 *   volumes (st1/sc1) — counts as one operation; a larger one as ceil(size ÷ unit) operations
 *   (1 MiB on SSD = 4).
 * - Physically contiguous I/Os of 32 KiB or more are merged into operations of up to the unit
 *   (8 contiguous 32 KiB writes = 1 SSD operation); on SSD an I/O under 32 KiB always counts as
 *   one, contiguous or not, while HDD merges any sequential I/O into 1 MiB blocks. Merging is best effort ("attempts to merge"), so sequential work is sized
 *   on merged operations and the unmerged count is kept as the worst case.
 * - HDD volumes spend a whole 1 MiB of their throughput budget on every counted operation: a
 *   random 4 KiB read costs what a 1 MiB read costs (AWS: "Inefficiency of small read/writes on
 *   HDD"), so 200 random IOPS need 200 MiB/s of st1/sc1 throughput.
 */
export type Media = 'ssd' | 'hdd';

export type Demand = {
  /** EBS operations per second, read + write, contiguous I/O merged where it can be: the sizing figure. */
  iops: number;
  readIops: number;
  writeIops: number;
  /** Every I/O counted on its own (large ones split): what the volume sees if merging fails. */
  iopsUnmerged: number;
  /** read + write bytes, MiB/s. */
  throughputMiBps: number;
  /**
   * MiB/s of the volume's throughput budget the operations consume: on SSD the bytes moved; on
   * HDD one whole accounting unit (1 MiB) per counted operation.
   */
  budgetMiBps: number;
};

const EPSILON = 1e-9;

/** Operations per second of one size class of I/O under the accounting rules (merged, unmerged). */
function countOps(
  iops: number,
  ioBytes: number,
  pattern: AccessPattern,
  unitBytes: number,
): { merged: number; unmerged: number } {
  if (iops <= 0) return { merged: 0, unmerged: 0 };
  const unmerged = iops * Math.max(1, Math.ceil(ioBytes / unitBytes - EPSILON));
  // SSD merges contiguous I/O of 32 KiB or more; HDD merges any sequential I/O into 1 MiB blocks
  // (AWS "Throughput Optimized HDD and Cold HDD volumes": "if the I/Os are sequential, they are
  // merged into 1 MiB I/O blocks"), with no minimum stated.
  const minBytes = unitBytes >= IO_ACCOUNTING_UNIT_BYTES.hdd.value ? 0 : MERGE_MIN_IO_BYTES.value;
  const merges = pattern === 'sequential' && ioBytes >= minBytes && ioBytes < unitBytes;
  return { merged: merges ? (iops * ioBytes) / unitBytes : unmerged, unmerged };
}

/**
 * Operations of one direction. With a size mix (fio bssplit) each size is counted on its own —
 * the 32 KiB threshold applies per I/O, not to an average — scaled to the measured IOPS.
 */
export function countDirectionOps(
  load: DirectionLoad,
  pattern: AccessPattern,
  unitBytes: number,
): { merged: number; unmerged: number } {
  if (load.iops <= 0) return { merged: 0, unmerged: 0 };
  const mix = load.sizeMix?.filter((e) => e.percent > 0) ?? [];
  const totalPercent = mix.reduce((sum, e) => sum + e.percent, 0);
  if (mix.length > 1 && totalPercent > 0) {
    let merged = 0;
    let unmerged = 0;
    for (const e of mix) {
      const ops = countOps((load.iops * e.percent) / totalPercent, e.blockSizeBytes, pattern, unitBytes);
      merged += ops.merged;
      unmerged += ops.unmerged;
    }
    return { merged, unmerged };
  }
  return countOps(load.iops, load.blockSizeBytes ?? 0, pattern, unitBytes);
}

/** The profile's demand as a volume of this media counts it (SSD: 256 KiB units; HDD: 1 MiB). */
export function demandOf(profile: IoProfile, media: Media = 'ssd'): Demand {
  const unitBytes = IO_ACCOUNTING_UNIT_BYTES[media].value;
  const access = accessOf(profile);
  const read = countDirectionOps(profile.read, access.read, unitBytes);
  const write = countDirectionOps(profile.write, access.write, unitBytes);
  const bytesMiBps = (profile.read.bytesPerSec + profile.write.bytesPerSec) / MiB;
  const iops = read.merged + write.merged;
  return {
    iops,
    readIops: read.merged,
    writeIops: write.merged,
    iopsUnmerged: read.unmerged + write.unmerged,
    throughputMiBps: bytesMiBps,
    budgetMiBps: media === 'hdd' ? Math.max(bytesMiBps, (iops * unitBytes) / MiB) : bytesMiBps,
  };
}

/** Share of I/O operations that are reads, 0–1 (null without I/O). */
export function readShare(profile: IoProfile): number | null {
  const total = profile.read.iops + profile.write.iops;
  return total > 0 ? profile.read.iops / total : null;
}

/** True when some I/O of the profile is (or is assumed) random: HDD volumes are no fit then. */
export function hasRandomIo(profile: IoProfile): boolean {
  const access = accessOf(profile);
  return (
    (profile.read.iops > 0 && access.read !== 'sequential') ||
    (profile.write.iops > 0 && access.write !== 'sequential')
  );
}
