import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { builtInCatalog, installBuiltInCatalog, installCatalog } from '@blockwise/shared/catalog';
import { DEFAULT_CONFIG } from '../app.ts';
import { fixture, makeTestApp } from '../testing/test-app.ts';
import { analyzeUpload, type AnalyzedUpload } from './analyze-upload.ts';
import { ParsePool, type Reservation } from './parse-pool.ts';

const MiB = 1024 * 1024;

/** An analysis with its report as text, whichever form it came in (the worker sends UTF-8 bytes). */
function withReportText(analyzed: AnalyzedUpload): AnalyzedUpload {
  if (!analyzed.ok || typeof analyzed.reportJson === 'string') return analyzed;
  return { ...analyzed, reportJson: Buffer.from(analyzed.reportJson).toString('utf8') };
}
describe('ParsePool admission (P7: bounded memory for large uploads)', () => {
  it('reserves by count and by body bytes; an idle pool always admits one request', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000, maxHeldBytes: 48 * MiB });
    const a = pool.reserve(20 * MiB);
    const b = pool.reserve(20 * MiB);
    expect(a && b).toBeTruthy();
    expect(pool.reserve(20 * MiB)).toBeNull(); // 60 MiB > 48 MiB
    expect(pool.reserve(1 * MiB)).not.toBeNull(); // 41 MiB still fits
    expect(pool.load).toBe(3);
    a!.release();
    a!.release(); // idempotent
    expect(pool.load).toBe(2);
    expect(pool.reserve(30 * MiB)).toBeNull(); // 21 + 30 > 48
    expect(pool.reserve(20 * MiB)).not.toBeNull(); // 21 + 20 ≤ 48
    await pool.close();

    const idle = new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000, maxHeldBytes: 48 * MiB });
    const huge = idle.reserve(50 * MiB); // the upload limit: admitted when nothing else is held
    expect(huge).not.toBeNull();
    expect(idle.reserve(1)).toBeNull();
    huge!.release();
    expect(idle.load).toBe(0);
    await idle.close();
  });

  it('caps the number of admitted large requests at size + maxQueue', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 1, timeoutMs: 60_000 });
    expect(pool.reserve(2 * MiB)).not.toBeNull();
    expect(pool.reserve(2 * MiB)).not.toBeNull();
    expect(pool.reserve(2 * MiB)).toBeNull();
    await pool.close();
  });

  it('small requests (≤ largeJobBytes) have their own, larger count limit within the byte budget', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 1, timeoutMs: 60_000, maxSmallJobs: 10 });
    const large = [pool.reserve(2 * MiB), pool.reserve(2 * MiB)];
    expect(large.every(Boolean)).toBe(true);
    // The large slots are full, yet ten 200 KB uploads are admitted, and the eleventh is not.
    const small = Array.from({ length: 10 }, () => pool.reserve(200 * 1024));
    expect(small.every(Boolean)).toBe(true);
    expect(pool.reserve(200 * 1024)).toBeNull();
    expect(pool.load).toBe(12);
    await pool.close();
  });

  it('refuses an unreserved job with 503 + Retry-After while the pool is full', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 0, timeoutMs: 60_000, largeJobBytes: 5 });
    const slot = pool.reserve(10);
    await expect(pool.analyze(new Uint8Array(10), {}, 100)).rejects.toMatchObject({
      status: 503,
      headers: { 'Retry-After': '5' },
    });
    slot!.release();
    expect(pool.reserve(10)).not.toBeNull(); // and nothing leaked from the refused job
    await pool.close();
  });
});

