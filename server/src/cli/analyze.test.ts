import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseFio } from '@blockwise/shared/fio';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../testing/run-cli.ts';

const ROOT = REPO_ROOT;
const A = 'fixtures/fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json';
const B = 'fixtures/fio/generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json';
const K = 'fixtures/fio/generated/k_randrw_4k_unified_rw_reporting_both.json';
const M = 'fixtures/fio/generated/m_randtrim_on_file_error.json';
const O = 'fixtures/fio/generated/o_client_server_loopback_randread_nj2.json';
const PKB = 'fixtures/fio/public/pkb_fio-2.1.4_four_stonewall_groups.json';
const ERROR_ONLY = 'fixtures/fio/public/cyberhuey_windows_fio_error_only.json';

const analyze = (...args: string[]) => runCli(['analyze', ...args]);

async function reportOf(file: string) {
  const parsed = parseFio(await readFile(join(ROOT, file)));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.report;
}

describe('blockwise analyze (table)', () => {
  it('prints fio version, each direction with I/O, MiB/s, KiB and clat percentiles in ms', async () => {
    const report = await reportOf(A);
    const { code, stdout } = await analyze(A);
    expect(code).toBe(0);
    const read = report.jobs[0]!.read;
    expect(stdout).toContain(`${A}: fio-3.33, 1 job entry`);
    expect(stdout).toMatch(
      /IOPS\s+throughput\s+avg block \(KiB\)\s+clat p50 \(ms\)\s+p99 \(ms\)\s+p99\.9 \(ms\)/,
    );
    const row = stdout.split('\n').find((l) => l.includes('randrw_bsrange read'))!;
    expect(row).toContain(
      read.iops.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    );
    expect(row).toContain(`${(read.bytesPerSec / 2 ** 20).toFixed(2)} MiB/s`);
    expect(row).toContain((read.blockSizeBytes! / 1024).toFixed(1));
    expect(row).toContain(read.clatMs.percentiles!['99']!.toFixed(2));
    // No trim I/O, no trim row; one job, no separate total row.
    expect(stdout).not.toContain('trim');
    expect(stdout).not.toContain('total');
  });

  it.each([
    // fixture, marked as total latency
    ['fixtures/fio/derived/fio_3.16_lat_percentiles_randrw.json', true],
    ['fixtures/fio/public/fioplot_fio-3.16_raid5_randrw_qd8_nj16_gr.json', false],
  ])('%s: percentiles marked as total latency: %s', async (file, total) => {
    const report = await reportOf(file);
    const { code, stdout } = await analyze(file);
    expect(code).toBe(0);
    const row = stdout.split('\n').find((l) => l.includes('iotest read'))!;
    const p99 = report.jobs[0]!.read.clatMs.percentiles!['99']!;
    expect(row).toContain(`${p99.toFixed(1)}${total ? ' (total)' : ''}`);
    expect(stdout.includes('(total) = total latency (lat: submission + completion')).toBe(total);
    expect(
      stdout.includes(
        'warning [total_latency_percentiles]: fio wrote job "iotest"\'s latency percentiles under lat_ns',
      ),
    ).toBe(total);
  });

  it('marks approximate totals (per-job entries without json+ bins) and prints the warnings', async () => {
    const { code, stdout } = await analyze(B);
    expect(code).toBe(0);
    const total = stdout.split('\n').find((l) => l.includes('total read'))!;
    expect(total).toMatch(/≈ \d+\.\d+–\d+\.\d+/);
    expect(stdout).toContain('≈ min–max over the jobs');
    expect(stdout).toContain('warning [percentiles_approximate]: total.read');
  });

  it('shows per-group totals, mixed, client hosts and fio\'s "All clients", and a failed job', async () => {
    const { stdout } = await analyze(PKB, K, O, M);
    expect(stdout).toContain('fio-2.1.4, 5 job entries in 5 groups');
    expect(stdout).toContain('group 4 total read');
    expect(stdout).toContain('warning [several_groups]');
    expect(stdout).toContain('unified mixed');
    expect(stdout).toContain('cs_randread #1 @127.0.0.1 read');
    expect(stdout).toContain('fio "All clients" read');
    expect(stdout).toMatch(/trim_err\s+no I\/O/);
    expect(stdout).toContain('warning [job_error]: job "trim_err"');
  });
});

