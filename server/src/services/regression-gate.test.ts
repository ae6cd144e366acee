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
import { recentReportsOf, recentRunsOf } from '../ingest/recent-runs.ts';
import { ParsePool } from '../ingest/parse-pool.ts';
import type { RunStore } from '../store/run-store.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import { fixture, makeTestApp } from '../testing/test-app.ts';
import { pickPairComparison } from './regression-gate.ts';

/**
 * The comparison the regression check links is frozen at upload: of the two stored reports, which
 * for a many-job file are megabytes of JSON. Building it must not hold the event loop: the
 * reports are read as text and parsed, compared and serialized in the parse pool, unless small.
 */

const fio = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
const NO_LIMIT = { name: 'test', limit: 1_000_000, windowMs: 60_000 };

/** The store, counting the calls that decode a whole stored report on the main thread. */
function countingStore(store: RunStore): {
  store: RunStore;
  getRun: () => number;
  getRunJson: () => number;
  getRunJsonBytes: () => number;
} {
  let getRun = 0;
  let getRunJson = 0; // the report decoded into a string
  let getRunJsonBytes = 0; // the report read back as bytes
  const spy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (prop === 'getRun') getRun += 1;
        if (prop === 'getRunJson') getRunJson += 1;
        if (prop === 'getRunJsonBytes') getRunJsonBytes += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    store: spy,
    getRun: () => getRun,
    getRunJson: () => getRunJson,
    getRunJsonBytes: () => getRunJsonBytes,
  };
}

