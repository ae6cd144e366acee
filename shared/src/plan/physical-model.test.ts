import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultRateCard } from '../aws/ebs-prices.ts';
import { categoryOf, parseFamily } from '../aws/instance-spec.ts';
import { listInstanceTypes, upgradePool } from '../aws/instances.ts';
import { catalogInstance, publishedProfile } from '../test-support/profiles.ts';
import { mbps, mbpsToMiBps } from '../units.ts';
import { demandOf } from './demand.ts';
import type { LimitTarget } from './limits.ts';
import { planStorage, type PlanInput, type PlanResult } from './plan.ts';
import { volumeOfRecommendation } from './right-size.ts';
import { CEILING_TOLERANCE } from './sustainability.ts';
import { volumeCapabilities } from './volume.ts';

/**
 * The cases a storage engineer tries first (issue "Advice an SRE can defend"), each with the
 * numbers of its scenario. Every one of them gave wrong advice before the physical model.
 */

const rates = defaultRateCard();
const instance = catalogInstance;
const ebs = (volume: Extract<LimitTarget, { kind: 'ebs' }>['volume']): LimitTarget => ({
  kind: 'ebs',
  volume,
});
const plan = (input: Partial<PlanInput> & Pick<PlanInput, 'profile'>): PlanResult =>
  planStorage({
    target: null,
    instance: null,
    rateCard: rates,
    ...input,
    instanceCandidates: input.instance ? upgradePool(input.instance) : [],
  });
const codes = (p: PlanResult) => p.warnings.map((w) => w.code);
const rec = (p: PlanResult, type: string) => p.rightSizing.recommendations.find((r) => r.type === type)!;
const KiB = 1024;
const MiB = 1024 * 1024;

describe('1. HDD is never ranked for small random I/O', () => {
  // `plan --instance r6i.4xlarge --type gp3 --size 1000 --read-iops 150 --write-iops 50 --read-bw 600KiB/s --write-bw 200KiB/s`
  const typedIn = (access?: 'random' | 'sequential') =>
    plan({
      profile: publishedProfile({
        readMiBps: 600 / 1024,
        readIops: 150,
        writeMiBps: 200 / 1024,
        writeIops: 50,
        benchmark: null,
        ...(access ? { access } : {}),
      }),
      target: ebs({ type: 'gp3', sizeGiB: 1000 }),
      instance: instance('r6i.4xlarge'),
    });

  it('st1 and sc1 are not viable; gp3 at $80 ranks first', () => {
    const p = typedIn();
    expect(p.rightSizing.recommendations[0]).toMatchObject({ type: 'gp3', status: 'meets', sizeGiB: 1000 });
    expect(p.rightSizing.recommendations[0]!.monthlyUsd.total).toBe(80);
    for (const t of ['st1', 'sc1']) {
      expect(rec(p, t).status).toBe('not-viable');
      expect(rec(p, t).reasons[0]).toMatch(/costs a whole 1 MiB/);
    }
    // A 1 TiB sc1 sustains 12 such IOPS (12 MiB/s baseline, 1 MiB each), not 250.
    expect(rec(p, 'sc1').reasons[0]).toMatch(/a 1 TiB sc1 sustains 12 such IOPS/);
    expect(codes(p)).toContain('access_assumed_random');
  });

  it('an sc1 volume measured under that load: its throughput budget is spent 1 MiB per I/O', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 600 / 1024,
        readIops: 150,
        writeMiBps: 200 / 1024,
        writeIops: 50,
        benchmark: null,
        access: 'random',
      }),
      target: ebs({ type: 'sc1', sizeGiB: 1024 }),
    });
    const tp = p.limits.find((l) => l.id === 'volume-throughput')!;
    expect(tp.capacity).toBe(12);
    expect(tp.demand).toBe(200); // 200 operations × 1 MiB, though only 0.8 MiB/s of data moved
    expect(codes(p)).toContain('exceeds_sustainable');
  });
});

