import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CreatedRunSchema, RunRegressionSchema } from '@blockwise/shared/api';
import { jobSettingsOf } from '@blockwise/shared/compare';
import { FioReportSchema } from '@blockwise/shared/fio';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { buildPairComparison, type StoredRunText } from '../ingest/pair-comparison.ts';
import { recentRunsOf } from '../ingest/recent-runs.ts';
import { ParsePool } from '../ingest/parse-pool.ts';
import type { RunStore } from '../store/run-store.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import { fixture, makeTestApp } from '../testing/test-app.ts';
import { runInput } from '../store/testing/run-inputs.ts';
import { pickPairComparison } from './regression-gate.ts';

/**
 * The comparison the regression check links is frozen when that link is first opened, not at
 * upload: of the two stored reports, which for a many-job file are megabytes of JSON. Building it
 * must not hold the event loop: the reports are read as bytes and parsed, compared and serialized
 * in the parse pool, unless small.
 */

const fio = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
const NO_LIMIT = { name: 'test', limit: 1_000_000, windowMs: 60_000 };

/**
 * The store, counting calls by method: getRun and getRunJson decode a whole stored report on the
 * main thread, getRunJsonBytes reads it back as bytes, getRunMeta reads none, ensurePairComparison
 * stores a comparison.
 */
