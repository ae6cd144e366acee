import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DirectionStats, FioJob, LatencyMs } from './fio-report.schema.ts';
import { parseFio } from './parse-fio.ts';

/**
 * Agreement with the independent oracle (`*.oracle.json` beside every fixture, written separately
 * from this project): per job and in total, per direction — IOPS, bytes/s and block size within
 * 0.1 %, clat percentiles exact after the ns/µs → ms conversion, and the same aggregation method.
 *
 * Documented differences, asserted explicitly below rather than skipped:
 * 1. No-I/O directions: fio < 3.18 prints all-zero percentiles (and a 0 mean) for a direction
 *    that did nothing; the oracle keeps them, we report null (a 0 ms p99 for a direction that did
 *    nothing would pass every latency check).
 * 2. Block size without `bw_bytes` (fio < 3.2): the oracle divides bytes/s (= floored KiB/s ×
 *    1024) by IOPS; we divide io bytes by the I/O count, which is exact (docs/fio-format.md §3.1). They
 *    differ by at most the flooring, 1023 B/s — 5 % on the 12 KiB/s floppy fixture.
 * 3. One job with I/O among several entries (stonewalled sections): the oracle gives degenerate
 *    bounds (min = max); that single job's distribution is the combined one, so we report its
 *    percentiles as exact (`reported`) — equal to those bounds.
 */

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');

type OracleLatencyFields = {
  iops: number;
  bytes_per_sec: number;
  avg_block_size_bytes: number | null;
  io_bytes: number;
  total_ios: number | null;
};
type OracleDirection = OracleLatencyFields & {
  runtime_ms: number;
  clat_mean_ms: number;
  clat_samples: number | null;
  clat_percentiles_ms: Record<string, number> | null;
  clat_percentiles_are_total_latency: boolean;
};
type OracleJob = {
  jobname: string;
  groupid: number;
  error: number;
  hostname: string | null;
  options: Record<string, string>;
  directions: Record<string, OracleDirection>;
  /** null before fio 3.4, which had no sync section. */
  sync: { total_ios: number; lat_mean_ms: number; lat_percentiles_ms: Record<string, number> | null } | null;
};
type OracleAggregate = OracleLatencyFields & {
  jobs: number;
  runtime_ms_max: number;
  clat_mean_ms: number | null;
  clat_percentiles_ms: Record<string, number> | null;
  clat_percentiles_method: 'single_job' | 'merged_bins' | 'not_aggregatable_see_bounds' | null;
  clat_percentile_bounds_ms: Record<string, { min: number; max: number }> | null;
};
type Oracle = {
  file: string;
  ok: boolean;
  error?: string;
  fio_version: string;
  json_documents_found: number;
  client_mode: boolean;
  json_plus: boolean;
  has_bw_bytes: boolean;
  jobs: OracleJob[];
  aggregate: {
    all_jobs: Record<string, OracleAggregate>;
    by_group: Record<string, Record<string, OracleAggregate>>;
  };
  fio_all_clients: OracleJob | null;
  warnings: string[];
};

const fixtures = ['generated', 'public'].flatMap((dir) =>
  readdirSync(join(FIXTURES, dir))
    .filter((f) => f.endsWith('.oracle.json'))
    .map((f) => ({ name: `${dir}/${f.slice(0, -'.oracle.json'.length)}` })),
);

const load = (name: string) => ({
  input: readFileSync(join(FIXTURES, name)),
  oracle: JSON.parse(readFileSync(join(FIXTURES, `${name}.oracle.json`), 'utf8')) as Oracle,
});

/** Within 0.1 % (both zero counts as agreement). */
function expectWithinPermille(actual: number, expected: number, what: string) {
  const scale = Math.max(Math.abs(expected), Math.abs(actual));
  expect(Math.abs(actual - expected), `${what}: ${actual} vs oracle ${expected}`).toBeLessThanOrEqual(
    scale * 1e-3,
  );
}

