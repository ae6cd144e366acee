import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareRunPair, jobSettingsOf, RunPairComparisonSchema } from '@blockwise/shared/compare';
import { parseFio } from '@blockwise/shared/fio';
import { summarizeRun } from '@blockwise/shared/analysis';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../testing/run-cli.ts';

/** The same fio job (randrw, bsrange 4k-16k / 64k, 33 % reads, 4 × iodepth 16), grouped and per job. */
const MIX33_GROUPED = 'fixtures/fio/generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json';
const MIX33_PERJOB = 'fixtures/fio/generated/b_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_perjob.json';
/** 4k randwrite on an NVMe drive, 16 jobs × iodepth 4, io_uring, 60 s. */
const NVME_RANDWRITE_4K = 'fixtures/fio/public/samyaple_fio-3.33_randwrite_nj16_perjob.json';
/** fio 2.1.4: no job options recorded. */
const NO_OPTIONS = 'fixtures/fio/public/pkb_fio-2.1.4_four_stonewall_groups.json';
/** One 4k randwrite job as is (22,130 IOPS), and capped at rate_iops=500 with thinktime=100 (fixtures/fio/settings). */
const UNPACED_4K = 'fixtures/fio/settings/s1_randwrite_4k_unpaced.json';
const RATE_IOPS_500 = 'fixtures/fio/settings/s2_randwrite_4k_rate_iops500_thinktime100.json';
const ERROR_ONLY = 'fixtures/fio/public/cyberhuey_windows_fio_error_only.json';

const compare = (...args: string[]) => runCli(['compare', ...args]);

/** What the command should print for a pair: the shared function on the same files. */
async function expected(fileA: string, fileB: string) {
  const side = async (file: string, name: string) => {
    const r = parseFio(await readFile(join(REPO_ROOT, file)));
    if (!r.ok) throw new Error(r.error.message);
    const headline = summarizeRun(r.report, {}).headline;
    return { id: file, name, headline, jobSettings: jobSettingsOf(r.report) };
  };
  return compareRunPair(await side(fileA, `A (${fileA})`), await side(fileB, `B (${fileB})`));
}

describe('blockwise compare (human output)', () => {
  it('different jobs (issue #11: 4k randwrite vs bsrange mix-33): settings, jobs_differ, numbers, verdict withheld; exit 0', async () => {
    const { code, stdout, stderr } = await compare(NVME_RANDWRITE_4K, MIX33_GROUPED);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const line = (start: string) => stdout.split('\n').find((l) => l.trimStart().startsWith(start))!;
    // Both runs' settings, the differing ones marked.
    expect(line('bs ')).toMatch(/^\s+bs\s+4 KiB\s+not set\s+≠ differs$/);
    expect(line('rw ')).toMatch(/randwrite\s+randrw\s+≠ differs/);
    expect(line('rwmixread')).toMatch(/n\/a\s+33%\s+≠ differs/);
    expect(line('direct')).not.toContain('differs');
    // The warning, naming each setting with both values.
    expect(stdout).toContain('warning [jobs_differ]:');
    expect(stdout).toContain('bs 4 KiB vs not set; bsrange not set vs read 4 KiB–16 KiB, write 64 KiB');
    expect(stdout).toContain('rwmixread n/a vs 33%');
    // Numbers side by side, without deltas; no verdict.
    const c = await expected(NVME_RANDWRITE_4K, MIX33_GROUPED);
    const writeIops = c.rates.find((r) => r.metric === 'write-iops')!;
    expect(line('write IOPS')).toMatch(
      new RegExp(
        `^\\s+write IOPS\\s+${Math.round(writeIops.reference).toLocaleString('en-US')}\\s+${Math.round(writeIops.candidate).toLocaleString('en-US')}$`,
      ),
    );
    expect(stdout).not.toContain('B vs A');
    expect(stdout).toContain('Verdict: withheld: jobs differ');
    expect(stdout).not.toContain('latency, reads:');
  });

  it('the same job capped at rate_iops=500: the cap and the think time are named, no verdict on 500 vs 22,130 IOPS', async () => {
    const { code, stdout } = await compare(UNPACED_4K, RATE_IOPS_500);
    expect(code).toBe(0);
    const line = (start: string) => stdout.split('\n').find((l) => l.trimStart().startsWith(start))!;
    expect(line('rate_iops')).toMatch(/^\s+rate_iops\s+no cap\s+500 IOPS\s+≠ differs$/);
    expect(line('thinktime')).toMatch(/^\s+thinktime\s+none\s+100 µs\s+≠ differs$/);
    expect(line('rate ')).not.toContain('differs');
    expect(stdout).toContain('rate_iops no cap vs 500 IOPS; thinktime none vs 100 µs');
    expect(stdout).toContain('Verdict: withheld: jobs differ');
  });

  it('the same job: no jobs_differ, deltas, and latency verdicts for reads and writes', async () => {
    const { code, stdout } = await compare(MIX33_GROUPED, MIX33_PERJOB);
    expect(code).toBe(0);
    expect(stdout).not.toContain('jobs_differ');
    expect(stdout).not.toContain('differs');
    const c = await expected(MIX33_GROUPED, MIX33_PERJOB);
    if (c.verdict.status !== 'given') throw new Error('verdict withheld');
    const delta = c.verdict.rates.find((r) => r.metric === 'read-iops')!.delta!;
    const row = stdout.split('\n').find((l) => l.trimStart().startsWith('read IOPS'))!;
    expect(row).toMatch(new RegExp(`${delta < 0 ? '−' : '\\+'}${Math.abs(delta * 100).toFixed(0)}%$`));
    for (const direction of ['read', 'write'] as const) {
      const overall = c.verdict.latency[direction]!.overall;
      expect(overall).not.toBe('insufficient-data');
      expect(stdout).toMatch(new RegExp(`latency, ${direction}s: B is`));
    }
    expect(stdout).toContain('[p99_within_20pct]');
    // Warnings about each run come after, marked with their side.
    expect(stdout).toContain('B: warning [no_group_reporting]');
  });

  it('a file without job options: sameness cannot be checked, said so; the verdict is given', async () => {
    const { code, stdout } = await compare(NO_OPTIONS, MIX33_GROUPED);
    expect(code).toBe(0);
    expect(stdout).toContain('whether both ran the same job cannot be checked');
    expect(stdout).toMatch(/^\s+bs\s+not recorded\s+not set$/m);
    expect(stdout).toContain('Verdict (B judged against A');
  });
});

