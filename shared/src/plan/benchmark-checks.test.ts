import { describe, expect, it } from 'vitest';
import { findInstanceType } from '../aws/instances.ts';
import type { BenchmarkFacts } from '../profile/io-profile.schema.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { checkBenchmark } from './benchmark-checks.ts';
import { computeLimits, type LimitTarget } from './limits.ts';

const gp3: LimitTarget = {
  kind: 'ebs',
  volume: { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 },
};

function codes(
  p: Parameters<typeof publishedProfile>[0],
  target: LimitTarget | null = gp3,
  instanceType?: string,
) {
  const profile = publishedProfile(p);
  const instance = instanceType ? findInstanceType(instanceType)! : null;
  const limits = target ? computeLimits(profile, target, instance) : [];
  return checkBenchmark({ profile, target, instance, limits });
}
const base = { readMiBps: 100, readIops: 6400, writeMiBps: 50, writeIops: 3200, durationSec: 3600 };

describe('benchmarks that cannot be trusted (docs/domain.md §10)', () => {
  it('a clean, long, direct, right-sized run raises nothing', () => {
    expect(
      codes(
        { ...base, benchmark: { configuredBlockSize: { read: 16384, write: 16384 } } },
        gp3,
        'm5.8xlarge',
      ),
    ).toEqual([]);
  });

  it.each([
    ['default_block_size', { blockSizeDefaulted: true }],
    ['small_block_benchmark', { configuredBlockSize: { read: 4096, write: 4096 } }],
    ['buffered_io', { direct: false }],
    ['job_errors', { jobErrors: [{ job: 'trim_err', error: 25 }] }],
    ['no_group_reporting', { jobEntries: 16, groups: 1 }],
    ['several_phases', { jobEntries: 5, groups: 5 }],
    ['cached_sequential_reads', { sequential: true, direct: false }],
  ] as [string, Partial<BenchmarkFacts>][])('%s', (code, benchmark) => {
    const warnings = codes({ ...base, benchmark });
    expect(warnings.map((w) => w.code)).toContain(code);
    expect(warnings.find((w) => w.code === code)!.message.length).toBeGreaterThan(40);
  });

  it('a job that ended long before its runtime says how long the numbers cover', () => {
    const w = codes({ ...base, durationSec: 0.799, benchmark: { requestedRuntimeSec: 3, timeBased: false } });
    expect(w.find((x) => x.code === 'ended_before_runtime')!.message).toMatch(
      /asked for 0.1 min but finished its data in 0.0 min/,
    );
  });

  it('too short for burst windows: under 30 minutes', () => {
    expect(codes({ ...base, durationSec: 900 }).map((w) => w.code)).toContain('too_short_for_burst');
    expect(codes({ ...base, durationSec: 1800 }).map((w) => w.code)).not.toContain('too_short_for_burst');
  });

  it('typed-in production peaks are not a benchmark: no runtime checks', () => {
    expect(codes({ ...base, durationSec: null, benchmark: null })).toEqual([]);
  });

  it('gp2 burst credits run out before a long enough test would notice', () => {
    const target: LimitTarget = { kind: 'ebs', volume: { type: 'gp2', sizeGiB: 100 } };
    const w = codes(
      { readMiBps: 10, readIops: 2000, writeMiBps: 0, writeIops: 0, durationSec: 1200 },
      target,
    );
    // 100 GiB → 300 IOPS baseline; 5.4 M credits at 1,700/s drain in 53 min
    expect(w.find((x) => x.code === 'gp2_burst_credits')!.message).toMatch(
      /lasts 53 min and the test ran 20 min/,
    );
  });

  it('numbers above a provisioned limit point at a mislabelled configuration', () => {
    const target: LimitTarget = { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000 } };
    const w = codes(
      { readMiBps: 100, readIops: 6000, writeMiBps: 0, writeIops: 0, durationSec: 3600 },
      target,
    );
    expect(w.find((x) => x.code === 'above_provisioned_limit')!.message).toMatch(
      /6,000 IOPS is above the Volume IOPS ceiling of 3,000/,
    );
  });
});