describe('2. contiguous I/O is merged as EBS counts it', () => {
  const seqWrites = (access: 'sequential' | 'random') =>
    publishedProfile({ readMiBps: 0, readIops: 0, writeMiBps: 250, writeIops: 4000, access });

  it.each([
    // [pattern, block, EBS operations]: 64 KiB × 4,000/s sequential = 250 MiB/s in 256 KiB operations
    ['sequential', 64 * KiB, 1000],
    ['random', 64 * KiB, 4000],
    ['sequential', 16 * KiB, 4000], // under 32 KiB: one SSD operation each, contiguous or not
    ['sequential', 32 * KiB, 500],
    ['sequential', 1024 * KiB, 16_000], // above 256 KiB: split into 4 each
  ] as const)('%s %d-byte writes at 4,000/s → %d EBS operations', (access, block, ops) => {
    const p = publishedProfile({
      readMiBps: 0,
      readIops: 0,
      writeMiBps: (4000 * block) / MiB,
      writeIops: 4000,
      access,
    });
    expect(demandOf(p, 'ssd').iops).toBeCloseTo(ops, 6);
  });

  it('HDD merges any sequential I/O into 1 MiB operations; random I/O costs 1 MiB each', () => {
    const at = (access: 'sequential' | 'random', block: number) =>
      demandOf(
        publishedProfile({
          readMiBps: (4000 * block) / MiB,
          readIops: 4000,
          writeMiBps: 0,
          writeIops: 0,
          access,
        }),
        'hdd',
      );
    expect(at('sequential', 16 * KiB)).toMatchObject({ iops: 62.5, budgetMiBps: 62.5 });
    expect(at('random', 16 * KiB)).toMatchObject({ iops: 4000, budgetMiBps: 4000 });
  });

  it('a 64 KiB sequential stream at 4,000 IOPS needs no IOPS above gp3’s included 3,000; the unmerged figure stays as the worst case', () => {
    const p = plan({
      profile: seqWrites('sequential'),
      target: ebs({ type: 'gp3', sizeGiB: 500 }),
      instance: instance('r6i.4xlarge'),
    });
    expect(p.rightSizing.target.iops).toBe(1250);
    expect(p.rightSizing.target.iopsUnmerged).toBe(5000);
    expect(rec(p, 'gp3')).toMatchObject({ status: 'meets', iops: 3000 });
    expect(p.rightSizing.notes.join(' ')).toMatch(/best effort.*5,000 IOPS \(the worst case\)/);
    const volumeIops = p.limits.find((l) => l.id === 'volume-iops')!;
    expect(volumeIops).toMatchObject({ demand: 1000, demandUnmerged: 4000 });
    expect(codes(p)).not.toContain('access_assumed_random');
    // The same stream, random: 5,000 IOPS provisioned.
    const random = plan({ profile: seqWrites('random'), target: ebs({ type: 'gp3', sizeGiB: 500 }) });
    expect(rec(random, 'gp3').iops).toBe(5000);
  });

  it('sequential large I/O is the one case HDD fits, sized on merged 1 MiB operations', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 200,
        readIops: 1600,
        writeMiBps: 0,
        writeIops: 0,
        access: 'sequential',
      }),
      target: null,
      minSizeGiB: 2000,
    });
    expect(rec(p, 'st1').status).toBe('meets');
    // 200 MiB/s × 1.25 = 250 MiB/s at 40 MiB/s per TiB → 6,400 GiB
    expect(rec(p, 'st1').sizeGiB).toBe(6400);
  });

  it('fio says it itself: rw=read/write is sequential, randrw random, jobs of both kinds mixed', async () => {
    const { accessFromJobs } = await import('../profile/from-fio.ts');
    const job = (rw: string) => ({ settings: { rw, sequential: !rw.startsWith('rand') } }) as never;
    expect(accessFromJobs([job('write')])).toEqual({ read: 'random', write: 'sequential', origin: 'fio' });
    expect(accessFromJobs([job('randrw')])).toEqual({ read: 'random', write: 'random', origin: 'fio' });
    expect(accessFromJobs([job('randread'), job('read')]).read).toBe('mixed');
  });
});