/** Same keys, values equal up to float noise (both sides divide fio's integers by 1e6 or 1e3). */
function expectSamePercentiles(
  actual: Record<string, number> | null,
  expected: Record<string, number>,
  what: string,
) {
  expect(actual, what).not.toBeNull();
  expect(Object.keys(actual!).sort(), what).toEqual(Object.keys(expected).sort());
  for (const [key, value] of Object.entries(expected)) {
    expect(Math.abs(actual![key]! - value), `${what} p${key}`).toBeLessThanOrEqual(Math.abs(value) * 1e-9);
  }
}

const isAllZero = (p: Record<string, number> | null) => p !== null && Object.values(p).every((v) => v === 0);

function expectBlockSize(
  ours: DirectionStats,
  oracle: OracleLatencyFields,
  hasBwBytes: boolean,
  what: string,
) {
  if (oracle.avg_block_size_bytes === null) {
    expect(ours.blockSizeBytes, what).toBeNull();
    return;
  }
  expect(ours.blockSizeBytes, what).not.toBeNull();
  const relative = Math.abs(ours.blockSizeBytes! - oracle.avg_block_size_bytes) / oracle.avg_block_size_bytes;
  expect(
    relative,
    `${what}: block size ${ours.blockSizeBytes} vs oracle ${oracle.avg_block_size_bytes}`,
  ).toBeLessThanOrEqual(1e-3);
  void hasBwBytes;
}

function expectDirection(ours: DirectionStats, oracle: OracleDirection, hasBwBytes: boolean, what: string) {
  expectWithinPermille(ours.iops, oracle.iops, `${what}.iops`);
  expectWithinPermille(ours.bytesPerSec, oracle.bytes_per_sec, `${what}.bytesPerSec`);
  expectBlockSize(ours, oracle, hasBwBytes, `${what}.blockSizeBytes`);
  expect(ours.ioBytes, `${what}.ioBytes`).toBe(oracle.io_bytes);
  expect(ours.runtimeMs, `${what}.runtimeMs`).toBe(oracle.runtime_ms);
  expect(ours.totalIos, `${what}.totalIos`).toBe(oracle.total_ios);
  const hadIo = oracle.io_bytes > 0;
  if (!hadIo) {
    // Difference 1: no I/O, no latency — whatever zeros the file (and the oracle) hold.
    expect(ours.clatMs.percentiles, `${what} no-I/O percentiles`).toBeNull();
    expect(ours.clatMs.mean, `${what} no-I/O mean`).toBeNull();
    expect(ours.clatMs.method).toBe('none');
    if (oracle.clat_percentiles_ms !== null) expect(isAllZero(oracle.clat_percentiles_ms), what).toBe(true);
    expect(oracle.clat_mean_ms).toBe(0);
    return;
  }
  expect(ours.clatMs.mean, `${what}.clatMs.mean`).toBeCloseTo(oracle.clat_mean_ms, 12);
  if (oracle.clat_samples !== null)
    expect(ours.clatMs.samples, `${what}.clatMs.samples`).toBe(oracle.clat_samples);
  expect(ours.clatMs.isTotalLatency, `${what}.isTotalLatency`).toBe(
    oracle.clat_percentiles_are_total_latency,
  );
  if (oracle.clat_percentiles_ms === null) {
    expect(ours.clatMs.percentiles, `${what}.percentiles`).toBeNull();
    expect(ours.clatMs.method).toBe('none');
  } else {
    expectSamePercentiles(ours.clatMs.percentiles, oracle.clat_percentiles_ms, `${what}.percentiles`);
    expect(ours.clatMs.method).toBe('reported');
  }
}

