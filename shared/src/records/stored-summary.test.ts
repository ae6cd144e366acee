import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarizeRun } from '../analysis/summarize-run.ts';
import { jobSettingsOf } from '../compare/compare-jobs.ts';
import { parseFio } from '../fio/parse-fio.ts';
import {
  fixtureReport,
  RATE_2M,
  RATE_IOPS_500,
  RATE_MIN_256K,
  UNPACED_4K,
} from '../test-support/fio-fixtures.ts';
import { bottleneckStateOf } from '../plan/limits.ts';
import { ANALYSIS_VERSION } from '../plan/plan.ts';
import type { ComparisonResult } from './comparison.ts';
import type { RunLabels, RunSummary } from './run.ts';
import { readStoredComparisonResult, readStoredSummary } from './stored-summary.ts';

const FIXTURES = resolve(import.meta.dirname, '../../../fixtures');

/** A summary stored by analysis version 2026.11.1 (fixtures/stored/README.md says how it was made). */
const stored = JSON.parse(readFileSync(resolve(FIXTURES, 'stored/run-summary-2026.11.1.json'), 'utf8')) as {
  analysisVersion: string;
  file: string;
  labels: RunLabels;
  summary: unknown;
};
const storedJson = JSON.stringify(stored.summary);

/** The same upload's summary as analysis version 2026.11.2 stored it (fixtures/stored/README.md). */
const stored2 = JSON.parse(readFileSync(resolve(FIXTURES, 'stored/run-summary-2026.11.2.json'), 'utf8')) as {
  analysisVersion: string;
  file: string;
  labels: RunLabels;
  summary: RunSummary;
};

/** Today's summary of the same upload. */
function summaryToday(): RunSummary {
  const parsed = parseFio(readFileSync(resolve(FIXTURES, stored.file)));
  if (!parsed.ok) throw new Error(parsed.error.message);
  return summarizeRun(parsed.report, stored.labels);
}

/**
 * Every key path of a JSON value (array items as `[]`), minus the percentile keys of latencies,
 * and (in `filled`) the paths holding an object whose keys are listed: a key is missing from a
 * document only where its parent there is an object (`upgrade: null` is a value, not a shape).
 */
function keyPaths(
  value: unknown,
  prefix = '',
  out = { keys: new Set<string>(), filled: new Set<string>(['']) },
): { keys: Set<string>; filled: Set<string> } {
  if (Array.isArray(value)) for (const item of value) keyPaths(item, `${prefix}[]`, out);
  else if (value !== null && typeof value === 'object') {
    out.filled.add(prefix);
    for (const [key, item] of Object.entries(value)) {
      if (/ClatMs$|^percentiles$/.test(key)) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      out.keys.add(path);
      keyPaths(item, path, out);
    }
  }
  return out;
}

const parentOf = (path: string) => path.replace(/\.[^.]+$|^[^.]+$/, '');

function readOk(json: unknown, version: string) {
  const read = readStoredSummary(json, version);
  if (!read.ok) throw new Error(read.error.message);
  return read.value;
}

describe('readStoredSummary: a run summary stored by analysis version 2026.11.1', () => {
  it('is the previous version, stored before today’s fields existed', () => {
    expect(stored.analysisVersion).toBe('2026.11.1');
    expect(ANALYSIS_VERSION).not.toBe('2026.11.1');
    const paths = keyPaths(stored.summary).keys;
    expect(paths.has('plan.profile.access')).toBe(false);
    expect(paths.has('plan.bottleneck.state')).toBe(false);
    expect(paths.has('plan.rightSizing.recommendations[].perVolume')).toBe(false);
  });

  it('comes back in today’s shape: every key today’s analysis of the same upload has', () => {
    const { value, upgradedFrom } = readOk(storedJson, '2026.11.1');
    expect(upgradedFrom).toBe('2026.11.1');
    const today = keyPaths(summaryToday());
    const read = keyPaths(value);
    // What 2026.11.1 could not know stays absent: which instances have local NVMe (the catalog's),
    // and the unmerged I/O counts (2026.11.1 did not merge I/O).
    const unknowable = /instanceStore$|Unmerged$/;
    const missing = [...today.keys].filter(
      (path) => !read.keys.has(path) && read.filled.has(parentOf(path)) && !unknowable.test(path),
    );
    expect(missing).toEqual([]);
  });

  it('fills in what today’s readers assumed, and keeps every stored number', () => {
    const { value } = readOk(storedJson, '2026.11.1');
    const old = stored.summary as RunSummary;
    const plan = value.plan!;
    expect(plan.profile.access).toEqual({ read: 'random', write: 'random', origin: 'assumed' });
    expect(plan.bottleneck).toEqual({
      ...old.plan!.bottleneck,
      state: bottleneckStateOf(old.plan!.bottleneck!),
      sustained: null,
    });
    // 77,896 IOPS asked of a 16,000-IOPS gp3 volume: above the ceiling, so not "pinned" but impossible.
    expect(plan.bottleneck?.state).toBe('impossible');
    const gp3 = plan.rightSizing.recommendations.find((r) => r.type === 'gp3')!;
    expect(gp3).toMatchObject({
      volumeCount: 1,
      perVolume: { sizeGiB: 1000, iops: 18_750, throughputMiBps: 381 },
      sizeGiB: 1000,
      iops: 18_750,
    });
    const io2 = plan.rightSizing.recommendations.find((r) => r.type === 'io2')!;
    expect(io2.perVolume).toEqual({ sizeGiB: 1000, iops: 18_750, throughputMiBps: null });
    const notViable = plan.rightSizing.recommendations.find((r) => r.status === 'not-viable')!;
    expect(notViable.perVolume).toBeUndefined();
    expect(plan.rightSizing.instanceAdvice?.alternatives).toEqual([]);
    expect(value.headline).toEqual(old.headline);
    expect(value.analysisVersion).toBe('2026.11.1');
    expect(plan.cost).toEqual(old.plan!.cost);
  });

  it('reads today’s summary as it is', () => {
    const today = summaryToday();
    expect(readOk(JSON.stringify(today), ANALYSIS_VERSION)).toEqual({ value: today, upgradedFrom: null });
  });

  it.each([
    ['text that is not JSON', '{"headline":', /summary: not JSON/],
    [
      'a summary without its headline',
      JSON.stringify({ ...(stored.summary as object), headline: undefined }),
      /summary\.headline: /,
    ],
    [
      'a job count that is text',
      JSON.stringify({ ...(stored.summary as object), jobCount: 'one' }),
      /summary\.jobCount: /,
    ],
  ])('refuses %s as a stored_record_invalid problem naming the field', (_what, json, message) => {
    const read = readStoredSummary(json, '2026.11.1');
    expect(read.ok).toBe(false);
    if (!read.ok) {
      expect(read.error.code).toBe('stored_record_invalid');
      expect(read.error.message).toMatch(message);
    }
  });
});

