import { describe, expect, it } from 'vitest';
import { defaultRateCard } from '../aws/ebs-prices.ts';
import { instanceStoreCapacity } from '../aws/instance-store.ts';
import { PlanSessionSchema } from '../records/session.ts';
import { planSession } from '../test-support/plan-session.ts';
import { catalogInstance, publishedProfile } from '../test-support/profiles.ts';
import {
  DatasetGrowthSchema,
  datasetCapacityOf,
  datasetCapacityText,
  datasetFitText,
  grownDatasetGiB,
} from './dataset-growth.ts';
import { PlanResultSchema, planStorage } from './plan.ts';

describe('the capacity to provision: today’s dataset compounded yearly over the horizon', () => {
  it.each([
    // todayGiB, %/year, months, GiB to provision
    [2000, 30, 12, 2600], // 2,000 × 1.3 = 2,600.0000000000005 in floats: never 2,601
    [1500, 20, 12, 1800],
    [1000, 100, 24, 4000], // doubling each year, two years
    [1000, 50, 6, 1225], // 1,000 × √1.5 = 1,224.74 → whole GiB up
    [1000, 0, 36, 1000],
    [800, 10, 1, 807], // 800 × 1.1^(1/12) = 806.38 → 807
    [1000, 1000, 60, 161_051_000], // the bounds: 11^5
  ] as const)('%s GiB at %s %/year over %s months → %s GiB', (today, percentPerYear, horizonMonths, want) => {
    expect(grownDatasetGiB(today, { percentPerYear, horizonMonths })).toBe(want);
  });

  it('without growth it is today’s size, rounded up to a whole GiB', () => {
    expect(grownDatasetGiB(800, null)).toBe(800);
    expect(grownDatasetGiB(799.2, null)).toBe(800);
    expect(datasetCapacityOf(null, { percentPerYear: 30, horizonMonths: 12 })).toBeNull();
  });
});

describe('growth and horizon are validated, the error names the field', () => {
  it.each([
    [{ percentPerYear: -1, horizonMonths: 12 }, 'percentPerYear', /0–1,000 %\/year/],
    [{ percentPerYear: 1001, horizonMonths: 12 }, 'percentPerYear', /0–1,000 %\/year/],
    [{ percentPerYear: 20, horizonMonths: 0 }, 'horizonMonths', /1–60 months/],
    [{ percentPerYear: 20, horizonMonths: 61 }, 'horizonMonths', /1–60 months/],
    [{ percentPerYear: 20, horizonMonths: 1.5 }, 'horizonMonths', /whole number of months/],
  ])('%j is refused on %s', (value, field, message) => {
    const r = DatasetGrowthSchema.safeParse(value);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual([field]);
    expect(r.error?.issues[0]?.message).toMatch(message);
    expect(r.error?.issues[0]?.message.startsWith(`${field}:`)).toBe(true);
  });

  it.each([
    { percentPerYear: 0, horizonMonths: 1 },
    { percentPerYear: 1000, horizonMonths: 60 },
    { percentPerYear: 12.5, horizonMonths: 18 },
  ])('%j is accepted', (value) => {
    expect(DatasetGrowthSchema.parse(value)).toEqual(value);
  });
});

describe('the answer says both numbers', () => {
  it.each([
    [2000, { percentPerYear: 30, horizonMonths: 12 }, '2,000 GiB today, 2,600 GiB in 12 months at 30 %/year'],
    [1500, { percentPerYear: 20, horizonMonths: 12 }, '1,500 GiB today, 1,800 GiB in 12 months at 20 %/year'],
    [
      1000,
      { percentPerYear: 12.5, horizonMonths: 1 },
      '1,000 GiB today, 1,010 GiB in 1 month at 12.5 %/year',
    ],
    [2000, null, '2,000 GiB'],
  ] as const)('%s GiB with %j → %s', (today, growth, text) => {
    expect(datasetCapacityText(datasetCapacityOf(today, growth)!)).toBe(text);
  });
});

