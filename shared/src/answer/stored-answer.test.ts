import { describe, expect, it } from 'vitest';
import { buildComparison, type ComparisonRun } from '../analysis/comparison.ts';
import { summarizeRun } from '../analysis/summarize-run.ts';
import type { Comparison } from '../api/contract.ts';
import type { RunLabels } from '../records/run.ts';
import type { PlanSession } from '../records/session.ts';
import {
  fixtureReport,
  MIX33_PERJOB,
  NVME_RANDWRITE_4K,
  RATE_IOPS_500,
  UNPACED_4K,
} from '../test-support/fio-fixtures.ts';
import { CLOUDWATCH_PEAK, planSession } from '../test-support/plan-session.ts';
import { answerOf } from './answer.ts';
import { storedCapacityAnswer } from './capacity-answer.ts';
import { storedAnswerPlan } from './stored-answer.ts';

/** A gp3 volume on an r5.4xlarge: enough for the run's own plan (what binds, what to buy). */
const LABELS: RunLabels = {
  kind: 'ebs',
  instanceType: 'r5.4xlarge',
  volumeType: 'gp3',
  volumeSizeGiB: 500,
  volumeIops: 3000,
  volumeThroughputMiBps: 125,
};

/** A comparison made through the API from runs alone (no planning session), as the server builds it. */
function fromRunsAlone(...files: string[]): Pick<Comparison, 'plan' | 'result'> {
  return fromSession(null, ...files);
}

/** A comparison the server stores: the runs `run1`, `run2`… of these files, and the session. */
function fromSession(session: PlanSession | null, ...files: string[]): Pick<Comparison, 'plan' | 'result'> {
  const runs: ComparisonRun[] = files.map((file, i) => {
    const report = fixtureReport(file);
    const labels = { ...LABELS, name: `run ${i + 1}` };
    return { id: `run${i + 1}`, labels, report, summary: summarizeRun(report, labels) };
  });
  const result = buildComparison(runs, session);
  if (!result.ok) throw new Error(result.error.message);
  return { plan: session, result: result.value };
}

