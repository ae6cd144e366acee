/**
 * The RunStore contract, RateLimitRecords part — Rate-limit counters: fixed windows, in a shared table (PostgreSQL) or in memory (SQLite).
 * Run on SQLite and PostgreSQL by run-store.contract.ts.
 */
import { describe, expect, it } from 'vitest';
import { type RateLimitRecords, StoreInputError } from '../run-store.ts';
import { type ContractHarness } from './harness.ts';

export function describeRateLimitRecordsContract(harness: ContractHarness<RateLimitRecords>): void {
  const { setup, clock } = harness;

  describe('RateLimitRecords', () => {
    describe('rate-limit counters', () => {
      it('add up within a window, start over after it, and are separate per key', async () => {
        const { store } = await setup();
        expect(await store.hitRateLimit('uploads:ip:1', 1, 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
        clock.advance(10_000);
        expect(await store.hitRateLimit('uploads:ip:1', 5, 60_000)).toEqual({ count: 6, resetInMs: 50_000 });
        expect(await store.hitRateLimit('uploads:ip:1', 0, 60_000)).toEqual({ count: 6, resetInMs: 50_000 });
        expect(await store.hitRateLimit('uploads:ip:2', 0, 60_000)).toEqual({ count: 0, resetInMs: 60_000 });
        expect(await store.hitRateLimit('uploads:ip:2', 2, 60_000)).toMatchObject({ count: 2 });
        clock.advance(50_000);
        expect(await store.hitRateLimit('uploads:ip:1', 0, 60_000)).toEqual({ count: 0, resetInMs: 60_000 });
        expect(await store.hitRateLimit('uploads:ip:1', 1, 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
      });

      it('refuse keys and amounts no backend can hold', async () => {
        const { store } = await setup();
        for (const [key, amount, windowMs] of [
          ['', 1, 1000],
          ['k'.repeat(513), 1, 1000],
          ['nul\u0000', 1, 1000],
          ['k', -1, 1000],
          ['k', 1.5, 1000],
          ['k', 1, 0],
        ] as const)
          await expect(store.hitRateLimit(key, amount, windowMs)).rejects.toBeInstanceOf(StoreInputError);
      });
    });
  });
}
