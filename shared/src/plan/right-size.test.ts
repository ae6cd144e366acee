import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultRateCard } from '../aws/ebs-prices.ts';
import { findInstanceType } from '../aws/instances.ts';
import { VOLUME_TYPES, type VolumeType } from '../aws/volume-types.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { monthlyCost } from './cost.ts';
import { demandOf, hasRandomIo } from './demand.ts';
import { gp3ForGp2, rightSize, volumeOfRecommendation } from './right-size.ts';
import { gp2ThroughputMiBps, validateVolume, volumeCapabilities, type VolumeConfig } from './volume.ts';

const rates = defaultRateCard();
const profile = (readMiBps: number, readIops: number, writeMiBps: number, writeIops: number) =>
  publishedProfile({ readMiBps, readIops, writeMiBps, writeIops, durationSec: 3600 });
const rec = (r: ReturnType<typeof rightSize>, type: VolumeType) =>
  r.recommendations.find((x) => x.type === type)!;

describe('right-sizing examples (docs/domain.md §7)', () => {
  it('gp3: max(3,000, peak × 1.25) IOPS and max(125, peak × 1.25) MiB/s, at the capacity the data needs', () => {
    const r = rightSize({
      profile: profile(188, 3043, 381, 6018),
      headroom: 0.25,
      minSizeGiB: 1000,
      instance: null,
      rateCard: rates,
    });
    expect(r.target).toMatchObject({ iops: Math.ceil(9061 * 1.25), throughputMiBps: Math.ceil(569 * 1.25) });
    expect(rec(r, 'gp3')).toMatchObject({
      status: 'meets',
      sizeGiB: 1000,
      iops: 11_327,
      throughputMiBps: 712,
    });
    // 80 storage + 8,327 × 0.005 + 587 × 0.04
    expect(rec(r, 'gp3').monthlyUsd).toEqual({ storage: 80, iops: 41.64, throughput: 23.48, total: 145.12 });
    expect(r.recommendations[0]!.type).toBe('gp3');
    // One gp2 tops out at 250 MiB/s: three striped carry 712 MiB/s, at 2.6× gp3's price.
    expect(rec(r, 'gp2')).toMatchObject({ status: 'meets', volumeCount: 3 });
    expect(rec(r, 'gp2').monthlyUsd.total).toBeGreaterThan(rec(r, 'gp3').monthlyUsd.total * 2);
    expect(rec(r, 'st1').status).toBe('not-viable');
  });

  it('gp2 is sized by its throughput formula (3 IOPS per GiB × 256 KiB), not jumped to 334 GiB above 128 MiB/s', () => {
    // 160 MiB/s of 256 KiB reads (640 IOPS) + 25 %: 200 MiB/s and 800 IOPS. 267 GiB sustains
    // 801 IOPS × 0.25 MiB = 200.25 MiB/s (AWS's gp2 formula); 334 GiB would be 67 GiB bought for nothing.
    const r = rightSize({
      profile: profile(160, 640, 0, 0),
      headroom: 0.25,
      minSizeGiB: 100,
      instance: null,
      rateCard: rates,
    });
    expect(r.target).toMatchObject({ iops: 800, throughputMiBps: 200 });
    expect(rec(r, 'gp2')).toMatchObject({ status: 'meets', sizeGiB: 267, volumeCount: 1 });
    expect(rec(r, 'gp2').monthlyUsd.total).toBe(26.7);
    expect(rec(r, 'gp2').reasons[0]).toBe(
      '267 GiB gives 801 baseline IOPS (3 per GiB) and 200.25 MiB/s sustained',
    );
  });

  it('a quiet workload pays for storage only on gp3', () => {
    const r = rightSize({
      profile: profile(10, 500, 5, 300),
      headroom: 0.25,
      minSizeGiB: 200,
      instance: null,
      rateCard: rates,
    });
    expect(rec(r, 'gp3')).toMatchObject({ sizeGiB: 200, iops: 3000, throughputMiBps: 125 });
    expect(rec(r, 'gp3').reasons[0]).toMatch(/included 3,000 IOPS and 125 MiB\/s cover/);
  });

  it('a small quiet volume stays small: the included 3,000 IOPS need no 6 GiB (the 500 IOPS/GiB ratio applies above them)', () => {
    const r = rightSize({
      profile: profile(10, 500, 5, 300),
      headroom: 0.25,
      minSizeGiB: 1,
      instance: null,
      rateCard: rates,
    });
    expect(rec(r, 'gp3')).toMatchObject({ sizeGiB: 1, iops: 3000, throughputMiBps: 125 });
    expect(validateVolume({ type: 'gp3', sizeGiB: 1, iops: 3000, throughputMiBps: 125 })).toEqual([]);
  });

  it('throughput-bound large blocks: 800 MiB/s of 1 MiB reads is 3,200 EBS operations, within the 0.25 MiB/s-per-IOPS rule', () => {
    const r = rightSize({
      profile: profile(800, 800, 0, 0),
      headroom: 0.25,
      minSizeGiB: 500,
      instance: null,
      rateCard: rates,
    });
    expect(rec(r, 'gp3')).toMatchObject({ iops: 4000, throughputMiBps: 1000 });
    expect(validateVolume({ type: 'gp3', sizeGiB: 500, iops: 4000, throughputMiBps: 1000 })).toEqual([]);
  });

  it('raises gp3 size for the 500 IOPS-per-GiB rule', () => {
    const r = rightSize({
      profile: profile(40, 10_000, 0, 0),
      headroom: 0.2,
      minSizeGiB: 10,
      instance: null,
      rateCard: rates,
    });
    expect(rec(r, 'gp3')).toMatchObject({ iops: 12_000, sizeGiB: 24 });
  });

  it('above one gp3 volume: a gp3 stripe, priced beside io2 (and far cheaper)', () => {
    const r = rightSize({
      profile: profile(500, 60_000, 500, 40_000),
      headroom: 0.25,
      minSizeGiB: 1000,
      instance: null,
      rateCard: rates,
    });
    expect(rec(r, 'gp3')).toMatchObject({
      status: 'meets',
      volumeCount: 2,
      perVolume: { sizeGiB: 500, iops: 62_500, throughputMiBps: 625 },
      sizeGiB: 1000,
      iops: 125_000,
    });
    expect(rec(r, 'gp3').reasons[0]).toMatch(/2 × gp3 striped \(RAID 0\): one gp3 volume cannot carry/);
    expect(rec(r, 'io2')).toMatchObject({ status: 'meets', iops: 125_000, volumeCount: 1 });
    expect(rec(r, 'gp3').monthlyUsd.total * 5).toBeLessThan(rec(r, 'io2').monthlyUsd.total);
    const gen = rightSize({
      profile: profile(100, 12_000, 100, 2000),
      headroom: 0.25,
      minSizeGiB: 1000,
      instance: null,
      rateCard: rates,
      gp3Generation: 'before-2025',
    });
    expect(rec(gen, 'gp3')).toMatchObject({ status: 'meets', volumeCount: 2 });
  });

  it('st1 fits large sequential throughput, never small random I/O', () => {
    const seq = rightSize({
      profile: publishedProfile({
        readMiBps: 200,
        readIops: 200,
        writeMiBps: 0,
        writeIops: 0,
        access: 'sequential',
      }),
      headroom: 0.25,
      minSizeGiB: 500,
      instance: null,
      rateCard: rates,
    });
    expect(rec(seq, 'st1')).toMatchObject({ status: 'meets', sizeGiB: Math.ceil((250 / 40) * 1024) });
    const random = rightSize({
      profile: profile(40, 10_000, 0, 0),
      headroom: 0.25,
      minSizeGiB: 500,
      instance: null,
      rateCard: rates,
    });
    expect(rec(random, 'st1').reasons[0]).toMatch(/HDD volumes are for large sequential I\/O/);
  });

  it('counts I/Os above 256 KiB as several operations', () => {
    // 1 MiB reads at 1,000 IOPS = 4,000 EBS operations
    const r = rightSize({
      profile: profile(1000, 1000, 0, 0),
      headroom: 0,
      minSizeGiB: 1000,
      instance: null,
      rateCard: rates,
    });
    expect(r.target.iops).toBe(4000);
    expect(r.notes.join(' ')).toMatch(/larger than 256 KiB/);
    expect(r.notes.join(' ')).toMatch(/Headroom below 11.1%/);
  });

  it('caps at what the instance sustains and names the upgrade', () => {
    const r5 = findInstanceType('r5.large')!;
    const r = rightSize({
      profile: profile(30, 3000, 30, 3000),
      headroom: 0.25,
      minSizeGiB: 100,
      instance: r5,
      rateCard: rates,
    });
    expect(r.instanceAdvice?.exceeds).toEqual(['instance-iops']);
    expect(r.instanceAdvice?.message).toMatch(/burst ceiling .* lasts 30 minutes per 24 hours/);
    expect(rec(r, 'gp3')).toMatchObject({ status: 'capped-by-instance', iops: 3600 });
    // The 6,000-IOPS peak itself is above r5.large's 3,600 baseline: the cap says what it gives up.
    expect(rec(r, 'gp3').reasons).toContain(
      'capping at the instance baseline gives up the burst: peaks of 6,000 IOPS will be throttled to 3,600',
    );
  });

  it('a peak within the baseline, only the headroom above it: capped, nothing throttled to say', () => {
    const r = rightSize({
      profile: profile(10, 1700, 10, 1700),
      headroom: 0.25,
      minSizeGiB: 100,
      instance: findInstanceType('r5.large')!,
      rateCard: rates,
    });
    expect(rec(r, 'gp3')).toMatchObject({ status: 'capped-by-instance', iops: 3600 });
    expect(rec(r, 'gp3').reasons.join(' ')).not.toContain('throttled');
  });
});

