import { describe, expect, it } from 'vitest';
import { compareRates } from './compare-rates.ts';

const MiB = 1024 * 1024;

describe('compareRates ([guide]: r6id.4xlarge, production-like block sizes)', () => {
  const ebs = { readIops: 5477, writeIops: 10_800, readBytesPerSec: 333 * MiB, writeBytesPerSec: 675 * MiB };
  const nvme = { readIops: 4601, writeIops: 9233, readBytesPerSec: 286 * MiB, writeBytesPerSec: 581 * MiB };

  it('reports the article’s deltas: +16% / +16% bandwidth, +19% / +17% IOPS for EBS', () => {
    const rows = compareRates(ebs, nvme);
    expect(rows.map((r) => [r.metric, r.unit, Math.round(r.delta! * 100), r.faster])).toEqual([
      ['read-throughput', 'MiB/s', 16, 'ebs'],
      ['write-throughput', 'MiB/s', 16, 'ebs'],
      ['read-iops', 'IOPS', 19, 'ebs'],
      ['write-iops', 'IOPS', 17, 'ebs'],
    ]);
    expect(rows[0]).toMatchObject({ ebs: 333, nvme: 286 });
  });

  it('r5d.4xlarge: NVMe ahead, delta negative', () => {
    const rows = compareRates(
      { readIops: 3043, writeIops: 6018, readBytesPerSec: 188 * MiB, writeBytesPerSec: 381 * MiB },
      { readIops: 4056, writeIops: 8044, readBytesPerSec: 249 * MiB, writeBytesPerSec: 505 * MiB },
    );
    expect(rows.every((r) => r.faster === 'nvme' && r.delta! < 0)).toBe(true);
  });

  it('no NVMe I/O in a direction: no ratio', () => {
    const rows = compareRates(
      { ...ebs, readIops: 0, readBytesPerSec: 0 },
      { ...nvme, readIops: 0, readBytesPerSec: 0 },
    );
    expect(rows[0]).toMatchObject({ delta: null, faster: 'equal' });
  });
});