describe('3. measurements that cannot be real are not called "saturated"', () => {
  it('m5.xlarge (137 MiB/s baseline) at 400 MiB/s for 3 h: exceeds_sustainable', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 400,
        readIops: 3200,
        writeMiBps: 0,
        writeIops: 0,
        durationSec: 3 * 3600,
      }),
      target: ebs({ type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 }),
      instance: instance('m5.xlarge'),
    });
    expect(codes(p)).toContain('exceeds_sustainable');
    expect(p.bottleneck).toMatchObject({ id: 'instance-bandwidth', state: 'impossible', saturated: false });
    expect(p.bottleneck!.explanation).not.toMatch(/pinned|saturated/);
    expect(p.warnings.find((w) => w.code === 'exceeds_sustainable')!.message).toMatch(
      /m5\.xlarge cannot sustain 400 MiB\/s for 180 min.*lasts 30 min/,
    );
  });

  it('gp2 500 GiB at 2,500 IOPS for 2 h: credits last 90 min', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 20,
        readIops: 1250,
        writeMiBps: 20,
        writeIops: 1250,
        durationSec: 7200,
      }),
      target: ebs({ type: 'gp2', sizeGiB: 500 }),
    });
    expect(p.warnings.find((w) => w.code === 'exceeds_sustainable')!.message).toMatch(/lasts 90 min/);
    // The same rate for 1 h is a burst: gp2_burst_credits, bound by the 3,000-IOPS burst ceiling.
    const hour = plan({
      profile: publishedProfile({
        readMiBps: 20,
        readIops: 1250,
        writeMiBps: 20,
        writeIops: 1250,
        durationSec: 3600,
      }),
      target: ebs({ type: 'gp2', sizeGiB: 500 }),
    });
    expect(codes(hour)).toEqual(expect.arrayContaining(['gp2_burst_credits']));
    expect(codes(hour)).not.toContain('exceeds_sustainable');
    expect(hour.bottleneck).toMatchObject({ id: 'volume-iops-burst', state: 'bursting' });
  });

  it('AWS’s benchmark shape: 2 min of 16 KiB writes at 40,000 IOPS on c6a.xlarge + 60,000-IOPS io2 is bound by the instance’s burst at 100%', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 0,
        readIops: 0,
        writeMiBps: 625,
        writeIops: 40_000,
        durationSec: 120,
      }),
      target: ebs({ type: 'io2', sizeGiB: 100, iops: 60_000 }),
      instance: instance('c6a.xlarge'),
    });
    expect(p.bottleneck).toMatchObject({
      id: 'instance-iops-burst',
      utilization: 1,
      saturated: true,
      state: 'bursting',
      sustained: { id: 'instance-iops', capacity: 6000 },
    });
    expect(p.bottleneck!.explanation).toMatch(/Sustained, the ceiling is 6,000 IOPS/);
    expect(codes(p)).toContain('instance_burst_window');
    expect(codes(p)).not.toContain('exceeds_sustainable');
  });

  it('typed-in peaks above the baseline with no runtime get the burst warning, not silence', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 400,
        readIops: 3200,
        writeMiBps: 0,
        writeIops: 0,
        benchmark: null,
      }),
      target: ebs({ type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 }),
      instance: instance('m5.xlarge'),
    });
    expect(p.warnings.find((w) => w.code === 'instance_burst_window')!.message).toMatch(
      /if this rate lasted longer/,
    );
  });

  it('property: utilization above the tolerance always carries exceeds_sustainable or a burst warning, and is never "saturated"', () => {
    const names = ['m5.xlarge', 'r6i.4xlarge', 'c6a.xlarge', 'r5.large', 'm5.large'];
    const volumes = [
      { type: 'gp3' as const, sizeGiB: 500 },
      { type: 'gp2' as const, sizeGiB: 200 },
      { type: 'gp2' as const, sizeGiB: 100, count: 2 },
      { type: 'io2' as const, sizeGiB: 500, iops: 20_000 },
      { type: 'st1' as const, sizeGiB: 2048 },
      { type: 'sc1' as const, sizeGiB: 1024 },
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...names),
        fc.constantFrom(...volumes),
        fc.integer({ min: 0, max: 80_000 }),
        fc.integer({ min: 4, max: 1024 }),
        fc.constantFrom(null, 60, 1200, 3600, 86_400),
        fc.constantFrom('random' as const, 'sequential' as const),
        (name, volume, iops, kib, durationSec, access) => {
          const p = plan({
            profile: publishedProfile({
              readMiBps: (iops * kib) / 1024,
              readIops: iops,
              writeMiBps: 0,
              writeIops: 0,
              durationSec,
              access,
              ...(durationSec === null ? { benchmark: null } : {}),
            }),
            target: ebs(volume),
            instance: instance(name),
          });
          const over = p.limits.filter((l) => l.sustained && l.utilization > CEILING_TOLERANCE);
          if (over.length > 0)
            expect(
              codes(p).some((c) =>
                [
                  'exceeds_sustainable',
                  'instance_burst_window',
                  'gp2_burst_credits',
                  'hdd_burst_credits',
                ].includes(c),
              ),
            ).toBe(true);
          if (p.bottleneck && p.bottleneck.utilization > CEILING_TOLERANCE) {
            expect(p.bottleneck.saturated).toBe(false);
            expect(p.bottleneck.explanation).not.toMatch(/pinned/);
          }
        },
      ),
      { seed: 2026_11_24, numRuns: 300 },
    );
  });
});