describe('ParsePool workers', () => {
  const small = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');

  it('keeps its warm worker after a job that leaves its heap small, large by its bytes or not', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000, largeJobBytes: 64 * 1024 });
    for (let i = 0; i < 3; i++) expect((await pool.analyze(small, {}, MiB)).ok).toBe(true);
    expect(pool.stats).toEqual({ jobs: 3, workersStarted: 1 });
    // A large job by its bytes (here: > 64 KiB, padded with spaces fio's JSON allows) that leaves
    // the worker holding less than 128 MiB: it stays (the regression gate's comparison of two
    // ~1.9 MB reports is such a job, once per opening of a large run's comparison link: bench P13).
    const padded = Buffer.concat([small, Buffer.alloc(100 * 1024, 0x20)]);
    expect((await pool.analyze(padded, {}, MiB)).ok).toBe(true);
    expect((await pool.analyze(small, {}, MiB)).ok).toBe(true);
    expect(pool.stats).toEqual({ jobs: 5, workersStarted: 1 });
    await pool.close();
  });

  it('retires a worker that a job left holding more than retireMemoryBytes: the next job gets a fresh one', async () => {
    // Any worker holds more than 1 byte: every job retires its worker, as a 20 MiB json+ parse
    // (~190 MiB of heap and buffers left behind) does with the default 128 MiB (bench P7).
    const pool = new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000, retireMemoryBytes: 1 });
    expect((await pool.analyze(small, {}, MiB)).ok).toBe(true);
    expect((await pool.analyze(small, {}, MiB)).ok).toBe(true);
    expect(pool.stats).toEqual({ jobs: 2, workersStarted: 2 });
    await pool.close();
  });

  it('keepWarm(): a worker started before any job, and started again when one is retired', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000, retireMemoryBytes: 1 });
    expect(pool.stats).toEqual({ jobs: 0, workersStarted: 0 });
    pool.keepWarm();
    expect(pool.stats).toEqual({ jobs: 0, workersStarted: 1 });
    // The job runs in that worker; it is retired after (any worker holds more than 1 byte) and
    // the next one is started at once, before any job asks for it.
    expect((await pool.analyze(small, {}, MiB)).ok).toBe(true);
    expect(pool.stats).toEqual({ jobs: 1, workersStarted: 2 });
    expect(pool.snapshot().running).toBe(0);
    await pool.close();
  });

  it('without keepWarm() (tests, the CLI), no worker starts until a job needs one', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000, retireMemoryBytes: 1 });
    expect((await pool.analyze(small, {}, MiB)).ok).toBe(true);
    expect(pool.stats).toEqual({ jobs: 1, workersStarted: 1 });
    await pool.close();
  });

  it('snapshot() (GET /metrics) shows jobs waiting, running and admitted, and drains to zero', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000, largeJobBytes: 64 * 1024 });
    const padded = Buffer.concat([small, Buffer.alloc(100 * 1024, 0x20)]);
    // One worker: the first job runs (dispatched at once), the others wait.
    const jobs = [pool.analyze(small, {}, MiB), pool.analyze(small, {}, MiB), pool.analyze(padded, {}, MiB)];
    expect(pool.snapshot()).toEqual({
      queued: { small: 1, large: 1 },
      running: 1,
      admitted: { small: 2, large: 1 },
      heldBytes: 2 * small.length + padded.length,
      jobs: 1,
    });
    for (const result of await Promise.all(jobs)) expect(result.ok).toBe(true);
    expect(pool.snapshot()).toEqual({
      queued: { small: 0, large: 0 },
      running: 0,
      admitted: { small: 0, large: 0 },
      heldBytes: 0,
      jobs: 3,
    });
    await pool.close();
  });

  it('returns the report serialized, as UTF-8 bytes (moved: movableAnalysis), the same text as the inline analysis', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000 });
    const inWorker = await pool.analyze(small, { name: 'x' }, MiB);
    expect(withReportText(inWorker)).toEqual(analyzeUpload(small, { name: 'x' }, MiB));
    // Bytes in memory of their own (not a slice of a pool): never a string on the event loop (P13).
    const report = inWorker.ok ? inWorker.reportJson : null;
    expect(report).toBeInstanceOf(Uint8Array);
    expect((report as Uint8Array).byteOffset).toBe(0);
    expect((report as Uint8Array).byteLength).toBe((report as Uint8Array).buffer.byteLength);
    await pool.close();
  });
});

