import { describe, expect, it } from 'vitest';
import { defaultRateCard, seedGuideRateCard } from '../aws/ebs-prices.ts';
import { applyRateOverrides } from '../aws/rate-card.ts';
import {
  billedSeconds,
  clusterMonthlyCost,
  durationCost,
  io2IopsCost,
  monthlyCost,
  overProvisioningWaste,
  SECONDS_PER_MONTH,
  wasteOf,
} from './cost.ts';

const seed = seedGuideRateCard();
const usEast1 = defaultRateCard();

describe('[guide] cost tables, to the cent, under its own rate card (docs/domain.md §6 and §8)', () => {
  it.each([
    // size GiB, IOPS, MiB/s, monthly total
    [1000, 3000, 125, 80],
    [1000, 10_000, 500, 137.5],
    [1000, 16_000, 1000, 197.5],
    [1000, 80_000, 2000, 577.5],
    [4000, 3000, 125, 320],
    [4000, 10_000, 500, 377.5],
    [4000, 16_000, 1000, 437.5],
    [4000, 80_000, 2000, 817.5],
  ])('gp3 %d GiB, %d IOPS, %d MiB/s → $%d', (sizeGiB, iops, throughputMiBps, total) => {
    expect(monthlyCost({ type: 'gp3', sizeGiB, iops, throughputMiBps }, seed).total).toBe(total);
  });

  it.each([
    [4, 320, 2310, 1990],
    [8, 640, 4620, 3980],
  ])('%d nodes × 1 TB: $%d right-sized vs $%d at max (waste $%d)', (nodes, rightSized, atMax, waste) => {
    const r = overProvisioningWaste(
      { type: 'gp3', sizeGiB: 1000, iops: 80_000, throughputMiBps: 2000 },
      { type: 'gp3', sizeGiB: 1000 },
      seed,
      nodes,
    );
    expect(r.rightSized.total).toBe(rightSized);
    expect(r.provisioned.total).toBe(atMax);
    expect(r.wasteUsd).toBe(waste);
  });

  it('splits the $137.50 into storage, IOPS and throughput', () => {
    expect(monthlyCost({ type: 'gp3', sizeGiB: 1000, iops: 10_000, throughputMiBps: 500 }, seed)).toEqual({
      storage: 80,
      iops: 35,
      throughput: 22.5,
      total: 137.5,
    });
  });
});

describe('us-east-1 gp3 vs io2 table (docs/domain.md §6 and §8)', () => {
  it.each([
    [1000, 3000, 125, 80, 320],
    [2000, 6000, 250, 180, 640],
    [2000, 12_000, 500, 220, 1030],
  ])('%d GiB, %d IOPS, %d MiB/s → gp3 $%d, io2 $%d', (sizeGiB, iops, throughputMiBps, gp3, io2) => {
    expect(monthlyCost({ type: 'gp3', sizeGiB, iops, throughputMiBps }, usEast1).total).toBe(gp3);
    expect(monthlyCost({ type: 'io2', sizeGiB, iops }, usEast1).total).toBe(io2);
  });
});

describe('io2 graduated tiers', () => {
  it.each([
    // us-east-1: 0.065 / 0.0455 / 0.03185
    [32_000, 2080],
    [64_000, 2080 + 1456],
    [100_000, 2080 + 1456 + 36_000 * 0.03185],
    [256_000, 2080 + 1456 + 192_000 * 0.03185],
  ])('%d IOPS cost $%d', (iops, expected) => {
    expect(io2IopsCost(iops, usEast1)).toBeCloseTo(expected, 6);
  });
});

describe('every type', () => {
  it.each([
    ['gp2', { type: 'gp2', sizeGiB: 500 }, 50],
    ['st1', { type: 'st1', sizeGiB: 2000 }, 90],
    ['sc1', { type: 'sc1', sizeGiB: 2000 }, 30],
    ['io1', { type: 'io1', sizeGiB: 100, iops: 5000 }, 12.5 + 325],
  ] as const)('%s', (_, volume, total) => {
    expect(monthlyCost(volume, usEast1).total).toBe(total);
  });

  it('multiplies striped volumes and nodes', () => {
    const one = monthlyCost({ type: 'gp3', sizeGiB: 500 }, usEast1).total;
    expect(monthlyCost({ type: 'gp3', sizeGiB: 500, count: 3 }, usEast1).total).toBe(one * 3);
    expect(clusterMonthlyCost({ type: 'gp3', sizeGiB: 500, count: 3 }, usEast1, 4).total).toBe(one * 12);
  });
});

