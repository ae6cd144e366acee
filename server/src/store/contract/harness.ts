import { createHash, randomBytes } from 'node:crypto';
import type { RunFilters, RunMeta, RunRecords, RunStore } from '../run-store.ts';
import { unwrap, type ManualClock } from '../testing/run-inputs.ts';

/**
 * A store opened for one contract test, typed by the part(s) a suite exercises: the runs part
 * sees `RunRecords`, the tokens part `TokenRecords & RunRecords & FleetPlanRecords` (a write's
 * token is re-checked at its commit), so a part's suite says which records it needs.
 */
export interface StoreUnderTest<S = RunStore> {
  store: S;
  /** Another store on the same database (file or schema): a restart, or a second replica. */
  reopen(): Promise<S>;
  /** Runs one SQL statement on the same database, bypassing the store; resolves to its rows. */
  sql(text: string): Promise<Record<string, unknown>[]>;
}

/**
 * What run-store.contract.ts hands each part's suite: `setup` opens a fresh store on a fresh
 * clock, and `clock` is that clock (the latest setup's), which every store opened reads.
 */
export interface ContractHarness<S> {
  setup: () => Promise<StoreUnderTest<S>>;
  clock: ManualClock;
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
export const tokenDigest = () => sha256(randomBytes(32));

/** Every page of a listing, following nextCursor. */
export async function allPages(
  store: RunRecords,
  query: RunFilters & { limit?: number },
): Promise<{ pages: RunMeta[][]; cursors: Array<string | null> }> {
  const pages: RunMeta[][] = [];
  const cursors: Array<string | null> = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const page = unwrap(await store.listRuns({ ...query, ...(cursor === undefined ? {} : { cursor }) }));
    pages.push(page.items);
    cursors.push(page.nextCursor);
    if (page.nextCursor === null) return { pages, cursors };
    cursor = page.nextCursor;
  }
  throw new Error('pagination did not terminate');
}