describe('workers plan with the catalog this process installed (--catalog)', () => {
  it('an upload analyzed in a worker is priced like one analyzed inline, with the installed catalog', async () => {
    const labels = {
      name: 'priced',
      kind: 'ebs' as const,
      instanceType: 'r5.4xlarge',
      volumeType: 'gp3' as const,
      volumeSizeGiB: 500,
      volumeIops: 6000,
      volumeThroughputMiBps: 250,
    };
    // A refreshed catalog whose us-east-1 gp3 storage costs $0.50/GiB-month instead of $0.08.
    const refreshed = structuredClone(builtInCatalog());
    refreshed.ebs['us-east-1']!.rates.gp3!.storage = 0.5;
    installCatalog(refreshed, 'refreshed.json');
    const small = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
    const pool = new ParsePool({ size: 1, maxQueue: 3, timeoutMs: 60_000 });
    try {
      const inWorker = await pool.analyze(small, labels, MiB);
      const inline = analyzeUpload(small, labels, MiB);
      expect(withReportText(inWorker)).toEqual(inline);
      // And the price really is the refreshed one: 500 GiB × $0.50 = $250 of storage a month.
      expect(inWorker.ok && inWorker.summary.plan?.cost?.current?.monthlyUsd.storage).toBe(250);
    } finally {
      await pool.close();
      installBuiltInCatalog();
    }
  });
});

