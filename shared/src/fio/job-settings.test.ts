import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseFioBool,
  parseFioRange,
  parseFioSeconds,
  parseFioSize,
  parseFioSplit,
  perDirection,
  readJobSettings,
} from './job-settings.ts';
import { parseFio } from './parse-fio.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures/fio');
const reportOf = (name: string) => {
  const r = parseFio(readFileSync(join(FIXTURES, name)));
  if (!r.ok) throw new Error(r.error.message);
  return r.report;
};

describe('parseFioSize (fio parse.c __get_mult_bytes)', () => {
  it.each([
    ['4096', 1024, 4096],
    ['4k', 1024, 4096],
    ['4K', 1024, 4096],
    ['4kb', 1024, 4096],
    ['64M', 1024, 64 * 1024 ** 2],
    ['1g', 1024, 1024 ** 3],
    ['2t', 1024, 2 * 1024 ** 4],
    ['0x1000', 1024, 4096],
    ['512b', 1024, 512],
    // Compatibility mode (default kb_base=1024): the IEC suffixes mean powers of 1000 (!).
    ['4KiB', 1024, 4000],
    ['1MiB', 1024, 1_000_000],
    // fio matches suffixes by their first letters: "Mi" is "m" (public fixture fioplot raid5: size=50000Mi).
    ['50000Mi', 1024, 50000 * 1024 ** 2],
    // kb_base=1000: both flip back to what they say.
    ['4k', 1000, 4000],
    ['4KiB', 1000, 4096],
    ['4GB', 1000, 4e9],
  ] as const)('%s with kb_base=%i is %i bytes', (text, kbBase, bytes) => {
    expect(parseFioSize(text, kbBase)).toBe(bytes);
  });

  it.each([['100%'], ['1.5k'], ['4x'], ['k'], [''], ['-4k'], ['9999999999999p']])(
    '%j is not a size → null',
    (text) => {
      expect(parseFioSize(text)).toBeNull();
    },
  );
});

describe('parseFioSeconds (fio get_mult_time; runtime and ramp_time are seconds when bare)', () => {
  it.each([
    ['10', 10],
    ['60s', 60],
    ['5m', 300],
    ['1h', 3600],
    ['2d', 172800],
    ['500ms', 0.5],
    ['250msec', 0.25],
    ['100us', 0.0001],
  ])('%s is %f s', (text, seconds) => {
    expect(parseFioSeconds(text)).toBe(seconds);
  });

  it.each([['5min'], ['1.5h'], ['soon'], ['']])(
    '%j is not understood → null (fio would read "5min" as 5 µs)',
    (text) => {
      expect(parseFioSeconds(text)).toBeNull();
    },
  );
});

describe('per-direction lists (read,write,trim — HOWTO blocksize)', () => {
  const size = (v: string) => parseFioSize(v);
  it.each([
    ['4k', { read: 4096, write: 4096, trim: 4096 }],
    ['4k,64k', { read: 4096, write: 65536, trim: 65536 }],
    ['8k,32k,', { read: 8192, write: 32768, trim: null }],
    [',8k', { read: null, write: 8192, trim: 8192 }],
    [',8k,', { read: null, write: 8192, trim: null }],
    ['4k,8k,16k', { read: 4096, write: 8192, trim: 16384 }],
  ])('bs=%s', (text, expected) => {
    expect(perDirection(text, size)).toEqual(expected);
  });

  it('bsrange=4k-16k,64k-64k (fixture a) gives a range for reads and one size for writes and trims', () => {
    expect(perDirection('4k-16k,64k-64k', (v) => parseFioRange(v))).toEqual({
      read: { minBytes: 4096, maxBytes: 16384 },
      write: { minBytes: 65536, maxBytes: 65536 },
      trim: { minBytes: 65536, maxBytes: 65536 },
    });
    expect(parseFioRange('16k:4k')).toEqual({ minBytes: 4096, maxBytes: 16384 });
  });

  it('bssplit=4k/10:64k/50:1m/ keeps each size with its share (an empty share is spread by fio)', () => {
    expect(parseFioSplit('4k/10:64k/50:1m/')).toEqual([
      { blockSizeBytes: 4096, percent: 10 },
      { blockSizeBytes: 65536, percent: 50 },
      { blockSizeBytes: 1048576, percent: null },
    ]);
    expect(parseFioSplit('4k/120')).toBeNull();
  });

  it('refuses more than three directions or a bad value', () => {
    expect(perDirection('4k,4k,4k,4k', size)).toBeNull();
    expect(perDirection('4k,lots', size)).toBeNull();
  });
});

describe('parseFioBool', () => {
  it.each([
    ['1', true],
    ['0', false],
    ['', true],
    ['2', true],
    ['yes', null],
  ])('%j → %s', (text, value) => {
    expect(parseFioBool(text)).toBe(value);
  });
});

