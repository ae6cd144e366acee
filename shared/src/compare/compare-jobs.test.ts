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

  it('none when the jobs are the same', () => {
    expect(jobsDifferWarning([], { reference: 'a', candidate: 'b' })).toBeNull();
  });
});
