import { describe, expect, it } from 'vitest';
import {
  compareJobSettings,
  describeJobSettings,
  formatExactSize,
  jobSettingsOf,
  jobsDifferWarning,
  type ComparedJobSettings,
  type ComparedSetting,
  type RunJobSettings,
} from './compare-jobs.ts';
import {
  MIX33_GROUPED,
  MIX33_PERJOB,
  NO_OPTIONS,
  NVME_RANDWRITE_4K,
  RATE_2M,
  RATE_IOPS_500,
  RATE_MIN_256K,
  SYNCED_VERIFIED,
  UNPACED_4K,
  fixtureReport,
} from '../test-support/fio-fixtures.ts';

const settingsOf = (name: string): RunJobSettings => jobSettingsOf(fixtureReport(name));

/** 4k randwrite, 1 job × iodepth 16, libaio, 4 s. */
const RANDWRITE_4K = 'generated/i2_randwrite_4k_clat_percentiles_off.json';
/** Two sections: 256k sequential reads at iodepth 8, then 8k random writes at iodepth 4. */
const TWO_SECTIONS = 'generated/h1_jobfile_two_sections_stonewall.json';

describe('jobSettingsOf: the settings of a run’s jobs, each distinct set once', () => {
  it.each([
    [MIX33_GROUPED, 1],
    // Four entries of one section (numjobs=4 without group_reporting) are one job.
    [MIX33_PERJOB, 1],
    [NVME_RANDWRITE_4K, 1],
    [TWO_SECTIONS, 2],
  ])('%s → %i', (file, count) => {
    expect(settingsOf(file)).toHaveLength(count);
  });

  it('reads a report once: the same report gives the same settings back, another equal report its own', () => {
    const report = fixtureReport(TWO_SECTIONS);
    const first = jobSettingsOf(report);
    expect(jobSettingsOf(report)).toBe(first);
    const again = jobSettingsOf(fixtureReport(TWO_SECTIONS));
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});

describe('describeJobSettings: what fio ran with, as people read it', () => {
  it.each([
    [
      MIX33_GROUPED,
      {
        bs: 'not set',
        bsrange: 'read 4 KiB–16 KiB, write 64 KiB',
        bssplit: 'not set',
        rw: 'randrw',
        rwmixread: '33%',
        iodepth: '16',
        numjobs: '4',
        direct: '1 (O_DIRECT)',
        ioengine: 'libaio',
        runtime: '10 s',
        rate: 'no cap',
        rate_iops: 'no cap',
        rate_min: 'none',
        thinktime: 'none',
        fsync: 'never',
        fdatasync: 'never',
        sync: 'none',
        verify: 'none',
        size: '64 MiB',
        filesize: 'not set',
      },
    ],
    [
      NVME_RANDWRITE_4K,
      {
        bs: '4 KiB',
        bsrange: 'not set',
        bssplit: 'not set',
        rw: 'randwrite',
        // fio prints rwmixread=… for every job; a randwrite does not mix.
        rwmixread: 'n/a',
        iodepth: '4',
        numjobs: '16',
        direct: '1 (O_DIRECT)',
        ioengine: 'io_uring',
        runtime: '60 s',
        rate: 'no cap',
        rate_iops: 'no cap',
        rate_min: 'none',
        thinktime: 'none',
        fsync: 'never',
        fdatasync: 'never',
        sync: 'none',
        verify: 'none',
        size: 'not set',
        filesize: 'not set',
      },
    ],
    [
      TWO_SECTIONS,
      {
        bs: '256 KiB | 8 KiB',
        bsrange: 'not set',
        bssplit: 'not set',
        rw: 'read | randwrite',
        rwmixread: 'n/a',
        iodepth: '8 | 4',
        // Not in the file: fio's default.
        numjobs: '1',
        direct: '1 (O_DIRECT)',
        ioengine: 'libaio',
        runtime: '4 s',
        // size=128M in the file's global options.
        rate: 'no cap',
        rate_iops: 'no cap',
        rate_min: 'none',
        thinktime: 'none',
        fsync: 'never',
        fdatasync: 'never',
        sync: 'none',
        verify: 'none',
        size: '128 MiB',
        filesize: 'not set',
      },
    ],
    [
      NO_OPTIONS,
      {
        bs: 'not recorded',
        bsrange: 'not recorded',
        bssplit: 'not recorded',
        rw: 'not recorded',
        rwmixread: 'not recorded',
        iodepth: 'not recorded',
        numjobs: 'not recorded',
        direct: 'not recorded',
        ioengine: 'not recorded',
        runtime: 'not recorded',
        rate: 'not recorded',
        rate_iops: 'not recorded',
        rate_min: 'not recorded',
        thinktime: 'not recorded',
        fsync: 'not recorded',
        fdatasync: 'not recorded',
        sync: 'not recorded',
        verify: 'not recorded',
        size: 'not recorded',
        filesize: 'not recorded',
      },
    ],
  ])('%s', (file, expected) => {
    const described = Object.fromEntries(
      describeJobSettings(settingsOf(file)).map((d) => [d.setting, d.value]),
    );
    expect(described).toEqual(expected);
  });

  it.each([
    [4096, '4 KiB'],
    [65536, '64 KiB'],
    [1024 ** 2, '1 MiB'],
    [3 * 1024 ** 3, '3 GiB'],
    // kb_base=1000 or bs=4KiB (4,000 bytes in fio's compatibility mode): not a whole KiB.
    [4000, '4000 B'],
    [512, '512 B'],
  ])('formatExactSize(%i) = %s', (bytes, text) => {
    expect(formatExactSize(bytes)).toBe(text);
  });
});

/** A run's settings with some values changed: for the cases no fixture has (same job, other runtime). */
const NO_RANGE = { read: null, write: null, trim: null };
const withSettings = (run: RunJobSettings, change: Partial<ComparedJobSettings>): RunJobSettings =>
  run.map((job) => ({ ...job, ...change }));

describe('compareJobSettings: each setting that differs, with both values', () => {
  it.each([
    ['the same job, grouped vs per job', MIX33_GROUPED, MIX33_PERJOB, []],
    ['a file against itself', NVME_RANDWRITE_4K, NVME_RANDWRITE_4K, []],
    [
      '4k randwrite (NVMe) vs the bsrange 33 % mix (issue #11)',
      NVME_RANDWRITE_4K,
      MIX33_GROUPED,
      [
        ['bs', '4 KiB', 'not set'],
        ['bsrange', 'not set', 'read 4 KiB–16 KiB, write 64 KiB'],
        ['rw', 'randwrite', 'randrw'],
        ['rwmixread', 'n/a', '33%'],
        ['iodepth', '4', '16'],
        ['numjobs', '16', '4'],
        ['ioengine', 'io_uring', 'libaio'],
        ['runtime', '60 s', '10 s'],
        // The NVMe run covered the whole device, the mix a 64 MiB file.
        ['size', 'not set', '64 MiB'],
      ],
    ],
    [
      'two 4k randwrites at other depths, engines and runtimes',
      NVME_RANDWRITE_4K,
      RANDWRITE_4K,
      [
        ['iodepth', '4', '16'],
        ['numjobs', '16', '1'],
        ['ioengine', 'io_uring', 'libaio'],
        ['runtime', '60 s', '4 s'],
        ['size', 'not set', '128 MiB'],
      ],
    ],
    [
      'a two-section job file against one of its sections',
      TWO_SECTIONS,
      RANDWRITE_4K,
      [
        ['bs', '256 KiB | 8 KiB', '4 KiB'],
        ['rw', 'read | randwrite', 'randwrite'],
        ['iodepth', '8 | 4', '16'],
      ],
    ],
    // fio 2.1.4 wrote no options: nothing can be shown to differ.
    ['a file without options', NO_OPTIONS, MIX33_GROUPED, []],
    // One 4k randwrite job run as is (22,130 IOPS) and with the settings that pace it, sync it,
    // verify it or shrink its data (fixtures/fio/settings): each is another test.
    [
      'the job capped at rate_iops=500 with thinktime=100 (500 IOPS: the cap, not the disk)',
      UNPACED_4K,
      RATE_IOPS_500,
      [
        ['rate_iops', 'no cap', '500 IOPS'],
        // A bare thinktime is microseconds (fio HOWTO), unlike runtime's seconds.
        ['thinktime', 'none', '100 µs'],
      ],
    ],
    [
      'the job with fdatasync=8, sync=dsync, verify=crc32c on 16 MiB',
      UNPACED_4K,
      SYNCED_VERIFIED,
      [
        ['fdatasync', 'never', 'every 8 writes'],
        ['sync', 'none', 'dsync (O_DSYNC)'],
        ['verify', 'none', 'crc32c'],
        ['size', '64 MiB', '16 MiB'],
      ],
    ],
    [
      'the job capped at rate=2m on a 32 MiB file',
      UNPACED_4K,
      RATE_2M,
      [
        ['rate', 'no cap', '2 MiB/s'],
        ['size', '64 MiB', '32 MiB'],
        ['filesize', 'not set', '32 MiB'],
      ],
    ],
    ['the job with rate_min=256k', UNPACED_4K, RATE_MIN_256K, [['rate_min', 'none', '256 KiB/s']]],
    // fsync=1 (fixture l: buffered psync) against none.
    [
      'an fsync after every write against none',
      'generated/d_randwrite_16k_psync_timebased5s.json',
      'generated/l_randwrite_4k_psync_fsync1_sync_section.json',
      [
        ['bs', '16 KiB', '4 KiB'],
        ['direct', '1 (O_DIRECT)', '0 (buffered)'],
        ['runtime', '5 s', '4 s'],
        ['fsync', 'never', 'every write'],
        ['size', '128 MiB', '32 MiB'],
      ],
    ],
  ])('%s', (_, reference, candidate, expected) => {
    const differences = compareJobSettings(settingsOf(reference), settingsOf(candidate));
    expect(differences.map((d) => [d.setting, d.reference, d.candidate])).toEqual(expected);
  });

  it.each([
    // Runtimes within 10 % of the longer one are the same test…
    [60, 60, []],
    [60, 65, []],
    [600, 660, []],
    // …beyond, another one (burst credits and windows run out in the longer run).
    [60, 70, ['runtime']],
    [10, 600, ['runtime']],
    [60, null, ['runtime']],
  ])('runtime %s s vs %s s', (a, b, expected) => {
    const run = settingsOf(MIX33_GROUPED);
    const differences = compareJobSettings(
      withSettings(run, { runtimeSec: a }),
      withSettings(run, { runtimeSec: b }),
    );
    expect(differences.map((d) => d.setting)).toEqual(expected);
  });

  it.each<[Partial<ComparedJobSettings>, Partial<ComparedJobSettings>, ComparedSetting[]]>([
    // fio's defaults equal the same value written out: bs=4k, iodepth=1, numjobs=1, direct=0, rw=read.
    [
      {
        blockSizeBytes: { read: 4096, write: 4096, trim: 4096 },
        blockSizeRangeBytes: NO_RANGE,
        blockSizeDefaulted: false,
      },
      {
        blockSizeBytes: { read: null, write: null, trim: null },
        blockSizeRangeBytes: NO_RANGE,
        blockSizeDefaulted: true,
      },
      [],
    ],
    // `bs=,8k`: reads at fio's default.
    [
      { blockSizeBytes: { read: 4096, write: 8192, trim: 8192 }, blockSizeRangeBytes: NO_RANGE },
      { blockSizeBytes: { read: null, write: 8192, trim: 8192 }, blockSizeRangeBytes: NO_RANGE },
      [],
    ],
    [{ iodepth: 1, numjobs: 1 }, { iodepth: null, numjobs: null }, []],
    [{ direct: false }, { direct: null }, []],
    [{ direct: true }, { direct: null }, ['direct']],
    [{ rw: 'rw' }, { rw: 'readwrite' }, []],
    [{ rw: 'randrw', rwmixreadPercent: 50 }, { rw: 'randrw', rwmixreadPercent: null }, []],
    [{ rw: 'randrw', rwmixreadPercent: 70 }, { rw: 'randrw', rwmixreadPercent: 30 }, ['rwmixread']],
    // rwmixread is printed for every job; it means nothing without a mixed pattern.
    [{ rw: 'randread', rwmixreadPercent: 95 }, { rw: 'randread', rwmixreadPercent: 50 }, []],
    [
      {
        blockSizeSplit: {
          read: null,
          write: [
            { blockSizeBytes: 4096, percent: 10 },
            { blockSizeBytes: 65536, percent: null },
          ],
          trim: null,
        },
      },
      {
        blockSizeSplit: {
          read: null,
          write: [
            { blockSizeBytes: 4096, percent: 50 },
            { blockSizeBytes: 65536, percent: null },
          ],
          trim: null,
        },
      },
      ['bssplit'],
    ],
  ])('%j vs %j', (a, b, expected) => {
    const run = settingsOf(MIX33_GROUPED);
    const differences = compareJobSettings(withSettings(run, a), withSettings(run, b));
    expect(differences.map((d) => d.setting)).toEqual(expected);
  });
});

describe('option settings: equal values written differently read the same', () => {
  const withOptions = (options: Record<string, string>): RunJobSettings => {
    const report = fixtureReport(UNPACED_4K);
    return jobSettingsOf({
      ...report,
      jobs: report.jobs.map((j) => ({ ...j, options: { ...j.options, ...options } })),
    });
  };
  it.each<[Record<string, string>, Record<string, string>, ComparedSetting[]]>([
    [{ rate: '2m' }, { rate: '2048k' }, []],
    [{ rate: '0' }, {}, []],
    [{ rate_iops: '500' }, { rate_iops: '500,500' }, []],
    [{ rate_iops: '500' }, { rate_iops: '500,' }, ['rate_iops']],
    [{ thinktime: '1000' }, { thinktime: '1ms' }, []],
    [{ thinktime: '0' }, {}, []],
    [{ fsync: '0' }, {}, []],
    [{ fsync: '1' }, { fdatasync: '1' }, ['fsync', 'fdatasync']],
    [{ sync: '1' }, { sync: 'sync' }, []],
    [{ sync: '0' }, {}, []],
    [{ verify: '0' }, {}, []],
    [{ verify: 'md5' }, { verify: 'crc32c' }, ['verify']],
    [{ size: '100%' }, {}, ['size']],
    [{ filesize: '1g-2g' }, { filesize: '1g' }, ['filesize']],
    // A value this reading does not understand still shows as written, so it still differs.
    [{ thinktime: '5min' }, {}, ['thinktime']],
  ])('%j vs %j', (a, b, expected) => {
    const differences = compareJobSettings(withOptions(a), withOptions(b));
    expect(differences.map((d) => d.setting)).toEqual(expected);
  });

  it('a run stored before these were compared cannot be shown to differ in them', () => {
    const stored = settingsOf(UNPACED_4K).map(({ optionSettings: _, ...job }) => job);
    expect(compareJobSettings(stored, settingsOf(RATE_IOPS_500))).toEqual([]);
    expect(describeJobSettings(stored).find((d) => d.setting === 'rate_iops')?.value).toBe('not recorded');
  });
});

describe('jobsDifferWarning', () => {
  it('names each differing setting with both values, under the stable code jobs_differ', () => {
    const differences = compareJobSettings(settingsOf(NVME_RANDWRITE_4K), settingsOf(MIX33_GROUPED));
    const warning = jobsDifferWarning(differences, { reference: 'NVMe run', candidate: 'EBS run' })!;
    expect(warning.code).toBe('jobs_differ');
    expect(warning.message).toContain('NVMe run and EBS run ran different fio jobs');
    expect(warning.message).toContain('bs 4 KiB vs not set');
    expect(warning.message).toContain('rw randwrite vs randrw');
    expect(warning.message).toContain('rwmixread n/a vs 33%');
    expect(warning.message).toContain('runtime 60 s vs 10 s');
    expect(warning.message).toContain('no verdict is given');
  });

  it('names a rate cap: 22,130 IOPS against 500 IOPS capped by rate_iops is no verdict on the disk', () => {
    const differences = compareJobSettings(settingsOf(UNPACED_4K), settingsOf(RATE_IOPS_500));
    const warning = jobsDifferWarning(differences, { reference: 'NVMe run', candidate: 'EBS run' })!;
    expect(warning.message).toContain('rate_iops no cap vs 500 IOPS; thinktime none vs 100 µs');
  });

  it('none when the jobs are the same', () => {
    expect(jobsDifferWarning([], { reference: 'a', candidate: 'b' })).toBeNull();
  });
});
