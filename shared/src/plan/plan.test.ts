import { describe, expect, it } from 'vitest';
import { defaultRateCard } from '../aws/ebs-prices.ts';
import { familyMembers, nvmePremium } from '../aws/instances.ts';
import { catalogInstance, publishedProfile } from '../test-support/profiles.ts';
import { planStorage } from './plan.ts';

const instance = catalogInstance;
const rates = defaultRateCard();
const limitOf = (plan: ReturnType<typeof planStorage>, id: string) => plan.limits.find((l) => l.id === id);

/** The published evaluations of docs/domain.md §6 and §8, as golden tests. */
describe('bottleneck of each published evaluation', () => {
  it('r5d.4xlarge, gp3 16,000 IOPS / 1,000 MiB/s, mixed 4k-16k/64k: the instance bandwidth binds, not the volume', () => {
    const plan = planStorage({
      profile: publishedProfile({
        readMiBps: 188,
        readIops: 3043,
        writeMiBps: 381,
        writeIops: 6018,
        durationSec: 900,
      }),
      target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 } },
      instance: instance('r5d.4xlarge'),
      rateCard: rates,
    });
    expect(plan.bottleneck?.id).toBe('instance-bandwidth');
    const bw = limitOf(plan, 'instance-bandwidth')!;
    // 4,750 Mbps = 593.75 MB/s = 566.2 MiB/s; demand 569 MiB/s
    expect(bw.capacity).toBeCloseTo(566.2, 1);
    expect(bw.native).toEqual({ capacity: 4750, unit: 'Mbps' });
    expect(bw.demand).toBeCloseTo(569, 6);
    expect(plan.bottleneck?.saturated).toBe(true);
    expect(limitOf(plan, 'volume-throughput')!.utilization).toBeCloseTo(0.569, 3);
    // r5d does not burst: no burst limits
    expect(plan.limits.map((l) => l.id)).not.toContain('instance-bandwidth-burst');
  });

  it('r5d.4xlarge, same volume, 4 KiB blocks: the volume IOPS bind (16,002 of 16,000)', () => {
    const plan = planStorage({
      profile: publishedProfile({
        readMiBps: (5302 * 4) / 1024,
        readIops: 5302,
        writeMiBps: (10_700 * 4) / 1024,
        writeIops: 10_700,
        durationSec: 900,
        benchmark: { configuredBlockSize: { read: 4096, write: 4096 } },
      }),
      target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 } },
      instance: instance('r5d.4xlarge'),
      rateCard: rates,
    });
    expect(plan.bottleneck?.id).toBe('volume-iops');
    expect(limitOf(plan, 'volume-iops')!.demand).toBe(16_002);
    expect(plan.volumeBound).toBe('iops');
    expect(plan.warnings.map((w) => w.code)).toContain('small_block_benchmark');
  });

  it('r5d.4xlarge NVMe at 4 KiB: 114,000 write IOPS is the store’s write spec', () => {
    const plan = planStorage({
      profile: publishedProfile({
        readMiBps: (56_000 * 4) / 1024,
        readIops: 56_000,
        writeMiBps: (114_000 * 4) / 1024,
        writeIops: 114_000,
        durationSec: 900,
      }),
      target: { kind: 'nvme' },
      instance: instance('r5d.4xlarge'),
      rateCard: rates,
      nvmePremiumUsdPerHour: nvmePremium('r5d.4xlarge')!.usdPerHour,
    });
    expect(plan.bottleneck?.id).toBe('nvme-write-iops');
    expect(plan.bottleneck?.utilization).toBeCloseTo(1, 6);
    expect(plan.cost.nvme?.monthlyPremiumUsd).toBeGreaterThan(0);
  });

  it('r6id.4xlarge, same mixed job: volume ~100%, but the 15-minute test ran inside the instance burst window', () => {
    const plan = planStorage({
      profile: publishedProfile({
        readMiBps: 333,
        readIops: 5477,
        writeMiBps: 675,
        writeIops: 10_800,
        durationSec: 900,
      }),
      target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 } },
      instance: instance('r6id.4xlarge'),
      rateCard: rates,
    });
    expect(limitOf(plan, 'volume-iops')!.utilization).toBeCloseTo(16_277 / 16_000, 6);
    expect(limitOf(plan, 'volume-throughput')!.utilization).toBeCloseTo(1.008, 6);
    // 1,008 MiB/s is above the 5,000 Mbps = 596 MiB/s baseline, below the 10,000 Mbps burst ceiling
    expect(limitOf(plan, 'instance-bandwidth')!.capacity).toBeCloseTo(596.0, 1);
    expect(limitOf(plan, 'instance-bandwidth-burst')!.utilization).toBeLessThan(1);
    const burst = plan.warnings.find((w) => w.code === 'instance_burst_window');
    expect(burst?.message).toMatch(/r6id\.4xlarge was bursting/);
    expect(burst?.message).toMatch(/the test ran 15 min/);
    expect(plan.warnings.map((w) => w.code)).not.toContain('above_provisioned_limit');
  });

  it('m5.8xlarge, gp3 1,000 GiB at 3,000 IOPS / 125 MiB/s, 16 KiB: the volume IOPS bind', () => {
    const kbps = 24_000 * 1000; // ~24,000 KB/s each way
    const plan = planStorage({
      profile: publishedProfile({
        readMiBps: kbps / 1048576,
        readIops: 1499,
        writeMiBps: kbps / 1048576,
        writeIops: 1499,
        durationSec: 1800,
      }),
      target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000, iops: 3000, throughputMiBps: 125 } },
      instance: instance('m5.8xlarge'),
      rateCard: rates,
    });
    expect(plan.bottleneck?.id).toBe('volume-iops');
    expect(plan.bottleneck?.utilization).toBeCloseTo(2998 / 3000, 6);
  });

  it('m1.large (500 Mbps = 62.5 MB/s), 16 KiB sysbench at ~55 MB/s: the instance bandwidth binds at ~88%', () => {
    const bytesPerSec = 55e6;
    const iops = bytesPerSec / 16384;
    const plan = planStorage({
      profile: publishedProfile({
        readMiBps: bytesPerSec / 2 / 1048576,
        readIops: iops / 2,
        writeMiBps: bytesPerSec / 2 / 1048576,
        writeIops: iops / 2,
        durationSec: 3600,
        benchmark: { tool: 'sysbench' },
      }),
      // [piops-2012] in docs/domain.md striped 10 × 1,000-IOPS volumes
      target: { kind: 'ebs', volume: { type: 'io1', sizeGiB: 100, iops: 1000, count: 10 } },
      instance: instance('m1.large'),
      rateCard: rates,
    });
    expect(plan.bottleneck?.id).toBe('instance-bandwidth');
    expect(plan.bottleneck?.utilization).toBeCloseTo(0.88, 2);
    expect(limitOf(plan, 'volume-iops')!.capacity).toBe(10_000);
  });
});

describe('right-sizing within the plan', () => {
  it('never pays for throughput the r5.4xlarge cannot deliver, and names the cheapest r5 that can (875 MiB/s: r5.8xlarge, 6,800 Mbps = 810 MiB/s, is not enough)', () => {
    const plan = planStorage({
      profile: publishedProfile({
        readMiBps: 300,
        readIops: 4800,
        writeMiBps: 400,
        writeIops: 6400,
        durationSec: 3600,
      }),
      target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 } },
      instance: instance('r5.4xlarge'),
      rateCard: rates,
      instanceCandidates: familyMembers('r5'),
    });
    const gp3 = plan.rightSizing.recommendations.find((r) => r.type === 'gp3')!;
    expect(gp3.status).toBe('capped-by-instance');
    expect(gp3.throughputMiBps).toBe(566); // floor(566.2): not the 875 MiB/s target
    expect(plan.rightSizing.instanceAdvice?.exceeds).toEqual(['instance-bandwidth']);
    expect(plan.rightSizing.instanceAdvice?.upgrade?.instanceType).toBe('r5.12xlarge');
    expect(plan.rightSizing.instanceAdvice?.message).toMatch(/money for nothing/);
  });
});
