import { describe, expect, it } from 'vitest';
import { instanceBursts, isStorageOptimizedFamily } from './instance-spec.ts';
import {
  defaultRateCard,
  listPriceRegions,
  rateCardFor,
  regionRateCardFor,
  seedGuideRateCard,
} from './ebs-prices.ts';
import {
  baseVariantOf,
  familyMembers,
  findInstanceType,
  listInstanceTypes,
  nvmePremium,
  suggestInstanceTypes,
} from './instances.ts';

describe('instance catalog', () => {
  it('holds every instance type of the data (1,390), 1,371 with all six EBS limits', () => {
    const all = listInstanceTypes();
    expect(all).toHaveLength(1390);
    expect(all.filter((s) => s.ebs !== null)).toHaveLength(1371);
  });

  it.each([
    // type, baseline Mbps, baseline IOPS, max Mbps, max IOPS, bursts
    ['r5d.4xlarge', 4750, 18_750, 4750, 18_750, false],
    ['r6id.4xlarge', 5000, 20_000, 10_000, 40_000, true],
    ['r7i.4xlarge', 5000, 20_000, 10_000, 40_000, true],
    ['m5.8xlarge', 6800, 30_000, 6800, 30_000, false],
    ['m1.large', 500, 4000, 500, 4000, false],
  ])(
    '%s: %d Mbps / %d IOPS baseline, %d Mbps / %d IOPS maximum',
    (type, bMbps, bIops, mMbps, mIops, bursts) => {
      const spec = findInstanceType(type)!;
      expect(spec.ebs).toEqual({
        baselineBandwidthMbps: bMbps,
        baselineIops: bIops,
        maximumBandwidthMbps: mMbps,
        maximumIops: mIops,
      });
      expect(instanceBursts(spec)).toBe(bursts);
    },
  );

  it('knows the instance store: r5d.4xlarge has 2 × 300 GB NVMe, 234,000 read / 114,000 write IOPS', () => {
    expect(findInstanceType('r5d.4xlarge')!.instanceStore).toEqual({
      volumes: 2,
      volumeSizeGB: 300,
      kind: 'nvme-ssd',
      randomReadIops: 234_000,
      writeIops: 114_000,
    });
    expect(findInstanceType('r5.4xlarge')!.instanceStore).toBeNull();
  });

  it('prices NVMe as the d-variant premium (us-east-1, 730 h)', () => {
    expect(nvmePremium('r5d.4xlarge')).toEqual({
      baseType: 'r5.4xlarge',
      dType: 'r5d.4xlarge',
      region: 'us-east-1',
      usdPerHour: 0.144,
      usdPerMonth: 105.12,
    });
    expect(nvmePremium('r5.4xlarge')?.dType).toBe('r5d.4xlarge');
    expect(nvmePremium('m7i.large')).toBeNull(); // m7i has no d variant
    expect(baseVariantOf('m6id.xlarge')).toBe('m6i.xlarge');
  });

  it('suggests names for typos, same family first', () => {
    expect(findInstanceType('r5d.5xlarge')).toBeUndefined();
    expect(suggestInstanceTypes('r5d.5xlarge')).toContain('r5d.4xlarge');
    expect(findInstanceType(' R5D.4XLARGE ')?.instanceType).toBe('r5d.4xlarge');
  });

  it('lists a family by EBS bandwidth', () => {
    const r5 = familyMembers('r5').map((s) => s.instanceType);
    expect(r5[0]).toBe('r5.large');
    expect(r5.indexOf('r5.8xlarge')).toBeGreaterThan(r5.indexOf('r5.4xlarge'));
  });

  it('recognizes storage-optimized families', () => {
    expect(
      ['i3', 'i4i', 'i3en', 'im4gn', 'is4gen', 'i7ie', 'i8g', 'd3'].every(isStorageOptimizedFamily),
    ).toBe(true);
    expect(['r5d', 'm6id', 'c7gd', 'inf2', 'm5'].some(isStorageOptimizedFamily)).toBe(false);
  });
});

