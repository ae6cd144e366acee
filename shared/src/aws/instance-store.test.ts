import { describe, expect, it } from 'vitest';
import { findInstanceType } from './instances.ts';
import { ext4OverheadFraction, instanceStoreCapacity } from './instance-store.ts';

describe('instanceStoreCapacity: the store after ext4 with mke2fs defaults', () => {
  it.each([
    // type, disks × GB (catalog), raw GiB, usable GiB (raw × (1 − 256/16384 − 5 %))
    ['r6id.4xlarge', '1 × 950', 884.8, 826.7],
    // The case: 2,000 GiB of data does not fit r6id.8xlarge's 1,900 GB (1,769.5 GiB raw).
    ['r6id.8xlarge', '1 × 1900', 1769.5, 1653.4],
    ['r5d.4xlarge', '2 × 300', 558.8, 522.1],
    ['i4i.32xlarge', '8 × 3750', 27939.7, 26106.1],
  ])('%s (%s GB)', (type, disks, raw, usable) => {
    const spec = findInstanceType(type)!;
    const store = spec.instanceStore!;
    expect(`${store.volumes} × ${store.volumeSizeGB}`).toBe(disks);
    const c = instanceStoreCapacity(spec)!;
    expect(c.rawGiB).toBeCloseTo(raw, 1);
    expect(c.usableGiB).toBeCloseTo(usable, 1);
  });

  it('no store: null', () => {
    expect(instanceStoreCapacity(findInstanceType('r6i.4xlarge')!)).toBeNull();
  });

  it.each([
    // mke2fs(8) -T: default below 4 TB, big from 4 TB, huge from 16 TB (inode_ratio 16k, 32k, 64k).
    [3.75e12, 256 / 16_384 + 0.05],
    [7.5e12, 256 / 32_768 + 0.05],
    [16e12, 256 / 65_536 + 0.05],
  ])('a %d-byte disk keeps %f from data', (bytes, fraction) => {
    expect(ext4OverheadFraction(bytes)).toBeCloseTo(fraction, 10);
  });
});
