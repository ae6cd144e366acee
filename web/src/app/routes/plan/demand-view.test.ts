import * as analysisModule from '@blockwise/shared/analysis';
import * as catalogModule from '@blockwise/shared/catalog';
import { parseFio } from '@blockwise/shared/fio';
import { describe, expect, it } from 'vitest';
// The same 4 KiB randwrite capped at rate_iops=500 (fixtures/fio/settings/README.md): it replays a load.
import rateIops500 from '../../../../../fixtures/fio/settings/s2_randwrite_4k_rate_iops500_thinktime100.json?raw';
import { joinCatalog } from '../../../lib/catalog.ts';
import { fixtureReport } from '../../../test/fixtures.ts';
import { analyzeSession } from '../../session/analysis.ts';
import {
  initialSession,
  type FioInput,
  type SessionInput,
  type SessionState,
} from '../../session/session-state.ts';
import { answerOf } from '@blockwise/shared/answer';
import {
  actionStatusOf,
  deliveredOfSession,
  demandSourcesOf,
  statusOfAction,
  storeHoldsText,
} from './demand-view.ts';

const catalog = joinCatalog(catalogModule, analysisModule);

function fio(id: string, report: FioInput['report'], over: Partial<FioInput> = {}): FioInput {
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
    labels: {},
    ...over,
  };
}

const typed: SessionInput = {
  kind: 'observed',
  id: 'peaks',
  metrics: {
    label: 'orders-db peak',
    read: { iops: 3043, throughput: 188, throughputUnit: 'MiB/s' },
    write: { iops: 6018, throughput: 381, throughputUnit: 'MiB/s' },
  },
};

const session = (inputs: SessionInput[], over: Partial<SessionState['settings']> = {}): SessionState => ({
  ...initialSession,
  inputs,
  settings: { ...initialSession.settings, ...over },
});

const nvme = fio('nvme', fixtureReport('grouped'));
const ebs = fio('ebs', fixtureReport('perJob'));

describe('two fio runs at saturation: capacity evidence, no demand', () => {
  it('no demand source; what each delivered, compared', () => {
    const s = session([nvme, ebs]);
    const a = analyzeSession(s, catalog);
    expect(a.demand).toEqual({ ref: null, basis: 'none', waiting: null });
    expect(demandSourcesOf(s.inputs, a)).toEqual([]);
    const d = deliveredOfSession(s.inputs, a);
    expect(d.rows.map((r) => r.text)).toEqual([
      '32,085 IOPS and 1,462 MiB/s (read + write), p99 latency 19.53 ms',
      // Per-job percentiles merged (fio's per-job entries): the largest job's, an upper bound.
      '20,948 IOPS and 954 MiB/s (read + write), p99 latency ≤ 20.32 ms',
    ]);
    expect(d.comparison).toMatch(
      /^nvme\.json delivered 1\.5× the IOPS of ebs\.json and 1\.5× its throughput\./,
    );
  });

  it('typed peaks arrive: they are the demand, named with where they come from', () => {
    const s = session([nvme, ebs, typed], { profileRef: 'run:nvme' });
    const a = analyzeSession(s, catalog);
    expect(a.effective.profileRef).toBe('observed:peaks');
    expect(demandSourcesOf(s.inputs, a)).toEqual([
      {
        ref: 'observed:peaks',
        title: 'orders-db peak',
        description: 'peaks typed in (orders-db peak): as read from the dashboard, at its resolution',
      },
    ]);
    // Capacity not known: no dataset, no volume — never a 1 GiB recommendation.
    const plan = a.result?.ok ? a.result.value.plans[0]!.plan : null;
    const answer = answerOf(plan!, 1, undefined, null);
    expect(answer.needs).toBe(
      'Needs 11,327 IOPS and 712 MiB/s: the peak plus 25% headroom; capacity not known.',
    );
    expect(answer.provision).toBe(
      'Provision gp3 for 11,327 IOPS, 712 MiB/s; its size waits for the dataset size (capacity not known), so no monthly cost is given.',
    );
    const withData = analyzeSession({ ...s, settings: { ...s.settings, datasetGiB: 2000 } }, catalog);
    const sized = answerOf(
      withData.result?.ok ? withData.result.value.plans[0]!.plan : plan!,
      1,
      undefined,
      2000,
    );
    expect(sized.needs).toBe('Needs 11,327 IOPS and 712 MiB/s: the peak plus 25% headroom; 2,000 GiB.');
    expect(sized.provision).toMatch(
      /^Provision gp3 2,000 GiB, 11,327 IOPS, 712 MiB\/s for \$[\d,.]+\/month\.$/,
    );
  });

  it('with growth, every size is the grown dataset and "Needs" says both numbers', () => {
    const s = session([nvme, ebs, typed], { profileRef: 'run:nvme' });
    const grown = analyzeSession(
      {
        ...s,
        settings: {
          ...s.settings,
          datasetGiB: 1500,
          datasetGrowth: { percentPerYear: 20, horizonMonths: 12 },
        },
      },
      catalog,
    );
    const plan = grown.result?.ok ? grown.result.value.plans[0]!.plan : null;
    const answer = answerOf(plan!, 1, undefined, 1500);
    expect(answer.needs).toBe(
      'Needs 11,327 IOPS and 712 MiB/s: the peak plus 25% headroom; 1,500 GiB today, 1,800 GiB in 12 months at 20 %/year.',
    );
    expect(answer.provision).toMatch(/^Provision gp3 1,800 GiB, /);
  });

  it('a run capped with rate_iops replays a load: demand', () => {
    const parsed = parseFio(rateIops500);
    if (!parsed.ok) throw new Error('fixture');
    const s = session([nvme, fio('paced', parsed.report)]);
    const a = analyzeSession(s, catalog);
    expect(a.roles.get('paced')).toEqual({
      role: 'demand',
      why: 'rate-limited (rate_iops=500): it replays a load',
    });
    expect(a.effective.profileRef).toBe('run:paced');
    expect(demandSourcesOf(s.inputs, a)[0]?.description).toBe(
      'fio replay paced.json: the mean rate over the 3-second run',
    );
    // Or the user marks a saturated run as replaying their load.
    const marked = session([fio('nvme', nvme.report, { replaysLoad: true }), ebs]);
    expect(analyzeSession(marked, catalog).demand.ref).toBe('run:nvme');
  });
});