describe('4. instance store (NVMe) is judged by the 4 KiB spec only where it applies', () => {
  it('a 64 KiB run on r6id.4xlarge’s store (the seed’s r5d shape) gets no IOPS verdict and no EBS burst warning', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 249,
        readIops: 4056,
        writeMiBps: 505,
        writeIops: 8044,
        durationSec: 900,
      }),
      target: { kind: 'nvme' },
      instance: instance('r6id.4xlarge'),
    });
    expect(p.limits).toEqual([]);
    expect(p.bottleneck).toBeNull();
    expect(codes(p)).toContain('nvme_ceiling_unknown');
    expect(codes(p)).not.toContain('instance_burst_window');
    expect(codes(p)).not.toContain('too_short_for_burst');
  });

  it('a 4 KiB run is still judged against the spec (r5d.4xlarge write: 114,000 IOPS)', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: (56_000 * 4) / 1024,
        readIops: 56_000,
        writeMiBps: (114_000 * 4) / 1024,
        writeIops: 114_000,
        durationSec: 900,
      }),
      target: { kind: 'nvme' },
      instance: instance('r5d.4xlarge'),
    });
    expect(p.bottleneck).toMatchObject({ id: 'nvme-write-iops' });
    expect(p.bottleneck!.utilization).toBeCloseTo(1, 2);
    expect(codes(p)).not.toContain('nvme_ceiling_unknown');
  });
});

describe('5–7. every recommendation holds the data; stripes keep their capacity and go past one volume', () => {
  it('5. a 4 × 500 GiB gp3 stripe on r6i.2xlarge is right-sized to ≥ 2,000 GiB, never to one 500 GiB volume', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 300,
        readIops: 20_000,
        writeMiBps: 300,
        writeIops: 20_000,
        durationSec: 3600,
      }),
      target: ebs({ type: 'gp3', sizeGiB: 500, iops: 16_000, throughputMiBps: 1000, count: 4 }),
      instance: instance('r6i.2xlarge'),
    });
    expect(p.rightSizing.target.minSizeGiB).toBe(2000);
    for (const r of p.rightSizing.recommendations.filter((x) => x.status !== 'not-viable')) {
      expect(r.sizeGiB).toBeGreaterThanOrEqual(2000);
      const v = volumeOfRecommendation(r);
      expect(v.sizeGiB * (v.count ?? 1)).toBe(r.sizeGiB);
      expect(r.volumeCount).toBe(v.count ?? 1);
    }
  });

  it('6. NVMe → EBS keeps the 800 GiB dataset (not a 40 GiB gp3 for $88)', () => {
    const profile = publishedProfile({
      readMiBps: 40,
      readIops: 10_000,
      writeMiBps: 40,
      writeIops: 10_000,
      durationSec: 3600,
    });
    const p = plan({
      profile,
      target: { kind: 'nvme' },
      instance: instance('r6id.4xlarge'),
      datasetGiB: 800,
    });
    expect(rec(p, 'gp3')).toMatchObject({ sizeGiB: 800 });
    expect(rec(p, 'gp3').monthlyUsd.storage).toBe(64);
    const noDataset = plan({ profile, target: { kind: 'nvme' }, instance: instance('r6id.4xlarge') });
    expect(codes(noDataset)).toContain('capacity_unknown');
  });

  it('7. above one gp3 volume (80,000 IOPS): a 2-volume gp3 stripe priced beside io2, at a fraction of its cost', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 800,
        readIops: 50_000,
        writeMiBps: 800,
        writeIops: 50_000,
        durationSec: 3600,
      }),
      target: ebs({ type: 'io2', sizeGiB: 2000, iops: 100_000 }),
      instance: instance('r6i.32xlarge'),
    });
    const gp3 = rec(p, 'gp3');
    const io2 = rec(p, 'io2');
    expect(gp3).toMatchObject({ status: 'meets', volumeCount: 2, sizeGiB: 2000 });
    expect(gp3.perVolume).toMatchObject({ sizeGiB: 1000, iops: 62_500 });
    expect(io2).toMatchObject({ status: 'meets', volumeCount: 1 });
    expect(gp3.monthlyUsd.total).toBeLessThan(io2.monthlyUsd.total / 5);
  });
});

