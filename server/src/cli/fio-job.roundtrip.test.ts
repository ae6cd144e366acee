import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFio } from '@blockwise/shared/fio';
import { generateFioJob } from '@blockwise/shared/fio-job';
import { profileFromFio, profileFromObserved } from '@blockwise/shared/profile';
import { runCli } from '../testing/run-cli.ts';

/**
 * The generated job, run by the real fio, reproduces the profile: block sizes per direction and
 * the read/write mix within 5%. Short runtime (5 s + 1 s ramp) on a 256 MiB file in a temporary
 * directory — never a device. Skipped, with a message, where fio is not installed.
 */
const fioVersion = spawnSync('fio', ['--version'], { encoding: 'utf8' });
const hasFio = fioVersion.status === 0;
if (!hasFio)
  console.warn('fio is not on PATH: the fio round-trip tests are skipped (apt-get install fio to run them)');

const dir = mkdtempSync(join(tmpdir(), 'blockwise-fio-roundtrip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KiB = 1024;
const MiB = 1024 * KiB;
// A read-mostly OLTP-like mix: 1,200 reads/s of 10 KiB (not a power of two: fio gets 8k/75:16k/25)
// and 800 writes/s of 40.5 KiB (32k/73:64k/27).
const READ_IOPS = 1200;
const WRITE_IOPS = 800;
const READ_BLOCK = 10 * KiB;
const WRITE_BLOCK = 40.5 * KiB;

describe.skipIf(!hasFio)(`fio round trip (${hasFio ? fioVersion.stdout.trim() : 'fio missing'})`, () => {
  it('fio --parse-only accepts the full 30-minute job with its placeholder target and every comment', () => {
    const profile = profileFromObserved({
      read: { iops: READ_IOPS, throughput: (READ_IOPS * READ_BLOCK) / MiB, throughputUnit: 'MiB/s' },
      write: { iops: WRITE_IOPS, throughput: (WRITE_IOPS * WRITE_BLOCK) / MiB, throughputUnit: 'MiB/s' },
    });
    if (!profile.ok) throw new Error(profile.error.message);
    const job = generateFioJob({ ...profile.value, benchmark: null }, {});
    if (!job.ok) throw new Error(job.error.message);
    const file = join(dir, 'full.fio');
    writeFileSync(file, job.value.jobFile);
    const r = spawnSync('fio', ['--parse-only', file], { encoding: 'utf8', timeout: 10_000 });
    expect(r.status, r.stderr).toBe(0);
    // And fio refuses a mistyped option, so the check above is not vacuous.
    writeFileSync(file, job.value.jobFile.replace('rw=randrw', 'rw=randrwx'));
    expect(spawnSync('fio', ['--parse-only', file], { encoding: 'utf8', timeout: 10_000 }).status).not.toBe(
      0,
    );
  });

  it('block sizes and the read/write mix of the run match the profile within 5%', async () => {
    const r = await runCli([
      'fio-job',
      '--read-iops',
      String(READ_IOPS),
      '--write-iops',
      String(WRITE_IOPS),
      '--read-bw',
      `${(READ_IOPS * READ_BLOCK) / MiB}MiB/s`,
      '--write-bw',
      `${(WRITE_IOPS * WRITE_BLOCK) / MiB}MiB/s`,
      '--target',
      join(dir, 'test.dat'),
      '--size',
      '256MiB',
      '--runtime',
      '5s',
      '--ramp',
      '1s',
      '--output',
      join(dir, 'job.fio'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const jobFile = readFileSync(join(dir, 'job.fio'), 'utf8');
    expect(jobFile).toContain('bssplit=8k/75:16k/25,32k/73:64k/27');
    expect(r.stdout).toContain('fio --output-format=json+ --output=result.json job.fio');

    // Exactly the command line the generator printed, from the job file's directory.
    const fio = spawnSync('fio', ['--output-format=json+', '--output=result.json', 'job.fio'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(fio.status, fio.stderr).toBe(0);
    const parsed = parseFio(readFileSync(join(dir, 'result.json')));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const measured = profileFromFio(parsed.report);
    if (!measured.ok) throw new Error(measured.error.message);
    const { read, write } = measured.value;

    const readShare = read.iops / (read.iops + write.iops);
    const numbers = {
      readBlockBytes: { target: READ_BLOCK, measured: Math.round(read.blockSizeBytes ?? 0) },
      writeBlockBytes: { target: WRITE_BLOCK, measured: Math.round(write.blockSizeBytes ?? 0) },
      readShare: { target: 0.6, measured: Number(readShare.toFixed(4)) },
      readIops: { target: READ_IOPS, measured: Math.round(read.iops) },
      writeIops: { target: WRITE_IOPS, measured: Math.round(write.iops) },
    };
    console.info(`fio round trip: ${JSON.stringify(numbers)}`);
    expect(Math.abs(read.blockSizeBytes! / READ_BLOCK - 1)).toBeLessThan(0.05);
    expect(Math.abs(write.blockSizeBytes! / WRITE_BLOCK - 1)).toBeLessThan(0.05);
    expect(Math.abs(readShare / 0.6 - 1)).toBeLessThan(0.05);
    // The profile's settings came back as the job asked (what the benchmark checks will read).
    expect(measured.value.benchmark).toMatchObject({
      direct: true,
      ioengine: 'libaio',
      rw: 'randrw',
      timeBased: true,
    });
  });
});