async function setup(options: { largeBodyBytes?: number; maxHeldBytes?: number } = {}) {
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
    getRunCalls: counting.getRun,
    getRunJsonCalls: counting.getRunJson,
    getRunJsonBytesCalls: counting.getRunJsonBytes,
    async close() {
      await t.close();
      await pool.close();
      await real.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const upload = (t: Awaited<ReturnType<typeof setup>>['t'], branch: string, commit: string) =>
  request(t.app)
    .post(`/api/runs?series=gate&branch=${branch}&commit=${commit}`)
    .set('Content-Type', 'application/json')
    .serialize((b: unknown) => b as string)
    .send(fio);

async function linkedComparison(t: Awaited<ReturnType<typeof setup>>['t'], runId: string) {
  const check = RunRegressionSchema.parse((await request(t.app).get(`/api/runs/${runId}/regression`)).body);
  expect(check.comparisonUrl).toMatch(/\/c\/[A-Za-z0-9_-]{22}$/);
  const id = check.comparisonUrl!.split('/c/')[1]!;
  const comparison = await t.store.getComparison(id);
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

describe('freezing the baseline comparison at upload', () => {
  it('large reports: read as JSON text, compared in the pool; no stored report decoded on the main thread', async () => {
    // Every report of this fixture is "large" here, as a 7,000-job one is with the defaults.
    const s = await setup({ largeBodyBytes: 1024 });
    try {
      const baseline = CreatedRunSchema.parse((await upload(s.t, 'main', 'aaaa1')).body);
      const jobsBefore = s.pool.stats.jobs;
      const compared: StoredRunText[][] = [];
      const compare = s.pool.compare.bind(s.pool);
      s.pool.compare = (runs, reservation) => {
        compared.push(runs);
        return compare(runs, reservation);
      };
      const res = await upload(s.t, 'main', 'bbbb2');
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const run = CreatedRunSchema.parse(res.body);
      // The upload's analysis and the comparison: two jobs in the pool.
      expect(s.pool.stats.jobs - jobsBefore).toBe(2);
      expect(s.getRunCalls()).toBe(0);
      expect(s.getRunJsonCalls()).toBe(0);
      // Nor read back as bytes: the baseline's report was kept from its own upload (recentReportsOf).
      expect(s.getRunJsonBytesCalls()).toBe(0);
      // Both reports went to the worker as UTF-8 bytes, moved (their buffers are detached here),
      // never a string on this thread (P13): the baseline's as kept from its upload, the upload's
      // own as its analysis in the pool sent it.
      expect(compared.map((runs) => runs.map((r) => r.id))).toEqual([[baseline.id, run.id]]);
      for (const report of compared[0]!.map((r) => r.reportJson)) {
        expect(report).toBeInstanceOf(Uint8Array);
        expect((report as Uint8Array).byteLength).toBe(0);
      }

      const comparison = await linkedComparison(s.t, run.id);
      expect(comparison.runIds).toEqual([baseline.id, run.id]);
      // The regression check itself reads the run without decoding its report either.
      expect(s.getRunCalls()).toBe(0);
      // What the worker built is what the same function builds inline from the stored text.
      expect(await inlineComparison(s, [baseline.id, run.id])).toEqual(comparison.result);
    } finally {
      await s.close();
    }
  });

  it('large reports: a baseline not kept here (another replica, a restart, a feature branch before it) is read back from the store as bytes, and compares the same', async () => {
    const s = await setup({ largeBodyBytes: 1024 });
    try {
      const baseline = CreatedRunSchema.parse((await upload(s.t, 'main', 'aaaa1')).body);
      // Another process never saw that upload: what it would find here is nothing.
      expect(recentReportsOf(s.t.ctx.store).take(baseline.id)?.id).toBe(baseline.id);
      // A feature branch's run is no one's baseline: nothing of it is kept.
      await upload(s.t, 'feature', 'ffff1').expect(201);
      expect(s.getRunJsonBytesCalls()).toBe(1);
      const run = CreatedRunSchema.parse((await upload(s.t, 'main', 'bbbb2').expect(201)).body);
      expect(s.getRunJsonBytesCalls()).toBe(2);
      expect(s.getRunJsonCalls()).toBe(0);
      const comparison = await linkedComparison(s.t, run.id);
      expect(await inlineComparison(s, [baseline.id, run.id])).toEqual(comparison.result);
      // The run just stored on main is kept for the next one; the feature branch's is not.
      const kept = recentReportsOf(s.t.ctx.store);
      expect(kept.size).toBe(1);
      expect(kept.get(run.id)?.id).toBe(run.id);
    } finally {
      await s.close();
    }
  });

  it('small reports (the default threshold): compared inline, no pool job', async () => {
    const s = await setup();
    try {
      await upload(s.t, 'main', 'aaaa1').expect(201);
      const run = CreatedRunSchema.parse((await upload(s.t, 'main', 'bbbb2').expect(201)).body);
      expect(s.pool.stats.jobs).toBe(0);
      expect(s.getRunCalls()).toBe(0);
      expect((await linkedComparison(s.t, run.id)).runIds[1]).toBe(run.id);
    } finally {
      await s.close();
    }
  });

  it('RecentRuns charges what it holds of the upload: its summary twice (objects and text), its plan’s JSON and its job settings', async () => {
    const s = await setup();
    try {
      const run = CreatedRunSchema.parse((await upload(s.t, 'main', 'aaaa1').expect(201)).body);
      const stored = (await s.real.getRunJson(run.id))!;
      const summary = JSON.parse(stored.summaryJson) as { plan: unknown };
      const jobSettings = jobSettingsOf(FioReportSchema.parse(JSON.parse(stored.reportJson)));
      const recent = recentRunsOf(s.t.store);
      expect(recent.size).toBe(1);
      expect(recent.bytes).toBe(
        2 * Buffer.byteLength(stored.summaryJson) +
          Buffer.byteLength(JSON.stringify(summary.plan)) +
          Buffer.byteLength(JSON.stringify(jobSettings)),
      );
    } finally {
      await s.close();
    }
  });

  it('a pool without room for the comparison: 503 busy with Retry-After, the run stored; the retry freezes it', async () => {
    const maxHeldBytes = 1024 * 1024;
    const s = await setup({ largeBodyBytes: 1024, maxHeldBytes });
    try {
      await upload(s.t, 'main', 'aaaa1').expect(201);
      // Another request holds all the room but what this upload's body needs.
      const other = s.pool.reserve(maxHeldBytes - fio.length)!;
      expect(other).not.toBeNull();
      const refused = await upload(s.t, 'main', 'bbbb2');
      expect(refused.status, JSON.stringify(refused.body)).toBe(503);
      expect(refused.body.error.code).toBe('busy');
      expect(refused.headers['retry-after']).toBe('5');
      other.release();
      expect(s.pool.heldBytes).toBe(0); // nothing leaked by the refused comparison

      const retried = await upload(s.t, 'main', 'bbbb2');
      expect(retried.status).toBe(200); // the run was stored by the first attempt
      const run = CreatedRunSchema.parse(retried.body);
      expect((await linkedComparison(s.t, run.id)).runIds[1]).toBe(run.id);
    } finally {
      await s.close();
    }
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
      'only one frozen by 2026.11.2 (uploaded before the bump): that one, never recomputed on read',
      [previous, older],
      'previous',
    ],
    [
      'one of today’s version beside older ones (a retried upload after the bump froze it again)',
      [previous, today, older],
      'today',
    ],
  ])('%s', (_what, refs, id) => {
    expect(pickPairComparison(refs)?.id ?? null).toBe(id);
  });
});