describe('blockwise analyze --json', () => {
  it('prints {"runs":[...]} with the whole report of each file', async () => {
    const { code, stdout } = await analyze(A, O, '--json');
    expect(code).toBe(0);
    const { runs } = JSON.parse(stdout);
    expect(runs).toEqual([
      { file: A, ok: true, ...(await reportOf(A)) },
      { file: O, ok: true, ...(await reportOf(O)) },
    ]);
    const run = runs[0];
    expect(run.fioVersion).toBe('fio-3.33');
    expect(run.jobs[0]).toMatchObject({
      name: 'randrw_bsrange',
      groupId: 0,
      error: 0,
      options: { bsrange: '4k-16k,64k-64k' },
    });
    for (const d of [run.jobs[0].read, run.total.read, run.total.write, run.total.trim]) {
      expect(Object.keys(d)).toEqual(
        expect.arrayContaining(['iops', 'bytesPerSec', 'blockSizeBytes', 'ioBytes', 'runtimeMs', 'clatMs']),
      );
      expect(Object.keys(d.clatMs)).toEqual(expect.arrayContaining(['mean', 'percentiles']));
    }
    expect(Object.keys(run.total.read.clatMs.percentiles)).toEqual(
      expect.arrayContaining(['50', '99', '99.9']),
    );
    expect(run.total.trim).toMatchObject({
      iops: 0,
      blockSizeBytes: null,
      clatMs: { mean: null, percentiles: null },
    });
    expect(run.warnings).toEqual([]);
  });

  it('reports every file, failures as values, and exits 1 when any failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'blockwise-analyze-'));
    try {
      const { code, stdout } = await analyze(A, 'missing.json', ERROR_ONLY, dir, '--json');
      expect(code).toBe(1);
      const { runs } = JSON.parse(stdout);
      expect(runs.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, false, false]);
      expect(runs[1]).toEqual({
        file: 'missing.json',
        ok: false,
        error: { code: 'read_failed', message: 'cannot read missing.json: no such file' },
      });
      expect(runs[2].error.code).toBe('not_fio_json');
      expect(runs[2].error.message).toContain('fio: "C is not a directory');
      expect(runs[3].error).toEqual({ code: 'read_failed', message: `${dir} is not a regular file` });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('prints file names and fio job names inert: no escape sequence, no forged log line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'blockwise-analyze-'));
    try {
      const file = join(dir, 'x\n::error::file\u001b[2J.json');
      const text = (await readFile(join(ROOT, A), 'utf8')).replace(
        /"jobname" : "[^"]*"/,
        '"jobname" : "job\\n::warning::pwned\\u202e"',
      );
      await writeFile(file, text);
      const { code, stdout } = await analyze(file, join(dir, 'gone\u001b]8;;x\u0007.json'));
      expect(code).toBe(1);
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      expect(stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/u);
      expect(stdout.split('\n').filter((l) => /^\s*::/.test(l))).toEqual([]);
      expect(stdout).toContain('x\\u000a::error::file\\u001b[2J.json: fio-3.33, 1 job entry');
      expect(stdout).toContain('job\\u000a::warning::pwned\\u202e read');
      expect(stdout).toContain('gone\\u001b]8;;x\\u0007.json: not analyzed');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file over 100 MiB from its size, before reading it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'blockwise-analyze-'));
    const big = join(dir, 'huge.json');
    try {
      await writeFile(big, '');
      await truncate(big, 100 * 2 ** 20 + 1); // sparse: no 100 MiB written to disk
      const { code, stdout } = await analyze(big, '--json');
      expect(code).toBe(1);
      // stat's message (parseFio's own limit would say "the input is …, more than …").
      expect(JSON.parse(stdout).runs[0].error).toEqual({
        code: 'too_large',
        message: `${big} is 100.0 MiB; the limit is 100 MiB`,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('blockwise analyze usage', () => {
  it.each([
    [[], 'give at least one fio result file'],
    [['--bogus', A], "Unknown option '--bogus'"],
    [['--json'], 'give at least one fio result file'],
  ])('%j → exit 2', async (args, message) => {
    const { code, stdout, stderr } = await analyze(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
  });

  it('--help prints the usage and exits 0', async () => {
    const { code, stdout } = await analyze('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: blockwise analyze FILE... [--json]');
  });
});

describe('the built CLI runs with plain node', () => {
  const exec = promisify(execFile);
  beforeAll(async () => {
    await exec(process.execPath, [join(ROOT, 'server/scripts/build.mjs')], { cwd: ROOT });
  }, 60_000);

  it('node server/dist/blockwise.mjs analyze FILE --json', async () => {
    const { stdout } = await exec(
      process.execPath,
      [join(ROOT, 'server/dist/blockwise.mjs'), 'analyze', A, '--json'],
      {
        cwd: ROOT,
      },
    );
    const { runs } = JSON.parse(stdout);
    expect(runs).toEqual([{ file: A, ok: true, ...(await reportOf(A)) }]);
  });

  it('exits 1 with the failure reported when a file is not fio output', async () => {
    const failed = await exec(
      process.execPath,
      [join(ROOT, 'server/dist/blockwise.mjs'), 'analyze', ERROR_ONLY, '--json'],
      {
        cwd: ROOT,
      },
    ).then(
      () => null,
      (error: { code?: number; stdout?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(JSON.parse(failed?.stdout ?? '{}').runs[0].error.code).toBe('not_fio_json');
  });
});
