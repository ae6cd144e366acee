import type { FleetObserved } from './schema.ts';

/**
 * A volume's peak rates: the busiest minute (VolumeAvgIOPS / VolumeAvgThroughput, Stat Maximum)
 * when those were read, else the Sums' read + write at the sizing statistic. One place, so the
 * target, the binding limit, the delivered check and the instance rows judge the same peak.
 */
export function peakOf(o: FleetObserved): { iops: number; mibps: number } {
  return { iops: o.peakIops ?? o.readIops + o.writeIops, mibps: o.peakMibps ?? o.readMibps + o.writeMibps };
}
