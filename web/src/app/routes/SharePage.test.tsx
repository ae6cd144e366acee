import { type Comparison } from '@blockwise/shared/api';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { buildComparison, summarizeRun } from '@blockwise/shared/analysis';
import { render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOUDWATCH_PEAK, planSession } from '../../../../shared/src/test-support/plan-session.ts';
import { fixtureReport } from '../../test/fixtures.ts';
import { SessionProvider } from '../session/SessionProvider.tsx';
import SharePage from './SharePage.tsx';

const ID = 'CCCCCCCCCCCCCCCCCCCCCC';

function stored(): Comparison {
  const ebs = fixtureReport('grouped');
  const nvme = fixtureReport('raid5');
  const le = {
    name: '<img src=x onerror=alert(1)> gp3',
    kind: 'ebs' as const,
    instanceType: 'r6id.4xlarge',
    volumeType: 'gp3' as const,
    volumeSizeGiB: 1000,
    volumeIops: 16_000,
    volumeThroughputMiBps: 1000,
  };
  const ln = { name: 'r6id nvme', kind: 'nvme' as const, instanceType: 'r6id.4xlarge' };
  const plan = planSession({
    profileRef: 'run:AAAAAAAAAAAAAAAAAAAAA1',
    instanceType: 'r6id.4xlarge',
    candidates: [{ type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000, count: 1 }],
    region: 'eu-central-1',
    nodes: 4,
    residency: 'high',
  });
  const result = buildComparison(
    [
      { id: 'AAAAAAAAAAAAAAAAAAAAA1', labels: le, report: ebs, summary: summarizeRun(ebs, le) },
      { id: 'AAAAAAAAAAAAAAAAAAAAA2', labels: ln, report: nvme, summary: summarizeRun(nvme, ln) },
    ],
    plan,
  );
  if (!result.ok) throw new Error(result.error.message);
  return {
    id: ID,
    url: `/c/${ID}`,
    createdAt: '2026-11-20T10:00:00.000Z',
    title: 'pg: r6i gp3 vs r6id NVMe',
    runIds: ['AAAAAAAAAAAAAAAAAAAAA1', 'AAAAAAAAAAAAAAAAAAAAA2'],
    plan,
    result: result.value,
    priceTableDate: result.value.rates.date,
    analysisVersion: ANALYSIS_VERSION,
  };
}

afterEach(() => vi.unstubAllGlobals());

/** The heading commits first and the sections in a transition after it: waits for both. */
async function sharedPageDrawn() {
  await screen.findByRole('heading', { level: 1, name: 'pg: r6i gp3 vs r6id NVMe' });
  await screen.findByRole('region', { name: 'Rate card' }, { timeout: 8000 });
}

