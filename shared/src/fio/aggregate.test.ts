import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readBins, type Bins } from './fio-raw.schema.ts';
import { parseFio } from './parse-fio.ts';
import { mergeBins, percentileRange, percentilesFromBins, readPercentiles } from './percentiles.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');
const textOf = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const reportOf = (name: string) => {
  const r = parseFio(textOf(name));
  if (!r.ok) throw new Error(r.error.message);
  return r.report;
};
const binsOf = (value: unknown): Bins => {
  const r = readBins(value, 'bins');
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

type RawLatency = { N: number; percentile: Record<string, number>; bins: Record<string, number> };
type RawJob = { jobname: string; read: { clat_ns: RawLatency }; write: { clat_ns: RawLatency } };

describe("percentilesFromBins reproduces fio's own percentiles from its json+ bins", () => {
  const cases = [
    'generated/g_randrw_4k_mix70_jsonplus.json',
    'generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json',
  ].flatMap((name) =>
    (JSON.parse(textOf(name)).jobs as RawJob[]).flatMap((job, i) =>
      (['read', 'write'] as const).map((direction) => ({ name, i, direction, clat: job[direction].clat_ns })),
    ),
  );

  it.each(cases)('$name jobs.$i.$direction', ({ clat }) => {
    const printed = readPercentiles(clat.percentile, 1e6, 'p');
    if (!printed.ok) throw new Error(printed.error.message);
    const bins = binsOf(clat.bins);
    expect(bins.total).toBe(clat.N);
    expect(percentilesFromBins(bins, printed.value.list, 1e6)).toEqual(printed.value.percentiles);
  });
});

describe('mergeBins', () => {
  const jobs = JSON.parse(textOf('generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json')).jobs as RawJob[];
  const a = binsOf(jobs[0]!.read.clat_ns.bins);
  const b = binsOf(jobs[1]!.read.clat_ns.bins);
  const c = binsOf(jobs[0]!.write.clat_ns.bins);

  it('sums counts bucket by bucket over the union of buckets, in order', () => {
    const merged = mergeBins([a, b]);
    expect(merged.total).toBe(a.total + b.total);
    const expected = new Map<number, number>();
    for (const h of [a, b])
      h.values.forEach((v, i) => expected.set(v, (expected.get(v) ?? 0) + h.counts[i]!));
    expect(Array.from(merged.values)).toEqual([...expected.keys()].sort((x, y) => x - y));
    expect(Array.from(merged.counts)).toEqual(Array.from(merged.values, (v) => expected.get(v)));
  });

  it('does not depend on the order or grouping of the histograms', () => {
    const abc = mergeBins([a, b, c]);
    expect(mergeBins([c, a, b])).toEqual(abc);
    expect(mergeBins([mergeBins([a, b]), c])).toEqual(abc);
    expect(mergeBins([a])).toBe(a);
  });
});

describe('totals over several jobs (docs/fio-format.md §4)', () => {
  it('without bins (generated/b, 4 per-job entries): a range per percentile, approximate, with a warning', () => {
    const report = reportOf('generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json');
    const read = report.total.read;
    expect(read.clatMs).toMatchObject({ method: 'range-over-jobs', percentiles: null, approximate: true });
    const perJob = report.jobs.map((j) => j.read.clatMs.percentiles!);
    for (const [key, range] of Object.entries(read.clatMs.range!)) {
      expect(range.min).toBe(Math.min(...perJob.map((p) => p[key]!)));
      expect(range.max).toBe(Math.max(...perJob.map((p) => p[key]!)));
    }
    expect(Object.keys(read.clatMs.range!)).toEqual(Object.keys(perJob[0]!));
    const warning = report.warnings.find((w) => w.subject === 'total.read.clatMs')!;
    expect(warning.code).toBe('percentiles_approximate');
  });

  it('sums rates and bytes, takes the longest runtime, pools the mean by sample count', () => {
    const report = reportOf('generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json');
    const jobs = report.jobs.map((j) => j.write);
    const total = report.total.write;
    expect(total.iops).toBe(jobs.reduce((s, d) => s + d.iops, 0));
    expect(total.bytesPerSec).toBe(jobs.reduce((s, d) => s + d.bytesPerSec, 0));
    expect(total.ioBytes).toBe(jobs.reduce((s, d) => s + d.ioBytes, 0));
    expect(total.runtimeMs).toBe(Math.max(...jobs.map((d) => d.runtimeMs)));
    const samples = jobs.reduce((s, d) => s + d.clatMs.samples!, 0);
    expect(total.clatMs.samples).toBe(samples);
    expect(total.clatMs.mean).toBeCloseTo(
      jobs.reduce((s, d) => s + d.clatMs.mean! * d.clatMs.samples!, 0) / samples,
      12,
    );
    // Summed bytes/s ÷ summed IOPS: every write was 64 KiB (up to fio's flooring of bw_bytes).
    expect(total.blockSizeBytes! / 65536).toBeCloseTo(1, 6);
    expect(report.total.read.blockSizeBytes).toBe(
      report.jobs.reduce((s, j) => s + j.read.bytesPerSec, 0) /
        report.jobs.reduce((s, j) => s + j.read.iops, 0),
    );
  });

  it('with bins (generated/p): merged, exact, and the per-job range alongside', () => {
    const report = reportOf('generated/p_randrw_4k_mix50_jsonplus_nj2_perjob.json');
    const read = report.total.read.clatMs;
    expect(read).toMatchObject({ method: 'merged-bins', approximate: false });
    expect(Object.keys(read.percentiles!)).toHaveLength(17);
    for (const [key, value] of Object.entries(read.percentiles!)) {
      expect(value).toBeGreaterThanOrEqual(read.range![key]!.min);
      expect(value).toBeLessThanOrEqual(read.range![key]!.max);
    }
    expect(report.warnings).toEqual([]);
  });

  it('group_reporting (generated/a): one entry, fio numbers reported as they are', () => {
    const report = reportOf('generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json');
    expect(report.total.read).toEqual(report.jobs[0]!.read);
    expect(report.groups).toEqual([{ groupId: 0, ...report.total }]);
  });

  it('two groups (generated/n): per-group totals, and the warning that the total adds phases', () => {
    const report = reportOf('generated/n_two_groups_numjobs2_group_reporting.json');
    expect(report.groups.map((g) => g.groupId)).toEqual([0, 1]);
    expect(report.groups[0]!.read).toEqual(report.jobs[0]!.read);
    expect(report.groups[1]!.read).toEqual(report.jobs[1]!.read);
    expect(report.total.read.iops).toBe(report.jobs[0]!.read.iops + report.jobs[1]!.read.iops);
    expect(report.warnings.map((w) => w.code)).toEqual(['percentiles_approximate', 'several_groups']);
  });

  it('percentileRange lists percentiles in ascending order', () => {
    expect(Object.keys(percentileRange([{ '99.9': 3, '50': 1, '99': 2 }, { '50': 0.5 }])!)).toEqual([
      '50',
      '99',
      '99.9',
    ]);
    expect(percentileRange([])).toBeNull();
  });
});