describe('8–9. what the instance allows its volumes', () => {
  it('8. io2 at 64,000 IOPS on r4.16xlarge (Xen): requires_nitro, delivered at 32,000', () => {
    const profile = publishedProfile({
      readMiBps: 200,
      readIops: 20_000,
      writeMiBps: 200,
      writeIops: 20_000,
      durationSec: 3600,
    });
    const p = plan({
      profile,
      target: ebs({ type: 'io2', sizeGiB: 1000, iops: 64_000 }),
      instance: instance('r4.16xlarge'),
    });
    expect(codes(p)).toContain('requires_nitro');
    expect(p.limits.find((l) => l.id === 'volume-iops')!.capacity).toBe(32_000);
    expect(p.bottleneck).toMatchObject({ id: 'volume-iops', state: 'impossible' });
    // Right-sizing on Xen: no io2 volume above 32,000 IOPS — a stripe instead.
    const io2 = rec(p, 'io2');
    expect(io2.perVolume!.iops).toBeLessThanOrEqual(32_000);
    expect(volumeCapabilities(volumeOfRecommendation(io2), { nitro: false }).iops).toBeGreaterThanOrEqual(
      50_000,
    );
    // The same on a Nitro r6i: one volume, no warning.
    const nitro = plan({
      profile,
      target: ebs({ type: 'io2', sizeGiB: 1000, iops: 64_000 }),
      instance: instance('r6i.16xlarge'),
    });
    expect(codes(nitro)).not.toContain('requires_nitro');
  });

  it('8b. io2 on r4.16xlarge (Xen): planned at the 500 MiB/s the 2023 guide guaranteed, not 1,000; what is and is not promised is said', () => {
    // 400 MiB/s of 64 KiB reads and 400 of writes: 800 MiB/s, 12,800 IOPS; × 1.25 = 1,000 MiB/s.
    const profile = publishedProfile({
      readMiBps: 400,
      readIops: 6400,
      writeMiBps: 400,
      writeIops: 6400,
      durationSec: 3600,
    });
    const volume = { type: 'io2', sizeGiB: 1000, iops: 20_000 } as const;
    const p = plan({ profile, target: ebs(volume), instance: instance('r4.16xlarge') });
    // 20,000 IOPS × 0.256 = 5,120 MiB/s on Nitro (capped at 4,000); on Xen 500, not 1,000.
    expect(volumeCapabilities(volume, { nitro: false }).throughputMiBps).toBe(500);
    expect(volumeCapabilities(volume, { nitro: true }).throughputMiBps).toBe(4000);
    expect(p.limits.find((l) => l.id === 'volume-throughput')!.capacity).toBe(500);
    const warning = p.warnings.find((w) => w.code === 'io2_not_nitro')!;
    expect(warning.message).toContain('can achieve up to 32,000 IOPS: no throughput figure and no guarantee');
    expect(warning.message).toContain('guaranteed up to 32,000 IOPS and 500 MiB/s');
    // One io2 cannot carry 1,000 MiB/s there: a stripe of two, each with the terms stated.
    const io2 = rec(p, 'io2');
    expect(io2.volumeCount).toBe(2);
    expect(io2.reasons.join(' ')).toContain('no throughput figure, no guarantee');
    // On a Nitro r6i: one volume, no such warning.
    const nitro = plan({ profile, target: ebs(volume), instance: instance('r6i.16xlarge') });
    expect(codes(nitro)).not.toContain('io2_not_nitro');
    expect(rec(nitro, 'io2').volumeCount).toBe(1);
  });

  it('9. 40 volumes on m5.large (27 attachments): attachment_limit; stripes stay within 26 data volumes', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 1,
        readIops: 100,
        writeMiBps: 1,
        writeIops: 100,
        durationSec: 3600,
      }),
      target: ebs({ type: 'gp3', sizeGiB: 100, count: 40 }),
      instance: instance('m5.large'),
    });
    expect(p.warnings.find((w) => w.code === 'attachment_limit')!.message).toMatch(/at most 27 EBS volumes/);
    for (const r of p.rightSizing.recommendations) expect(r.volumeCount ?? 1).toBeLessThanOrEqual(26);
  });
});