function expectJob(ours: FioJob, oracle: OracleJob, hasBwBytes: boolean, what: string) {
  expect(ours.name, what).toBe(oracle.jobname);
  expect(ours.groupId, what).toBe(oracle.groupid);
  expect(ours.error, what).toBe(oracle.error);
  expect(ours.hostname, what).toBe(oracle.hostname);
  // The oracle keeps a subset of the options (the ones a planner reads); ours has them all.
  expect(ours.options, what).toMatchObject(oracle.options);
  for (const [direction, oracleDirection] of Object.entries(oracle.directions)) {
    const ourDirection = direction === 'mixed' ? ours.mixed : ours[direction as 'read' | 'write' | 'trim'];
    expect(ourDirection, `${what}.${direction}`).not.toBeNull();
    expectDirection(ourDirection!, oracleDirection, hasBwBytes, `${what}.${direction}`);
  }
  if (oracle.directions.mixed === undefined) expect(ours.mixed, what).toBeNull();
  if (oracle.sync !== null && oracle.sync.total_ios > 0) {
    expect(ours.sync, `${what}.sync`).not.toBeNull();
    expect(ours.sync!.totalIos).toBe(oracle.sync.total_ios);
    expect(ours.sync!.latMs.mean).toBeCloseTo(oracle.sync.lat_mean_ms, 12);
    expectSamePercentiles(ours.sync!.latMs.percentiles, oracle.sync.lat_percentiles_ms!, `${what}.sync`);
  } else {
    expect(ours.sync, `${what}.sync`).toBeNull();
  }
}

function expectAggregate(
  ours: DirectionStats,
  oracle: OracleAggregate,
  jobsWithIo: DirectionStats[],
  hasBwBytes: boolean,
  what: string,
) {
  expectWithinPermille(ours.iops, oracle.iops, `${what}.iops`);
  expectWithinPermille(ours.bytesPerSec, oracle.bytes_per_sec, `${what}.bytesPerSec`);
  expectBlockSize(ours, oracle, hasBwBytes, `${what}.blockSizeBytes`);
  expect(ours.ioBytes, `${what}.ioBytes`).toBe(oracle.io_bytes);
  expect(ours.runtimeMs, `${what}.runtimeMs`).toBe(oracle.runtime_ms_max);
  expect(ours.totalIos, `${what}.totalIos`).toBe(oracle.total_ios);
  expectAggregateLatency(ours.clatMs, oracle, jobsWithIo, what);
}

function expectAggregateLatency(
  ours: LatencyMs,
  oracle: OracleAggregate,
  jobsWithIo: DirectionStats[],
  what: string,
) {
  if (jobsWithIo.length === 0) {
    expect(ours.method, what).toBe('none');
    expect(ours.percentiles, what).toBeNull();
    expect(ours.mean, what).toBeNull();
    // Difference 1 again: the oracle's single-job "percentiles" here are fio < 3.18's zeros.
    if (oracle.clat_percentiles_ms !== null) expect(isAllZero(oracle.clat_percentiles_ms), what).toBe(true);
    return;
  }
  if (oracle.clat_mean_ms !== null) expect(ours.mean, `${what}.mean`).toBeCloseTo(oracle.clat_mean_ms, 12);
  // Without sample counts (fio 2.x) the oracle pools nothing; one job's mean is still its own.
  else if (jobsWithIo.length === 1) expect(ours.mean, `${what}.mean`).toBe(jobsWithIo[0]!.clatMs.mean);
  else expect(ours.mean, `${what}.mean`).toBeNull();

  switch (oracle.clat_percentiles_method) {
    case 'single_job':
      if (oracle.clat_percentiles_ms === null) {
        expect(ours.method, what).toBe('none');
        expect(ours.percentiles, what).toBeNull();
      } else {
        expect(ours.method, what).toBe('reported');
        expectSamePercentiles(ours.percentiles, oracle.clat_percentiles_ms, what);
      }
      expect(ours.approximate, what).toBe(false);
      break;
    case 'merged_bins':
      expect(ours.method, what).toBe('merged-bins');
      expect(ours.approximate, what).toBe(false);
      expectSamePercentiles(ours.percentiles, oracle.clat_percentiles_ms!, what);
      expect(ours.range, what).toEqual(oracle.clat_percentile_bounds_ms);
      break;
    case 'not_aggregatable_see_bounds': {
      const bounds = oracle.clat_percentile_bounds_ms!;
      if (jobsWithIo.length === 1) {
        // Difference 3: one job did I/O, its percentiles are exact and equal the degenerate bounds.
        expect(ours.method, what).toBe('reported');
        const mins = Object.fromEntries(Object.entries(bounds).map(([k, b]) => [k, b.min]));
        const maxs = Object.fromEntries(Object.entries(bounds).map(([k, b]) => [k, b.max]));
        expectSamePercentiles(ours.percentiles, mins, what);
        expectSamePercentiles(ours.percentiles, maxs, what);
      } else {
        expect(ours.method, what).toBe('range-over-jobs');
        expect(ours.percentiles, what).toBeNull();
        expect(ours.approximate, what).toBe(true);
        expect(ours.range, what).toEqual(bounds);
      }
      break;
    }
    case null:
      throw new Error(`${what}: the oracle has no method although ${jobsWithIo.length} job(s) did I/O`);
  }
}

