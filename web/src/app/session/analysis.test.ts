import * as analysisModule from '@blockwise/shared/analysis';
import * as catalogModule from '@blockwise/shared/catalog';
import { describe, expect, it, vi } from 'vitest';
import { joinCatalog } from '../../lib/catalog.ts';
import { fixtureReport } from '../../test/fixtures.ts';
import { analyzeSession } from './analysis.ts';
import { remapSession, saveBlockers, saveSession } from './save-session.ts';
import { fromPlanSession, initialSession, toPlanSession, type SessionState } from './session-state.ts';

const ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const catalog = joinCatalog(catalogModule, analysisModule);

function state(over: Partial<SessionState['settings']> = {}): SessionState {
  return {
    ...initialSession,
    inputs: [
      {
        kind: 'fio',
        id: 'local-run',
        origin: 'file',
        fileName: 'r6id-gp3.json',
        sizeBytes: 7000,
        blob: new Blob(['{}']),
        serverRunId: null,
        status: 'ready',
        report: fixtureReport('grouped'),
        error: null,
        labels: { kind: 'ebs', instanceType: 'r6id.4xlarge', volumeType: 'gp3', volumeSizeGiB: 1000 },
      },
      {
        kind: 'observed',
        id: 'o1',
        metrics: {
          read: { iops: 3043, throughput: 188, throughputUnit: 'MiB/s' },
          write: { iops: 6018, throughput: 381, throughputUnit: 'MiB/s' },
        },
      },
    ],
    settings: { ...initialSession.settings, instanceType: 'r6id.4xlarge', ...over },
  };
}

describe('analyzeSession', () => {
  it('computes what Save & share will store, with the NVMe option of a store instance', () => {
    const a = analyzeSession(
      state({ candidates: [{ type: 'gp3', sizeGiB: 1000, iops: 6000, throughputMiBps: 500, count: 1 }] }),
      catalog,
    );
    expect(a.result?.ok).toBe(true);
    if (!a.result?.ok) return;
    expect(a.result.value.plans.map((p) => p.title)).toEqual([
      'gp3 1000 GiB, 6,000 IOPS, 500 MiB/s',
      'local NVMe (r6id.4xlarge instance store)',
    ]);
    // The typed-in peaks are demand; the fio run (no rate set) is capacity evidence, never sized on.
    expect(a.effective.profileRef).toBe('observed:o1');
    expect(a.demand).toEqual({ ref: 'observed:o1', basis: 'newest', waiting: null });
    expect(a.roles.get('local-run')?.role).toBe('capacity');
    expect(a.inputs.get('local-run')?.summary?.plan?.instanceType).toBe('r6id.4xlarge');
    expect(a.nvmePremiums['r6id.4xlarge']).toMatchObject({ baseType: 'r6i.4xlarge', dType: 'r6id.4xlarge' });
  });

  it('leaves an invalid candidate and bad rates out, and says why', () => {
    const a = analyzeSession(
      state({
        candidates: [
          { type: 'gp3', sizeGiB: 10, iops: 16_000, count: 1 },
          { type: 'io2', sizeGiB: 100, iops: 5000, count: 1 },
        ],
        rateOverrides: 'gp3.iops=cheap',
      }),
      catalog,
    );
    expect(a.candidateProblems[0]![0]!.message).toMatch(/500 IOPS per GiB/);
    expect(a.candidateProblems[1]).toEqual([]);
    expect(a.candidateIndex).toEqual([1]);
    expect(a.rateProblem?.code).toBe('rates_invalid');
    expect(a.result?.ok).toBe(true);
    expect(
      saveBlockers(state({ candidates: [{ type: 'gp3', sizeGiB: 10, iops: 16_000, count: 1 }] }), a).join(
        ' ',
      ),
    ).toMatch(/Candidate 1 needs a fix/);
  });

  it('before the catalog loads: profiles only', () => {
    const a = analyzeSession(state(), null);
    expect(a.result).toBeNull();
    expect(a.hasProfiles).toBe(true);
    expect(a.inputs.get('o1')?.profile?.ok).toBe(true);
  });
});

