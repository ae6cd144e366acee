import { formatInt, MiB } from '../units.ts';

/**
 * How the demand model writes its numbers, in one place (demand.ts, fleet.ts, timeseries/sizing.ts):
 * a rate with its unit, a UTC minute, a step.
 */

/** "8,200 IOPS"; bytes/s as "12.5 MiB/s" (EBS throughput is in MiB/s). */
export const formatRate = (x: number, unit: 'IOPS' | 'MiB/s') =>
  unit === 'IOPS' ? `${formatInt(x)} IOPS` : `${(x / MiB).toFixed(1)} MiB/s`;

/** "2026-11-12 06:00 UTC" ("n/a" for no time). */
export const utcMinute = (ms: number | null) =>
  ms === null ? 'n/a' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/** "5-minute", "10-second": what one point of the series covers. */
export const stepText = (s: number) => (s % 60 === 0 ? `${s / 60}-minute` : `${s}-second`);
