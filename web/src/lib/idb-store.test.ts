import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openIdbStore, refusalOf, refusalText } from './idb-store.ts';

let n = 0;
const fresh = (room: number | null) =>
  openIdbStore(`idb-store-test-${++n}`, 'kv', () => Promise.resolve(room))!;

describe('openIdbStore', () => {
  it('a write larger than the room left is refused before the value is built', async () => {
    const store = fresh(10);
    let built = 0;
    expect(
      await store.put('k', 11, () => {
        built++;
        return 'v';
      }),
    ).toBe('quota');
    expect(built).toBe(0);
    expect(await store.get('k')).toBeUndefined();
  });

  it('a write that fits (or an unknown room) is stored, read back, listed and removed', async () => {
    for (const room of [11, null]) {
      const store = fresh(room);
      expect(await store.put('k', 11, () => Promise.resolve({ a: 1 }))).toBe('stored');
      expect(await store.get('k')).toEqual({ a: 1 });
      expect(await store.keys()).toEqual(['k']);
      await store.del('k');
      expect(await store.keys()).toEqual([]);
    }
  });

  it('a value IndexedDB cannot clone is refused as an outcome, never a throw', async () => {
    expect(await fresh(null).put('k', 1, () => () => 'a function')).toBe('unavailable');
  });
});

describe('refusals', () => {
  it('a quota error is "quota"; any other failure is "unavailable"', () => {
    expect(refusalOf(new DOMException('full', 'QuotaExceededError'))).toBe('quota');
    expect(refusalOf(new Error('The quota has been exceeded.'))).toBe('quota');
    expect(refusalOf(new DOMException('no', 'InvalidStateError'))).toBe('unavailable');
    expect(refusalOf('not an error')).toBe('unavailable');
  });

  it('each refusal has its own words', () => {
    expect(refusalText('quota', 'files')).toBe('This browser’s storage is full');
    expect(refusalText('unavailable', 'files')).toBe('This browser refuses to store files for this site');
    expect(refusalText('unavailable', 'data')).toBe('This browser refuses to store data for this site');
  });
});