/** The oracle's free-text warnings, mapped to our stable codes. */
const ORACLE_WARNING_CODES: [RegExp, string][] = [
  [/^non-JSON text before the document/, 'text_before_json'],
  [/^non-JSON text after the document/, 'text_after_json'],
  [/fio JSON documents found; used the last/, 'multiple_documents'],
  [/^job '.*' has error=\d+/, 'job_error'],
];

describe('parseFio agrees with the independent oracle on every fixture', () => {
  it('has an oracle file for every fio fixture (none is left out of this table)', () => {
    const data = ['generated', 'public'].flatMap((dir) =>
      readdirSync(join(FIXTURES, dir))
        .filter((f) => /\.(json|txt)$/.test(f) && !f.endsWith('.oracle.json'))
        .map((f) => `${dir}/${f}`),
    );
    expect(data.length).toBe(32);
    expect(fixtures.map((f) => f.name).sort()).toEqual(data.sort());
  });

  describe.each(fixtures)('$name', ({ name }) => {
    const { input, oracle } = load(name);
    const result = parseFio(input);

    if (!oracle.ok) {
      it('fails cleanly, as the oracle does', () => {
        expect(result.ok).toBe(false);
      });
      return;
    }

    it('parses, with the same document facts', () => {
      expect(result.ok, result.ok ? '' : JSON.stringify(result.error)).toBe(true);
      if (!result.ok) return;
      const r = result.report;
      expect(r.fioVersion).toBe(oracle.fio_version);
      expect(r.documentsFound).toBe(oracle.json_documents_found);
      expect(r.clientMode).toBe(oracle.client_mode);
      expect(r.jsonPlus).toBe(oracle.json_plus);
      expect(r.jobs).toHaveLength(oracle.jobs.length);
      const codes = r.warnings.map((w) => w.code);
      for (const text of oracle.warnings) {
        const code = ORACLE_WARNING_CODES.find(([re]) => re.test(text))?.[1];
        expect(code, `unmapped oracle warning: ${text}`).toBeDefined();
        expect(codes, text).toContain(code);
      }
    });

    it('agrees per job and direction', () => {
      if (!result.ok) throw new Error(result.error.message);
      oracle.jobs.forEach((job, i) =>
        expectJob(result.report.jobs[i]!, job, oracle.has_bw_bytes, `jobs.${i}`),
      );
      if (oracle.fio_all_clients === null) expect(result.report.fioAllClients).toBeNull();
      else
        expectJob(result.report.fioAllClients!, oracle.fio_all_clients, oracle.has_bw_bytes, 'fioAllClients');
    });

    it('agrees on the totals, in all and per group', () => {
      if (!result.ok) throw new Error(result.error.message);
      const r = result.report;
      const check = (
        scope: string,
        ours: typeof r.total,
        oracleScope: Record<string, OracleAggregate>,
        groupId?: number,
      ) => {
        const jobs = r.jobs.filter((j) => groupId === undefined || j.groupId === groupId);
        for (const [direction, oracleDirection] of Object.entries(oracleScope)) {
          if (direction === 'total') continue;
          const d = direction as 'read' | 'write' | 'trim' | 'mixed';
          const ourDirection = d === 'mixed' ? ours.mixed : ours[d];
          expect(ourDirection, `${scope}.${d}`).not.toBeNull();
          const perJob = jobs.flatMap((j) => (d === 'mixed' ? (j.mixed ? [j.mixed] : []) : [j[d]]));
          const withIo = perJob.filter((s) => s.ioBytes > 0);
          expectAggregate(ourDirection!, oracleDirection, withIo, oracle.has_bw_bytes, `${scope}.${d}`);
        }
        if (oracleScope.mixed === undefined) expect(ours.mixed, scope).toBeNull();
      };
      check('total', r.total, oracle.aggregate.all_jobs);
      const groupIds = Object.keys(oracle.aggregate.by_group).map(Number);
      expect(r.groups.map((g) => g.groupId)).toEqual(groupIds);
      for (const group of r.groups) {
        check(
          `groups.${group.groupId}`,
          group,
          oracle.aggregate.by_group[String(group.groupId)]!,
          group.groupId,
        );
      }
    });
  });
});

