import type { InstanceSpec } from './instance-spec.ts';

/**
 * How much data an instance store holds once formatted (docs/domain.md §5, "Instance store size
 * after formatting"). AWS reports each disk's size in decimal GB (`InstanceStorageInfo.Disks.SizeInGB`
 * [api]); a file system takes its share before any data goes in. Assumed: ext4 made with mke2fs's
 * defaults on each disk (e2fsprogs 1.47 `/etc/mke2fs.conf` and mke2fs(8)): one 256-byte inode per
 * `inode_ratio` bytes (16,384 below 4 TB, 32,768 up to 16 TB — usage type "big" — and 65,536 above,
 * "huge"), and 5 % of the blocks reserved for the super-user (`-m`, "The default percentage is 5%").
 * The journal and group descriptors (≤ 1 GiB a disk) are left out: a fraction of a percent.
 */

const GB = 1e9;
const GiB_BYTES = 2 ** 30;
const TB = 1e12;
const INODE_SIZE_BYTES = 256;
/** mke2fs(8) `-m`: the default reserved-blocks percentage. */
export const EXT4_RESERVED_FRACTION = 0.05;

/** mke2fs's inode_ratio for a disk of this size (usage types default, big, huge of mke2fs.conf). */
function inodeRatioBytes(diskBytes: number): number {
  if (diskBytes >= 16 * TB) return 65_536;
  if (diskBytes >= 4 * TB) return 32_768;
  return 16_384;
}

/** The share of a disk ext4's defaults keep from data: inode tables + reserved blocks. */
export function ext4OverheadFraction(diskBytes: number): number {
  return INODE_SIZE_BYTES / inodeRatioBytes(diskBytes) + EXT4_RESERVED_FRACTION;
}

/** Raw and usable (after ext4 with defaults) GiB of an instance's store; null without one. */
export function instanceStoreCapacity(
  instance: Pick<InstanceSpec, 'instanceStore'>,
): { rawGiB: number; usableGiB: number; overheadFraction: number } | null {
  const store = instance.instanceStore;
  if (!store) return null;
  const diskBytes = store.volumeSizeGB * GB;
  const overheadFraction = ext4OverheadFraction(diskBytes);
  const rawGiB = (store.volumes * diskBytes) / GiB_BYTES;
  return { rawGiB, usableGiB: rawGiB * (1 - overheadFraction), overheadFraction };
}
