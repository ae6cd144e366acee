import { planStorage, profileFromFio } from '@blockwise/shared';
import { defaultRateCard, findInstanceType, summarizeRun } from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { fixtureReport, typedProfile } from '../../test/fixtures.ts';
import { placeWarnings, profileRows, slotOf } from './profile-view.ts';

describe('slotOf: a warning sits next to the number it concerns', () => {
  it.each([
    ['read.bytesPerSec', 'read'],
    ['write.throughput', 'write'],
    ['jobs.0.read.iops', 'read'],
    ['total.read.clatMs', 'latency'],
    ['latency', 'latency'],
    ['blockSize', 'blockSize'],
    ['runtime', 'runtime'],
    ['throughput', 'demand'],
    ['instance-bandwidth', 'limits'],
    ['labels.instanceType', 'labels'],
    ['direct', 'general'],
    [undefined, 'general'],
  ] as const)('%s → %s', (subject, slot) => expect(slotOf(subject)).toBe(slot));

  it('drops duplicates', () => {
    const w = { code: 'x', message: 'm', subject: 'runtime' };
    expect(placeWarnings([w, { ...w }]).runtime).toHaveLength(1);
  });
});

describe('profileRows (real fio fixtures)', () => {
  it('bsrange 4k-16k reads, 64k writes: small reads IOPS-bound, medium writes either', () => {
    const report = fixtureReport('grouped');
    const plan = summarizeRun(report, { instanceType: 'r6i.4xlarge' }).plan!;
    const { rows, slots } = profileRows(plan);
    expect(rows.map((r) => [r.direction, r.sizeClass, r.likelyBound])).toEqual([
      ['read', 'small', 'iops'],
      ['write', 'medium', 'either'],
    ]);
    expect(rows[1]!.blockSizeBytes).toBeCloseTo(65536, 0);
    // A 10-second test: the runtime warning sits by the duration.
    expect(slots.runtime.map((w) => w.code)).toContain('too_short_for_burst');
  });

  const seqWritePlan = () => {
    const profile = profileFromFio(fixtureReport('seqwrite128k'));
    if (!profile.ok) throw new Error(profile.error.message);
    return planStorage({ profile: profile.value, target: null, instance: null, rateCard: defaultRateCard() });
  };

  it('128 KiB sequential writes: no reads; the write block size is 128 KiB', () => {
    const { rows } = profileRows(seqWritePlan());
    expect(rows[0]).toMatchObject({ direction: 'read', sizeClass: null, likelyBound: null });
    expect(rows[1]!.blockSizeBytes).toBeCloseTo(131072, 0);
  });

  // bytes/s ÷ IOPS gives 131,071.9998 B for a bs=128k job (fio's rounded IOPS): still large.
  it('128 KiB sequential writes are large and throughput-bound', () => {
    const { rows } = profileRows(seqWritePlan());
    expect(rows[1]).toMatchObject({ direction: 'write', sizeClass: 'large', likelyBound: 'throughput' });
  });

  it('typed-in metrics with a Mbps/MB/s mix-up: the implausible block size warning lands on the write row', () => {
    const profile = typedProfile({ readMiBps: 10, readIops: 1000, writeMiBps: 50_000, writeIops: 100 });
    const plan = planStorage({
      profile,
      target: null,
      instance: findInstanceType('m5.large') ?? null,
      rateCard: defaultRateCard(),
    });
    const { rows } = profileRows(plan);
    expect(rows[1]!.warnings.map((w) => w.code)).toEqual(['implausible_block_size']);
    expect(rows[0]!.warnings).toEqual([]);
  });
});
