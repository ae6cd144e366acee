import { describe, expect, it } from 'vitest';
import { buildComparison, type ComparisonRun } from '../analysis/comparison.ts';
import { summarizeRun } from '../analysis/summarize-run.ts';
import type { Comparison } from '../api/contract.ts';
import type { RunLabels } from '../records/run.ts';
import { fixtureReport, RATE_IOPS_500, UNPACED_4K } from '../test-support/fio-fixtures.ts';
import { answerOf } from './answer.ts';
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
  const runs: ComparisonRun[] = files.map((file, i) => {
    const report = fixtureReport(file);
    const labels = { ...LABELS, name: `run ${i + 1}` };
    return { id: `run${i + 1}`, labels, report, summary: summarizeRun(report, labels) };
  });
  const result = buildComparison(runs, null);
  if (!result.ok) throw new Error(result.error.message);
  return { plan: null, result: result.value };
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
    // Which session does not matter here, only that there was one (its plans are result.plans).
    const stored = storedAnswerPlan({ plan: {} as Comparison['plan'], result })!;
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
