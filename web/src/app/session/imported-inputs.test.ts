import { profileFromObserved } from '@blockwise/shared/profile';
import { PlanSessionSchema } from '@blockwise/shared/records';
import * as analysisModule from '@blockwise/shared/analysis';
import * as catalogModule from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { metricsFixture } from '../../features/metrics-import/metrics-fixtures.ts';
import { readMetrics } from '../../features/metrics-import/metrics-reader.ts';
import { readSysbench } from '../../features/sysbench/sysbench-reader.ts';
import sysbenchText from '../../../../fixtures/sysbench/k_rndrd_64k_direct_histogram.txt?raw';
import { analyzeSession } from './analysis.ts';
import { saveBlockers } from './save-session.ts';
import {
  fromPlanSession,
  initialSession,
  sessionReducer,
  toPlanSession,
  type SeriesInput,
  type SessionState,
  type SysbenchInput,
} from './session-state.ts';
import { joinCatalog } from '../../lib/catalog.ts';
import { kindLabelOf } from '../routes/plan/input-text.ts';

const catalog = joinCatalog(catalogModule, analysisModule);

/**
 * Metrics exports and sysbench runs in the session: each plans with its own profile (the chosen
 * sizing statistic's, or sysbench's) and enters the PlanSession — the share format — as an
 * observed entry: peak IOPS and bytes/s per direction, labelled with where it came from.
 */

const seriesInput = (id: string, over: Partial<SeriesInput> = {}): SeriesInput => ({
  kind: 'series',
  id,
  fileName: 'console_volume_sum_5min.csv',
  sizeBytes: 49136,
  blob: new Blob(['']),
  status: 'reading',
  options: {},
  choices: [],
  imported: null,
  error: null,
  statistic: 'max',
  ...over,
});

const sysbenchInput = (id: string): SysbenchInput => ({
  kind: 'sysbench',
  id,
  fileName: 'k_rndrd_64k_direct_histogram.txt',
  sizeBytes: 13024,
  status: 'parsing',
  run: null,
  profile: null,
  error: null,
});

function read(name: string, options = {}) {
  const r = readMetrics(metricsFixture(name), options);
  return r.ok ? { ok: true as const, imported: r.imported } : r;
}

describe('a metrics export in the session', () => {
  it('a question stops it (nothing planned, saving blocked); the answer makes it a plan input', () => {
    let s = sessionReducer(initialSession, {
      type: 'files-added',
      inputs: [seriesInput('m1', { fileName: 'console_instance_1min_gaps.csv' })],
    });
    s = sessionReducer(s, {
      type: 'series-read',
      id: 'm1',
      options: {},
      result: read('console_instance_1min_gaps.csv'),
    });
    const asked = s.inputs[0] as SeriesInput;
    expect(asked.status).toBe('choice');
    expect(asked.choices.map((c) => c.option)).toEqual(['statistic']);
    expect(toPlanSession(s).observed).toEqual([]);
    const a = analyzeSession(s, catalog);
    expect(a.hasProfiles).toBe(false);
    expect(saveBlockers(s, a)).toContain(
      'Answer the questions about console_instance_1min_gaps.csv, or remove it.',
    );

    s = sessionReducer(s, { type: 'series-reading', id: 'm1', options: { statistic: 'Sum' } });
    // An answer given earlier that arrives late is not the one asked for.
    const stale = sessionReducer(s, {
      type: 'series-read',
      id: 'm1',
      options: {},
      result: read('console_instance_1min_gaps.csv'),
    });
    expect(stale.inputs[0]).toMatchObject({ status: 'reading' });
    s = sessionReducer(s, {
      type: 'series-read',
      id: 'm1',
      options: { statistic: 'Sum' },
      result: read('console_instance_1min_gaps.csv', { statistic: 'Sum' }),
    });
    expect(s.inputs[0]).toMatchObject({ status: 'ready', options: { statistic: 'Sum' } });
    expect(analyzeSession(s, catalog).effective.profileRef).toBe('observed:m1');
  });

  it('the chosen statistic’s profile is the observed entry, labelled with file and statistic', () => {
    let s: SessionState = sessionReducer(initialSession, {
      type: 'files-added',
      inputs: [seriesInput('m2')],
    });
    s = sessionReducer(s, {
      type: 'series-read',
      id: 'm2',
      options: {},
      result: read('console_volume_sum_5min.csv'),
    });
    const entry = () => toPlanSession(s).observed[0]!;
    expect(entry()).toEqual({
      id: 'm2',
      label: 'CloudWatch CSV console_volume_sum_5min.csv (vol-0a1b2c3d4e5f60718), max of the points',
      read: { iops: 12000, throughput: expect.any(Number), throughputUnit: 'B/s' },
      write: { iops: expect.any(Number), throughput: expect.any(Number), throughputUnit: 'B/s' },
    });
    s = sessionReducer(s, { type: 'series-statistic-changed', id: 'm2', statistic: 'p99' });
    expect(entry().read.iops).toBe(6300);
    expect(entry().label).toMatch(/, p99 of the points$/);
    // The share format takes it as it is (the contract is unchanged).
    const session = toPlanSession(s);
    expect(PlanSessionSchema.safeParse(session).success).toBe(true);
    // The plan is the server's computation of that entry: the same numbers the card shows.
    const a = analyzeSession(
      {
        ...s,
        settings: {
          ...s.settings,
          instanceType: 'r6i.4xlarge',
          candidates: [{ type: 'gp3', sizeGiB: 500, count: 1 }],
        },
      },
      catalog,
    );
    expect(a.result?.ok).toBe(true);
    if (!a.result?.ok) return;
    expect(a.result.value.plans[0]!.plan.profile.read.iops).toBe(6300);
    expect(a.inputs.get('m2')!.profile).toMatchObject({ ok: true, value: { source: 'timeseries' } });
  });
});

