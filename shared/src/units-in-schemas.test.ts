/**
 * Units in schema types (units.ts `unitSchema`): the `@ts-expect-error` lines are the test — each
 * is a unit mix-up that must not compile, and `pnpm typecheck` fails ("unused directive") the day a
 * schema field loses its unit. The runtime half checks that the unit is a type only: parsing gives
 * the same numbers and the same errors as before.
 */
import { describe, expect, it } from 'vitest';
import { AwsVolumeSchema } from './fleet/aws-outputs.ts';
import { RecommendationSchema, type Recommendation } from './plan/right-size.ts';
import { VolumeConfigSchema, type VolumeConfig } from './plan/volume.ts';
import { DirectionLoadSchema, type DirectionLoad } from './profile/io-profile.schema.ts';
import { gib, iops, mibps, mibpsToBytesPerSec } from './units.ts';

// A gp3 volume as describe-volumes prints it (fields from the EC2 API reference, Volume).
const awsVolume = AwsVolumeSchema.parse({
  VolumeId: 'vol-0abc',
  Size: 500,
  VolumeType: 'gp3',
  Iops: 6000,
  Throughput: 250,
  State: 'in-use',
});
const load: DirectionLoad = DirectionLoadSchema.parse({
  iops: 3000,
  bytesPerSec: 12_288_000,
  blockSizeBytes: 4096,
  latency: null,
});

describe('units in schema types', () => {
  it('a field of one unit refuses a value of another (compile time)', () => {
    // @ts-expect-error IOPS into a MiB/s field
    const throughput: Recommendation['throughputMiBps'] = load.iops;
    // @ts-expect-error bytes/s into a MiB/s field (the conversion is bytesPerSecToMiBps)
    const perVolume: VolumeConfig['throughputMiBps'] = load.bytesPerSec;
    // @ts-expect-error AWS's Size is GiB, not IOPS
    const asIops: Recommendation['iops'] = awsVolume.Size;
    // @ts-expect-error AWS's Throughput is MiB/s, not GiB
    const asSize: VolumeConfig['sizeGiB'] = awsVolume.Throughput ?? 125;
    // @ts-expect-error a unit constructor's value keeps its unit: IOPS are not GiB
    const size: Recommendation['sizeGiB'] = iops(3000);
    // @ts-expect-error a block size in bytes is not a rate
    const rate: DirectionLoad['bytesPerSec'] = load.blockSizeBytes ?? 0;
    expect([throughput, perVolume, asIops, asSize, size, rate]).toHaveLength(6);
  });

  it('the same unit, a constructor of it or a plain number is accepted', () => {
    const volume: VolumeConfig = {
      type: 'gp3',
      sizeGiB: awsVolume.Size,
      iops: awsVolume.Iops,
      throughputMiBps: awsVolume.Throughput,
    };
    const typedIn: VolumeConfig = { type: 'gp3', sizeGiB: gib(500), iops: 3000, throughputMiBps: mibps(125) };
    expect(VolumeConfigSchema.parse(volume)).toEqual({
      type: 'gp3',
      sizeGiB: 500,
      iops: 6000,
      throughputMiBps: 250,
    });
    expect(VolumeConfigSchema.parse(typedIn)).toEqual(typedIn);
    // A parsed value reaches a unit function through its constructor, as a plain number does.
    expect(mibpsToBytesPerSec(mibps(awsVolume.Throughput ?? 0))).toBe(250 * 1024 * 1024);
  });

  it('a unit is a type only: parsing gives the numbers and the errors it gave before', () => {
    const result = VolumeConfigSchema.safeParse({ type: 'gp3', sizeGiB: -1 });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path)).toEqual([['sizeGiB']]);
    const bad = RecommendationSchema.shape.iops.safeParse('3000');
    expect(bad.success).toBe(false);
    expect(DirectionLoadSchema.shape.iops.parse(3000)).toBe(3000);
    expect(load).toMatchObject({ iops: 3000, bytesPerSec: 12_288_000, blockSizeBytes: 4096 });
  });
});
