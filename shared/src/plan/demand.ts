import type { DirectionLoad, IoProfile } from '../profile/io-profile.schema.ts';
import { MiB } from '../units.ts';

/**
 * What a workload asks of EBS, in the units the limits are quoted in.
 *
 * EBS counts each I/O up to 256 KiB (SSD) or 1 MiB (HDD) as one operation and larger I/Os as
 * ceil(size ÷ unit) operations (domain.md §3), so 1 MiB I/Os at 500 IOPS cost 2,000 IOPS of a gp3
 * volume. Average block sizes stand in for the size of each I/O.
 */
export type Demand = {
  /** IOPS as EBS counts them (large I/Os split into accounting units), read + write. */
  iops: number;
  readIops: number;
  writeIops: number;
  /** read + write, MiB/s. */
  throughputMiBps: number;
};

export function accountedIops(load: DirectionLoad, ioUnitBytes: number): number {
  if (load.iops <= 0) return 0;
  const size = load.blockSizeBytes ?? 0;
  return load.iops * Math.max(1, Math.ceil(size / ioUnitBytes - 1e-9));
}

export function demandOf(profile: IoProfile, ioUnitBytes = 256 * 1024): Demand {
  const readIops = accountedIops(profile.read, ioUnitBytes);
  const writeIops = accountedIops(profile.write, ioUnitBytes);
  return {
    iops: readIops + writeIops,
    readIops,
    writeIops,
    throughputMiBps: (profile.read.bytesPerSec + profile.write.bytesPerSec) / MiB,
  };
}

/** Share of I/O operations that are reads, 0–1 (null without I/O). */
export function readShare(profile: IoProfile): number | null {
  const total = profile.read.iops + profile.write.iops;
  return total > 0 ? profile.read.iops / total : null;
}

/** The profile scaled by a factor (headroom, what-if): rates scale, block sizes and latencies stay. */
export function scaleProfile(profile: IoProfile, factor: number): IoProfile {
  const scale = (d: DirectionLoad): DirectionLoad => ({
    ...d,
    iops: d.iops * factor,
    bytesPerSec: d.bytesPerSec * factor,
  });
  return { ...profile, read: scale(profile.read), write: scale(profile.write) };
}
