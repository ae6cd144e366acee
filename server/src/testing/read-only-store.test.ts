import { afterEach, describe, expect, it } from 'vitest';
import type { RunStore } from '../store/run-store.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import { fleetPlanInsert } from '../store/testing/fleet-inputs.ts';
import { readOnlyStore, STORE_ACCESS } from './read-only-store.ts';

let store: RunStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** The methods an object has, own and inherited (getters and fields that are not functions left out). */
function methodsOf(object: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = object; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o))
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(o)))
      if (name !== 'constructor' && typeof d.value === 'function') names.add(name);
  return [...names].sort();
}

const writes = Object.entries(STORE_ACCESS)
  .filter(([, access]) => access === 'write')
  .map(([name]) => name);

describe('readOnlyStore: every RunStore method is a read or a write', () => {
  it('lists every method the SQLite store has (its own pragmas() aside), and only those', async () => {
    store = await openSqliteStore({ path: ':memory:' });
    const methods = methodsOf(store);
    expect(methods.filter((m) => !(m in STORE_ACCESS))).toEqual(['pragmas']);
    const listed = Object.keys(STORE_ACCESS).filter((m) => m !== 'dialect');
    expect(listed.filter((m) => !methods.includes(m))).toEqual([]);
  });

  it('rejects and records each write, insertFleetPlan included, and stores nothing', async () => {
    store = await openSqliteStore({ path: ':memory:' });
    const spy = readOnlyStore(store);
    const input = fleetPlanInsert();
    await expect(spy.store.insertFleetPlan(input)).rejects.toThrow('read-only store: insertFleetPlan called');
    for (const name of writes.filter((w) => w !== 'insertFleetPlan')) {
      const method = (spy.store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[
        name
      ]!;
      await expect(method()).rejects.toThrow(`read-only store: ${name} called`);
    }
    expect(spy.writes.sort()).toEqual([...writes].sort());
    expect(writes).toEqual(expect.arrayContaining(['insertFleetPlan', 'insertRun', 'putSeriesSettings']));
    // The refused plan never reached the archive: the real store creates it now.
    expect((await store.insertFleetPlan(input)).created).toBe(true);
  });

  it('passes reads through, and hitRateLimit only when it charges nothing', async () => {
    store = await openSqliteStore({ path: ':memory:' });
    const spy = readOnlyStore(store);
    expect(await spy.store.getRun('r_missing')).toBeNull();
    expect(await spy.store.getFleetPlan('f_missing')).toBeNull();
    expect((await spy.store.hitRateLimit('k', 0, 60_000)).count).toBe(0);
    await expect(spy.store.hitRateLimit('k', 1, 60_000)).rejects.toThrow('hitRateLimit');
    expect(spy.writes).toEqual(['hitRateLimit']);
  });

  it('refuses a method outside RunStore until it is listed', async () => {
    store = await openSqliteStore({ path: ':memory:' });
    const spy = readOnlyStore(store);
    expect(() => (spy.store as unknown as { pragmas: () => unknown }).pragmas).toThrow(
      'pragmas is not a RunStore method',
    );
  });
});
