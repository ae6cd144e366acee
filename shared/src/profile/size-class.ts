import type { Bytes } from '../units.ts';

/**
 * Block size → likely bottleneck (docs/domain.md §3): small I/O (4–16 KiB) exhausts IOPS first, large
 * I/O (128–256 KiB) exhausts throughput first, medium (32–64 KiB) can hit either. Sizes between the
 * published bands go to the nearer band: < 32 KiB small, < 128 KiB medium.
 */
export type SizeClass = 'small' | 'medium' | 'large';
export type LikelyBound = 'iops' | 'either' | 'throughput';

export function classifyBlockSize(blockSize: Bytes | number): {
  sizeClass: SizeClass;
  likelyBound: LikelyBound;
} {
  // bytes/s ÷ IOPS inherits fio's rounding: a bs=128k job reads 131,071.9998 B. Sizes within
  // 0.1% below a band's edge belong to that band.
  const size = blockSize * (1 + SIZE_TOLERANCE);
  if (size < 32 * 1024) return { sizeClass: 'small', likelyBound: 'iops' };
  if (size < 128 * 1024) return { sizeClass: 'medium', likelyBound: 'either' };
  return { sizeClass: 'large', likelyBound: 'throughput' };
}

const SIZE_TOLERANCE = 1e-3;

/**
 * The I/O size at which a volume's IOPS and throughput limits bind at the same time: above it the
 * volume is throughput-bound, below it IOPS-bound (gp3 baseline: 125 MiB/s ÷ 3,000 = 42.7 KiB).
 */
export function crossoverBlockSize(limitBytesPerSec: number, limitIops: number): Bytes {
  return (limitBytesPerSec / limitIops) as Bytes;
}
