import type { RunStore } from '../store/run-store.ts';

/** Every RunStore method that writes to the archive (rate-limit counters included, when charged). */
const WRITES = new Set<string>([
  'insertRun',
  'insertComparison',
  'ensurePairComparison',
  'createToken',
  'revokeToken',
  'markTokenUsed',
  'putSeriesSettings',
]);

/**
 * The store, with every write failing the test: a route served through it that answers at all
 * wrote nothing. `writes` lists the attempts (the route may catch the rejection).
 */
export function readOnlyStore(store: RunStore): { store: RunStore; writes: string[] } {
  const writes: string[] = [];
  const spy = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      const name = String(prop);
      return (...args: unknown[]) => {
        const charges = name === 'hitRateLimit' && args[1] !== 0;
        if (WRITES.has(name) || charges) {
          writes.push(name);
          return Promise.reject(new Error(`read-only store: ${name} called`));
        }
        return method.apply(target, args);
      };
    },
  });
  return { store: spy, writes };
}
