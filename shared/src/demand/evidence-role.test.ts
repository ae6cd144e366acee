import { describe, expect, it } from 'vitest';
import { jobSettingsOf } from '../compare/compare-jobs.ts';
import { profileFromFio } from '../profile/from-fio.ts';
import {
  fixtureReport,
  MIX33_GROUPED,
  MIX33_PERJOB,
  NO_OPTIONS,
  NVME_RANDWRITE_4K,
  RATE_2M,
  RATE_IOPS_500,
  RATE_MIN_256K,
  SYNCED_VERIFIED,
  UNPACED_4K,
} from '../test-support/fio-fixtures.ts';
import {
  chooseDemandSource,
  deliveredOf,
  deliveredRatio,
  describeDemandSource,
  fioRateCaps,
  roleOfEvidence,
  roleOfFioRun,
  roleOfJobSettings,
  type EvidenceEntry,
} from './evidence-role.ts';

describe('roleOfFioRun: a rate-limited run replays demand, a saturated run measures capacity', () => {
  it.each([
    // file, role, caps found
    [UNPACED_4K, 'capacity', []],
    [RATE_IOPS_500, 'demand', ['rate_iops=500']],
    [RATE_2M, 'demand', ['rate=2m']],
    // rate_min is a floor fio aborts below, not a cap: the run still went as fast as it could.
    [RATE_MIN_256K, 'capacity', []],
    [SYNCED_VERIFIED, 'capacity', []],
    [MIX33_GROUPED, 'capacity', []],
    [MIX33_PERJOB, 'capacity', []],
    [NVME_RANDWRITE_4K, 'capacity', []],
    // fio 2.1.4 records no options: nothing says it was capped.
    [NO_OPTIONS, 'capacity', []],
  ] as const)('%s → %s', (file, role, caps) => {
    const report = fixtureReport(file);
    expect(fioRateCaps(report).map((c) => `${c.setting}=${c.text}`)).toEqual(caps);
    const verdict = roleOfFioRun(report, { replaysLoad: false });
    expect(verdict.role).toBe(role);
    if (caps.length > 0) expect(verdict.why).toContain(caps[0]);
    // A stored run (a share link's) keeps only its job settings: they give the same role.
    const stored = roleOfJobSettings(jobSettingsOf(report));
    expect(stored.role).toBe(role);
    if (caps.length > 0) expect(stored.why).toMatch(/^rate-limited \(rate(_iops)?=/);
  });

  it('a stored run without its fio options (an older link) is not taken as a workload’s need', () => {
    expect(roleOfJobSettings(undefined).role).toBe('capacity');
    const settings = jobSettingsOf(fixtureReport(RATE_IOPS_500)).map(
      ({ optionSettings: _, rateCaps: __, ...j }) => j,
    );
    expect(roleOfJobSettings(settings)).toEqual({
      role: 'capacity',
      why: expect.stringMatching(/^its fio options were not kept with this link/),
    });
    expect(roleOfJobSettings(jobSettingsOf(fixtureReport(RATE_IOPS_500))).why).toBe(
      'rate-limited (rate_iops=500 IOPS): it replays a load',
    );
  });

  it('JSON written before rate caps were kept (a cached comparison) still reads a capped run as demand', () => {
    // The settings as an older server sent them: the rate as option text, no rateCaps.
    const settings = jobSettingsOf(fixtureReport(RATE_IOPS_500)).map(({ rateCaps: _, ...j }) => j);
    expect(settings[0]!.optionSettings!.rate_iops).toBeDefined();
    expect(roleOfJobSettings(settings)).toEqual({
      role: 'demand',
      why: 'rate-limited (rate_iops=500 IOPS): it replays a load',
    });
  });

  it('a stored run’s role is read from its rate caps as numbers, never from the settings’ display text', () => {
    const [job] = jobSettingsOf(fixtureReport(RATE_IOPS_500));
    expect(job!.rateCaps).toEqual({ bytesPerSec: null, iops: { read: 500, write: 500, trim: 500 } });
    // The text alone says nothing: a job whose caps are none is capacity, whatever its text reads.
    const uncapped = { ...job!, rateCaps: { bytesPerSec: null, iops: null } };
    expect(roleOfJobSettings([uncapped]).role).toBe('capacity');
    // And a cap is a cap however the text was written (here: a text that reads "no cap").
    const capped = {
      ...job!,
      optionSettings: { ...job!.optionSettings!, rate_iops: 'no cap' },
      rateCaps: { bytesPerSec: { read: null, write: 1_048_576, trim: 1_048_576 }, iops: null },
    };
    expect(roleOfJobSettings([capped])).toEqual({
      role: 'demand',
      why: 'rate-limited (rate=read no cap, write 1 MiB/s): it replays a load',
    });
  });

  it('the user can say a saturated-looking run replays their load', () => {
    const verdict = roleOfFioRun(fixtureReport(UNPACED_4K), { replaysLoad: true });
    expect(verdict).toEqual({ role: 'demand', why: 'marked as replaying the workload’s load' });
  });

  it('a rate of 0 is no cap (fio: 0 or absent means unlimited)', () => {
    const report = fixtureReport(UNPACED_4K);
    const zeroed = {
      ...report,
      jobs: report.jobs.map((j) => ({ ...j, options: { ...j.options, rate_iops: '0', rate: '0,0' } })),
    };
    expect(fioRateCaps(zeroed)).toEqual([]);
    // A cap on writes only ("rate=,1m": reads uncapped) is a cap.
    const writesOnly = {
      ...report,
      jobs: report.jobs.map((j) => ({ ...j, options: { ...j.options, rate: ',1m' } })),
    };
    expect(roleOfFioRun(writesOnly, { replaysLoad: false }).role).toBe('demand');
  });
});

describe('roleOfEvidence', () => {
  it.each([
    [{ kind: 'metrics' }, 'demand'],
    [{ kind: 'typed' }, 'demand'],
    [{ kind: 'sysbench' }, 'capacity'],
    [{ kind: 'fio', report: fixtureReport(RATE_IOPS_500), replaysLoad: false }, 'demand'],
    [{ kind: 'fio', report: fixtureReport(NVME_RANDWRITE_4K), replaysLoad: false }, 'capacity'],
  ] as const)('%o → %s', (evidence, role) => {
    expect(roleOfEvidence(evidence).role).toBe(role);
  });
});

describe('chooseDemandSource: the user’s choice, else the newest demand source', () => {
  const nvme: EvidenceEntry = { ref: 'run:nvme', role: 'capacity' };
  const ebs: EvidenceEntry = { ref: 'run:ebs', role: 'capacity' };
  const typed: EvidenceEntry = { ref: 'observed:typed', role: 'demand' };
  const metrics: EvidenceEntry = { ref: 'observed:metrics', role: 'demand' };
  it.each([
    ['two fio runs at saturation: no demand', [nvme, ebs], null, { ref: null, basis: 'none', waiting: null }],
    [
      'a choice of a capacity run is no demand',
      [nvme, ebs],
      'run:nvme',
      { ref: null, basis: 'none', waiting: null },
    ],
    [
      'typed peaks arrive: planned on at once',
      [nvme, ebs, typed],
      null,
      { ref: 'observed:typed', basis: 'newest', waiting: null },
    ],
    [
      'an old choice of a benchmark yields to typed peaks',
      [nvme, ebs, typed],
      'run:nvme',
      { ref: 'observed:typed', basis: 'newest', waiting: null },
    ],
    [
      'then a metrics import: the newest wins while nothing was chosen',
      [nvme, typed, metrics],
      null,
      { ref: 'observed:metrics', basis: 'newest', waiting: null },
    ],
    [
      'the user chose the typed peaks: the import waits to be offered',
      [nvme, typed, metrics],
      'observed:typed',
      { ref: 'observed:typed', basis: 'chosen', waiting: 'observed:metrics' },
    ],
    [
      'the newest, chosen: nothing waits',
      [typed, metrics],
      'observed:metrics',
      { ref: 'observed:metrics', basis: 'chosen', waiting: null },
    ],
  ] as const)('%s', (_name, entries, chosen, expected) => {
    expect(chooseDemandSource(entries, chosen)).toEqual(expected);
  });
});

describe('describeDemandSource names source, statistic and resolution', () => {
  it.each([
    [
      { kind: 'metrics', name: 'db-vol.csv', statistic: 'p99', resolutionSec: 60 },
      'production metrics db-vol.csv: p99 of 1-minute points',
    ],
    [
      { kind: 'metrics', name: 'iostat.txt', statistic: 'max', resolutionSec: 10 },
      'production metrics iostat.txt: maximum of 10-second points',
    ],
    [
      { kind: 'typed', name: 'Grafana peaks' },
      'peaks typed in (Grafana peaks): as read from the dashboard, at its resolution',
    ],
    [
      { kind: 'fio', name: 's2.json', runtimeSec: 3 },
      'fio replay s2.json: the mean rate over the 3-second run',
    ],
  ] as const)('%o', (facts, text) => {
    expect(describeDemandSource(facts)).toBe(text);
  });
});

describe('what two storages delivered, compared', () => {
  it('the unpaced 4 KiB randwrite against the same job capped at 500 IOPS', () => {
    const fast = profileFromFio(fixtureReport(UNPACED_4K));
    const capped = profileFromFio(fixtureReport(RATE_IOPS_500));
    if (!fast.ok || !capped.ok) throw new Error('fixtures plan');
    const a = deliveredOf(capped.value);
    const b = deliveredOf(fast.value);
    // fixtures/fio/settings/README.md: 500 and 22,130 write IOPS.
    expect(Math.round(a.iops)).toBe(500);
    expect(Math.round(b.iops / 10) * 10).toBe(22_130);
    const ratio = deliveredRatio(a, b);
    expect(ratio.iops).toBeGreaterThan(40);
    expect(ratio.iops).toBeLessThan(50);
    expect(deliveredRatio({ iops: 0, bytesPerSec: 0 }, b)).toEqual({ iops: null, bytesPerSec: null });
  });
});