describe('r6id.8xlarge’s store (1,769 GiB raw, ~1,653 GiB after ext4) against a growing dataset', () => {
  const usable = instanceStoreCapacity(catalogInstance('r6id.8xlarge'))!.usableGiB;
  it('the store is the one the scenario names', () => {
    expect(Math.floor(usable)).toBe(1653);
  });
  it.each([
    [1500, null, true, 'it holds the 1,500 GiB dataset'],
    [
      1500,
      { percentPerYear: 5, horizonMonths: 12 },
      true,
      'it holds the dataset (1,500 GiB today, 1,575 GiB in 12 months at 5 %/year)',
    ],
    [
      1500,
      { percentPerYear: 20, horizonMonths: 12 },
      false,
      'it cannot hold the 1,800 GiB the dataset grows to in 12 months at 20 %/year (it holds today’s 1,500 GiB)',
    ],
    [
      2000,
      { percentPerYear: 30, horizonMonths: 12 },
      false,
      'it cannot hold the dataset (2,000 GiB today, 2,600 GiB in 12 months at 30 %/year)',
    ],
    [2000, null, false, 'it cannot hold the 2,000 GiB dataset'],
  ] as const)('%s GiB with %j: holds %s', (today, growth, holds, text) => {
    expect(datasetFitText(usable, datasetCapacityOf(today, growth)!)).toEqual({ text, holds });
  });

  it('without growth a dataset just under the usable size is held (compared unrounded, as before growth)', () => {
    expect(datasetFitText(1653.4, datasetCapacityOf(1653.2, null)!)).toEqual({
      text: 'it holds the 1,654 GiB dataset',
      holds: true,
    });
  });
});

describe('the plan sizes every capacity check for the grown dataset', () => {
  const profile = publishedProfile({ readMiBps: 100, readIops: 5000, writeMiBps: 50, writeIops: 2000 });
  const base = {
    profile,
    target: { kind: 'ebs' as const, volume: { type: 'gp3' as const, sizeGiB: 1000 } },
    instance: catalogInstance('r6i.8xlarge'),
    rateCard: defaultRateCard(),
  };

  it('1,500 GiB at 20 %/year over 12 months: recommendations hold 1,800 GiB, and the plan says both', () => {
    const plan = planStorage({
      ...base,
      datasetGiB: 1500,
      datasetGrowth: { percentPerYear: 20, horizonMonths: 12 },
    });
    expect(plan.rightSizing.target.minSizeGiB).toBe(1800);
    const sized = plan.rightSizing.recommendations.filter((r) => r.status !== 'not-viable');
    expect(sized.length).toBeGreaterThan(0);
    for (const r of sized) expect(r.sizeGiB).toBeGreaterThanOrEqual(1800);
    expect(plan.dataset).toEqual({
      todayGiB: 1500,
      growth: { percentPerYear: 20, horizonMonths: 12 },
      provisionGiB: 1800,
    });
  });

  it('without growth the plan holds today’s size; without a dataset it keeps the shape stored before growth', () => {
    expect(planStorage({ ...base, datasetGiB: 1500 }).rightSizing.target.minSizeGiB).toBe(1500);
    expect('dataset' in planStorage(base)).toBe(false);
  });

  it('a growth without a dataset size changes nothing and says so, naming the control for the web', () => {
    const growth = { percentPerYear: 20, horizonMonths: 12 };
    const web = planStorage({ ...base, datasetGrowth: growth, audience: 'web' });
    expect(web.rightSizing.target.minSizeGiB).toBe(1000); // the measured volume's size
    const w = web.warnings.find((x) => x.code === 'growth_without_dataset');
    expect(w?.message).toContain('the dataset size (Dataset size, in Right-size)');
    expect(w?.message).not.toContain('--');
    expect(
      planStorage({ ...base, datasetGrowth: growth }).warnings.find(
        (x) => x.code === 'growth_without_dataset',
      )?.message,
    ).toContain('--dataset');
    expect(
      planStorage({ ...base, datasetGiB: 1500, datasetGrowth: growth }).warnings.map((x) => x.code),
    ).not.toContain('growth_without_dataset');
  });

  it('an analysis stored before growth (no `dataset`) still parses', () => {
    const stored = JSON.parse(JSON.stringify(planStorage({ ...base, datasetGiB: 1500 }))) as Record<
      string,
      unknown
    >;
    delete stored.dataset;
    expect(PlanResultSchema.safeParse(stored).success).toBe(true);
  });
});

describe('the session keeps the growth', () => {
  // As saved before growth existed: no `datasetGrowth` field at all.
  const session = planSession({ instanceType: 'r6id.8xlarge', datasetGiB: 1500 });
  it('a session saved before growth existed still parses (planned for today’s size)', () => {
    const r = PlanSessionSchema.safeParse(session);
    expect(r.success).toBe(true);
    expect(r.data?.datasetGrowth).toBeUndefined();
  });
  it('a session with growth round-trips; an out-of-range growth names the field', () => {
    const growth = { percentPerYear: 20, horizonMonths: 12 };
    expect(PlanSessionSchema.parse({ ...session, datasetGrowth: growth }).datasetGrowth).toEqual(growth);
    const bad = PlanSessionSchema.safeParse({
      ...session,
      datasetGrowth: { percentPerYear: 20, horizonMonths: 99 },
    });
    expect(bad.error?.issues[0]?.path).toEqual(['datasetGrowth', 'horizonMonths']);
  });
});