describe('saveSession', () => {
  it('uploads the file with its labels, then stores the session with the server’s run id', async () => {
    // The run replays the load (marked so): a demand source the user chose, so the link refers to it.
    const base = state({ profileRef: 'run:local-run' });
    const s = {
      ...base,
      inputs: base.inputs.map((i) => (i.kind === 'fio' ? { ...i, replaysLoad: true } : i)),
    };
    const a = analyzeSession(s, catalog);
    const report = fixtureReport('grouped');
    const calls: { url: string; init?: RequestInit }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, init });
        if (url.startsWith('/api/runs'))
          return new Response(
            JSON.stringify({
              runs: [
                { id: ID, url: `/runs/${ID}`, created: true, summary: catalog.summarizeRun(report, {}) },
              ],
            }),
            { status: 201 },
          );
        return new Response(
          JSON.stringify({ id: 'CCCCCCCCCCCCCCCCCCCCCC', url: '/c/CCCCCCCCCCCCCCCCCCCCCC' }),
          { status: 201 },
        );
      }),
    );
    const dispatch = vi.fn();
    const steps: string[] = [];
    const created = await saveSession(s, a, dispatch, 'review', (p) => steps.push(p.step));
    vi.unstubAllGlobals();
    expect(created.url).toBe('/c/CCCCCCCCCCCCCCCCCCCCCC');
    expect(calls[0]!.url).toBe(
      '/api/runs?kind=ebs&instanceType=r6id.4xlarge&volumeType=gp3&volumeSizeGiB=1000',
    );
    expect(dispatch).toHaveBeenCalledWith({ type: 'uploaded', id: 'local-run', serverRunId: ID });
    const body = JSON.parse(calls[1]!.init!.body as string);
    expect(body).toMatchObject({
      title: 'review',
      runIds: [ID],
      // The mark travels with the link, under the server's id: the share page reads it as demand.
      plan: { profileRef: `run:${ID}`, version: 1, replaysLoad: [`run:${ID}`] },
    });
    expect(body.plan.observed).toHaveLength(1);
    expect(steps).toEqual(['Uploading r6id-gp3.json (1 of 1)…', 'Creating the share link…']);
  });

  it('capacity evidence only: the link names no profile, so it stores no plan (never the first run as “Needs”)', async () => {
    const base = state();
    const s = { ...base, inputs: base.inputs.filter((i) => i.kind === 'fio') };
    const a = analyzeSession(s, catalog);
    // The page's sections still plan on the run as a what-if; the answer has no demand.
    expect(a.effective.profileRef).toBe('run:local-run');
    expect(a.demand.ref).toBeNull();
    const bodies: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.startsWith('/api/runs'))
          return new Response(
            JSON.stringify({
              runs: [
                {
                  id: ID,
                  url: `/runs/${ID}`,
                  created: true,
                  summary: catalog.summarizeRun(fixtureReport('grouped'), {}),
                },
              ],
            }),
            { status: 201 },
          );
        bodies.push(init!.body as string);
        return new Response(
          JSON.stringify({ id: 'CCCCCCCCCCCCCCCCCCCCCC', url: '/c/CCCCCCCCCCCCCCCCCCCCCC' }),
          {
            status: 201,
          },
        );
      }),
    );
    await saveSession(s, a, vi.fn(), '', () => {});
    vi.unstubAllGlobals();
    // No run marked, and the link says so (an empty list, not absent: the marks were kept).
    expect(JSON.parse(bodies[0]!)).toMatchObject({
      runIds: [ID],
      plan: { profileRef: null, observed: [], replaysLoad: [] },
    });
  });

  it('a sysbench run travels as a benchmark’s numbers (role capacity), typed-in peaks as demand', () => {
    const session = toPlanSession({
      ...initialSession,
      inputs: [
        state().inputs[1]!,
        {
          kind: 'observed',
          id: 'sb',
          metrics: {
            read: { iops: 100, throughput: 1, throughputUnit: 'MiB/s' },
            write: { iops: 0, throughput: 0, throughputUnit: 'MiB/s' },
          },
          capacity: true,
        },
      ],
    });
    expect(session.observed.map((o) => [o.id, o.role])).toEqual([
      ['o1', undefined],
      ['sb', 'capacity'],
    ]);
    // Read back (a saved session opened again): still a benchmark's numbers, not sized on.
    const back = fromPlanSession(session, { kind: 'new' });
    expect(back.inputs.map((i) => i.kind === 'observed' && i.capacity === true)).toEqual([false, true]);
    expect(analyzeSession(back, catalog).demand.ref).toBe('observed:o1');
  });

  it('a failed upload names the file', async () => {
    const s = state();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: 'payload_too_large', message: 'too big' } }), {
            status: 413,
          }),
      ),
    );
    const e = await saveSession(s, analyzeSession(s, catalog), vi.fn(), '', () => {}).catch(
      (x: unknown) => x,
    );
    vi.unstubAllGlobals();
    expect(e).toMatchObject({
      fileName: 'r6id-gp3.json',
      message: expect.stringMatching(/larger than the server accepts/),
    });
  });

  it('remaps only run references', () => {
    const a = analyzeSession(state(), catalog);
    expect(remapSession({ ...a.effective, profileRef: 'observed:o1' }, new Map()).profileRef).toBe(
      'observed:o1',
    );
    expect(remapSession({ ...a.effective, profileRef: 'run:x' }, new Map([['x', ID]])).profileRef).toBe(
      `run:${ID}`,
    );
    // Replay marks too; a mark on a run that was not uploaded is dropped.
    expect(
      remapSession({ ...a.effective, replaysLoad: ['run:x', 'run:gone'] }, new Map([['x', ID]])).replaysLoad,
    ).toEqual([`run:${ID}`]);
    // A session with no runs has no marks to keep (a link of typed-in peaks stays as it was).
    expect(toPlanSession({ ...initialSession, inputs: [state().inputs[1]!] })).not.toHaveProperty(
      'replaysLoad',
    );
  });
});
