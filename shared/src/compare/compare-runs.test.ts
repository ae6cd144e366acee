import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../analysis/summarize-run.ts';
import { parseFio } from '../fio/parse-fio.ts';
import { jobSettingsOf } from './compare-jobs.ts';
import { compareRunPair, RunPairComparisonSchema, type PairSide } from './compare-runs.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');

/** A run as a comparison sees it: the stored headline and its jobs' settings, from a real fio file. */
function sideOf(file: string, name: string): PairSide {
  const r = parseFio(readFileSync(join(FIXTURES, file)));
  if (!r.ok) throw new Error(r.error.message);
  return {
    id: file,
    name,
    headline: summarizeRun(r.report, {}).headline,
    jobSettings: jobSettingsOf(r.report),
  };
}

/** randrw, bsrange 4k-16k / 64k, 33 % reads, 4 × iodepth 16: the same job with and without group_reporting. */
const MIX33_GROUPED = 'generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json';
const MIX33_PERJOB = 'generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json';
/** 4k randwrite on an NVMe drive (issue #11's "4 KiB randwrite NVMe run"). */
const NVME_RANDWRITE_4K = 'public/samyaple_fio-3.33_randwrite_nj16_perjob.json';
/** fio 2.1.4: no job options recorded. */
const NO_OPTIONS = 'public/pkb_fio-2.1.4_four_stonewall_groups.json';

describe('compareRunPair', () => {
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