describe('blockwise compare --json', () => {
  it.each([
    ['different jobs', NVME_RANDWRITE_4K, MIX33_GROUPED, true, 'withheld'],
    ['the same job', MIX33_GROUPED, MIX33_PERJOB, false, 'given'],
  ])('%s: {a, b, comparison} with the shared comparison', async (_, fileA, fileB, differ, status) => {
    const { code, stdout } = await compare(fileA, fileB, '--json');
    expect(code).toBe(0);
    const out = JSON.parse(stdout);
    const comparison = RunPairComparisonSchema.parse(out.comparison);
    expect(comparison).toEqual(await expected(fileA, fileB));
    expect(comparison.jobsDiffer).toBe(differ);
    expect(comparison.verdict.status).toBe(status);
    expect(comparison.warnings.map((w) => w.code)).toEqual(differ ? ['jobs_differ'] : []);
    expect(out.a).toMatchObject({ file: fileA, ok: true, fioVersion: expect.stringMatching(/^fio-/) });
    expect(out.a.settings.map((s: { setting: string }) => s.setting)).toEqual([
      'bs',
      'bsrange',
      'bssplit',
      'rw',
      'rwmixread',
      'iodepth',
      'numjobs',
      'direct',
      'ioengine',
      'runtime',
      'rate',
      'rate_iops',
      'rate_min',
      'thinktime',
      'fsync',
      'fdatasync',
      'sync',
      'verify',
      'size',
      'filesize',
    ]);
    expect(out.b.headline.writeIops).toBe(comparison.rates.find((r) => r.metric === 'write-iops')!.candidate);
  });
});

describe('blockwise compare: failures', () => {
  it.each([
    [
      [NVME_RANDWRITE_4K, 'fixtures/fio/nope.json'],
      'cannot read fixtures/fio/nope.json: no such file [read_failed]',
    ],
    [[ERROR_ONLY, MIX33_GROUPED], `${ERROR_ONLY}: no fio JSON found`],
  ])('%j → exit 1, the reason on stderr', async (files, message) => {
    const { code, stdout, stderr } = await compare(...files);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
  });

  it('--json: the failed file as {ok: false, error}, no comparison, exit 1', async () => {
    const { code, stdout } = await compare(MIX33_GROUPED, ERROR_ONLY, '--json');
    expect(code).toBe(1);
    const out = JSON.parse(stdout);
    expect(out.a.ok).toBe(true);
    expect(out.b).toMatchObject({ file: ERROR_ONLY, ok: false, error: { code: 'not_fio_json' } });
    expect(out.comparison).toBeNull();
  });

  it.each([
    [[]],
    [[MIX33_GROUPED]],
    [[MIX33_GROUPED, MIX33_PERJOB, NO_OPTIONS]],
    [[MIX33_GROUPED, MIX33_PERJOB, '--csv']],
  ])('usage error %j → exit 2', async (args) => {
    const { code, stderr } = await compare(...args);
    expect(code).toBe(2);
    expect(stderr).toContain('Run `blockwise compare --help`');
  });

  it('--help describes the settings compared, the withheld verdict and the exit statuses', async () => {
    const { code, stdout } = await compare('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: blockwise compare A.json B.json [--json]');
    expect(stdout).toContain('[jobs_differ]');
    expect(stdout).toContain('bs, bsrange, bssplit, rw, rwmixread, iodepth, numjobs, direct, ioengine');
    expect(stdout).toContain('Exit status: 0');
    const { stdout: all } = await runCli(['--help']);
    expect(all).toMatch(/^ {2}compare +Two fio runs side by side/m);
  });
});
