import { describe, expect, it } from 'vitest';
import { ParsePool } from './parse-pool.ts';

const MiB = 1024 * 1024;

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

  it('caps the number of admitted requests at size + maxQueue', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 1, timeoutMs: 60_000 });
    expect(pool.reserve(1)).not.toBeNull();
    expect(pool.reserve(1)).not.toBeNull();
    expect(pool.reserve(1)).toBeNull();
    await pool.close();
  });

  it('refuses an unreserved job with 503 + Retry-After while the pool is full', async () => {
    const pool = new ParsePool({ size: 1, maxQueue: 0, timeoutMs: 60_000 });
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