describe('readStoredComparisonResult', () => {
  it('upgrades the 2026.11.1 run summaries and plans a frozen comparison holds', () => {
    const old = stored.summary as RunSummary;
    const result: ComparisonResult = {
      runs: [
        { id: 'AAAAAAAAAAAAAAAAAAAAAA', labels: stored.labels, fioVersion: old.fioVersion, summary: old },
      ],
      plans: [{ title: 'gp3', plan: old.plan! }],
      latency: null,
      rates: { region: 'us-east-1', source: 'AWS Price List', date: '2026-11-01' },
    };
    const read = readStoredComparisonResult(JSON.stringify(result));
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.runs[0]?.summary.plan?.bottleneck?.state).toBe('impossible');
    expect(read.value.plans[0]?.plan.profile.access?.origin).toBe('assumed');
    expect(read.value.rates).toEqual(result.rates);
  });
});

describe('readStoredSummary: a run summary stored by analysis version 2026.11.2', () => {
  it('is the previous version, of the same upload as the 2026.11.1 one', () => {
    expect(stored2.analysisVersion).toBe('2026.11.2');
    expect(stored2.summary.analysisVersion).toBe('2026.11.2');
    expect(ANALYSIS_VERSION).not.toBe('2026.11.2');
    expect([stored2.file, stored2.labels]).toEqual([stored.file, stored.labels]);
  });

  it('comes back as stored, marked as upgraded, with every key today’s analysis of the same upload has', () => {
    const { value, upgradedFrom } = readOk(JSON.stringify(stored2.summary), '2026.11.2');
    expect(upgradedFrom).toBe('2026.11.2');
    // The numbers stay the ones of 2026.11.2: only the shape is today's.
    expect(value).toEqual(stored2.summary);
    const today = keyPaths(summaryToday());
    const read = keyPaths(value);
    const missing = [...today.keys].filter((path) => !read.keys.has(path) && read.filled.has(parentOf(path)));
    expect(missing).toEqual([]);
    // When a later version changes the shape, this fails until 2026.11.2 has a real upcaster.
    // (The summary and its plan each carry the version they were made by.)
    // A refreshed price catalog changes the rate card's date and source (not its shape): the
    // stored summary keeps the ones it was made with.
    const versionless = (x: unknown): unknown =>
      JSON.parse(
        JSON.stringify(x).replaceAll(/"analysisVersion":"[^"]*"/g, '"analysisVersion":"-"'),
        (key, v) => (key === 'rates' && v && typeof v === 'object' ? { ...v, date: '-', source: '-' } : v),
      );
    expect(versionless(value)).toEqual(versionless(summaryToday()));
  });

  it('keeps a warning whose code this version no longer emits (aggregated_to_5_minutes, coarse_period)', () => {
    const removed = [
      { code: 'aggregated_to_5_minutes', message: '60 s points averaged to 5-minute means before sizing' },
      { code: 'coarse_period', message: 'points 3,600 s apart: a burst shorter than that is averaged away' },
    ];
    const old = { ...stored2.summary, warnings: [...stored2.summary.warnings, ...removed] };
    old.plan = { ...old.plan!, warnings: [...old.plan!.warnings, ...removed] };
    const { value } = readOk(JSON.stringify(old), '2026.11.2');
    expect(value.warnings.slice(-2)).toEqual(removed);
    expect(value.plan?.warnings.slice(-2)).toEqual(removed);
  });
});

