import { buildComparison, summarizeRun } from '@blockwise/shared/analysis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fixtureReport } from '../test/fixtures.ts';
import {
  ApiError,
  createComparison,
  describeApiError,
  getComparison,
  getRun,
  labelsToQuery,
  listRuns,
  uploadRun,
} from './api-client.ts';

const ID = 'AAAAAAAAAAAAAAAAAAAAAA';

function mockFetch(status: number, body: unknown) {
  const fn = vi.fn(
    async (_url: string, _init?: RequestInit) =>
      new Response(typeof body === 'string' ? body : JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fn);
  return fn;
}

afterEach(() => vi.unstubAllGlobals());

function storedComparison() {
  const report = fixtureReport('grouped');
  const labels = { kind: 'ebs' as const, instanceType: 'r6i.4xlarge' };
  const summary = summarizeRun(report, labels);
  const result = buildComparison([{ id: ID, labels, report, summary }], null);
  if (!result.ok) throw new Error(result.error.message);
  return {
    id: 'CCCCCCCCCCCCCCCCCCCCCC',
    url: '/c/CCCCCCCCCCCCCCCCCCCCCC',
    createdAt: '2026-11-20T10:00:00.000Z',
    title: null,
    runIds: [ID],
    plan: null,
    result: result.value,
    priceTableDate: '2022-02-10',
    analysisVersion: '2026.11.1',
  };
}

describe('api-client: every response is validated with the contract', () => {
  it('reads a stored comparison', async () => {
    const stored = storedComparison();
    const fetch = mockFetch(200, stored);
    const c = await getComparison(stored.id);
    expect(c.result.runs[0]!.summary.headline.readIops).toBe(
      stored.result.runs[0]!.summary.headline.readIops,
    );
    expect(fetch.mock.calls[0]![0]).toBe('/api/comparisons/CCCCCCCCCCCCCCCCCCCCCC');
  });

  it('turns a response that drifts from the contract into a readable error', async () => {
    mockFetch(200, { ...storedComparison(), analysisVersion: 42 });
    await expect(getComparison('CCCCCCCCCCCCCCCCCCCCCC')).rejects.toMatchObject({
      code: 'bad_response',
      message: expect.stringMatching(/analysisVersion/),
    });
  });

  it('maps {error:{code,message,path}} bodies to ApiError', async () => {
    mockFetch(404, { error: { code: 'run_not_found', message: 'no run with this id' } });
    const e = await getRun(ID).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 404, code: 'run_not_found', message: 'no run with this id' });
  });

  it('rejects malformed ids before any request', async () => {
    const fetch = mockFetch(200, {});
    await expect(getRun('../../etc/passwd')).rejects.toMatchObject({ code: 'run_not_found' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says so when the server cannot be reached', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const e = await listRuns({}).catch((x: unknown) => x);
    expect(e).toMatchObject({ code: 'network' });
    expect(describeApiError(e)).toMatch(/could not be reached/);
  });

  it('lists runs with filters and a cursor in the query', async () => {
    const fetch = mockFetch(200, { items: [], nextCursor: null });
    await listRuns({ series: 'pg-data', kind: 'nvme', instance: '', cursor: 'abc', limit: 25 });
    expect(fetch.mock.calls[0]![0]).toBe('/api/runs?series=pg-data&kind=nvme&cursor=abc&limit=25');
  });

  it('uploads a file as multipart with its labels as query parameters', async () => {
    const report = fixtureReport('grouped');
    const summary = summarizeRun(report, {});
    const fetch = mockFetch(201, { runs: [{ id: ID, url: `/runs/${ID}`, created: true, summary }] });
    const labels = {
      kind: 'ebs' as const,
      instanceType: 'r6i.4xlarge',
      volumeType: 'gp3' as const,
      volumeSizeGiB: 1000,
      tags: { env: 'prod' },
    };
    const run = await uploadRun(new Blob(['{}']), 'fio.json', labels);
    expect(run.id).toBe(ID);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe(
      '/api/runs?kind=ebs&instanceType=r6i.4xlarge&volumeType=gp3&volumeSizeGiB=1000&tag.env=prod',
    );
    expect(init!.method).toBe('POST');
    expect(init!.body).toBeInstanceOf(FormData);
    expect((init!.body as FormData).get('file')).toBeInstanceOf(Blob);
    expect(labelsToQuery({ name: 'a b' }).toString()).toBe('name=a+b');
  });

  it('creates a comparison and returns its short link', async () => {
    const fetch = mockFetch(201, { id: 'CCCCCCCCCCCCCCCCCCCCCC', url: '/c/CCCCCCCCCCCCCCCCCCCCCC' });
    const created = await createComparison({ runIds: [ID] });
    expect(created.url).toBe('/c/CCCCCCCCCCCCCCCCCCCCCC');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ runIds: [ID] });
  });
});
