import { describe, expect, it } from 'vitest';
import { findInstanceType, upgradePool } from '../aws/instances.ts';
import { defaultRateCard } from '../aws/ebs-prices.ts';
import { categoryOf } from '../aws/instance-spec.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { stripeTrade, tradeOf } from './alternatives.ts';
import { rightSize } from './right-size.ts';

// Durability, AFR and latency: Amazon EBS User Guide, "Amazon EBS volume types", "Provisioned IOPS
// SSD volumes", "General Purpose SSD volumes", "Amazon EBS optimization" (docs/domain.md [types]).
describe('the trade of a cheaper type', () => {
  it('io2 → gp3 gives up 99.999 % durability and sub-millisecond latency: benchmark p99 first', () => {
    const t = tradeOf('io2', 'gp3');
    expect(t).toContain(
      "io2's 99.999 % durability (AFR ≤ 0.001 %) for 99.8–99.9 % durability (AFR 0.1–0.2 %)",
    );
    expect(t).toContain(
      "io2's sub-millisecond average latency (under 500 µs at 16 KiB I/O) for single-digit-millisecond latency",
    );
    expect(t).toContain('benchmark p99 latency on the cheaper type before moving');
  });

  it('io1 → gp3 keeps durability and latency, gives up 99.9 % for 99 % delivery consistency', () => {
    const t = tradeOf('io1', 'gp3');
    expect(t).toContain('keeps 99.8–99.9 % durability (AFR 0.1–0.2 %) and single-digit-millisecond latency');
    expect(t).toContain(
      "io1's ≥ 90 % of provisioned IOPS 99.9 % of the time for ≥ 90 % of provisioned IOPS 99 % of the time",
    );
  });
});

describe('a stripe carries its failure arithmetic and the snapshot caveat', () => {
  it.each([
    // 1 − (1 − 0.001)^2 = 0.1999 %, 1 − (1 − 0.002)^2 = 0.3996 %
    ['gp3', 2, 'about 0.2 %–0.4 % a year'],
    // 1 − (1 − 0.002)^8 = 1.59 %
    ['gp3', 8, '0.8 %–1.6 % a year'],
    // 4 × 0.001 % = 0.004 %
    ['io2', 4, 'about 0.004 % a year'],
  ] as const)('%s × %i', (type, n, text) => {
    expect(stripeTrade(type, n)).toContain(text);
    expect(stripeTrade(type, n)).toContain('create-snapshots');
  });

  it('150,000 IOPS on gp3 (80,000 per volume): 2 × gp3 striped, the arithmetic in its reasons', () => {
    const r = rightSize({
      profile: publishedProfile({
        readMiBps: 100,
        readIops: 90000,
        writeMiBps: 100,
        writeIops: 30000,
        durationSec: 3600,
      }),
      headroom: 0.25,
      minSizeGiB: 4000,
      instance: null,
      rateCard: defaultRateCard(),
      types: ['gp3'],
    });
    const gp3 = r.recommendations[0]!;
    expect(gp3).toMatchObject({ volumeCount: 2, iops: 150000 });
    expect(gp3.reasons.join(' ')).toContain(
      'any member failing loses the whole set — about 0.2 %–0.4 % a year',
    );
  });
});

describe('NVMe → EBS: the EBS baseline is searched across categories, or stay on NVMe', () => {
  it('i4i.xlarge (5,000 baseline EBS IOPS) at 8,000 IOPS: an m/c/r instance, never a larger i4i', () => {
    const i = findInstanceType('i4i.xlarge')!;
    const r = rightSize({
      profile: publishedProfile({
        readMiBps: 60,
        readIops: 6000,
        writeMiBps: 20,
        writeIops: 2000,
        durationSec: 3600,
      }),
      headroom: 0.25,
      minSizeGiB: 900,
      instance: i,
      rateCard: defaultRateCard(),
      instanceCandidates: upgradePool(i),
    });
    const a = r.instanceAdvice!;
    // r5b.xlarge: 4 vCPUs, 32 GiB, 10,833 IOPS / 2,500 Mbps baseline, $0.298/h (i4i.xlarge $0.343/h)
    expect(a.upgrade).toMatchObject({
      instanceType: 'r5b.xlarge',
      baselineIops: 10833,
      usdPerMonthUsEast1: 217.54,
    });
    for (const o of [a.upgrade!, ...(a.alternatives ?? [])]) {
      expect(o.instanceType.startsWith('i4i.')).toBe(false);
      expect(categoryOf(o.instanceType.split('.')[0]!)).not.toBeNull();
    }
    expect(a.message).not.toContain('Stay on NVMe');
  });

  it('i4i.32xlarge at 500,000 IOPS: the only m/c/r that carries it costs more than the i4i alone → stay on NVMe', () => {
    const big = findInstanceType('i4i.32xlarge')!;
    const r = rightSize({
      profile: publishedProfile({
        readMiBps: 3000,
        readIops: 300000,
        writeMiBps: 1000,
        writeIops: 100000,
        durationSec: 3600,
      }),
      headroom: 0.25,
      minSizeGiB: 20000,
      instance: big,
      rateCard: defaultRateCard(),
      instanceCandidates: upgradePool(big),
    });
    expect(r.instanceAdvice!.upgrade!.instanceType.startsWith('i4i.')).toBe(false);
    expect(r.instanceAdvice!.message).toMatch(
      /Stay on NVMe unless EBS is needed for another reason: r8ib\.48xlarge alone costs \$[\d,.]+\/month more than i4i\.32xlarge/,
    );
  });

  it('nothing across categories carries 2,000,000 IOPS on its baseline: "stay on NVMe"', () => {
    const big = findInstanceType('i4i.32xlarge')!;
    const r = rightSize({
      profile: publishedProfile({
        readMiBps: 3000,
        readIops: 1500000,
        writeMiBps: 1000,
        writeIops: 500000,
        durationSec: 3600,
      }),
      headroom: 0.25,
      minSizeGiB: 20000,
      instance: big,
      rateCard: defaultRateCard(),
      instanceCandidates: upgradePool(big),
    });
    expect(r.instanceAdvice!.upgrade).toBeNull();
    expect(r.instanceAdvice!.message).toContain("stay on NVMe (i4i.32xlarge's local store)");
  });
});

describe('plan: gp3 beside io2 carries the trade', () => {
  it('500 GiB at a 4,400-IOPS peak: gp3 ($52.50) ranks first and names what io2 ($420.00) keeps', () => {
    const r = rightSize({
      profile: publishedProfile({
        readIops: 2200,
        readMiBps: 17.2,
        writeIops: 2200,
        writeMiBps: 17.2,
        durationSec: 3600,
      }),
      headroom: 0.25,
      minSizeGiB: 500,
      instance: null,
      rateCard: defaultRateCard(),
      types: ['gp3', 'io2'],
    });
    const [gp3, io2] = r.recommendations;
    expect(gp3).toMatchObject({ type: 'gp3', iops: 5500, monthlyUsd: { total: 52.5 } });
    expect(io2).toMatchObject({ type: 'io2', iops: 5500, monthlyUsd: { total: 420 } });
    expect(gp3!.reasons.join(' ')).toContain("beside io2: io2 → gp3 gives up io2's 99.999 % durability");
  });
});