describe('readStoredComparisonResult: a comparison frozen under 2026.11.2', () => {
  it('reads its runs and plans as frozen: job settings without the option settings 2026.11.3 compares', () => {
    const old = stored2.summary;
    // The settings 2026.11.2 froze for this upload: today's, less the option settings it did not read.
    const parsed = parseFio(readFileSync(resolve(FIXTURES, stored2.file)));
    if (!parsed.ok) throw new Error(parsed.error.message);
    const jobSettings = jobSettingsOf(parsed.report).map(({ optionSettings: _, ...settings }) => settings);
    const result = {
      runs: [
        {
          id: 'AAAAAAAAAAAAAAAAAAAAAA',
          labels: stored2.labels,
          fioVersion: old.fioVersion,
          summary: old,
          jobSettings,
        },
      ],
      plans: [
        {
          title: 'gp3',
          plan: { ...old.plan!, warnings: [{ code: 'coarse_period', message: 'hourly points' }] },
        },
      ],
      latency: null,
      nvmeVsEbs: null,
      warnings: [],
      rates: { region: 'us-east-1', source: 'AWS Price List', date: '2022-02-10' },
    };
    const read = readStoredComparisonResult(JSON.stringify(result));
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value).toEqual(result);
    expect(read.value.runs[0]?.jobSettings?.[0]?.optionSettings).toBeUndefined();
    expect(read.value.plans[0]?.plan.warnings).toEqual([{ code: 'coarse_period', message: 'hourly points' }]);
  });
});

describe('readStoredComparisonResult: a comparison frozen under 2026.11.3, before rate caps were kept as numbers', () => {
  it.each([
    // fixture, the caps today's reading keeps
    [RATE_IOPS_500, { bytesPerSec: null, iops: { read: 500, write: 500, trim: 500 } }],
    [RATE_2M, { bytesPerSec: { read: 2_097_152, write: 2_097_152, trim: 2_097_152 }, iops: null }],
    [UNPACED_4K, { bytesPerSec: null, iops: null }],
    // rate_min is a floor, not a cap.
    [RATE_MIN_256K, { bytesPerSec: null, iops: null }],
  ] as const)(
    '%s: its caps are derived from the option settings it kept, as today’s reading finds them',
    (file, caps) => {
      const today = jobSettingsOf(fixtureReport(file));
      expect(today[0]!.rateCaps).toEqual(caps);
      // What 2026.11.3 froze: the option settings' text, no caps.
      const frozen = today.map(({ rateCaps: _, ...j }) => j);
      const result = {
        runs: [
          {
            id: 'AAAAAAAAAAAAAAAAAAAAAA',
            labels: stored2.labels,
            fioVersion: stored2.summary.fioVersion,
            summary: stored2.summary,
            jobSettings: frozen,
          },
        ],
        plans: [],
        latency: null,
        nvmeVsEbs: null,
        warnings: [],
        rates: { region: 'us-east-1', source: 'AWS Price List', date: '2022-02-10' },
      };
      const read = readStoredComparisonResult(JSON.stringify(result));
      if (!read.ok) throw new Error(read.error.message);
      expect(read.value.runs[0]!.jobSettings).toEqual(today);
    },
  );

  it.each([
    // option values written into a real report: per direction, kb_base sizes, values fio would not take
    [{ rate: ',1m' }, { bytesPerSec: { read: null, write: 1_048_576, trim: 1_048_576 }, iops: null }],
    [{ rate: '1m,500k,0' }, { bytesPerSec: { read: 1_048_576, write: 512_000, trim: null }, iops: null }],
    [{ rate_iops: '12000,3000' }, { bytesPerSec: null, iops: { read: 12_000, write: 3000, trim: 3000 } }],
    [{ rate_iops: 'fast' }, { bytesPerSec: null, iops: null }],
  ] as const)('%j: read back from its text as from the options', (options, caps) => {
    const report = fixtureReport(UNPACED_4K);
    const written = {
      ...report,
      jobs: report.jobs.map((j) => ({ ...j, options: { ...j.options, ...options } })),
    };
    const today = jobSettingsOf(written);
    expect(today[0]!.rateCaps).toEqual(caps);
    const frozen = today.map(({ rateCaps: _, ...j }) => j);
    const run = {
      id: 'AAAAAAAAAAAAAAAAAAAAAA',
      labels: stored2.labels,
      fioVersion: stored2.summary.fioVersion,
      summary: stored2.summary,
      jobSettings: frozen,
    };
    const rates = { region: 'us-east-1', source: 'AWS Price List', date: '2022-02-10' };
    const read = readStoredComparisonResult(
      JSON.stringify({ runs: [run], plans: [], latency: null, nvmeVsEbs: null, warnings: [], rates }),
    );
    if (!read.ok) throw new Error(read.error.message);
    expect(read.value.runs[0]!.jobSettings).toEqual(today);
  });
});