describe('10. the instance that sustains the load: any family of the same category, priced', () => {
  it('r5.xlarge at 1,000 MiB/s: the cheapest memory-optimized type of the same or a newer generation that sustains it', () => {
    const current = instance('r5.xlarge');
    const p = plan({
      profile: publishedProfile({
        readMiBps: 400,
        readIops: 6000,
        writeMiBps: 400,
        writeIops: 6000,
        durationSec: 3600,
      }),
      target: ebs({ type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 }),
      instance: current,
    });
    const advice = p.rightSizing.instanceAdvice!;
    expect(advice.exceeds).toContain('instance-bandwidth');
    // Independent search over the whole catalog.
    const target = p.rightSizing.target;
    const fits = listInstanceTypes().filter(
      (m) =>
        m.ebs &&
        m.usdPerHourUsEast1 != null &&
        !m.instanceType.includes('.metal') &&
        categoryOf(m.family) === 'memory' &&
        parseFamily(m.family)!.generation >= 5 &&
        m.architecture === 'x86_64' &&
        (m.vCpus ?? 0) >= 4 &&
        (m.memoryMiB ?? 0) >= 32_768 &&
        m.ebs.baselineIops >= target.iops &&
        mbpsToMiBps(mbps(m.ebs.baselineBandwidthMbps)) >= target.throughputMiBps,
    );
    const cheapest = Math.min(...fits.map((m) => m.usdPerHourUsEast1!));
    expect(advice.upgrade!.usdPerHourUsEast1).toBe(cheapest);
    expect(fits.map((m) => m.instanceType)).toContain(advice.upgrade!.instanceType);
    expect(advice.upgrade!.instanceType.startsWith('r5.')).toBe(false);
    expect(advice.message).toMatch(/cheapest memory-optimized instance/);
    expect(advice.alternatives!.length).toBeGreaterThan(0);
  });
});

describe('12. smaller ones', () => {
  it('instances without EBS data in the catalog (t2.micro) say so instead of silently losing their rows', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 1,
        readIops: 100,
        writeMiBps: 1,
        writeIops: 100,
        durationSec: 3600,
      }),
      target: ebs({ type: 'gp3', sizeGiB: 100 }),
      instance: instance('t2.micro'),
    });
    expect(codes(p)).toContain('instance_data_missing');
  });

  it('a capped recommendation never shows a throughput above the instance cap it is capped at, and never "meets"', () => {
    const p = plan({
      profile: publishedProfile({
        readMiBps: 300,
        readIops: 20_000,
        writeMiBps: 300,
        writeIops: 20_000,
        durationSec: 3600,
      }),
      target: ebs({ type: 'gp3', sizeGiB: 1000 }),
      instance: instance('r6i.2xlarge'),
    });
    const capMiBps = Math.floor(mbpsToMiBps(mbps(instance('r6i.2xlarge').ebs!.baselineBandwidthMbps)));
    for (const r of p.rightSizing.recommendations.filter((x) => x.status === 'capped-by-instance')) {
      expect(r.throughputMiBps).toBeLessThanOrEqual(capMiBps);
      expect(r.iops).toBeLessThanOrEqual(instance('r6i.2xlarge').ebs!.baselineIops);
    }
    expect(rec(p, 'io2').status).toBe('capped-by-instance');
  });
});
