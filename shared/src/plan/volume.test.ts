import { describe, expect, it } from 'vitest';
import {
  gp2BaselineIops,
  gp2BurstSeconds,
  gp2ThroughputMiBps,
  includedSettingsOf,
  io1ThroughputMiBps,
  provisionedFieldsOf,
  settingRangesOf,
  validateVolume,
  volumeCapabilities,
  volumeFromLabels,
  volumeToLabels,
  volumeWithSettings,
  type VolumeConfig,
  type VolumeLabels,
} from './volume.ts';

describe('validateVolume: impossible configurations name the field and the allowed range', () => {
  it.each([
    [{ type: 'gp3', sizeGiB: 1000, iops: 90_000 }, 'iops', /3,000–80,000 IOPS, got 90,000/],
    [{ type: 'gp3', sizeGiB: 1000, iops: 20_000 }, null, null],
    [{ type: 'gp3', sizeGiB: 10, iops: 6000 }, 'iops', /500 IOPS per GiB: 6,000 IOPS needs at least 12 GiB/],
    // Every gp3 size includes 3,000 IOPS; the 500-per-GiB ratio only limits IOPS above that.
    [{ type: 'gp3', sizeGiB: 1 }, null, null],
    [{ type: 'gp3', sizeGiB: 1, iops: 3000 }, null, null],
    [{ type: 'gp3', sizeGiB: 8, iops: 4000 }, null, null],
    [
      { type: 'gp3', sizeGiB: 8, iops: 4001 },
      'iops',
      /4,001 IOPS needs at least 9 GiB \(size is 8 GiB, so at most 4,000 IOPS;/,
    ],
    [{ type: 'gp3', sizeGiB: 4, iops: 3001 }, 'iops', /at most 3,000 IOPS/],
    [
      { type: 'gp3', sizeGiB: 1000, iops: 3000, throughputMiBps: 1000 },
      'throughputMiBps',
      /0.25 MiB\/s per provisioned IOPS: 1,000 MiB\/s needs at least 4,000 IOPS/,
    ],
    [
      { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 2100 },
      'throughputMiBps',
      /125–2,000 MiB\/s/,
    ],
    [{ type: 'gp3', sizeGiB: 70_000 }, 'sizeGiB', /1–65,536 GiB/],
    [
      { type: 'io2', sizeGiB: 5, iops: 10_000 },
      'iops',
      /at most 1,000 IOPS per GiB.*at least 10 GiB.*at most 5,000 IOPS/,
    ],
    [{ type: 'io2', sizeGiB: 500, iops: 300_000 }, 'iops', /100–256,000 IOPS/],
    [{ type: 'io2', sizeGiB: 500 }, 'iops', /needs provisioned IOPS/],
    [{ type: 'io1', sizeGiB: 100, iops: 6000 }, 'iops', /50 IOPS per GiB/],
    [{ type: 'gp2', sizeGiB: 100, iops: 500 }, 'iops', /follow the size/],
    [{ type: 'st1', sizeGiB: 100 }, 'sizeGiB', /125–16,384 GiB/],
    [{ type: 'sc1', sizeGiB: 500, throughputMiBps: 50 }, 'throughputMiBps', /follows the size/],
  ] as [VolumeConfig, string | null, RegExp | null][])('%j', (volume, path, message) => {
    const problems = validateVolume(volume);
    if (path === null) {
      expect(problems).toEqual([]);
      return;
    }
    expect(problems.map((p) => p.path)).toContain(path);
    expect(problems.find((p) => p.path === path)!.message).toMatch(message!);
  });

  it('knows the limits before 2025 (16,000 IOPS / 1,000 MiB/s / 16 TiB)', () => {
    expect(validateVolume({ type: 'gp3', sizeGiB: 1000, iops: 20_000 }, 'before-2025')[0]!.message).toMatch(
      /3,000–16,000 IOPS/,
    );
    expect(validateVolume({ type: 'gp3', sizeGiB: 20_000 }, 'before-2025')[0]!.message).toMatch(
      /1–16,384 GiB/,
    );
  });
});

describe('volumeCapabilities', () => {
  it.each([
    // type/size → sustained IOPS, MiB/s, burst IOPS, burst MiB/s
    [{ type: 'gp3', sizeGiB: 100 }, 3000, 125, null, null],
    [{ type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000, count: 2 }, 32_000, 2000, null, null],
    // gp2: baseline IOPS × 256 KiB sustained, the size's maximum (128 / 250) on credits.
    [{ type: 'gp2', sizeGiB: 20 }, 100, 25, 3000, 128],
    [{ type: 'gp2', sizeGiB: 214 }, 642, 160.5, 3000, 250],
    [{ type: 'gp2', sizeGiB: 1000 }, 3000, 250, null, null],
    [{ type: 'gp2', sizeGiB: 6000 }, 16_000, 250, null, null],
    [{ type: 'io1', sizeGiB: 1000, iops: 48_000 }, 48_000, 750, null, null],
    [{ type: 'io2', sizeGiB: 1000, iops: 3000 }, 3000, 768, null, null],
    [{ type: 'io2', sizeGiB: 1000, iops: 64_000 }, 64_000, 4000, null, null],
    [{ type: 'st1', sizeGiB: 2048 }, 500, 80, null, 500],
    [{ type: 'sc1', sizeGiB: 16_384 }, 250, 192, null, 250],
  ] as [VolumeConfig, number, number, number | null, number | null][])(
    '%j',
    (volume, iops, tp, burstIops, burstTp) => {
      const caps = volumeCapabilities(volume);
      expect(caps.iops).toBe(iops);
      expect(caps.throughputMiBps).toBeCloseTo(tp, 6);
      expect(caps.burstIops).toBe(burstIops);
      expect(caps.burstThroughputMiBps).toBe(burstTp);
    },
  );

  // AWS's gp2 formula (size × 3 IOPS per GiB × 256 KiB), checked against awslabs/aws-support-tools
  // VolumeLimitCalculator: min(128 or 250, baseline IOPS ÷ 4) when the bucket is empty.
  it.each([
    // size GiB → sustained MiB/s, burst MiB/s
    [1, 25, 128],
    [100, 75, 128],
    [170, 127.5, 128],
    [171, 128.25, 250],
    [250, 187.5, 250],
    [333, 249.75, 250],
    [334, 250, null],
    [1000, 250, null],
  ])('gp2 %d GiB sustains %d MiB/s, bursts to %s', (size, sustained, burst) => {
    expect(gp2ThroughputMiBps(size)).toEqual({ sustained, burst });
  });

  it('io1 throughput follows provisioned IOPS (256 KiB each to 500 MiB/s; 16 KiB each above 32,000)', () => {
    expect(io1ThroughputMiBps(1000)).toBe(250);
    expect(io1ThroughputMiBps(2000)).toBe(500);
    expect(io1ThroughputMiBps(32_000)).toBe(500);
    expect(io1ThroughputMiBps(48_000)).toBe(750);
    expect(io1ThroughputMiBps(64_000)).toBe(1000);
  });
});

describe('gp2 burst credits', () => {
  it('a 20 GiB volume (100 IOPS baseline) bursts 3,000 IOPS for 1,862 s ≈ 31 min', () => {
    expect(gp2BaselineIops(20)).toBe(100);
    expect(gp2BurstSeconds(20, 3000)).toBeCloseTo(1862.07, 1);
  });
  it('drains slower at a lower demand, never at or below baseline', () => {
    expect(gp2BurstSeconds(100, 1300)).toBeCloseTo(5_400_000 / 1000, 6);
    expect(gp2BurstSeconds(100, 300)).toBeNull();
  });
  it('volumes ≥ 1 TiB do not burst', () => {
    expect(gp2BurstSeconds(1000, 5000)).toBe(0);
  });
});

describe('which settings each type takes: one rule for labels, recommendations, forms and plans', () => {
  it.each([
    // type → IOPS?, throughput?, size range, IOPS range, throughput range (current gp3 limits)
    ['gp3', true, true, [1, 65_536], [3000, 80_000], [125, 2000]],
    ['gp2', false, false, [1, 16_384], null, null],
    ['io1', true, false, [4, 16_384], [100, 64_000], null],
    ['io2', true, false, [4, 65_536], [100, 256_000], null],
    ['st1', false, false, [125, 16_384], null, null],
    ['sc1', false, false, [125, 16_384], null, null],
  ] as const)('%s', (type, iops, throughputMiBps, size, iopsRange, tpRange) => {
    expect(provisionedFieldsOf(type)).toEqual({ iops, throughputMiBps });
    expect(settingRangesOf(type)).toEqual({ sizeGiB: size, iops: iopsRange, throughputMiBps: tpRange });
  });

  it('ranges follow the gp3 limits generation', () => {
    expect(settingRangesOf('gp3', 'before-2025')).toEqual({
      sizeGiB: [1, 16_384],
      iops: [3000, 16_000],
      throughputMiBps: [125, 1000],
    });
  });

  it.each([
    ['gp3', { iops: 3000, throughputMiBps: 125 }],
    ['io2', { iops: null, throughputMiBps: null }],
    ['gp2', { iops: null, throughputMiBps: null }],
  ] as const)('%s includes %j without provisioning', (type, included) => {
    expect(includedSettingsOf(type)).toEqual(included);
  });

  it.each([
    // what a caller has → the configuration the type takes
    [
      { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 },
      { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 },
    ],
    [
      { type: 'io2', sizeGiB: 500, iops: 64_000, throughputMiBps: 1000 },
      { type: 'io2', sizeGiB: 500, iops: 64_000 },
    ],
    [
      { type: 'gp2', sizeGiB: 500, iops: 1500, throughputMiBps: 250 },
      { type: 'gp2', sizeGiB: 500 },
    ],
    [
      { type: 'st1', sizeGiB: 2048, iops: 500, count: 4 },
      { type: 'st1', sizeGiB: 2048, count: 4 },
    ],
    [
      { type: 'gp3', sizeGiB: 100, iops: null, throughputMiBps: null, count: null },
      { type: 'gp3', sizeGiB: 100 },
    ],
  ] as [Parameters<typeof volumeWithSettings>[0], VolumeConfig][])('%j → %j', (input, volume) => {
    expect(volumeWithSettings(input)).toEqual(volume);
  });

  it.each([
    // a run's labels → the volume they describe
    [
      { volumeType: 'gp3', volumeSizeGiB: 1000, volumeIops: 16_000, volumeThroughputMiBps: 1000 },
      { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 },
    ],
    [
      {
        volumeType: 'io1',
        volumeSizeGiB: 1000,
        volumeIops: 20_000,
        volumeThroughputMiBps: 500,
        volumeCount: 2,
      },
      { type: 'io1', sizeGiB: 1000, iops: 20_000, count: 2 },
    ],
    [
      { volumeType: 'sc1', volumeSizeGiB: 4096, volumeIops: 250 },
      { type: 'sc1', sizeGiB: 4096 },
    ],
    [
      { volumeType: 'gp2', volumeSizeGiB: 100, volumeCount: 1 },
      { type: 'gp2', sizeGiB: 100, count: 1 },
    ],
    [{ volumeType: 'gp3' }, null],
    [{ volumeSizeGiB: 100 }, null],
  ] as [VolumeLabels, VolumeConfig | null][])('%j → %j', (labels, volume) => {
    expect(volumeFromLabels(labels)).toEqual(volume);
  });

  it.each([
    // a volume → the labels its run carries (no count label for one volume)
    [
      { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000, count: 1 },
      { volumeType: 'gp3', volumeSizeGiB: 1000, volumeIops: 16_000, volumeThroughputMiBps: 1000 },
    ],
    [
      { type: 'io2', sizeGiB: 500, iops: 64_000, throughputMiBps: 1000, count: 4 },
      { volumeType: 'io2', volumeSizeGiB: 500, volumeIops: 64_000, volumeCount: 4 },
    ],
    [
      { type: 'gp2', sizeGiB: 500, iops: 1500 },
      { volumeType: 'gp2', volumeSizeGiB: 500 },
    ],
  ] as [VolumeConfig, VolumeLabels][])('%j → %j', (volume, labels) => {
    expect(volumeToLabels(volume)).toEqual(labels);
  });
});