describe('a sysbench run in the session', () => {
  it('plans like a fio run; its profile (with latency percentiles) is stored as an observed entry', () => {
    let s = sessionReducer(initialSession, { type: 'files-added', inputs: [sysbenchInput('sb1')] });
    expect(saveBlockers(s, analyzeSession(s, catalog))).toContain('Wait until every file is read.');
    const r = readSysbench(sysbenchText);
    if (!r.ok) throw new Error(r.error.message);
    s = sessionReducer(s, { type: 'sysbench-read', id: 'sb1', run: r.run, profile: r.profile });
    const entry = toPlanSession(s).observed[0]!;
    expect(entry.label).toBe('sysbench k_rndrd_64k_direct_histogram.txt (rndrd)');
    expect(entry.read).toMatchObject({
      iops: 6929.77,
      throughputUnit: 'B/s',
      latencyMs: { '50': 0.122, '99': 0.536 },
    });
    expect(profileFromObserved(entry).ok).toBe(true);
    // rndrd: random, from the test mode — carried with the entry, so the plan does not assume it.
    expect(entry.access).toBe('random');
    // Its kind travels too: a share link, and the session opened from it, name it "sysbench".
    expect(entry).toMatchObject({ role: 'capacity', kind: 'sysbench' });
    const back = fromPlanSession(toPlanSession(s), { kind: 'new' }).inputs[0]!;
    expect(kindLabelOf(back)).toBe('sysbench');
    expect(toPlanSession({ ...initialSession, inputs: [back] }).observed[0]!.kind).toBe('sysbench');
    const a = analyzeSession(s, catalog);
    expect(a.inputs.get('sb1')!.profile).toMatchObject({
      ok: true,
      value: { access: { read: 'random', write: 'random', origin: 'sysbench' } },
    });
    const plan = a.result?.ok ? a.result.value.plans[0]!.plan : null;
    expect(plan!.warnings.map((w) => w.code)).not.toContain('access_assumed_random');
    expect(a.effective.profileRef).toBe('observed:sb1');
    expect(a.inputs.get('sb1')!.profile).toMatchObject({ ok: true, value: { source: 'sysbench' } });
    expect(saveBlockers(s, a)).toEqual([]);
  });

  it('a failed read fails alone', () => {
    let s = sessionReducer(initialSession, { type: 'files-added', inputs: [sysbenchInput('sb2')] });
    s = sessionReducer(s, {
      type: 'sysbench-failed',
      id: 'sb2',
      error: { code: 'not_a_run', message: 'this is the output of `sysbench fileio prepare`' },
    });
    expect(s.inputs[0]).toMatchObject({ status: 'error', error: { code: 'not_a_run' } });
    expect(toPlanSession(s).observed).toEqual([]);
  });
});