function countingStore(store: RunStore): { store: RunStore; calls: (method: keyof RunStore) => number } {
  const counts = new Map<PropertyKey, number>();
  const spy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        counts.set(prop, (counts.get(prop) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store: spy, calls: (method) => counts.get(method) ?? 0 };
}

type SetupOptions = { largeBodyBytes?: number; maxHeldBytes?: number };
type Gate = Awaited<ReturnType<typeof setup>>;

async function setup(options: SetupOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'bw-gate-'));
  const real = await openSqliteStore({ path: join(dir, 'blockwise.db') });
  const counting = countingStore(real);
  const pool = new ParsePool({ size: 1, maxQueue: 2, timeoutMs: 60_000, maxHeldBytes: options.maxHeldBytes });
  const t = await makeTestApp({
    store: counting.store,
    dir,
    pool,
    rateLimits: { writesAnonymous: NO_LIMIT },
    config: options.largeBodyBytes === undefined ? {} : { largeBodyBytes: options.largeBodyBytes },
  });
  return {
    t,
    pool,
    real,
    getRunCalls: () => counting.calls('getRun'),
    getRunJsonCalls: () => counting.calls('getRunJson'),
    getRunMetaCalls: () => counting.calls('getRunMeta'),
    getRunJsonBytesCalls: () => counting.calls('getRunJsonBytes'),
    ensurePairCalls: () => counting.calls('ensurePairComparison'),
    async close() {
      await t.close();
      await pool.close();
      await real.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `body` with a fresh gate setup, closed after it whatever happens. */
async function withGate(
  ...args: [body: (s: Gate) => Promise<void>] | [options: SetupOptions, body: (s: Gate) => Promise<void>]
) {
  const [options, body] = args.length === 1 ? [{}, args[0]] : args;
  const s = await setup(options);
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

const upload = (t: Awaited<ReturnType<typeof setup>>['t'], branch: string, commit: string) =>
  request(t.app)
    .post(`/api/runs?series=gate&branch=${branch}&commit=${commit}`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(fio);

/** An upload that must be stored (201): its answer. */
async function uploaded(t: Awaited<ReturnType<typeof setup>>['t'], branch: string, commit: string) {
  return CreatedRunSchema.parse((await upload(t, branch, commit).expect(201)).body);
}

async function regressionCheck(t: Awaited<ReturnType<typeof setup>>['t'], runId: string) {
  return RunRegressionSchema.parse(
    (await request(t.app).get(`/api/runs/${runId}/regression`).expect(200)).body,
  );
}

/** Opens the check's link to the comparison with the baseline: the frozen comparison it leads to. */
async function linkedComparison(t: Awaited<ReturnType<typeof setup>>['t'], runId: string) {
  const link = (await regressionCheck(t, runId)).comparisonUrl;
  expect(link).toMatch(/^\/c\/pair\/[A-Za-z0-9_-]{22}\/[A-Za-z0-9_-]{22}$/);
  const opened = await request(t.app).get(link!);
  expect(opened.status, JSON.stringify(opened.body)).toBe(303);
  expect(opened.headers.location).toMatch(/^\/c\/[A-Za-z0-9_-]{22}$/);
  const comparison = await t.store.getComparison(opened.headers.location!.slice('/c/'.length));
  return comparison!;
}

/** What buildPairComparison builds inline from the two runs' stored text (null when it cannot). */
async function inlineComparison(s: Awaited<ReturnType<typeof setup>>, ids: [string, string]) {
  const stored = await Promise.all(ids.map((id) => s.real.getRunJson(id)));
  const inline = buildPairComparison(
    stored.map((r) => ({
      id: r!.id,
      labels: r!.labels,
      reportJson: r!.reportJson,
      summaryJson: r!.summaryJson,
    })),
  );
  return inline.ok ? (JSON.parse(inline.resultJson) as unknown) : null;
}

describe('the baseline comparison, frozen when the regression check’s link is first opened', () => {
  it('an upload builds and stores no comparison; the check links /c/pair/BASELINE/RUN; opening it freezes one, once', async () => {
    await withGate(async (s) => {
      const baseline = await uploaded(s.t, 'main', 'aaaa1');
      const run = await uploaded(s.t, 'main', 'bbbb2');
      expect(await s.real.findPairComparisons([baseline.id, run.id])).toEqual([]);
      expect(recentRunsOf(s.t.store).size).toBe(0); // nothing parsed back, nothing kept
      expect(s.getRunJsonBytesCalls()).toBe(0);
      const check = await regressionCheck(s.t, run.id);
      expect(check.comparisonUrl).toBe(`/c/pair/${baseline.id}/${run.id}`);

      const first = await linkedComparison(s.t, run.id);
      expect(first.runIds).toEqual([baseline.id, run.id]);
      expect(first.title).toBe('gate: main@aaaa1 vs main@bbbb2');
      expect(await inlineComparison(s, [baseline.id, run.id])).toEqual(first.result);
      // Opened again: the same comparison, no run read, nothing built; the check now links it directly.
      const reads = s.getRunJsonBytesCalls();
      const again = await request(s.t.app).get(`/c/pair/${baseline.id}/${run.id}`).expect(303);
      expect(again.headers.location).toBe(`/c/${first.id}`);
      expect(again.headers['cache-control']).toBe('no-store');
      expect(s.getRunJsonBytesCalls()).toBe(reads);
      expect(s.ensurePairCalls()).toBe(1);
      expect((await regressionCheck(s.t, run.id)).comparisonUrl).toBe(`/c/${first.id}`);
      expect(await s.real.findPairComparisons([baseline.id, run.id])).toHaveLength(1);
      // The first run of the branch has no baseline, so no link.
      expect((await regressionCheck(s.t, baseline.id)).comparisonUrl).toBeNull();
    });
  });

  it('large reports: read as bytes, compared in the pool; no stored report decoded on the main thread', async () => {
    // Every report of this fixture is "large" here, as a 7,000-job one is with the defaults.
    await withGate({ largeBodyBytes: 1024 }, async (s) => {
      const baseline = await uploaded(s.t, 'main', 'aaaa1');
      const run = await uploaded(s.t, 'main', 'bbbb2');
      const jobsBefore = s.pool.stats.jobs;
      const compared: StoredRunText[][] = [];
      const compare = s.pool.compare.bind(s.pool);
      s.pool.compare = (runs) => {
        compared.push(runs);
        return compare(runs);
      };
      const comparison = await linkedComparison(s.t, run.id);
      expect(comparison.runIds).toEqual([baseline.id, run.id]);
      expect(s.pool.stats.jobs - jobsBefore).toBe(1);
      // Neither the upload, nor the check, nor its link decoded a stored report into a string.
      expect(s.getRunCalls()).toBe(0);
      // The check and the link read the run without its report; the link reads both reports as
      // bytes (in the writer's thread: sqlite-store.test), once each.
      expect(s.getRunJsonCalls()).toBe(0);
      expect(s.getRunMetaCalls()).toBe(2);
      expect(s.getRunJsonBytesCalls()).toBe(2);
      // Both reports went to the worker as UTF-8 bytes, moved (their buffers are detached here).
      expect(compared.map((runs) => runs.map((r) => r.id))).toEqual([[baseline.id, run.id]]);
      for (const report of compared[0]!.map((r) => r.reportJson)) {
        expect(report).toBeInstanceOf(Uint8Array);
        expect((report as Uint8Array).byteLength).toBe(0);
      }
      // What the worker built is what the same function builds inline from the stored text.
      expect(await inlineComparison(s, [baseline.id, run.id])).toEqual(comparison.result);
    });
  });

  it('small reports (the default threshold): compared inline, no pool job; both runs kept in RecentRuns for the next comparison, charged their summary’s JSON and job settings', async () => {
    await withGate(async (s) => {
      const baseline = await uploaded(s.t, 'main', 'aaaa1');
      const run = await uploaded(s.t, 'feature', 'ffff1');
      const other = await uploaded(s.t, 'feature', 'ffff2');
      expect((await linkedComparison(s.t, run.id)).runIds).toEqual([baseline.id, run.id]);
      expect(s.pool.stats.jobs).toBe(0);
      expect(s.getRunCalls()).toBe(0);
      const recent = recentRunsOf(s.t.store);
      expect(recent.size).toBe(2);
      const charge = async (id: string) => {
        const stored = (await s.real.getRunJson(id))!;
        const jobSettings = jobSettingsOf(FioReportSchema.parse(JSON.parse(stored.reportJson)));
        return Buffer.byteLength(stored.summaryJson) + Buffer.byteLength(JSON.stringify(jobSettings));
      };
      expect(recent.bytes).toBe((await charge(baseline.id)) + (await charge(run.id)));
      // Another run of the branch, compared with the same baseline: the baseline is not read again.
      const reads = s.getRunJsonBytesCalls();
      expect((await linkedComparison(s.t, other.id)).runIds).toEqual([baseline.id, other.id]);
      expect(s.getRunJsonBytesCalls()).toBe(reads + 1);
    });
  });

  it('only the run’s latest baseline makes a pair: another run, an unknown id, a run without a series → 404', async () => {
    await withGate(async (s) => {
      const first = await uploaded(s.t, 'main', 'aaaa1');
      const second = await uploaded(s.t, 'main', 'bbbb2');
      const run = await uploaded(s.t, 'main', 'cccc3');
      const older = await request(s.t.app).get(`/c/pair/${first.id}/${run.id}`).expect(404);
      expect(older.body.error).toMatchObject({ code: 'comparison_not_found', path: 'baselineId' });
      expect(older.body.error.message).toContain('is not the latest baseline');
      // The link is public: which run is the baseline is for those who may read the check.
      expect(older.text).not.toContain(second.id);
      const reversed = await request(s.t.app).get(`/c/pair/${run.id}/${second.id}`).expect(404);
      expect(reversed.body.error.code).toBe('comparison_not_found');
      const unknown = await request(s.t.app)
        .get(`/c/pair/${second.id}/${'A'.repeat(22)}`)
        .expect(404);
      expect(unknown.body.error).toMatchObject({ code: 'run_not_found', path: 'runId' });
      await request(s.t.app).get(`/c/pair/not-an-id/${run.id}`).expect(404);
      const plain = CreatedRunSchema.parse(
        (
          await request(s.t.app)
            .post('/api/runs')
            .set('Content-Type', 'application/json')
            .serialize((b: unknown) => b as string)
            .send(fio)
            .expect(201)
        ).body,
      );
      const noSeries = await request(s.t.app).get(`/c/pair/${run.id}/${plain.id}`).expect(404);
      expect(noSeries.body.error.message).toContain('no series label');
      await request(s.t.app).post(`/c/pair/${second.id}/${run.id}`).expect(405);
      expect(
        await Promise.all([first, second].map((b) => s.real.findPairComparisons([b.id, run.id]))),
      ).toEqual([[], []]);
      // A link that makes no pair reads no report (MBs for a many-job run), only runs' metadata.
      expect([s.getRunJsonBytesCalls(), s.getRunJsonCalls(), s.getRunCalls()]).toEqual([0, 0, 0]);
    });
  });

  it('a pool without room for the comparison: 503 busy with Retry-After, nothing stored; opened again, it is frozen', async () => {
    const maxHeldBytes = 1024 * 1024;
    await withGate({ largeBodyBytes: 1024, maxHeldBytes }, async (s) => {
      const baseline = await uploaded(s.t, 'main', 'aaaa1');
      const run = await uploaded(s.t, 'main', 'bbbb2');
      // Another request holds all the room but a little.
      const other = s.pool.reserve(maxHeldBytes - 1024)!;
      expect(other).not.toBeNull();
      const refused = await request(s.t.app).get(`/c/pair/${baseline.id}/${run.id}`);
      expect(refused.status, JSON.stringify(refused.body)).toBe(503);
      expect(refused.body.error.code).toBe('busy');
      expect(refused.headers['retry-after']).toBe('5');
      other.release();
      expect(s.pool.heldBytes).toBe(0); // nothing leaked by the refused comparison
      expect(await s.real.findPairComparisons([baseline.id, run.id])).toEqual([]);
      expect((await linkedComparison(s.t, run.id)).runIds).toEqual([baseline.id, run.id]);
    });
  });

  it('concurrent openings of one link: one build, one comparison', async () => {
    await withGate(async (s) => {
      const baseline = await uploaded(s.t, 'main', 'aaaa1');
      const run = await uploaded(s.t, 'main', 'bbbb2');
      const openings = await Promise.all(
        [1, 2, 3, 4].map(() => request(s.t.app).get(`/c/pair/${baseline.id}/${run.id}`)),
      );
      expect(openings.map((o) => o.status)).toEqual([303, 303, 303, 303]);
      expect(new Set(openings.map((o) => o.headers.location)).size).toBe(1);
      expect(s.ensurePairCalls()).toBe(1);
    });
  });

  it('HEAD (link checkers, previews) builds nothing: 200 before the comparison exists, 303 to it after', async () => {
    await withGate(async (s) => {
      const baseline = await uploaded(s.t, 'main', 'aaaa1');
      const run = await uploaded(s.t, 'main', 'bbbb2');
      const link = `/c/pair/${baseline.id}/${run.id}`;
      await request(s.t.app).head(link).expect(200);
      await request(s.t.app).head(`/c/pair/x/${run.id}`).expect(404);
      expect([s.ensurePairCalls(), s.getRunJsonBytesCalls()]).toEqual([0, 0]);
      const opened = await request(s.t.app).get(link).expect(303);
      const head = await request(s.t.app).head(link).expect(303);
      expect(head.headers.location).toBe(opened.headers.location);
      expect(s.ensurePairCalls()).toBe(1);
    });
  });

  it('a person who opens a link that leads nowhere gets a page saying why; a program gets the JSON error', async () => {
    await withGate(async (s) => {
      const first = await uploaded(s.t, 'main', 'aaaa1');
      const second = await uploaded(s.t, 'main', 'bbbb2');
      const run = await uploaded(s.t, 'main', 'cccc3');
      const page = await request(s.t.app)
        .get(`/c/pair/${first.id}/${run.id}`)
        .set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
        .expect(404);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('<h1>No comparison at this link</h1>');
      expect(page.text).toContain('is not the latest baseline');
      expect(page.text).not.toContain(second.id);
      const json = await request(s.t.app)
        .get(`/c/pair/${first.id}/${run.id}`)
        .set('Accept', 'application/json')
        .expect(404);
      expect(json.body.error.code).toBe('comparison_not_found');
    });
  });

  it('a run whose stored documents today’s schemas refuse: 422 stored_run_invalid, nothing stored', async () => {
    await withGate(async (s) => {
      const baseline = await uploaded(s.t, 'main', 'aaaa1');
      // Stored directly, with a document that is not a fio report (as another version might have).
      const { run } = await s.real.insertRun(
        runInput({}, { series: 'gate', branch: 'main', commit: 'bbbb2' }),
      );
      const refused = await request(s.t.app).get(`/c/pair/${baseline.id}/${run.id}`).expect(422);
      expect(refused.body.error.code).toBe('stored_run_invalid');
      expect(refused.body.error.message).toContain(`run ${run.id}`);
      expect(await s.real.findPairComparisons([baseline.id, run.id])).toEqual([]);
    });
  });

  it('public like the share link it leads to: opened without a token on a server that requires one', async () => {
    await withGate(async (s) => {
      const baseline = await uploaded(s.t, 'main', 'aaaa1');
      const run = await uploaded(s.t, 'main', 'bbbb2');
      const t = await makeTestApp({ store: s.real, pool: s.pool, config: { auth: 'required' } });
      try {
        await request(t.app).get(`/api/runs/${run.id}/regression`).expect(401);
        const opened = await request(t.app).get(`/c/pair/${baseline.id}/${run.id}`).expect(303);
        expect(opened.headers.location).toMatch(/^\/c\/[A-Za-z0-9_-]{22}$/);
      } finally {
        await t.close();
      }
    });
  });
});

describe('pickPairComparison: which frozen comparison of a pair the regression check links, across analysis versions', () => {
  // findPairComparisons answers newest first; one comparison per pair and analysis version.
  const today = { id: 'today', createdAt: 3, analysisVersion: ANALYSIS_VERSION };
  const previous = { id: 'previous', createdAt: 2, analysisVersion: '2026.11.2' };
  const older = { id: 'older', createdAt: 1, analysisVersion: '2026.11.1' };
  it.each([
    ['none frozen yet', [], null],
    [
      'only one frozen by 2026.11.2 (before the bump): that one, never recomputed on read',
      [previous, older],
      'previous',
    ],
    [
      'one of today’s version beside older ones (two replicas froze it across the bump)',
      [previous, today, older],
      'today',
    ],
  ])('%s', (_what, refs, id) => {
    expect(pickPairComparison(refs)?.id ?? null).toBe(id);
  });
});