describe('EBS rate cards', () => {
  // Dated 2024-07-18 since the EBS pricing page's price file of that day was added
  // (data/SOURCES.md); every us-east-1 rate is the one the 2022-02-10 extract had.
  it('us-east-1 is the default, dated 2024-07-18, naming its offer file', () => {
    const card = defaultRateCard();
    expect(card).toMatchObject({
      region: 'us-east-1',
      date: '2024-07-18',
      gp3: { storage: 0.08, iops: 0.005, throughput: 0.04 },
      io2: { storage: 0.125, iops: 0.065, iops2: 0.0455, iops3: 0.03185 },
    });
    expect(card.source).toMatch(
      /^AWS Price List, AmazonEC2 offer 20240718135337 for us-east-1 \(published 2024-07-18, .*yeo\/ec2\.shop@576c890f/,
    );
  });

  it('has every region of the data; zones without an io2 price get no card rather than a guess', () => {
    const regions = listPriceRegions();
    // 26 regions and 39 Local / Wavelength Zones in the 2022 extract, less the two China regions
    // (CNY only), and the 7 Regions the 2024-07-18 pricing-page file adds.
    expect(regions).toHaveLength(70);
    expect(rateCardFor('eu-central-1')?.gp3.storage).toBe(0.0952);
    for (const r of regions) expect(r.complete).toBe(rateCardFor(r.code) !== null);
    expect(rateCardFor('mars-north-1')).toBeNull();
  });

  // Regions opened since the 2022 extract, priced from the EBS pricing page's file of
  // 2024-07-18 (data/SOURCES.md): gp3 storage / IOPS / MiB/s-month (the file's per-GiBps price
  // ÷ 1,024), io1 storage / IOPS. The file lists no io2 price for any of them.
  it.each([
    ['ap-south-2', 'Asia Pacific (Hyderabad)', 0.0912, 0.0057, 46.6944, 0.131, 0.068],
    ['ap-southeast-4', 'Asia Pacific (Melbourne)', 0.096, 0.006, 49.152, 0.138, 0.072],
    ['ca-west-1', 'Canada West (Calgary)', 0.088, 0.0055, 45.056, 0.138, 0.072],
    ['eu-central-2', 'EU (Zurich)', 0.1142, 0.007, 58.4909, 0.179, 0.094],
    ['eu-south-2', 'EU (Spain)', 0.088, 0.0055, 45.056, 0.138, 0.072],
    ['il-central-1', 'Israel (Tel Aviv)', 0.1056, 0.0066, 54.0672, 0.1656, 0.0864],
    ['me-central-1', 'Middle East (UAE)', 0.0968, 0.0061, 49.5616, 0.1518, 0.0792],
  ])(
    '%s (%s) prices gp3 and io1 from the 2024-07-18 file; io2 stays unpriced',
    (code, location, gp3Gb, gp3Iops, gp3GiBps, io1Gb, io1Iops) => {
      const card = regionRateCardFor(code)!;
      expect(card).toMatchObject({ region: code, location, date: '2024-07-18' });
      expect(card.gp3.storage).toBe(gp3Gb);
      expect(card.gp3.iops).toBe(gp3Iops);
      // The catalog keeps 10 decimals of the per-MiB/s price (58.4909 ÷ 1,024 = 0.0571200195…).
      expect(card.gp3.throughput).toBeCloseTo(gp3GiBps / 1024, 9);
      expect(card.io1).toEqual({ storage: io1Gb, iops: io1Iops });
      expect(card.io2).toEqual({ storage: null, iops: null, iops2: null, iops3: null });
      expect(listPriceRegions().find((r) => r.code === code)).toMatchObject({
        complete: false,
        unpriced: ['io2'],
      });
    },
  );

  it('Local and Wavelength Zones keep the 2022-02-10 extract (the 2024 file names metros, not zones)', () => {
    expect(regionRateCardFor('use1-atl1-az1')?.date).toBe('2022-02-10');
    expect(regionRateCardFor('usw2-lax1-az1')?.date).toBe('2022-02-10');
  });

  it('the guide card ([guide], docs/domain.md) changes gp3 only and says where it comes from', () => {
    const card = seedGuideRateCard();
    expect(card.gp3).toEqual({ storage: 0.08, iops: 0.005, throughput: 0.06 });
    expect(card.source).toMatch(/EBS gp3 vs Local NVMe/);
  });
});
