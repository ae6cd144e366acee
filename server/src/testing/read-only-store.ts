import type { RunStore } from '../store/run-store.ts';

/**
 * What each RunStore member does to the archive. `write`: rejected (and recorded); `read` and
 * `not data` (the connection and health: closing, a ping, a rolled-back write check) pass through;
 * `write when charged`: hitRateLimit, which only reads with an amount of 0.
 */
type Access = 'read' | 'write' | 'write when charged' | 'not data';

/**
 * Every member of RunStore — the union of its parts (run-store.ts RunRecords, ComparisonRecords,
 * FleetPlanRecords, …) — by what it does. The type requires every member and no other, so a
 * method added to a part fails the typecheck here until it is said to read or write.
 */
export const STORE_ACCESS = {
  // RunRecords
  insertRun: 'write',
  getRun: 'read',
  getRunMeta: 'read',
  getRunJson: 'read',
  getRunJsonBytes: 'read',
  getRunRaw: 'read',
  listRuns: 'read',
  listSeriesRuns: 'read',
  // ComparisonRecords
  insertComparison: 'write',
  getComparison: 'read',
  ensurePairComparison: 'write',
  findPairComparisons: 'read',
  // FleetPlanRecords
  insertFleetPlan: 'write',
  getFleetPlan: 'read',
  getFleetPlanDocument: 'read',
  // TokenRecords
  createToken: 'write',
  findActiveTokenByHash: 'read',
  listTokens: 'read',
  revokeToken: 'write',
  countActiveTokens: 'read',
  hasHeldToken: 'read',
  markTokenUsed: 'write',
  // SeriesRecords
  getSeriesSettings: 'read',
  putSeriesSettings: 'write',
  listSeries: 'read',
  // RateLimitRecords
  hitRateLimit: 'write when charged',
  // StoreHealth and the store itself
  dialect: 'not data',
  ping: 'not data',
  checkWrites: 'not data',
  unavailableErrors: 'not data',
  pendingWrites: 'not data',
  close: 'not data',
} as const satisfies { readonly [K in keyof RunStore]-?: Access };

const accessOf = (name: string): Access | undefined =>
  Object.hasOwn(STORE_ACCESS, name) ? STORE_ACCESS[name as keyof RunStore] : undefined;

/**
 * The store, with every write failing the test: a route served through it that answers at all
 * wrote nothing. `writes` lists the attempts (the route may catch the rejection). A method outside
 * RunStore (an implementation's own, e.g. SQLite's pragmas) throws: it is neither a read nor a
 * write until STORE_ACCESS says which.
 */
export function readOnlyStore(store: RunStore): { store: RunStore; writes: string[] } {
  const writes: string[] = [];
  const spy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop === 'symbol') return value;
      const method = value as (...args: unknown[]) => unknown;
      const name = String(prop);
      const access = accessOf(name);
      if (access === undefined)
        throw new Error(`read-only store: ${name} is not a RunStore method; list it in STORE_ACCESS`);
      return (...args: unknown[]) => {
        if (access === 'write' || (access === 'write when charged' && args[1] !== 0)) {
          writes.push(name);
          return Promise.reject(new Error(`read-only store: ${name} called`));
        }
        return method.apply(target, args);
      };
    },
  });
  return { store: spy, writes };
}
