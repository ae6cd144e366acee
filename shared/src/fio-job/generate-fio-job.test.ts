import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { parseSysbench } from '../sysbench/parse-sysbench.ts';
import { profileFromSysbench } from '../sysbench/from-sysbench.ts';
import { publishedProfile } from '../test-support/profiles.ts';
import { importMetrics } from '../timeseries/import-metrics.ts';
import { profileFromSeries } from '../timeseries/sizing.ts';
import {
  chooseAccessPattern,
  chooseBlockSizes,
  fioSize,
  generateFioJob,
  readJobOptions,
  sizeQueue,
  splitBlockSize,
  type GeneratedFioJob,
  type FioJobOptions,
} from './generate-fio-job.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

function job(profile: IoProfile, options: FioJobOptions = {}): GeneratedFioJob {
  const r = generateFioJob(profile, options);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
/** The option lines of the job file (not comments, blanks or section headers) as key → value. */
function optionsOf(jobFile: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of jobFile.split('\n')) {
    if (line === '' || line.startsWith(';') || line.startsWith('[')) continue;
    const eq = line.indexOf('=');
    out.set(line.slice(0, eq), line.slice(eq + 1));
  }
  return out;
}

// docs/domain.md §6 and §8: r5d.4xlarge on gp3, fio randrw 33% read: read 188 MiB/s at 3,043 IOPS, write 381 MiB/s at 6,018.
const seedProfile = publishedProfile({
  readMiBps: 188,
  readIops: 3043,
  writeMiBps: 381,
  writeIops: 6018,
  durationSec: 900,
});

describe('splitBlockSize: an average as aligned fio sizes', () => {
  it.each([
    [16 * KiB, [{ bytes: 16 * KiB, percent: 100 }]],
    [12 * KiB, [{ bytes: 12 * KiB, percent: 100 }]],
    [16 * KiB + 40, [{ bytes: 16 * KiB, percent: 100 }]], // within 0.5%
    // 10 KiB = 75% × 8 KiB + 25% × 16 KiB
    [
      10 * KiB,
      [
        { bytes: 8 * KiB, percent: 75 },
        { bytes: 16 * KiB, percent: 25 },
      ],
    ],
    // 188 MiB/s ÷ 3,043 = 64,782 B = 63.26 KiB: (63.26 − 32) / 32 = 97.7% of 64 KiB
    [
      (188 * MiB) / 3043,
      [
        { bytes: 32 * KiB, percent: 2 },
        { bytes: 64 * KiB, percent: 98 },
      ],
    ],
    // Below 4 KiB the step is 512 B: 700 B = 63% × 512 + 37% × 1,024
    [
      700,
      [
        { bytes: 512, percent: 63 },
        { bytes: 1024, percent: 37 },
      ],
    ],
    [300, [{ bytes: 512, percent: 100 }]],
  ])('%d bytes → %j', (avg, split) => expect(splitBlockSize(avg)).toEqual(split));

  it('any average: mean within 0.6%, 512-byte aligned, every size a multiple of the smallest (fio rounds down otherwise)', () => {
    fc.assert(
      fc.property(fc.double({ min: 520, max: 16 * MiB, noNaN: true }), (avg) => {
        const split = splitBlockSize(avg);
        const mean = split.reduce((s, x) => s + (x.bytes * x.percent) / 100, 0);
        expect(Math.abs(mean - avg) / avg).toBeLessThan(0.006);
        expect(split.reduce((s, x) => s + x.percent, 0)).toBe(100);
        for (const x of split) {
          expect(x.bytes % 512).toBe(0);
          expect(x.bytes % split[0]!.bytes).toBe(0);
        }
      }),
    );
  });

  it('fio size notation', () => {
    expect([fioSize(4096), fioSize(65536), fioSize(MiB), fioSize(1536), fioSize(512)]).toEqual([
      '4k',
      '64k',
      '1m',
      '1536',
      '512',
    ]);
  });
});

