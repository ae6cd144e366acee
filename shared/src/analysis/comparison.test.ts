import { describe, expect, it } from 'vitest';
import { ComparisonResultSchema, type RunLabels } from '../api/contract.ts';
import { chooseDemandSource } from '../demand/evidence-role.ts';
import { planSession } from '../test-support/plan-session.ts';
import { buildComparison, type ComparisonRun } from './comparison.ts';
import { summarizeRun } from './summarize-run.ts';
import {
  MIX33_GROUPED,
  MIX33_PERJOB,
  NVME_RANDWRITE_4K,
  fixtureReport,
} from '../test-support/fio-fixtures.ts';

function run(id: string, file: string, labels: RunLabels): ComparisonRun {
  const report = fixtureReport(file);
  return { id, labels, report, summary: summarizeRun(report, labels) };
}

const NVME: RunLabels = { name: 'nvme', kind: 'nvme', instanceType: 'r5d.4xlarge' };
const EBS: RunLabels = {
  name: 'gp3',
  kind: 'ebs',
  instanceType: 'r5d.4xlarge',
  volumeType: 'gp3',
  volumeSizeGiB: 1000,
  volumeIops: 16_000,
  volumeThroughputMiBps: 1000,
};

/** Run ids are 22 base64url characters. */
const id = (c: string) => c.repeat(22);

const build = (runs: ComparisonRun[]) => {
  const r = buildComparison(runs, null);
  if (!r.ok) throw new Error(r.error.message);
  return ComparisonResultSchema.parse(r.value);
};

describe('buildComparison: NVMe vs EBS only for the same fio job', () => {
  it.each([
    ['the same job', MIX33_GROUPED, MIX33_PERJOB, false, 'given', []],
    [
      '4k randwrite NVMe vs bsrange mix-33 EBS',
      NVME_RANDWRITE_4K,
      MIX33_GROUPED,
      true,
      'withheld',
      ['jobs_differ'],
    ],
  ])('%s', (_, nvmeFile, ebsFile, differ, status, warnings) => {
    const result = build([run(id('E'), ebsFile, EBS), run(id('N'), nvmeFile, NVME)]);
    expect(result.nvmeVsEbs?.reference.id).toBe(id('N'));
    expect(result.nvmeVsEbs?.candidate.id).toBe(id('E'));
    expect(result.nvmeVsEbs?.jobsDiffer).toBe(differ);
    expect(result.nvmeVsEbs?.verdict.status).toBe(status);
    expect(result.warnings?.map((w) => w.code)).toEqual(warnings);
    // Each run carries its jobs' settings (a later pair picked in the web app is compared from them).
    expect(result.runs.map((r) => r.jobSettings?.length)).toEqual([1, 1]);
    const verdict = result.nvmeVsEbs!.verdict;
    // The legacy single-direction field: the read comparison (both runs read), none when withheld.
    if (verdict.status === 'given') expect(result.latency).toEqual(verdict.latency.read);
    else expect(result.latency).toBeNull();
    if (verdict.status === 'given') expect(verdict.latency.write).not.toBeNull();
  });

  it('no pair without a run of each kind', () => {
    const result = build([run(id('E'), MIX33_GROUPED, EBS), run(id('F'), MIX33_PERJOB, EBS)]);
    expect(result.nvmeVsEbs).toBeNull();
    expect(result.latency).toBeNull();
    expect(result.warnings).toEqual([]);
  });

  it('a comparison stored before jobs were compared still parses (no jobSettings, nvmeVsEbs, warnings)', () => {
    const result = build([run(id('E'), MIX33_GROUPED, EBS), run(id('N'), MIX33_PERJOB, NVME)]);
    const { nvmeVsEbs: _pair, warnings: _warnings, ...old } = result;
    const stored = { ...old, runs: old.runs.map(({ jobSettings: _settings, ...r }) => r) };
    const parsed = ComparisonResultSchema.parse(JSON.parse(JSON.stringify(stored)));
    expect(parsed.nvmeVsEbs).toBeUndefined();
    expect(parsed.warnings).toBeUndefined();
    expect(parsed.runs[0]!.jobSettings).toBeUndefined();
  });
});

describe('a session that names no profile plans on the demand source the planning page would', () => {
  const peak = (id: string, iops: number) => ({
    id,
    label: id,
    read: { iops, throughput: 10, throughputUnit: 'MiB/s' as const },
    write: { iops: 0, throughput: 0, throughputUnit: 'MiB/s' as const },
  });

  it('the newest demand source (chooseDemandSource), not the first', () => {
    const session = planSession({
      observed: [peak('older', 1000), peak('newer', 2000)],
      instanceType: 'r5d.4xlarge',
      candidates: [{ type: 'gp3', sizeGiB: 500 }],
    });
    const r = buildComparison([], session);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.plans[0]!.plan.profile.label).toBe('newer');
    // The same choice the page makes for these inputs in this order.
    const choice = chooseDemandSource(
      session.observed.map((o) => ({ ref: `observed:${o.id}`, role: 'demand' as const })),
      null,
    );
    expect(choice.ref).toBe('observed:newer');
  });
});
