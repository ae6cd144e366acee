import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RunLabels } from '../api/contract.ts';
import type * as FromFio from '../profile/from-fio.ts';
import { buildComparison, type ComparisonRun } from './comparison.ts';
import { summarizeRun } from './summarize-run.ts';
import { MIX33_GROUPED, fixtureReport } from '../test-support/fio-fixtures.ts';
import { planSession } from '../test-support/plan-session.ts';

// Counts the reports profiled: the profile is the costly part of a comparison that a
// session-less one (the regression gate's, after every CI upload) never reads.
const profiled = vi.hoisted(() => ({ count: 0 }));
vi.mock('../profile/from-fio.ts', async (importOriginal) => {
  const original = await importOriginal<typeof FromFio>();
  return {
    ...original,
    profileFromFio: (...args: Parameters<typeof original.profileFromFio>) => {
      profiled.count += 1;
      return original.profileFromFio(...args);
    },
  };
});

const LABELS: RunLabels = { name: 'gp3', kind: 'ebs', instanceType: 'r5d.4xlarge', volumeType: 'gp3' };
const run = (id: string): ComparisonRun => {
  const report = fixtureReport(MIX33_GROUPED);
  return { id: id.repeat(22), labels: LABELS, report, summary: summarizeRun(report, LABELS) };
};

describe('buildComparison: work done per comparison', () => {
  let runs: ComparisonRun[];
  beforeEach(() => {
    runs = [run('A'), run('B')];
    profiled.count = 0;
  });

  it('profiles no report without a session: the plans are the runs’ own', () => {
    const result = buildComparison(runs, null);
    expect(result.ok).toBe(true);
    expect(profiled.count).toBe(0);
    if (result.ok) expect(result.value.plans.map((p) => p.plan)).toEqual(runs.map((r) => r.summary.plan));
  });

  it('profiles each run once for a session, whose plans are made from a profile', () => {
    const session = planSession({ instanceType: 'r5d.4xlarge', headroom: 0.2 });
    expect(buildComparison(runs, session).ok).toBe(true);
    expect(profiled.count).toBe(2);
  });
});