describe('documented differences from the oracle, on the fixtures that show them', () => {
  it('fio 3.12 prints all-zero percentiles for trim, which did nothing: the oracle keeps them, we report null', () => {
    const { input, oracle } = load('public/arau_fio-3.12_randrw50_32k.json');
    const result = parseFio(input);
    if (!result.ok) throw new Error(result.error.message);
    const trim = oracle.jobs[0]!.directions.trim!;
    expect(trim.io_bytes).toBe(0);
    expect(isAllZero(trim.clat_percentiles_ms)).toBe(true);
    expect(result.report.jobs[0]!.trim.clatMs).toMatchObject({
      percentiles: null,
      mean: null,
      method: 'none',
    });
    expect(result.report.total.trim.clatMs).toMatchObject({ percentiles: null, mean: null, method: 'none' });
    expect(isAllZero(oracle.jobs[0]!.sync!.lat_percentiles_ms)).toBe(true);
    expect(result.report.jobs[0]!.sync).toBeNull();
  });

  it('fio 3.1 floppy (no bw_bytes, 12 KiB/s): block size = bytes/s ÷ IOPS, floored like fio’s KiB/s (3,896 B, not the true 4,096)', () => {
    const { input, oracle } = load('public/fioplot_fio-3.1_floppy_seqread.json');
    const result = parseFio(input);
    if (!result.ok) throw new Error(result.error.message);
    const read = result.report.jobs[0]!.read;
    expect(read.bytesPerSec).toBe(oracle.jobs[0]!.directions.read!.bytes_per_sec);
    expect(read.blockSizeBytes).toBeCloseTo(3896.42, 2);
    expect(read.blockSizeBytes).toBe(read.bytesPerSec / read.iops);
    // io bytes ÷ I/Os would be exact: the flooring costs 5% on a 12 KiB/s run, nothing measurable at real rates.
    expect(read.ioBytes / read.totalIos!).toBe(4096);
    expect(result.report.total.read.blockSizeBytes).toBe(read.blockSizeBytes);
  });

  it('stonewalled sections, reads in one only: the oracle bounds are min = max, we report those percentiles', () => {
    const { input, oracle } = load('generated/h1_jobfile_two_sections_stonewall.json');
    const result = parseFio(input);
    if (!result.ok) throw new Error(result.error.message);
    const bounds = oracle.aggregate.all_jobs.read!.clat_percentile_bounds_ms!;
    expect(Object.values(bounds).every((b) => b.min === b.max)).toBe(true);
    expect(result.report.total.read.clatMs.method).toBe('reported');
    expect(result.report.total.read.clatMs.percentiles).toEqual(
      result.report.jobs[0]!.read.clatMs.percentiles,
    );
  });
});
