import { describe, expect, it } from 'vitest';
import { findInstanceType } from '../aws/instances.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { assessViability, type Residency } from './viability.ts';

const readHeavy = publishedProfile({ readMiBps: 400, readIops: 60_000, writeMiBps: 10, writeIops: 1000 });
const writeHeavy = publishedProfile({ readMiBps: 10, readIops: 1000, writeMiBps: 300, writeIops: 9000 });

describe('when EBS is viable (docs/domain.md §11)', () => {
  it.each([
    ['high', writeHeavy, 'ebs'],
    ['high', readHeavy, 'ebs'],
    ['low', writeHeavy, 'ebs-likely'],
    ['low', readHeavy, 'nvme-likely'],
    ['unknown', writeHeavy, 'ebs-likely'],
    ['unknown', readHeavy, 'benchmark-first'],
  ] as [Residency, typeof readHeavy, string][])('residency %s → %s', (residency, profile, verdict) => {
    expect(assessViability({ profile, instance: findInstanceType('r6i.4xlarge')!, residency }).verdict).toBe(
      verdict,
    );
  });

  it('low residency, read-dominant but modest reads: benchmark first, compare clat p99', () => {
    const p = publishedProfile({ readMiBps: 100, readIops: 6000, writeMiBps: 10, writeIops: 500 });
    expect(assessViability({ profile: p, instance: null, residency: 'low' })).toMatchObject({
      verdict: 'benchmark-first',
      dominance: 'read',
    });
  });

  it('a dataset far larger than RAM with > 50K read IOPS points at NVMe', () => {
    const v = assessViability({
      profile: readHeavy,
      instance: findInstanceType('r6i.large')!,
      residency: 'unknown',
      datasetGiB: 2000,
    });
    expect(v.verdict).toBe('nvme-likely');
  });

  it.each(['i4i.2xlarge', 'i3en.large', 'im4gn.large', 'is4gen.large', 'i8g.xlarge'])(
    '%s is storage-optimized: EBS is no substitute',
    (type) => {
      expect(
        assessViability({ profile: writeHeavy, instance: findInstanceType(type)!, residency: 'high' })
          .verdict,
      ).toBe('nvme-built-in');
    },
  );
});
