import { planStorage } from '@blockwise/shared/plan';
import { profileFromFio } from '@blockwise/shared/profile';
import { summarizeRun } from '@blockwise/shared/analysis';
import { defaultRateCard, findInstanceType } from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { fixtureReport, typedProfile } from '../../test/fixtures.ts';
import { accessText, measuredForText, placeWarnings, profileRows, slotOf } from './profile-view.ts';

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

  it.each([
    // code, subject, slot: configuration checks sit together whatever field they name
    ['access_assumed_random', 'access', 'access'],
    ['requires_nitro', 'iops', 'configuration'],
    ['attachment_limit', 'count', 'configuration'],
    ['instance_data_missing', 'instanceType', 'configuration'],
    ['nvme_ceiling_unknown', 'instanceStore', 'configuration'],
    ['capacity_unknown', 'datasetGiB', 'configuration'],
    ['hdd_burst_credits', 'throughput', 'demand'],
    ['exceeds_sustainable', 'instance-iops', 'limits'],
  ] as const)('%s (%s) → %s', (code, subject, slot) => expect(slotOf(subject, code)).toBe(slot));

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

describe('accessText: the access pattern and who said so', () => {
  const typed = (access?: 'random' | 'sequential' | 'mixed', writes = true) =>
    planStorage({
      profile: typedProfile({
        readMiBps: 10,
        readIops: 100,
        writeMiBps: writes ? 10 : 0,
        writeIops: writes ? 100 : 0,
        ...(access ? { access } : {}),
      }),
      target: null,
      instance: null,
      rateCard: defaultRateCard(),
    });
  const fio = (name: 'seqwrite128k' | 'randread4k' | 'grouped') => {
    const profile = profileFromFio(fixtureReport(name));
    if (!profile.ok) throw new Error(profile.error.message);
    return {
      profile: profile.value,
      plan: planStorage({
        profile: profile.value,
        target: null,
        instance: null,
        rateCard: defaultRateCard(),
      }),
    };
  };

  it.each([
    // what, access, plan, text
    ['fio rw=write (sequential writes only)', () => fio('seqwrite128k'), 'sequential (from fio rw=)'],
    ['fio rw=randread', () => fio('randread4k'), 'random (from fio rw=)'],
    ['fio rw=randrw', () => fio('grouped'), 'random (from fio rw=)'],
  ] as const)('%s', (_what, make, text) => {
    const { profile, plan } = make();
    expect(accessText(profile.access ?? null, plan)).toBe(text);
  });

  it.each([
    ['sequential', 'sequential (as stated with the numbers)'],
    ['mixed', 'mixed (random and sequential) (as stated with the numbers)'],
    ['random', 'random (as stated with the numbers)'],
  ] as const)('typed in as %s', (access, text) => {
    const plan = typed(access);
    expect(accessText({ read: access, write: access, origin: 'stated' }, plan)).toBe(text);
    expect(plan.warnings.map((w) => w.code)).not.toContain('access_assumed_random');
  });

  it('nobody said: random is assumed, and the warning sits by the access pattern', () => {
    const plan = typed();
    expect(accessText({ read: 'random', write: 'random', origin: 'assumed' }, plan)).toBe(
      'random (assumed — nobody said)',
    );
    // A share view has no profile: the plan's warning says random was assumed.
    expect(accessText(null, plan)).toBe('random (assumed — nobody said)');
    expect(profileRows(plan).slots.access.map((w) => w.code)).toEqual(['access_assumed_random']);
    expect(accessText(null, typed('sequential'))).toBeNull();
  });

  it('directions that differ are named apart', () => {
    expect(accessText({ read: 'random', write: 'sequential', origin: 'fio' }, typed())).toBe(
      'reads random, writes sequential (from fio rw=)',
    );
    // Without writes, the write pattern is not worth naming.
    expect(accessText({ read: 'random', write: 'sequential', origin: 'fio' }, typed(undefined, false))).toBe(
      'random (from fio rw=)',
    );
  });
});

describe('measuredForText: where peak values came from', () => {
  const imported = {
    source: 'observed',
    label: 'CloudWatch volume-queue.csv, max of 5-minute points',
    durationSec: null,
  } as const;
  const named = { source: 'observed', label: 'orders-db peak', durationSec: null } as const;
  it.each([
    // A CloudWatch export planned as its observed entry (importedLabel): its file and statistic.
    [imported, 'imported', 'peak values from CloudWatch volume-queue.csv, max of 5-minute points'],
    // A typed-in entry the user named claims no source: it says it was typed in.
    [named, 'typed', 'typed in: orders-db peak'],
    // A share view does not know where a label came from: shown as a label, not as a source.
    [named, 'unknown', 'peak values, labelled “orders-db peak”'],
    [{ source: 'observed', label: null, durationSec: null }, 'typed', 'peak values (typed in)'],
    [{ source: 'fio', label: 'ebs-gp3', durationSec: 900 }, 'unknown', '900 s'],
  ] as const)('%j (%s) → %s', (profile, origin, text) => expect(measuredForText(profile, origin)).toBe(text));

  it('a named profile of unknown origin never reads "from <label>"', () =>
    expect(measuredForText(named)).not.toMatch(/from/));
});