describe('the status of the last action', () => {
  const failed = (id: string, message: string): FioInput =>
    fio(id, null, { status: 'error', error: { code: 'empty_input', message } });

  it.each([
    [[nvme, ebs], ['nvme', 'ebs'], 'All 2 files were read.', 'ok'],
    [
      [nvme, failed('empty', 'the file is empty'), failed('notes', 'not fio')],
      ['nvme', 'empty', 'notes'],
      '2 of 3 files failed: empty.json (the file is empty); notes.json (not fio); 1 file read.',
      'error',
    ],
    [[fio('slow', null, { status: 'parsing' }), nvme], ['slow', 'nvme'], 'Reading 1 file of 2…', 'busy'],
  ] as const)('%#', (inputs, ids, text, tone) => {
    expect(actionStatusOf(inputs, ids)).toEqual({ text, tone });
  });

  it('says whether the new demand is planned on or waits', () => {
    const inputs = [nvme, typed];
    expect(
      statusOfAction(inputs, { control: 'peaks', ids: ['peaks'] }, { ref: 'observed:peaks', waiting: null })
        ?.text,
    ).toBe('Peaks added. The answer plans on orders-db peak.');
    expect(
      statusOfAction(
        inputs,
        { control: 'peaks', ids: ['peaks'] },
        { ref: 'observed:other', waiting: 'observed:peaks' },
      )?.text,
    ).toBe('Peaks added. orders-db peak waits to be planned for: “Plan for this” in the answer.');
    expect(statusOfAction(inputs, null, { ref: null, waiting: null })).toBeNull();
  });
});

describe('an NVMe alternative against the dataset', () => {
  it.each([
    ['r6id.8xlarge', 2000, false],
    ['r6id.8xlarge', 1500, true],
    ['r6id.4xlarge', null, null],
  ] as const)('%s with %s GiB', (type, dataset, holds) => {
    const check = storeHoldsText(catalog.findInstanceType(type) ?? null, dataset);
    expect(check?.holds).toBe(holds);
    if (holds === null) expect(check?.text).toMatch(/capacity not known/);
  });
  it.each([
    // r6id.8xlarge's store: ~1,653 GiB after formatting
    [
      1500,
      { percentPerYear: 20, horizonMonths: 12 },
      false,
      /it cannot hold the 1,800 GiB the dataset grows to in 12 months at 20 %\/year \(it holds today’s 1,500 GiB\)\.$/,
    ],
    [
      1500,
      { percentPerYear: 5, horizonMonths: 12 },
      true,
      /it holds the dataset \(1,500 GiB today, 1,575 GiB in 12 months at 5 %\/year\)\.$/,
    ],
    [1500, null, true, /it holds the 1,500 GiB dataset\.$/],
  ] as const)('r6id.8xlarge with %s GiB growing by %j: holds %s', (dataset, growth, holds, text) => {
    const check = storeHoldsText(catalog.findInstanceType('r6id.8xlarge') ?? null, dataset, growth);
    expect(check?.holds).toBe(holds);
    expect(check?.text).toMatch(text);
  });
  it('no store: nothing to check', () => {
    expect(storeHoldsText(catalog.findInstanceType('r6i.4xlarge') ?? null, 100)).toBeNull();
  });
});