describe('user rate cards', () => {
  it('applies type-scoped keys and says the card is custom', () => {
    const r = applyRateOverrides(usEast1, 'storage=0.08,iops=0.005,throughput=0.06', 'gp3');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.gp3).toEqual({ storage: 0.08, iops: 0.005, throughput: 0.06 });
    expect(r.value.source).toMatch(/^custom rates/);
    expect(r.value.io2).toEqual(usEast1.io2);
  });

  it('accepts io2 tiers iops, iops2, iops3 and qualified keys', () => {
    const r = applyRateOverrides(usEast1, 'io2.iops=0.06,io2.iops2=0.04,io2.iops3=0.03,gp2.storage=0.11');
    expect(r.ok && r.value.io2).toMatchObject({ iops: 0.06, iops2: 0.04, iops3: 0.03 });
    expect(r.ok && r.value.gp2.storage).toBe(0.11);
  });

  it.each([
    ['iops=-1', 'gp3'],
    ['iops', 'gp3'],
    ['tier9=0.1', 'io2'],
    ['throughput=0.1', 'io2'],
    ['storage=0.1', undefined],
  ] as const)('rejects %s (type %s) with a reason', (text, type) => {
    const r = applyRateOverrides(usEast1, text, type);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('rates_invalid');
  });
});

describe('wasteOf: the waste between two costs already computed (a stored plan)', () => {
  const cost = (storage: number, iops: number, throughput: number, total: number) => ({
    storage,
    iops,
    throughput,
    total,
  });
  it.each([
    // provisioned total, right-sized total → waste in cents
    [2310, 320, 1990],
    [577.4999999, 137.5, 440],
    [100.1, 100.2, -0.1],
  ])('%d − %d → %d', (provisioned, rightSized, waste) => {
    const a = cost(provisioned, 0, 0, provisioned);
    const b = cost(rightSized, 0, 0, rightSized);
    expect(wasteOf(a, b)).toEqual({ provisioned: a, rightSized: b, wasteUsd: waste });
  });
});

describe('short-lived volumes: billed per second, 60-second minimum (docs/domain.md §8)', () => {
  it.each([
    // lived (s), billed (s)
    [20, 60],
    [60, 60],
    [60.2, 61],
    [720, 720],
    [43_200, 43_200],
  ])('a volume that lives %d s is billed %d s', (lived, billed) => {
    expect(billedSeconds(lived)).toBe(billed);
  });

  it("a CI runner's 100 GiB gp3 volume that lives 12 minutes: $8.00 a month × 720 s ÷ 2,628,000 s", () => {
    const cost = durationCost({ type: 'gp3', sizeGiB: 100 }, usEast1, 12 * 60);
    expect(cost).toEqual({
      seconds: 720,
      billedSeconds: 720,
      storage: 0.002192,
      iops: 0,
      throughput: 0,
      total: 0.002192,
    });
  });

  it('the same volume deleted after 20 s is billed for a minute', () => {
    expect(durationCost({ type: 'gp3', sizeGiB: 100 }, usEast1, 20).total).toBe(0.000183);
  });

  it("AWS's pricing example (2,000 GB gp3, 10,000 IOPS, 500 MB/s for 12 h) in a 730-h month", () => {
    // The pricing page divides by a 30-day month (2,592,000 s) and gets $2.67 for storage; a 730-h
    // month has 2,628,000 s: 0.08 × 2,000 × 43,200 ÷ 2,628,000 = $2.630137.
    const cost = durationCost(
      { type: 'gp3', sizeGiB: 2000, iops: 10_000, throughputMiBps: 500 },
      usEast1,
      43_200,
    );
    expect(cost).toMatchObject({ storage: 2.630137, iops: 0.575342, throughput: 0.246575, total: 3.452055 });
  });

  it('a whole 730-h month costs the monthly figure, × volumes × nodes (io2 tiers included)', () => {
    const volume = { type: 'io2', sizeGiB: 2000, iops: 40_000, count: 2 } as const;
    const monthly = clusterMonthlyCost(volume, usEast1, 3).total;
    expect(durationCost(volume, usEast1, SECONDS_PER_MONTH, 3).total).toBe(monthly);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses a life of %d s (a caller bug)', (s) => {
    expect(() => billedSeconds(s)).toThrow(RangeError);
  });
});
