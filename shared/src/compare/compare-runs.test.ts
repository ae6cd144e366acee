import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../analysis/summarize-run.ts';
import { jobSettingsOf } from './compare-jobs.ts';
import { compareRunPair, RunPairComparisonSchema, type PairSide } from './compare-runs.ts';
import {
  MIX33_GROUPED,
  MIX33_PERJOB,
  NO_OPTIONS,
  NVME_RANDWRITE_4K,
  RATE_IOPS_500,
  UNPACED_4K,
  fixtureReport,
} from '../test-support/fio-fixtures.ts';

/** A run as a comparison sees it: the stored headline and its jobs' settings, from a real fio file. */
function sideOf(file: string, name: string): PairSide {
  const report = fixtureReport(file);
  return { id: file, name, headline: summarizeRun(report, {}).headline, jobSettings: jobSettingsOf(report) };
}

describe('compareRunPair', () => {
  it('a run capped by rate_iops=500 gets no verdict against the same job uncapped (500 vs 22,130 IOPS)', () => {
    const reference = sideOf(UNPACED_4K, 'NVMe');
    const candidate = sideOf(RATE_IOPS_500, 'EBS');
    expect(Math.round(reference.headline.writeIops)).toBe(22_130);
    expect(Math.round(candidate.headline.writeIops)).toBe(500);
    const c = compareRunPair(reference, candidate);
    expect(c.jobsDiffer).toBe(true);
    expect(c.differences.map((d) => d.setting)).toEqual(['rate_iops', 'thinktime']);
    expect(c.verdict).toEqual({ status: 'withheld', reason: 'jobs_differ' });
    expect(c.warnings.map((w) => w.code)).toEqual(['jobs_differ']);
  });

  it('the same job: no jobs_differ, the rate deltas and latency verdicts for reads and writes', () => {
    const reference = sideOf(MIX33_GROUPED, 'NVMe');
    const candidate = sideOf(MIX33_PERJOB, 'EBS');
    const c = compareRunPair(reference, candidate);
    expect(RunPairComparisonSchema.parse(c)).toEqual(c);
    expect(c.jobsDiffer).toBe(false);
    expect(c.differences).toEqual([]);
    expect(c.warnings).toEqual([]);
    if (c.verdict.status !== 'given') throw new Error('verdict withheld');
    // (candidate − reference) ÷ reference, from the stored headlines.
    const readIops = c.verdict.rates.find((r) => r.metric === 'read-iops')!;
    expect(readIops.delta).toBeCloseTo(
      (candidate.headline.readIops - reference.headline.readIops) / reference.headline.readIops,
      12,
    );
    expect(c.rates.find((r) => r.metric === 'write-iops')).toMatchObject({
      unit: 'IOPS',
      reference: reference.headline.writeIops,
      candidate: candidate.headline.writeIops,
    });
    // Both directions judged: 33 % reads, 67 % writes.
    for (const direction of ['read', 'write'] as const) {
      const latency = c.verdict.latency[direction]!;
      const ref = direction === 'read' ? reference.headline.readClatMs! : reference.headline.writeClatMs!;
      expect(latency.rows.find((r) => r.percentile === '99')?.nvmeMs).toBe(ref['99']);
      expect(latency.findings.map((f) => f.code)).toContain(
        latency.rows.find((r) => r.percentile === '99')!.delta <= 0.2 ? 'p99_within_20pct' : 'p99_worse',
      );
      expect(latency.overall).not.toBe('insufficient-data');
      // The per-job entries hold no json+ bins: their percentiles are upper bounds.
      expect(latency.approximate).toBe(true);
    }
  });

  it('4k randwrite NVMe vs the bsrange 33 % mix on EBS (issue #11): jobs_differ, verdict withheld, numbers kept', () => {
    const reference = sideOf(NVME_RANDWRITE_4K, 'NVMe run');
    const candidate = sideOf(MIX33_GROUPED, 'EBS run');
    const c = compareRunPair(reference, candidate);
    expect(RunPairComparisonSchema.parse(c)).toEqual(c);
    expect(c.jobsDiffer).toBe(true);
    expect(c.differences.map((d) => d.setting)).toEqual(
      expect.arrayContaining(['bs', 'bsrange', 'rw', 'rwmixread']),
    );
    expect(c.verdict).toEqual({ status: 'withheld', reason: 'jobs_differ' });
    expect(c.warnings.map((w) => w.code)).toEqual(['jobs_differ']);
    expect(c.warnings[0]!.message).toContain('bs 4 KiB vs not set');
    // The raw numbers are still there, side by side.
    expect(c.rates.map((r) => [r.metric, r.reference > 0 || r.candidate > 0])).toEqual([
      ['read-throughput', true],
      ['write-throughput', true],
      ['read-iops', true],
      ['write-iops', true],
    ]);
  });

  it('a file without recorded options: sameness unknown (null), the verdict given', () => {
    const c = compareRunPair(sideOf(NO_OPTIONS, 'a'), sideOf(MIX33_GROUPED, 'b'));
    expect(c.jobsDiffer).toBeNull();
    expect(c.warnings).toEqual([]);
    expect(c.verdict.status).toBe('given');
  });

  it('settings not known at all (a comparison stored before they were): unknown, verdict given', () => {
    const c = compareRunPair(
      { ...sideOf(NVME_RANDWRITE_4K, 'a'), jobSettings: null },
      sideOf(MIX33_GROUPED, 'b'),
    );
    expect(c.jobsDiffer).toBeNull();
    expect(c.verdict.status).toBe('given');
  });

  it('only writes on both sides: the write latency is judged, reads have none', () => {
    const side = sideOf(NVME_RANDWRITE_4K, 'x');
    const c = compareRunPair(side, { ...side, id: 'y', name: 'y' });
    if (c.verdict.status !== 'given') throw new Error('verdict withheld');
    expect(c.verdict.latency.read).toBeNull();
    expect(c.verdict.latency.write?.overall).toBe('ebs-as-good');
    expect(c.verdict.rates.every((r) => r.faster === 'equal' || r.delta === null)).toBe(true);
  });
});
