import { buildComparison, summarizeRun } from '@blockwise/shared/analysis';
import { describe, expect, it } from 'vitest';
import { fixtureReport } from '../../test/fixtures.ts';
import { storedCapacityAnswer } from '@blockwise/shared/answer';
import { CLOUDWATCH_PEAK, planSession } from '../../../../shared/src/test-support/plan-session.ts';
import { storedCapacityExport } from './capacity-export.ts';
import { answerRows, CSV_HEADER, exportCsv, exportRows } from './export-rows.ts';

function comparison() {
  const report = fixtureReport('grouped');
  const labels = {
    name: '=cmd|" /C calc"!A0',
    kind: 'ebs' as const,
    instanceType: 'r5d.4xlarge',
    volumeType: 'gp3' as const,
    volumeSizeGiB: 1000,
    volumeIops: 16_000,
    volumeThroughputMiBps: 1000,
  };
  const r = buildComparison(
    [{ id: 'AAAAAAAAAAAAAAAAAAAAAA', labels, report, summary: summarizeRun(report, labels) }],
    null,
  );
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('CSV / JSON export', () => {
  it('a type that cannot serve the load is marked not viable with its reason, never "0 GiB, $0"', () => {
    // 4 KiB random reads on an r5d.4xlarge: st1 and sc1 (1 MiB per I/O) cannot carry them.
    const report = fixtureReport('randread4k');
    const labels = {
      kind: 'ebs' as const,
      instanceType: 'r5d.4xlarge',
      volumeType: 'gp3' as const,
      volumeSizeGiB: 1000,
      volumeIops: 16_000,
      volumeThroughputMiBps: 1000,
    };
    const r = buildComparison(
      [{ id: 'AAAAAAAAAAAAAAAAAAAAAA', labels, report, summary: summarizeRun(report, labels) }],
      null,
    );
    if (!r.ok) throw new Error(r.error.message);
    const notViable = r.value.plans[0]!.plan.rightSizing.recommendations.filter(
      (x) => x.status === 'not-viable',
    );
    expect(notViable.map((x) => x.type).sort()).toEqual(['sc1', 'st1']);
    const rows = exportRows(r.value);
    for (const rec of notViable) {
      const mine = rows.filter((row) => row[0] === 'right-size' && row[1].endsWith(`→ ${rec.type}`));
      expect(mine).toEqual([
        ['right-size', mine[0]![1], 'status', 'not-viable', '', rec.reasons.join(' | ')],
      ]);
      expect(mine[0]![5]).toMatch(/random I\/O/);
    }
    // The viable ones keep their size and cost.
    const gp2 = rows.filter((row) => row[0] === 'right-size' && row[1].endsWith('→ gp2'));
    expect(gp2.find((row) => row[2] === 'size')?.[3]).toBeGreaterThan(0);
    expect(gp2.find((row) => row[2] === 'total per month')?.[3]).toBeGreaterThan(0);
  });

  it('one row per number with its unit; labels from uploads are defused', () => {
    const result = comparison();
    const rows = exportRows(result);
    expect(rows.find((r) => r[2] === 'read IOPS')).toEqual([
      'run',
      '=cmd|" /C calc"!A0 (ebs)',
      'read IOPS',
      result.runs[0]!.summary.headline.readIops,
      'IOPS',
    ]);
    const bw = rows.find((r) => r[0] === 'limit' && r[2] === 'Instance EBS bandwidth capacity')!;
    expect(bw[4]).toBe('MiB/s');
    expect(bw[5]).toMatch(/AWS quotes 4750 Mbps/);
    const csv = exportCsv(result);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER.join(','));
    // The formula is written as text: a leading quote, inside RFC 4180 quoting.
    expect(lines[2]).toBe(
      `run,"'=cmd|"" /C calc""!A0 (ebs)",read IOPS,${result.runs[0]!.summary.headline.readIops},IOPS,`,
    );
    expect(lines.some((l) => /^[^']*,=/.test(l))).toBe(false);
  });

  it('a comparison of different fio jobs exports its jobs_differ warning and the withheld verdict', () => {
    const ebs = fixtureReport('grouped');
    const nvme = fixtureReport('raid5');
    const le = { name: 'ebs', kind: 'ebs' as const };
    const ln = { name: 'nvme', kind: 'nvme' as const };
    const r = buildComparison(
      [
        { id: 'AAAAAAAAAAAAAAAAAAAAAA', labels: le, report: ebs, summary: summarizeRun(ebs, le) },
        { id: 'BBBBBBBBBBBBBBBBBBBBBB', labels: ln, report: nvme, summary: summarizeRun(nvme, ln) },
      ],
      null,
    );
    if (!r.ok) throw new Error(r.error.message);
    const rows = exportRows(r.value);
    expect(rows.filter((row) => row[0] === 'comparison warning')).toEqual([
      ['comparison warning', 'NVMe vs EBS', 'jobs_differ', r.value.warnings![0]!.message, '', undefined],
    ]);
    expect(rows.filter((row) => row[0] === 'latency EBS vs NVMe')).toEqual([
      ['latency EBS vs NVMe', 'overall', 'verdict', 'withheld: jobs_differ', ''],
    ]);
  });
});

describe('answerRows (the CSV opens with the answer)', () => {
  it('one row per line the answer says, in its order, lines it does not say left out', () => {
    const rows = answerRows({
      for: 'gp3 1000 GiB',
      needs: 'Needs 13,125 IOPS and 650 MiB/s.',
      binds: 'Instance EBS bandwidth binds at 87.2%.',
      instance: null,
      provision: 'Provision gp3 1,000 GiB for $176.39/month.',
      nvme: null,
      prices: 'us-east-1 prices of 2024-07-18',
    });
    expect(rows.map((r) => r[2])).toEqual(['needs', 'what binds', 'what to buy', 'prices']);
    expect(rows.every((r) => r[0] === 'answer' && r[1] === 'gp3 1000 GiB')).toBe(true);
    expect(rows[2]![3]).toBe('Provision gp3 1,000 GiB for $176.39/month.');
  });
});

describe('a share link without demand: the CSV says what each storage delivered', () => {
  it('one “delivered” row per run, and no “needs” anywhere', () => {
    const runs = (['grouped', 'perJob'] as const).map((f, i) => {
      const report = fixtureReport(f);
      const labels = { name: `run ${i + 1}`, kind: 'ebs' as const };
      return { id: `${'AB'[i]!.repeat(22)}`, labels, report, summary: summarizeRun(report, labels) };
    });
    // Two runs at saturation and a session without demand: stored without a plan (issue 27).
    const plan = planSession({ instanceType: 'r5d.4xlarge', candidates: [{ type: 'gp3', sizeGiB: 1000 }] });
    const r = buildComparison(runs, plan);
    if (!r.ok) throw new Error(r.error.message);
    const capacity = storedCapacityAnswer({ plan, result: r.value })!;
    const csv = exportCsv(r.value, {}, storedCapacityExport(capacity, r.value.rates));
    const answer = csv.split('\r\n').filter((l) => l.startsWith('answer,'));
    expect(answer.filter((l) => l.includes(',delivered,'))).toEqual([
      'answer,run 1 (fio · EBS),delivered,"32,085 IOPS and 1,462 MiB/s (read + write), p99 latency 19.53 ms",,',
      'answer,run 2 (fio · EBS),delivered,"20,948 IOPS and 954 MiB/s (read + write), p99 latency ≤ 20.32 ms",,',
    ]);
    expect(answer.some((l) => /^answer,[^,]*,needs,/.test(l))).toBe(false);
    // (The comparison's "not what your workload needs" is the point; no line says "Needs …".)
    expect(csv).not.toMatch(/Needs/);
  });

  it('a link saved before replay marks holding typed-in peaks: the lead names them, never “No demand yet”', () => {
    const runs = (['grouped', 'perJob'] as const).map((f, i) => {
      const report = fixtureReport(f);
      const labels = { name: `run ${i + 1}`, kind: 'ebs' as const };
      return { id: `${'AB'[i]!.repeat(22)}`, labels, report, summary: summarizeRun(report, labels) };
    });
    // As the older web saved it: the first run (at saturation) as the profile, no replaysLoad.
    const plan = planSession({
      profileRef: `run:${'A'.repeat(22)}`,
      observed: [CLOUDWATCH_PEAK],
      instanceType: 'r5d.4xlarge',
      candidates: [{ type: 'gp3', sizeGiB: 1000 }],
    });
    const r = buildComparison(runs, plan);
    if (!r.ok) throw new Error(r.error.message);
    const capacity = storedCapacityAnswer({ plan, result: r.value })!;
    const csv = exportCsv(r.value, {}, storedCapacityExport(capacity, r.value.rates));
    expect(csv).not.toMatch(/No demand yet/);
    expect(csv).toContain('This link was sized on a benchmark run, not on the workload’s peaks “prod peak”');
    const answer = csv.split('\r\n').filter((l) => l.startsWith('answer,'));
    // Its subject says it holds demand it was not sized on (not "no demand"), the lead row is a lead,
    // and the stored plans' rows below are marked as a what-if on the run at saturation.
    expect(answer[0]).toMatch(/^answer,not sized on its demand: what each storage delivered,lead,/);
    expect(answer.some((l) => /^answer,[^,]*,no demand,/.test(l))).toBe(false);
    expect(answer).toContain(
      'answer,not sized on its demand: what each storage delivered,plans note,"What-if on run 1 (a benchmark at saturation), not the workload’s need.",,',
    );
  });
});