describe('a share link made from runs alone: the answer of its first run, by the run’s role', () => {
  it('an unpaced fio run (22,130 IOPS at saturation) says what it delivered and sizes nothing', () => {
    const comparison = fromRunsAlone(UNPACED_4K, RATE_IOPS_500);
    const stored = storedAnswerPlan(comparison)!;
    expect(stored.title).toBe('run 1');
    expect(stored.answer.needs).toMatch(
      /^Delivered 22,1\d\d IOPS and \d+ MiB\/s — capacity evidence \(no rate set: fio ran at saturation/,
    );
    expect(stored.answer.needs).not.toMatch(/Needs/);
    expect(stored.answer.provision).toBeNull();
    expect(stored.answer.instance).toBeNull();
    // What bound the run on its storage is still said.
    expect(stored.answer.binds).toBe(answerOf(stored.plan, 1, undefined).binds);
    expect(stored.answer.binds).not.toBeNull();
  });

  it('a rate-limited run (rate_iops=500) replays a load: it answers as demand, “Needs …” and what to buy', () => {
    const stored = storedAnswerPlan(fromRunsAlone(RATE_IOPS_500, UNPACED_4K))!;
    expect(stored.title).toBe('run 1');
    expect(stored.answer).toEqual(answerOf(stored.plan, 1, undefined));
    expect(stored.answer.needs).toMatch(/^Needs 6\d\d IOPS/);
    expect(stored.answer.provision).toMatch(/^Provision /);
  });

  it('saved from a planning session: the session’s first plan answers, as the planning page did', () => {
    const { result } = fromRunsAlone(UNPACED_4K);
    // Which session does not matter here, only that there was one (its plans are result.plans)
    // saved with today's replay marks (without them, plans on a run at saturation are a legacy link's).
    const stored = storedAnswerPlan({ plan: { replaysLoad: [] } as unknown as Comparison['plan'], result })!;
    expect(stored.plan).toBe(result.plans[0]!.plan);
    expect(stored.answer.needs).toMatch(/^Needs /);
  });

  it('a link whose runs were not planned has no answer', () => {
    const { result } = fromRunsAlone(UNPACED_4K);
    const unplanned = {
      ...result,
      plans: [],
      runs: result.runs.map((r) => ({ ...r, summary: { ...r.summary, plan: null } })),
    };
    expect(storedAnswerPlan({ plan: null, result: unplanned })).toBeNull();
  });
});

describe('a share link the web saved before replay marks were kept (issue 27)', () => {
  // As that web saved two fio runs at saturation: profileRef named the first run, whatever its role,
  // and the server planned on it (a profileRef is the user's choice); no `replaysLoad` field.
  const oldWeb = planSession({
    profileRef: 'run:run1',
    instanceType: 'r5.4xlarge',
    candidates: [{ type: 'gp3', sizeGiB: 500, iops: 3000, throughputMiBps: 125 }],
  });

  it('plans stored on a run at saturation answer with what each storage delivered, never “Needs”', () => {
    const comparison = fromSession(oldWeb, UNPACED_4K, NVME_RANDWRITE_4K);
    expect(comparison.result.plans.length).toBeGreaterThan(0);
    expect(storedAnswerPlan(comparison)).toBeNull();
    const capacity = storedCapacityAnswer(comparison)!;
    expect(capacity.lines).toHaveLength(2);
    expect(capacity.lines[0]).toMatch(/^run 1 \(fio · EBS\) delivered 22,1\d\d IOPS and \d+ MiB\/s/);
    expect(capacity.lines[1]).toMatch(/^run 2 \(fio · EBS\) delivered [\d,]+ IOPS/);
    expect(capacity.ask).toMatch(/^What does the workload ask at its peak\?/);
    // Its run may have replayed the load: the ask says how to size on it.
    expect(capacity.ask).toContain('This run replays our load');
    // Its stored plans, still shown below, are a what-if on that run.
    expect(capacity.plansNote).toBe('What-if on run 1 (a benchmark at saturation), not the workload’s need.');
    expect([...capacity.lines, capacity.comparison, capacity.ask].join(' ')).not.toMatch(/Needs/);
  });

  it('saved with replay marks (today’s web): a run marked as replaying the load is sized on', () => {
    const marked = fromSession({ ...oldWeb, replaysLoad: ['run:run1'] }, UNPACED_4K, NVME_RANDWRITE_4K);
    expect(storedCapacityAnswer(marked)).toBeNull();
    expect(storedAnswerPlan(marked)!.answer.needs).toMatch(/^Needs 2\d,\d{3} IOPS/);
    // Marks kept but none on it: still the user's choice of profile, as the session names it.
    const unmarked = fromSession({ ...oldWeb, replaysLoad: [] }, UNPACED_4K, NVME_RANDWRITE_4K);
    expect(storedAnswerPlan(unmarked)!.answer.needs).toMatch(/^Needs /);
    // Without a profileRef, the marked run is the session's demand source (a run at saturation
    // otherwise: no plan).
    const byMark = fromSession(
      { ...oldWeb, profileRef: null, replaysLoad: ['run:run2'] },
      UNPACED_4K,
      NVME_RANDWRITE_4K,
    );
    expect(byMark.result.plans.length).toBeGreaterThan(0);
    expect(storedAnswerPlan(byMark)!.plan.profile.label).toBe('run 2');
    const unmarkedNoRef = fromSession({ ...oldWeb, profileRef: null }, UNPACED_4K, NVME_RANDWRITE_4K);
    expect(unmarkedNoRef.result.plans).toEqual([]);
  });

  it('a rate-limited run after the run at saturation is demand, not a storage that delivered', () => {
    const capacity = storedCapacityAnswer(fromSession(oldWeb, UNPACED_4K, RATE_IOPS_500))!;
    expect(capacity.lines).toHaveLength(1);
    expect(capacity.lines[0]).toMatch(/^run 1 \(fio · EBS\) delivered 22,1\d\d IOPS/);
    expect(capacity.comparison).toBeNull();
    expect([...capacity.lines, capacity.ask].join(' ')).not.toContain('run 2');
  });

  it('typed-in peaks it was not sized on: named, never “No demand yet” nor asked for again', () => {
    expect(CLOUDWATCH_PEAK.role).not.toBe('capacity');
    const capacity = storedCapacityAnswer(
      fromSession({ ...oldWeb, observed: [CLOUDWATCH_PEAK] }, UNPACED_4K, NVME_RANDWRITE_4K),
    )!;
    expect(capacity.unsizedDemand).toEqual(['the workload’s peaks “prod peak”']);
    expect(capacity.lead.strong).not.toMatch(/No demand/);
    expect(capacity.lead.text).toMatch(
      /^This link was sized on a benchmark run, not on the workload’s peaks “prod peak”: open it as a planning session to size on them\./,
    );
    expect(capacity.ask).not.toMatch(/What does the workload ask at its peak/);
    // A rate-limited run after it is demand too.
    const rated = storedCapacityAnswer(fromSession(oldWeb, UNPACED_4K, RATE_IOPS_500))!;
    expect(rated.unsizedDemand).toEqual(['run 2 (a rate-limited run)']);
    expect(rated.note).toBe('Not sized on its demand: what each storage delivered');
    // Without any: "No demand yet", the peaks asked for.
    const none = storedCapacityAnswer(fromSession(oldWeb, UNPACED_4K, NVME_RANDWRITE_4K))!;
    expect(none.unsizedDemand).toEqual([]);
    expect(none.lead.strong).toBe('No demand yet.');
    expect(none.note).toBe('No demand: what each storage delivered');
  });

  it('an API link without a profileRef, sized then on its first run at saturation, answers with what each delivered', () => {
    // Before demand was told from capacity the server planned a null profileRef on the first
    // profile, runs first: the same plans as naming run 1, stored with profileRef null.
    const planned = fromSession(oldWeb, UNPACED_4K, NVME_RANDWRITE_4K);
    const apiLink = { ...planned, plan: { ...planned.plan!, profileRef: null } };
    expect(apiLink.result.plans.length).toBeGreaterThan(0);
    expect(storedAnswerPlan(apiLink)).toBeNull();
    const capacity = storedCapacityAnswer(apiLink)!;
    expect(capacity.lines).toHaveLength(2);
    expect(capacity.plansNote).toBe('What-if on run 1 (a benchmark at saturation), not the workload’s need.');
    // Its first run rate-limited: that was demand, and the plans answer.
    const rated = fromSession(oldWeb, RATE_IOPS_500, UNPACED_4K);
    const ratedApiLink = { ...rated, plan: { ...rated.plan!, profileRef: null } };
    expect(storedAnswerPlan(ratedApiLink)!.answer.needs).toMatch(/^Needs 6\d\d IOPS/);
  });

  it('an old link whose profile is a rate-limited run (demand) still answers with its plan', () => {
    const comparison = fromSession(oldWeb, RATE_IOPS_500, UNPACED_4K);
    expect(storedCapacityAnswer(comparison)).toBeNull();
    expect(storedAnswerPlan(comparison)!.answer.needs).toMatch(/^Needs 6\d\d IOPS/);
  });
});

describe('a share link without demand names and words each storage as the planning page does', () => {
  /** Runs without a name label, on EBS: the planning page names them by file, a link by kind. */
  function unnamed(session: PlanSession, ...files: string[]): Pick<Comparison, 'plan' | 'result'> {
    const c = fromSession(session, ...files);
    const runs = c.result.runs.map((r) => ({ ...r, labels: { ...r.labels, name: undefined } }));
    return { ...c, result: { ...c.result, runs } };
  }

  it('an unnamed run is titled by its kind, never by its 22-character id', () => {
    const two = storedCapacityAnswer(unnamed(planSession(), UNPACED_4K, NVME_RANDWRITE_4K))!;
    expect(two.delivered.map((d) => d.title)).toEqual(['EBS run 1', 'EBS run 2']);
    const one = storedCapacityAnswer(unnamed(planSession(), UNPACED_4K))!;
    expect(one.lines[0]).toMatch(/^EBS run \(fio · EBS\) delivered/);
    // A run alone (no session) is titled the same way.
    const alone = fromRunsAlone(UNPACED_4K);
    const noName = alone.result.runs.map((r) => ({ ...r, labels: { ...r.labels, name: undefined } }));
    expect(storedAnswerPlan({ plan: null, result: { ...alone.result, runs: noName } })!.title).toBe(
      'EBS run',
    );
  });

  it('a sysbench run’s numbers say “sysbench” (its kind kept), an older entry “benchmark”', () => {
    const entry = {
      id: 'sb',
      label: 'sysbench fileio',
      role: 'capacity' as const,
      read: { iops: 5000, throughput: 78, throughputUnit: 'MiB/s' as const },
      write: { iops: 3000, throughput: 47, throughputUnit: 'MiB/s' as const },
    };
    const kept = storedCapacityAnswer(
      fromSession(planSession({ observed: [{ ...entry, kind: 'sysbench' }] })),
    )!;
    expect(kept.lines).toEqual([
      'sysbench fileio (sysbench) delivered 8,000 IOPS and 125 MiB/s (read + write).',
    ]);
    const older = storedCapacityAnswer(fromSession(planSession({ observed: [entry] })))!;
    expect(older.delivered[0]!.kindLabel).toBe('benchmark');
  });

  it('a p99 that is an upper bound (per-job percentiles) says “≤”, an exact one does not', () => {
    const c = fromSession(planSession(), MIX33_PERJOB, UNPACED_4K);
    expect(c.result.runs.map((r) => r.summary.headline.clatApproximate)).toEqual([true, false]);
    const [perJob, exact] = storedCapacityAnswer(c)!.delivered;
    expect(perJob!.text).toMatch(/, p99 latency ≤ [\d.]+ ms$/);
    expect(exact!.text).toMatch(/, p99 latency [\d.]+ ms$/);
  });
});
