import { z } from 'zod';
import { formatDecimal, formatInt } from '../units.ts';

/**
 * Dataset growth (docs/domain.md "Dataset growth"): storage is provisioned for the data a volume
 * will hold at the end of a planning horizon, not for today's. Growth is compounded yearly, the way
 * DBAs and capacity reports quote it ("30 % a year"), and the horizon is counted in months.
 */
export const DatasetGrowthSchema = z.object({
  percentPerYear: z
    .number({ message: 'percentPerYear: the dataset growth must be a number (%/year)' })
    .min(0, 'percentPerYear: the dataset growth must be 0–1,000 %/year')
    .max(1000, 'percentPerYear: the dataset growth must be 0–1,000 %/year'),
  horizonMonths: z
    .number({ message: 'horizonMonths: the planning horizon must be a number of months' })
    .int('horizonMonths: the planning horizon must be a whole number of months (1–60)')
    .min(1, 'horizonMonths: the planning horizon must be 1–60 months')
    .max(60, 'horizonMonths: the planning horizon must be 1–60 months'),
});
export type DatasetGrowth = z.infer<typeof DatasetGrowthSchema>;

/** Today's dataset and what to provision for it (stored with a plan; absent before growth existed). */
export const DatasetCapacitySchema = z.object({
  todayGiB: z.number().positive(),
  growth: DatasetGrowthSchema.nullable(),
  /** Today's size grown over the horizon, rounded up to whole GiB (EBS sizes are whole GiB). */
  provisionGiB: z.number().positive(),
});
export type DatasetCapacity = z.infer<typeof DatasetCapacitySchema>;

/**
 * GiB to provision: todayGiB × (1 + percentPerYear/100)^(horizonMonths/12), rounded up to a whole
 * GiB. The product is first rounded to 1e-6 GiB so float noise (2,000 × 1.3 = 2,600.0000000000005)
 * never adds a GiB. Without growth it is today's size, rounded up the same way.
 */
export function grownDatasetGiB(todayGiB: number, growth: DatasetGrowth | null): number {
  const factor = growth ? (1 + growth.percentPerYear / 100) ** (growth.horizonMonths / 12) : 1;
  return Math.ceil(Math.round(todayGiB * factor * 1e6) / 1e6);
}

/** Today's dataset with what to provision for it; null without a dataset size. */
export function datasetCapacityOf(
  todayGiB: number | null,
  growth: DatasetGrowth | null | undefined,
): DatasetCapacity | null {
  if (todayGiB === null) return null;
  const g = growth ?? null;
  return { todayGiB, growth: g, provisionGiB: grownDatasetGiB(todayGiB, g) };
}

const pct = (g: DatasetGrowth) => `${formatDecimal(g.percentPerYear, 1)} %/year`;
const later = (g: DatasetGrowth) =>
  `in ${formatInt(g.horizonMonths)} month${g.horizonMonths === 1 ? '' : 's'}`;

/** "2,000 GiB today, 2,600 GiB in 12 months at 30 %/year"; "2,000 GiB" without growth. */
export function datasetCapacityText(c: DatasetCapacity): string {
  if (!c.growth) return `${formatInt(Math.ceil(c.todayGiB))} GiB`;
  return `${formatInt(Math.ceil(c.todayGiB))} GiB today, ${formatInt(c.provisionGiB)} GiB ${later(c.growth)} at ${pct(c.growth)}`;
}

/**
 * Whether a store of `usableGiB` holds the dataset over the horizon, and the clause that says so.
 * A store that holds today's data but not the grown size does not hold it: the plan is for the
 * horizon. Without growth the words are the ones used before growth existed.
 */
export function datasetFitText(usableGiB: number, c: DatasetCapacity): { text: string; holds: boolean } {
  const today = formatInt(Math.ceil(c.todayGiB));
  const holdsToday = usableGiB >= c.todayGiB;
  const holds = usableGiB >= c.provisionGiB;
  // Without growth the size is compared unrounded, as before growth existed.
  if (!c.growth)
    return {
      text: holdsToday ? `it holds the ${today} GiB dataset` : `it cannot hold the ${today} GiB dataset`,
      holds: holdsToday,
    };
  if (holds) return { text: `it holds the dataset (${datasetCapacityText(c)})`, holds };
  if (holdsToday)
    return {
      text: `it cannot hold the ${formatInt(c.provisionGiB)} GiB the dataset grows to ${later(c.growth)} at ${pct(c.growth)} (it holds today’s ${today} GiB)`,
      holds,
    };
  return { text: `it cannot hold the dataset (${datasetCapacityText(c)})`, holds };
}