describe('uploads above largeBodyBytes are analyzed in the pool, smaller ones inline', () => {
  it('uses the default threshold (128 KiB): a 6 KB file inline, the same file padded to 140 KB in the worker', async () => {
    expect(DEFAULT_CONFIG.largeBodyBytes).toBe(128 * 1024);
    const t = await makeTestApp();
    try {
      const plain = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
      const post = (body: Buffer, name: string) =>
        request(t.app)
          .post(`/api/runs?name=${name}`)
          .set('Content-Type', 'application/json')
          .serialize((b: unknown) => b as string)
          .send(body);
      expect((await post(plain, 'inline')).status).toBe(201);
      expect(t.ctx.pool.stats.jobs).toBe(0);
      const padded = Buffer.concat([plain, Buffer.alloc(140 * 1024 - plain.length, 0x20)]);
      expect(padded.length).toBeGreaterThan(DEFAULT_CONFIG.largeBodyBytes);
      const res = await post(padded, 'pooled');
      expect(res.status).toBe(201);
      expect(t.ctx.pool.stats.jobs).toBe(1);
      // Just at the threshold: inline again.
      const atLimit = Buffer.concat([plain, Buffer.alloc(128 * 1024 - plain.length, 0x20)]);
      expect((await post(atLimit, 'at-limit')).status).toBe(201);
      expect(t.ctx.pool.stats.jobs).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe('a reservation grows to what the body really is (gzip declares its compressed length)', () => {
  it('grow(): through the room check, classed large or small again; refused, nothing changes', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 0, timeoutMs: 60_000, maxHeldBytes: 10 * MiB });
    const gz = pool.reserve(200 * 1024)!; // small, by its compressed length
    const other = pool.reserve(2 * MiB)!; // the one large slot (size + maxQueue = 1)
    expect(gz.grow(100 * 1024)).toBe(true); // already held
    expect(gz.grow(5 * MiB)).toBe(false); // no large slot left
    expect([gz.bytes, pool.heldBytes, pool.load]).toEqual([200 * 1024, 200 * 1024 + 2 * MiB, 2]);
    other.release();
    expect(gz.grow(11 * MiB)).toBe(true); // alone in the pool: admitted, as one request always is
    expect(pool.reserve(1)).toBeNull();
    expect(gz.grow(5 * MiB)).toBe(true); // never shrinks
    expect(gz.bytes).toBe(11 * MiB);
    gz.release();
    expect(pool.reserve(2 * MiB)).not.toBeNull();
    const again = pool.reserve(200 * 1024)!;
    expect(again.grow(5 * MiB)).toBe(false); // large now, and the large slot is taken
    await pool.close();
  });

  it('analyze() with a reservation smaller than the job grows it, or answers 503 busy', async () => {
    const small = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
    const pool = new ParsePool({ size: 1, maxQueue: 0, timeoutMs: 60_000, maxHeldBytes: MiB });
    const gz = pool.reserve(1000)!;
    const other = pool.reserve(MiB - 1000)!;
    await expect(pool.analyze(small, {}, MiB, gz)).rejects.toMatchObject({
      status: 503,
      code: 'busy',
      headers: { 'Retry-After': '5' },
    });
    expect(pool.stats.jobs).toBe(0);
    other.release();
    expect((await pool.analyze(small, {}, MiB, gz)).ok).toBe(true);
    expect(gz.bytes).toBe(small.length);
    gz.release();
    expect(pool.heldBytes).toBe(0);
    await pool.close();
  });
});

/** A pool that records the largest size a reservation was asked to grow to. */
class RecordingPool extends ParsePool {
  largestGrow = 0;
  override reserve(bytes: number): Reservation | null {
    const reservation = super.reserve(bytes);
    if (!reservation) return null;
    return {
      get bytes() {
        return reservation.bytes;
      },
      grow: (total) => {
        this.largestGrow = Math.max(this.largestGrow, total);
        return reservation.grow(total);
      },
      release: () => reservation.release(),
    };
  }
}

describe('gzip uploads hold pool room for their inflated size', () => {
  const plain = fixture('fio/generated/c_randread_4k_libaio_qd32_timebased5s.json');
  // 4 MiB of fio JSON (padded with the spaces JSON allows) in a few KB of gzip.
  const inflated = Buffer.concat([plain, Buffer.alloc(4 * MiB - plain.length, 0x20)]);
  const gzipped = gzipSync(inflated);

  it.each([
    ['declared above largeBodyBytes (reserved by its compressed length)', 1024],
    ['declared below it (no room reserved up front)', DEFAULT_CONFIG.largeBodyBytes],
  ])(
    '%s: 503 busy as soon as it inflates past the room left, then 201 once there is room',
    async (_case, largeBodyBytes) => {
      expect(gzipped.length).toBeLessThan(64 * 1024);
      expect(gzipped.length > largeBodyBytes).toBe(largeBodyBytes === 1024);
      const maxHeldBytes = 2 * MiB;
      const pool = new RecordingPool({ size: 1, maxQueue: 2, timeoutMs: 60_000, maxHeldBytes });
      const t = await makeTestApp({ pool, config: { largeBodyBytes } });
      const post = () =>
        request(t.app)
          .post('/api/runs?name=gz')
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', 'gzip')
          .serialize((b: unknown) => b as string)
          .send(gzipped as unknown as string);
      try {
        // Another upload holds 1 MiB: 1 MiB is left, the body inflates to 4 MiB.
        const other = pool.reserve(MiB)!;
        const refused = await post();
        expect(refused.status, JSON.stringify(refused.body)).toBe(503);
        expect(refused.body.error.code).toBe('busy');
        expect(refused.headers['retry-after']).toBe('5');
        // Refused while inflating, within a zlib chunk (16 KiB) or so of the room: not after 4 MiB.
        expect(pool.largestGrow).toBeGreaterThan(MiB);
        expect(pool.largestGrow).toBeLessThan(MiB + 256 * 1024);
        expect(pool.heldBytes).toBe(MiB);
        other.release();

        expect((await post()).status).toBe(201);
        expect(pool.largestGrow).toBe(inflated.length);
        expect(pool.heldBytes).toBe(0);
      } finally {
        await t.close();
      }
    },
  );
});
