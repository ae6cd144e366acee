/**
 * The RunStore contract: one suite per part of the store (contract/<part>.contract.ts, each typed
 * by the part it exercises), all run against every implementation (sqlite-store.test.ts,
 * postgres-store.test.ts). A behaviour that differs between SQLite (dev, single node) and
 * PostgreSQL (replicas) is a bug in one of them, so anything observable belongs here.
 */
import { afterEach, describe } from 'vitest';
import { describeComparisonRecordsContract } from './contract/comparisons.contract.ts';
import { describeFleetPlanRecordsContract } from './contract/fleet-plans.contract.ts';
import type { ContractHarness, StoreUnderTest } from './contract/harness.ts';
import { describeRateLimitRecordsContract } from './contract/rate-limits.contract.ts';
import { describeRunRecordsContract } from './contract/runs.contract.ts';
import { describeSeriesRecordsContract } from './contract/series.contract.ts';
import { describeStoreHealthContract } from './contract/store.contract.ts';
import { describeTokenRecordsContract } from './contract/tokens.contract.ts';
import type { RunStore } from './run-store.ts';
import { manualClock, type ManualClock } from './testing/run-inputs.ts';

export type OpenStoreUnderTest = (options: { now: () => number }) => Promise<StoreUnderTest>;

export function describeRunStoreContract(name: string, open: OpenStoreUnderTest): void {
  describe(`RunStore contract — ${name}`, () => {
    const opened: RunStore[] = [];

    // One clock per test (setup), read through `clock` by every store the test opened.
    let current = manualClock();
    const clock: ManualClock = {
      now: () => current.now(),
      set: (ms) => current.set(ms),
      advance: (ms) => current.advance(ms),
    };
    const harness: ContractHarness<RunStore> = {
      clock,
      setup: async () => {
        current = manualClock();
        const subject = await open({ now: () => clock.now() });
        opened.push(subject.store);
        return {
          ...subject,
          reopen: async () => {
            const another = await subject.reopen();
            opened.push(another);
            return another;
          },
        };
      },
    };

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    describeRunRecordsContract(harness);
    describeComparisonRecordsContract(harness);
    describeFleetPlanRecordsContract(harness);
    describeTokenRecordsContract(harness);
    describeSeriesRecordsContract(harness);
    describeRateLimitRecordsContract(harness);
    describeStoreHealthContract(harness);
  });
}
