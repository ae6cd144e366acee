import type * as crypto from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { OFF_LOOP_SHA256_MIN_BYTES } from './idempotency.ts';
import { openSqliteStore } from './sqlite-store.ts';
import { FIO_JSON, runInput } from './testing/run-inputs.ts';

// Every chunk node:crypto's synchronous hashes are fed on this thread, counted in bytes. The real
// hash runs (the spy only counts); WebCrypto's digest, which hashes in libuv's thread pool, is not
// counted.
const hashedOnLoop = vi.hoisted(() => [] as number[]);
vi.mock('node:crypto', async (importOriginal) => {
  const real = await importOriginal<typeof crypto>();
  const createHash: typeof real.createHash = (...args) => {
    const hash = real.createHash(...args);
    const update = hash.update.bind(hash) as (data: string | Uint8Array) => typeof hash;
    hash.update = ((data: string | Uint8Array) => {
      hashedOnLoop.push(typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength);
      return update(data);
    }) as typeof hash.update;
    return hash;
  };
  return { ...real, createHash, default: { ...real, createHash } };
});

const dir = mkdtempSync(join(tmpdir(), 'blockwise-loop-hashing-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite store: no O(upload) hash on the event loop (docs/performance.md P13)', () => {
  it.each([
    ['the fixture (below the threshold: hashed in place)', 1],
    // The bench's CI upload (P1, P2) is 104 KB: hashing it in place costs less CPU than WebCrypto's
    // hop to the thread pool (issue 24, fourth pass), so it must stay below the threshold.
    ['~104 KB, the size of the bench CI upload (hashed in place)', Math.ceil(104_051 / FIO_JSON.byteLength)],
    ['1 MiB and more (as bench P13 uploads)', Math.ceil((1024 * 1024) / FIO_JSON.byteLength)],
  ])('%s', async (_name, copies) => {
    const rawBytes = Buffer.concat(Array.from({ length: copies }, () => FIO_JSON));
    const store = await openSqliteStore({ path: join(dir, `copies-${copies}.db`) });
    try {
      hashedOnLoop.length = 0;
      const { run, created } = await store.insertRun(runInput({ rawBytes }));
      expect(created).toBe(true);
      expect(run.rawSize).toBe(rawBytes.byteLength);
      const largest = Math.max(0, ...hashedOnLoop);
      // The bench CI upload's size is below the threshold, P13's 1,000,000-byte files above it.
      if (copies > 1 && rawBytes.byteLength < 1024 * 1024)
        expect(rawBytes.byteLength).toBeLessThan(OFF_LOOP_SHA256_MIN_BYTES);
      expect(1_000_000).toBeGreaterThanOrEqual(OFF_LOOP_SHA256_MIN_BYTES);
      if (rawBytes.byteLength < OFF_LOOP_SHA256_MIN_BYTES) expect(largest).toBe(rawBytes.byteLength);
      else expect(largest).toBeLessThan(OFF_LOOP_SHA256_MIN_BYTES);
    } finally {
      await store.close();
    }
  });
});