describe('generateFioJob', () => {
  const j = job(seedProfile);
  const opts = optionsOf(j.jobFile);

  it('the mixed seed workload: randrw, 34% reads, per-direction bssplit, direct, libaio, 30 minutes, json+ output', () => {
    expect(Object.fromEntries(opts)).toEqual({
      filename: 'CHANGE_ME',
      ioengine: 'libaio',
      direct: '1',
      rw: 'randrw',
      rwmixread: '34',
      // read 63.26 KiB = 2% × 32k + 98% × 64k; write 381 MiB/s ÷ 6,018 = 64.83 KiB = 99% × 64k + 1% × 128k
      bssplit: '32k/2:64k/98,64k/99:128k/1',
      // 9,061 IOPS × 1 ms = 9.06 in flight, doubled = 19 (rounded up), one job
      iodepth: '19',
      numjobs: '1',
      rate_iops: '3043,6018',
      rate_process: 'poisson',
      time_based: '1',
      runtime: '1800',
      ramp_time: '60',
      norandommap: '1',
      randrepeat: '0',
      group_reporting: '1',
      percentile_list: '50:90:99:99.9:99.99',
    });
    expect(j.commandLine).toBe('fio --output-format=json+ --output=result.json blockwise.fio');
    expect(j.settings).toMatchObject({
      rw: 'randrw',
      rwmixread: 34,
      iodepth: 19,
      numjobs: 1,
      runtimeSec: 1800,
      rampTimeSec: 60,
    });
  });

  it('every option line has a comment line above it explaining the choice', () => {
    const lines = j.jobFile.split('\n');
    lines.forEach((line, i) => {
      if (line === '' || line.startsWith(';') || line.startsWith('[')) return;
      const key = line.slice(0, line.indexOf('='));
      expect(lines[i - 1], `comment above ${line}`).toMatch(new RegExp(`^; ${key}: \\S`));
    });
    expect(j.explanation.length).toBeGreaterThanOrEqual(opts.size);
    expect(j.jobFile).toContain('; WARNING: fio writes to the target');
    expect(j.jobFile).toMatch(
      /read 3,043 IOPS × 63\.3 KiB = 188 MiB\/s; write 6,018 IOPS × 64\.8 KiB = 381 MiB\/s/,
    );
  });

  it('the upload command carries the planner labels, with placeholders to fill in', () => {
    expect(j.uploadCommand).toBe(
      'blockwise upload result.json --server $BLOCKWISE_URL --label kind=ebs --label instanceType=CHANGE_ME --label volumeType=CHANGE_ME --label volumeSizeGiB=CHANGE_ME --label volumeIops=CHANGE_ME --label volumeThroughputMiBps=CHANGE_ME',
    );
    const filled = job(seedProfile, {
      labels: {
        instanceType: 'r5d.4xlarge',
        volumeType: 'gp3',
        volumeSizeGiB: '1000',
        volumeIops: '16000',
        volumeThroughputMiBps: '1000',
        'tag.note': "db01 'primary'",
      },
      series: 'gp3 sizing',
    });
    expect(filled.uploadCommand).toBe(
      "blockwise upload result.json --server $BLOCKWISE_URL --label kind=ebs --label instanceType=r5d.4xlarge --label volumeType=gp3 --label volumeSizeGiB=1000 --label volumeIops=16000 --label volumeThroughputMiBps=1000 --label 'tag.note=db01 '\\''primary'\\''' --series 'gp3 sizing'",
    );
    expect(filled.explanation.join('\n')).not.toContain('CHANGE_ME in');
  });

  it('from the web app: fetches the CLI from the running server first (the user has no `blockwise`)', () => {
    const web = job(seedProfile, {
      server: 'https://blockwise.example.com',
      cliFrom: 'server',
      labels: { instanceType: 'r6i.4xlarge' },
    });
    expect(web.uploadCommand).toMatch(
      /^curl -fsSO https:\/\/blockwise\.example\.com\/cli\/blockwise\.mjs && node blockwise\.mjs upload result\.json --server https:\/\/blockwise\.example\.com --label kind=ebs --label instanceType=r6i\.4xlarge /,
    );
    expect(web.explanation.join('\n')).toContain('/cli/blockwise.mjs');
    // Without a server the variable is left for the shell to expand, quoted as one word.
    expect(job(seedProfile, { cliFrom: 'server' }).uploadCommand).toMatch(
      /^curl -fsSO "\$BLOCKWISE_URL\/cli\/blockwise\.mjs" && node blockwise\.mjs upload result\.json --server \$BLOCKWISE_URL /,
    );
  });

  it('read-only: randread, one size, one rate, no rwmixread', () => {
    const p = publishedProfile({ readMiBps: 250, readIops: 16000, writeMiBps: 0, writeIops: 0 });
    const o = optionsOf(job(p).jobFile);
    expect(o.get('rw')).toBe('randread');
    expect(o.get('bs')).toBe('16k');
    expect(o.get('rate_iops')).toBe('16000');
    expect(o.has('rwmixread')).toBe(false);
    expect(o.has('bssplit')).toBe(false);
  });

  it('a sequential benchmark stays sequential; single sizes per direction use bs=R,W', () => {
    const p = publishedProfile({
      readMiBps: 100,
      readIops: 800,
      writeMiBps: 50,
      writeIops: 400,
      benchmark: { sequential: true },
    });
    const o = optionsOf(job(p).jobFile);
    expect(o.get('rw')).toBe('rw');
    expect(o.get('bs')).toBe('128k,128k');
  });

  it('high IOPS spread over jobs: 80,000 IOPS → 160 in flight → 4 jobs × 40 (≤ 25,000 IOPS per job)', () => {
    const p = publishedProfile({ readMiBps: 625, readIops: 40000, writeMiBps: 625, writeIops: 40000 });
    const s = job(p).settings;
    expect(s).toMatchObject({ numjobs: 4, iodepth: 40, rateIopsPerJob: { read: 10000, write: 10000 } });
    // Capped at 2 jobs, the queue per job goes above 64 and the comment says why.
    const capped = job(p, { maxJobs: 2 });
    expect(capped.settings).toMatchObject({ numjobs: 2, iodepth: 80 });
    expect(capped.jobFile).toContain('Above 64 per job because only 2 jobs are allowed');
  });

  it('unpaced: no rate_iops, queue = IOPS × latency exactly; io_uring', () => {
    const o = optionsOf(job(seedProfile, { pace: false, engine: 'io_uring', assumedLatencyMs: 0.5 }).jobFile);
    expect(o.has('rate_iops')).toBe(false);
    expect(o.has('rate_process')).toBe(false);
    expect(o.get('iodepth')).toBe('5'); // 9,061 × 0.5 ms = 4.5 → 5
    expect(o.get('ioengine')).toBe('io_uring');
  });

  it('targets: a device is used whole; a file needs a size; colons are escaped for fio', () => {
    const dev = optionsOf(job(seedProfile, { target: '/dev/nvme1n1' }).jobFile);
    expect(dev.get('filename')).toBe('/dev/nvme1n1');
    expect(dev.has('size')).toBe(false);
    const file = optionsOf(job(seedProfile, { target: '/mnt/data/fio.dat' }).jobFile);
    expect(file.get('size')).toBe('CHANGE_ME');
    const sized = optionsOf(
      job(seedProfile, { target: '/mnt/a:b/fio.dat', sizeBytes: 10 * 1024 * MiB }).jobFile,
    );
    expect(sized.get('filename')).toBe('/mnt/a\\:b/fio.dat');
    expect(sized.get('size')).toBe('10240m');
  });

  it('a short runtime is allowed for a trial but says so', () => {
    const short = job(seedProfile, { runtimeSec: 5, rampTimeSec: 1 });
    expect(optionsOf(short.jobFile).get('runtime')).toBe('5');
    expect(short.jobFile).toContain('SHORTER than 30 minutes');
  });

  it('a direction without throughput gets 16 KiB with a comment that says it is assumed', () => {
    const p = publishedProfile({ readMiBps: 0, readIops: 1000, writeMiBps: 0, writeIops: 0 });
    const j2 = job(p);
    expect(optionsOf(j2.jobFile).get('bs')).toBe('16k');
    expect(j2.jobFile).toContain('size unknown (the profile has no read throughput), 16 KiB assumed');
  });

  it('a synced benchmark leaves a commented fdatasync line', () => {
    const p = publishedProfile({
      readMiBps: 10,
      readIops: 640,
      writeMiBps: 10,
      writeIops: 640,
      benchmark: { syncs: true },
    });
    expect(job(p).jobFile).toContain('\n;fdatasync=1\n');
  });

  it.each([
    [publishedProfile({ readMiBps: 0, readIops: 0, writeMiBps: 0, writeIops: 0 }), {}, 'no_io'],
    [seedProfile, { runtimeSec: 0 }, 'bad_option'],
    [seedProfile, { assumedLatencyMs: -1 }, 'bad_option'],
    [seedProfile, { sizeBytes: 100 }, 'bad_option'],
  ] as const)('refuses %#', (profile, options, code) => {
    const r = generateFioJob(profile, options);
    expect(!r.ok && r.error.code).toBe(code);
  });

  it('works from any source: a sysbench run and a CloudWatch sizing profile', () => {
    const sb = parseSysbench(
      readFileSync(
        new URL('../../../fixtures/sysbench/k_rndrd_64k_direct_histogram.txt', import.meta.url),
        'utf8',
      ),
    );
    const sbProfile = sb.ok ? profileFromSysbench(sb.value) : null;
    expect(sbProfile?.ok).toBe(true);
    const o = optionsOf(job(sbProfile!.ok ? sbProfile!.value : seedProfile).jobFile);
    expect([o.get('rw'), o.get('bs')]).toEqual(['randread', '64k']);

    const series = importMetrics(
      readFileSync(new URL('../../../fixtures/cloudwatch/console_volume_sum_5min.csv', import.meta.url)),
    );
    const cw = series.ok ? profileFromSeries(series.value) : null;
    const cwJob = job(cw!.ok ? cw!.value : seedProfile);
    // max: 12,000 reads of 64 KiB + 5,000 writes of 32 KiB → 71% reads.
    expect(optionsOf(cwJob.jobFile).get('rwmixread')).toBe('71');
    expect(optionsOf(cwJob.jobFile).get('bs')).toBe('64k,32k');
    expect(cwJob.jobFile).toContain('[vol-0a1b2c3d4e5f60718]');
  });
});