describe('gp2 → gp3 migration keeps at least gp2 performance', () => {
  it.each([20, 100, 170, 200, 333, 334, 1000, 5334, 16_000])('%d GiB', (size) => {
    const gp3 = gp3ForGp2(size);
    const gp2 = volumeCapabilities({ type: 'gp2', sizeGiB: size });
    const caps = volumeCapabilities(gp3);
    expect(validateVolume(gp3)).toEqual([]);
    expect(caps.iops).toBeGreaterThanOrEqual(Math.max(gp2.iops, gp2.burstIops ?? 0));
    expect(caps.throughputMiBps).toBeGreaterThanOrEqual(
      gp2ThroughputMiBps(size).burst ?? gp2.throughputMiBps,
    );
  });
});

describe('properties', () => {
  const arbProfile = fc
    .record({
      readIops: fc.integer({ min: 0, max: 200_000 }),
      writeIops: fc.integer({ min: 0, max: 200_000 }),
      readKiB: fc.integer({ min: 1, max: 2048 }),
      writeKiB: fc.integer({ min: 1, max: 2048 }),
      access: fc.constantFrom(undefined, 'random' as const, 'sequential' as const, 'mixed' as const),
    })
    .map((p) =>
      publishedProfile({
        readMiBps: (p.readIops * p.readKiB) / 1024,
        readIops: p.readIops,
        writeMiBps: (p.writeIops * p.writeKiB) / 1024,
        writeIops: p.writeIops,
        durationSec: 3600,
        ...(p.access ? { access: p.access } : {}),
      }),
    );

  it('a recommendation that "meets" is never outrun by the demand under its type\'s I/O accounting, and holds the data', () => {
    fc.assert(
      fc.property(
        arbProfile,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 200_000 }),
        (p, headroom, minSizeGiB) => {
          const r = rightSize({ profile: p, headroom, minSizeGiB, instance: null, rateCard: rates });
          for (const x of r.recommendations) {
            if (x.status === 'not-viable') continue;
            expect(x.sizeGiB).toBeGreaterThanOrEqual(minSizeGiB);
            if (x.status !== 'meets') continue;
            const volume = volumeOfRecommendation(x);
            const count = volume.count ?? 1;
            expect(validateVolume({ ...volume, count: undefined })).toEqual([]);
            const caps = volumeCapabilities(volume);
            expect(volume.sizeGiB * count).toBeGreaterThanOrEqual(minSizeGiB);
            // The demand as THIS type counts it: SSD 256 KiB operations, HDD whole-MiB operations.
            const d = demandOf(p, caps.media);
            expect(caps.iops + 1e-6).toBeGreaterThanOrEqual(d.iops * (1 + headroom));
            expect(caps.throughputMiBps + 1e-6).toBeGreaterThanOrEqual(d.budgetMiBps * (1 + headroom));
            expect(x.monthlyUsd.total).toBe(monthlyCost(volume, rates).total);
            if (caps.media === 'hdd') expect(hasRandomIo(p)).toBe(false);
          }
          const meets = r.recommendations.filter((x) => x.status === 'meets').map((x) => x.monthlyUsd.total);
          expect(meets).toEqual([...meets].sort((a, b) => a - b));
        },
      ),
      { seed: 20261122, numRuns: 400 },
    );
  });

  it('cost is monotonic in size, IOPS and throughput for every type', () => {
    const arbVolume = fc.record({
      type: fc.constantFrom(...VOLUME_TYPES),
      sizeGiB: fc.integer({ min: 125, max: 16_000 }),
      iops: fc.integer({ min: 3000, max: 64_000 }),
      throughputMiBps: fc.integer({ min: 125, max: 1000 }),
      grow: fc.constantFrom('sizeGiB', 'iops', 'throughputMiBps'),
      by: fc.integer({ min: 1, max: 10_000 }),
    });
    fc.assert(
      fc.property(arbVolume, ({ type, grow, by, ...v }) => {
        const a: VolumeConfig = { type, ...v };
        const b: VolumeConfig = { ...a, [grow]: (a[grow] as number) + by };
        expect(monthlyCost(b, rates).total).toBeGreaterThanOrEqual(monthlyCost(a, rates).total);
      }),
      { seed: 7, numRuns: 500 },
    );
  });
});