describe('SharePage', () => {
  it('renders exactly the stored result, read-only', async () => {
    const comparison = stored();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(comparison), { status: 200 })),
    );
    render(
      <SessionProvider>
        <SharePage id={ID} />
      </SessionProvider>,
    );
    await sharedPageDrawn();
    expect(screen.getByRole('button', { name: 'Open as a new planning session' })).toBeDefined();
    // Labels from uploads are text, never HTML.
    expect(screen.getAllByText(/<img src=x onerror=alert\(1\)> gp3/).length).toBeGreaterThan(0);
    expect(document.querySelector('img')).toBeNull();
    // The stored plans, in the stored order, as tabs.
    const tabs = within(screen.getByRole('tablist', { name: 'Configurations' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(
      expect.arrayContaining([expect.stringContaining(comparison.result.plans[0]!.title)]),
    );
    // Price date and source as stored.
    const rates = screen.getByRole('region', { name: 'Rate card' });
    expect(within(rates).getByText(comparison.result.rates.date)).toBeDefined();
    expect(within(rates).getByText(comparison.result.rates.source)).toBeDefined();
    // Read-only: no what-if controls, no rate editor.
    expect(screen.queryByText('Candidate volumes')).toBeNull();
    expect(screen.queryByRole('combobox', { name: /Price region/ })).toBeNull();
    // The stored bottleneck sentence appears as stored.
    expect(screen.getByText(comparison.result.plans[0]!.plan.bottleneck!.explanation)).toBeDefined();
  });

  it('runs of different fio jobs: jobs_differ before the numbers and in the NVMe-vs-EBS section, no verdict', async () => {
    const comparison = stored();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(comparison), { status: 200 })),
    );
    const { container } = render(
      <SessionProvider>
        <SharePage id={ID} />
      </SessionProvider>,
    );
    await sharedPageDrawn();
    // At the top of the page, with the stored message, before the runs and every number.
    const warning = container.querySelector('[data-code="jobs_differ"]')!;
    expect(warning.textContent).toContain(comparison.result.warnings![0]!.message);
    const runs = screen.getByRole('region', { name: 'Runs' });
    expect(warning.compareDocumentPosition(runs) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // In the comparison: announced, each differing setting with both values, no verdict.
    const compare = screen.getByRole('region', { name: 'NVMe vs EBS' });
    const alert = within(compare).getByRole('alert');
    expect(alert.textContent).toContain('Different fio jobs: no verdict.');
    const differences = within(alert).getByRole('table', { name: 'fio settings that differ' });
    for (const d of comparison.result.nvmeVsEbs!.differences) {
      const row = within(differences).getByRole('row', { name: new RegExp(`^${d.setting} `) });
      expect(row.textContent).toBe(`${d.setting}${d.reference}${d.candidate}`);
    }
    expect(screen.queryByText(/Same fio job/)).toBeNull();
    expect(within(compare).getAllByText('withheld: different fio jobs').length).toBeGreaterThan(0);
    expect(within(compare).queryByText(/^EBS [+−]/)).toBeNull();
    expect(within(compare).getByText(/no verdict — the runs ran different fio jobs/)).toBeDefined();
  });

  it('a comparison stored before jobs were compared still opens, without claiming the jobs were the same', async () => {
    const comparison = stored();
    const { nvmeVsEbs: _pair, warnings: _warnings, ...old } = comparison.result;
    const legacy = {
      ...comparison,
      result: { ...old, runs: old.runs.map(({ jobSettings: _settings, ...r }) => r) },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(legacy), { status: 200 })),
    );
    render(
      <SessionProvider>
        <SharePage id={ID} />
      </SessionProvider>,
    );
    await sharedPageDrawn();
    const compare = screen.getByRole('region', { name: 'NVMe vs EBS' });
    expect(within(compare).queryByRole('alert')).toBeNull();
    expect(
      within(compare).getByText(/Whether both runs ran the same fio job cannot be checked/),
    ).toBeDefined();
    expect(screen.queryByText(/Same fio job/)).toBeNull();
  });

  it('a link saved before replay marks, sized on a run at saturation: its peaks are named, its plans a what-if', async () => {
    const base = stored();
    // As the older web saved it: the first run (at saturation) named as the profile, no marks kept.
    const plan = { ...base.plan!, observed: [CLOUDWATCH_PEAK] };
    const result = buildComparison(
      base.result.runs.map((r) => {
        const report = fixtureReport(r.id.endsWith('1') ? 'grouped' : 'raid5');
        return { id: r.id, labels: r.labels, report, summary: summarizeRun(report, r.labels) };
      }),
      plan,
    );
    if (!result.ok) throw new Error(result.error.message);
    const comparison = { ...base, plan, result: result.value };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify(comparison), { status: 200 })),
    );
    render(
      <SessionProvider>
        <SharePage id={ID} />
      </SessionProvider>,
    );
    await sharedPageDrawn();
    expect(screen.queryByText(/No demand yet/)).toBeNull();
    expect(
      screen.getByText(/^This link was sized on a benchmark run, not on the workload’s peaks “prod peak”/),
    ).toBeDefined();
    expect(
      screen.getByText(/^What-if on .* gp3 \(a benchmark at saturation\), not the workload’s need\.$/),
    ).toBeDefined();
  });

  it('a link to nothing: a clear message, not a crash', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: 'comparison_not_found', message: 'gone' } }), {
            status: 404,
          }),
      ),
    );
    render(
      <SessionProvider>
        <SharePage id={ID} />
      </SessionProvider>,
    );
    expect(await screen.findByText('This link does not point to a comparison')).toBeDefined();
  });
});