describe("generateFioJob's steps", () => {
  const sysbench = parseSysbench(
    readFileSync(
      new URL('../../../fixtures/sysbench/k_rndrd_64k_direct_histogram.txt', import.meta.url),
      'utf8',
    ),
  );
  const sysbenchProfile = sysbench.ok ? profileFromSysbench(sysbench.value) : null;
  if (!sysbenchProfile?.ok) throw new Error('fixture k_rndrd_64k_direct_histogram.txt did not parse');
  const readOnly = publishedProfile({ readMiBps: 250, readIops: 16000, writeMiBps: 0, writeIops: 0 });
  const writeOnlySeq = publishedProfile({
    readMiBps: 0,
    readIops: 0,
    writeMiBps: 50,
    writeIops: 400,
    benchmark: { sequential: true },
  });
  const high = publishedProfile({ readMiBps: 625, readIops: 40000, writeMiBps: 625, writeIops: 40000 });
  const paced = { latencyMs: 1, maxJobs: 4, pace: true };

  it.each([
    ['seed randrw (domain.md §6)', seedProfile, { rw: 'randrw', rwmixread: 34 }],
    ['sysbench random reads', sysbenchProfile.value, { rw: 'randread', rwmixread: null }],
    ['typed-in reads only', readOnly, { rw: 'randread', rwmixread: null }],
    ['sequential writes only', writeOnlySeq, { rw: 'write', rwmixread: null }],
    // 1 read in 10,000 I/Os is still a mix: the share stays ≥ 1% so fio issues the reads.
    [
      'a trace of reads',
      publishedProfile({ readMiBps: 0.01, readIops: 1, writeMiBps: 100, writeIops: 9999 }),
      { rw: 'randrw', rwmixread: 1 },
    ],
  ] as const)('chooseAccessPattern: %s', (_name, profile, expected) => {
    expect(chooseAccessPattern(profile)).toEqual(expected);
  });

  it.each([
    ['seed: both mixed → one bssplit, read first', seedProfile, 'bssplit=32k/2:64k/98,64k/99:128k/1'],
    ['sysbench 64 KiB reads → bs for the read direction only', sysbenchProfile.value, 'bs=64k'],
    ['both single sizes → bs=R,W', high, 'bs=16k,16k'],
    ['writes only', writeOnlySeq, 'bs=128k'],
  ] as const)('chooseBlockSizes: %s', (_name, profile, option) => {
    const blocks = chooseBlockSizes(profile);
    expect(blocks.option).toBe(option);
    // A direction without I/O gets no sizes, whatever its block size says.
    expect(blocks.read.split === null).toBe(profile.read.iops === 0);
    expect(blocks.write.split === null).toBe(profile.write.iops === 0);
  });

  it.each([
    // 9,061 IOPS × 1 ms = 9.06, doubled = 19 in flight: one job, the rate is the profile's.
    [
      'seed, paced',
      seedProfile,
      paced,
      { outstanding: 19, numjobs: 1, iodepth: 19, rateIopsPerJob: { read: 3043, write: 6018 } },
    ],
    // Unpaced: exactly Little's law, no rate.
    [
      'seed, unpaced',
      seedProfile,
      { ...paced, pace: false },
      { outstanding: 10, numjobs: 1, iodepth: 10, rateIopsPerJob: null },
    ],
    // 80,000 IOPS: 160 in flight, > 25,000 IOPS per thread → 4 jobs of 40, the rate split per job.
    [
      '80,000 IOPS',
      high,
      paced,
      { outstanding: 160, numjobs: 4, iodepth: 40, rateIopsPerJob: { read: 10000, write: 10000 } },
    ],
    // Two jobs allowed: the queue per job goes above 64 rather than dropping the load.
    [
      '80,000 IOPS on 2 jobs',
      high,
      { ...paced, maxJobs: 2 },
      { outstanding: 160, numjobs: 2, iodepth: 80, rateIopsPerJob: { read: 20000, write: 20000 } },
    ],
    // A direction without I/O gets no rate.
    [
      'reads only',
      readOnly,
      paced,
      { outstanding: 32, numjobs: 1, iodepth: 32, rateIopsPerJob: { read: 16000, write: null } },
    ],
  ] as const)('sizeQueue: %s', (_name, profile, options, expected) => {
    expect(sizeQueue(profile, options)).toMatchObject(expected);
  });

  it.each([
    [{}, { engine: 'libaio', runtimeSec: 1800, rampTimeSec: 60, latencyMs: 1, maxJobs: 4, pace: true }],
    // maxJobs is a count of threads: whole, at least one.
    [{ maxJobs: 2.7 }, { maxJobs: 2 }],
    [{ maxJobs: 0 }, { maxJobs: 1 }],
    [
      { runtimeSec: 1, rampTimeSec: 0 },
      { runtimeSec: 1, rampTimeSec: 0 },
    ],
  ] as const)('readJobOptions fills in %j', (options, expected) => {
    const r = readJobOptions(options);
    expect(r.ok && r.value).toMatchObject(expected);
  });

  it.each([
    [{ runtimeSec: 0.5 }, 'runtime'],
    [{ rampTimeSec: -1 }, 'rampTime'],
    [{ assumedLatencyMs: 0 }, 'assumedLatencyMs'],
    [{ runtimeSec: Number.NaN }, 'runtime'],
    [{ sizeBytes: 4095 }, 'size'],
  ] as const)('readJobOptions refuses %j, naming %s', (options, path) => {
    const r = readJobOptions(options);
    expect(!r.ok && r.error).toMatchObject({ code: 'bad_option', path });
  });
});