describe('readJobSettings on real job options', () => {
  it('fixture a: bsrange 4k-16k,64k-64k, randrw 33 % reads, QD16, 4 jobs, direct, libaio, 10 s', () => {
    expect(
      reportOf('generated/a_randrw_bsrange4k-16k_64k_mix33_nj4_qd16_grouped.json').jobs[0]!.settings,
    ).toEqual({
      rw: 'randrw',
      sequential: false,
      blockSizeBytes: { read: null, write: null, trim: null },
      blockSizeRangeBytes: {
        read: { minBytes: 4096, maxBytes: 16384 },
        write: { minBytes: 65536, maxBytes: 65536 },
        trim: { minBytes: 65536, maxBytes: 65536 },
      },
      blockSizeSplit: { read: null, write: null, trim: null },
      blockSizeDefaulted: false,
      rwmixreadPercent: 33,
      iodepth: 16,
      numjobs: 4,
      direct: true,
      ioengine: 'libaio',
      synchronousEngine: false,
      runtimeSec: 10,
      // --time_based was given, but fio prints value-less flags nowhere: unknown, not false.
      timeBased: null,
      rampTimeSec: null,
      fsync: null,
      sizeBytes: 64 * 1024 ** 2,
      kbBase: 1024,
    });
  });

  it('fixture n: group A reads 4k and writes 64k (bs=4k,64k); group B reads 64k sequentially', () => {
    const [a, b] = reportOf('generated/n_two_groups_numjobs2_group_reporting.json').jobs;
    expect(a!.settings.blockSizeBytes).toEqual({ read: 4096, write: 65536, trim: 65536 });
    expect(a!.settings).toMatchObject({
      rw: 'randrw',
      sequential: false,
      rwmixreadPercent: 60,
      iodepth: 8,
      numjobs: 2,
    });
    expect(b!.settings).toMatchObject({
      rw: 'read',
      sequential: true,
      iodepth: 4,
      blockSizeDefaulted: false,
    });
    expect(b!.settings.blockSizeBytes.read).toBe(65536);
  });

  it.each([
    [
      'generated/l_randwrite_4k_psync_fsync1_sync_section.json',
      { fsync: 1, synchronousEngine: true, direct: null },
    ],
    ['generated/j_randread_8k_timebased_ramp3s.json', { rampTimeSec: 3, runtimeSec: 6 }],
    [
      'generated/h3_randread_psync_iodepth16_warning_before_json.json',
      { iodepth: 16, synchronousEngine: true },
    ],
    [
      'public/samyaple_fio-3.33_randread_nj2_perjob.json',
      { rw: 'randread', rwmixreadPercent: 95, ioengine: 'io_uring' },
    ],
    // size=4GB: with fio's default kb_base=1024, "GB" is 1024³.
    ['public/arau_fio-3.12_randrw50_32k.json', { sizeBytes: 4 * 1024 ** 3, blockSizeDefaulted: false }],
    ['public/fioplot_fio-3.16_raid5_randrw_qd8_nj16_gr.json', { sizeBytes: 50000 * 1024 ** 2, numjobs: 16 }],
  ])('%s', (name, expected) => {
    expect(reportOf(name).jobs[0]!.settings).toMatchObject(expected);
  });

  it('16 per-job entries with the same options (public/samyaple nj16): equal settings, not shared objects', () => {
    const jobs = reportOf('public/samyaple_fio-3.33_randwrite_nj16_perjob.json').jobs;
    expect(jobs).toHaveLength(16);
    for (const job of jobs.slice(1)) {
      expect(job.settings).toEqual(jobs[0]!.settings);
      expect(job.settings).not.toBe(jobs[0]!.settings);
      expect(job.settings.blockSizeBytes).not.toBe(jobs[0]!.settings.blockSizeBytes);
    }
    expect(jobs[0]!.settings).toMatchObject({
      rw: 'randwrite',
      iodepth: 4,
      numjobs: 16,
      ioengine: 'io_uring',
    });
  });

  it('fio 2.1.4 (no options in the file): everything unknown, blockSizeDefaulted null', () => {
    const { settings } = reportOf('public/pkb_fio-2.1.4_four_stonewall_groups.json').jobs[0]!;
    expect(settings).toMatchObject({
      rw: null,
      iodepth: null,
      direct: null,
      blockSizeDefaulted: null,
      kbBase: 1024,
    });
  });

  it('rwmixwrite alone gives 100 − rwmixwrite; a job option named __proto__ is only data', () => {
    const options = JSON.parse('{"rwmixwrite":"30","__proto__":"x","bs":"1m"}') as Record<string, string>;
    const { settings, warnings } = readJobSettings(options, 'jobs.0');
    expect(settings.rwmixreadPercent).toBe(70);
    expect(settings.blockSizeBytes.read).toBe(1048576);
    expect(warnings).toEqual([]);
  });

  it('warns about a value it cannot read, naming the option', () => {
    const { settings, warnings } = readJobSettings({ bs: '4q', runtime: '5min', direct: 'yes' }, 'jobs.2');
    expect(settings.blockSizeBytes.read).toBeNull();
    expect(warnings.map((w) => w.subject)).toEqual([
      'jobs.2.options.bs',
      'jobs.2.options.direct',
      'jobs.2.options.runtime',
    ]);
    expect(warnings.every((w) => w.code === 'option_not_understood')).toBe(true);
  });
});
