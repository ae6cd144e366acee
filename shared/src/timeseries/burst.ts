import { z } from 'zod';
import { INSTANCE_BURST_MINUTES_PER_DAY } from '../aws/volume-types.ts';
import type { IoSeries } from './series.schema.ts';

/**
 * Minutes per calendar day (UTC) the workload spent above a capacity — provisioned IOPS, or an
 * instance's baseline EBS throughput, which it may exceed for only 30 minutes at least once every
 * 24 hours (docs/domain.md §5; AWS "Amazon EBS-optimized instances"). Demand is read + write combined,
 * as the instance and volume limits count it.
 *
 * Counted at the series' own resolution: a period counts in full when its average rate is above
 * the capacity. So with 5-minute data a 1-minute burst inside a quiet 5 minutes is invisible, and
 * a period just above the line counts 5 minutes — use 1-minute data for a close call. A period
 * that crosses midnight is split between the two days. Periods where a direction has no value are
 * "not covered" unless the direction present is already above the capacity by itself.
 */
export const CapacitySchema = z.union([
  z.object({ iops: z.number().positive() }),
  z.object({ bytesPerSec: z.number().positive() }),
]);
export type Capacity = z.infer<typeof CapacitySchema>;

export const DayAboveSchema = z.object({
  /** YYYY-MM-DD, UTC. */
  day: z.string(),
  minutesAbove: z.number().nonnegative(),
  /** Minutes of that day the series has a combined value for (1,440 for a complete day). */
  minutesCovered: z.number().nonnegative(),
  /** minutesAbove > budgetMinutes. */
  overBudget: z.boolean(),
});
export type DayAbove = z.infer<typeof DayAboveSchema>;

export type MinutesAbove = {
  capacity: Capacity;
  budgetMinutes: number;
  days: DayAbove[];
  /** The day with the most minutes above (null without data). */
  worstDay: DayAbove | null;
  daysOverBudget: number;
};

const DAY_MS = 86_400_000;

export function minutesAbovePerDay(
  series: IoSeries,
  capacity: Capacity,
  options: { budgetMinutes?: number } = {},
): MinutesAbove {
  const budgetMinutes = options.budgetMinutes ?? INSTANCE_BURST_MINUTES_PER_DAY;
  const [a, b, limit] =
    'iops' in capacity
      ? [series.readIops, series.writeIops, capacity.iops]
      : [series.readBytesPerSec, series.writeBytesPerSec, capacity.bytesPerSec];
  const periodMs = series.periodSec * 1000;
  const above = new Map<number, number>();
  const covered = new Map<number, number>();
  const add = (map: Map<number, number>, start: number, end: number) => {
    // Split [start, end) at UTC midnights.
    let s = start;
    while (s < end) {
      const day = Math.floor(s / DAY_MS);
      const e = Math.min(end, (day + 1) * DAY_MS);
      map.set(day, (map.get(day) ?? 0) + (e - s) / 60_000);
      s = e;
    }
  };
  series.timeMs.forEach((t, i) => {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    let total: number | null;
    if (x !== null && y !== null) total = x + y;
    else if ((x ?? 0) > limit || (y ?? 0) > limit) total = Math.max(x ?? 0, y ?? 0);
    else total = null;
    if (total === null) return;
    add(covered, t, t + periodMs);
    if (total > limit) add(above, t, t + periodMs);
  });
  const days = [...covered.keys()]
    .sort((p, q) => p - q)
    .map((day) => {
      const minutesAbove = Math.round((above.get(day) ?? 0) * 1000) / 1000;
      return {
        day: new Date(day * DAY_MS).toISOString().slice(0, 10),
        minutesAbove,
        minutesCovered: Math.round(covered.get(day)! * 1000) / 1000,
        overBudget: minutesAbove > budgetMinutes,
      };
    });
  const worstDay = days.reduce<DayAbove | null>(
    (w, d) => (w === null || d.minutesAbove > w.minutesAbove ? d : w),
    null,
  );
  return { capacity, budgetMinutes, days, worstDay, daysOverBudget: days.filter((d) => d.overBudget).length };
}
