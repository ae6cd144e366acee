import * as analysisModule from '@blockwise/shared/analysis';
import * as catalogModule from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { exportCsv } from '../../../features/export/export-rows.ts';
import { joinCatalog } from '../../../lib/catalog.ts';
import { fixtureReport } from '../../../test/fixtures.ts';
import { analyzeSession } from '../../session/analysis.ts';
import { initialSession, type FioInput, type SessionState } from '../../session/session-state.ts';
import { sessionAnswerExport } from './answer-export.ts';

const catalog = joinCatalog(catalogModule, analysisModule);

function fio(id: string, report: FioInput['report'], over: Partial<FioInput> = {}): FioInput {
  const labels = { kind: 'ebs' as const, instanceType: 'r6id.4xlarge', volumeType: 'gp3' as const };
  return {
    kind: 'fio',
    id,
    origin: 'file',
    fileName: `${id}.json`,
    sizeBytes: 7000,
    blob: null,
    serverRunId: null,
    status: 'ready',
    report,
    error: null,
    labels,
    ...over,
  };
}

/** The planning page's CSV of a session, with the answer its header exports (PlanHeader). */
function csvOf(state: SessionState) {
  const analysis = analyzeSession(state, catalog);
  const result = analysis.result;
  if (!result?.ok) throw new Error('the session does not plan');
  const view = { state, analysis, result, firstPlan: result.value.plans[0]?.plan, eff: analysis.effective };
  const csv = exportCsv(result.value, {}, sessionAnswerExport(view));
  // The answer's rows as [item, metric, value]: section "answer" first, unit and note empty.
  const answer = csv
    .split('\r\n')
    .filter((l) => l.startsWith('answer,'))
    .map((l) => /^answer,("[^"]*"|[^,]*),([^,]*),(.*),,$/.exec(l)!.slice(1));
  return { answer, csv };
}

const settings = {
  ...initialSession.settings,
  instanceType: 'r6id.4xlarge',
  candidates: [{ type: 'gp3' as const, sizeGiB: 1000, iops: 6000, throughputMiBps: 500, count: 1 }],
};

describe('the planning page’s CSV opens with its answer', () => {
  it('capacity evidence only (two fio runs at saturation): one “delivered” row per run, no “needs”', () => {
    const state = {
      ...initialSession,
      inputs: [fio('nvme', fixtureReport('grouped')), fio('ebs', fixtureReport('perJob'))],
      settings,
    };
    const { answer, csv } = csvOf(state);
    // The sections below still plan on a run as a what-if: the answer must not export it as a need.
    expect(answer.map((r) => r[1])).toEqual([
      'lead',
      'delivered',
      'delivered',
      'comparison',
      'ask',
      'prices',
    ]);
    expect(answer.filter((r) => r[1] === 'delivered')).toEqual([
      [
        'nvme.json (fio · EBS)',
        'delivered',
        '"32,085 IOPS and 1,462 MiB/s (read + write), p99 latency 19.53 ms"',
      ],
      [
        'ebs.json (fio · EBS)',
        'delivered',
        '"20,948 IOPS and 954 MiB/s (read + write), p99 latency ≤ 20.32 ms"',
      ],
    ]);
    expect(answer.some((r) => r[1] === 'needs')).toBe(false);
    expect(csv).not.toMatch(/Needs/);
  });

  it('with demand (the run marked as replaying the load): the plan’s lines, “needs” first', () => {
    const state = {
      ...initialSession,
      inputs: [fio('nvme', fixtureReport('grouped'), { replaysLoad: true })],
      settings,
    };
    const { answer } = csvOf(state);
    expect(answer[0]!.slice(0, 2)).toEqual(['"gp3 1000 GiB, 6,000 IOPS, 500 MiB/s"', 'needs']);
    expect(answer[0]![2]).toMatch(/^"Needs 40,107 IOPS/);
    expect(answer.some((r) => r[1] === 'delivered')).toBe(false);
  });
});
