import { createStore, del, get, keys, set, type UseStore } from 'idb-keyval';

/**
 * One small key-value store in the browser's IndexedDB (idb-keyval), shared by the session's kept
 * files (app/session/file-store.ts) and the Fleet page's unsaved files (features/fleet/fleet-draft.ts):
 * the database opens on first use, every write checks the room left first
 * (navigator.storage.estimate), and a refused write is an outcome ('quota' | 'unavailable'), never a
 * throw, with the words the page shows for it (`refusalText`). Reads return what is stored as
 * `unknown`: each caller parses it, never casts it.
 */

export type StoreRefusal = 'quota' | 'unavailable';

export type IdbStore = {
  /** The value under a key (undefined when none); throws when the database cannot be read. */
  get: (key: string) => Promise<unknown>;
  /**
   * Writes `value()` under a key when the browser says it has room for `bytes` (or does not say):
   * the value is built only then, so a refused file is not read into memory.
   */
  put: (key: string, bytes: number, value: () => unknown) => Promise<'stored' | StoreRefusal>;
  /** Removes a key; throws when the database cannot be written. */
  del: (key: IDBValidKey) => Promise<void>;
  /** Every key; throws when the database cannot be read. */
  keys: () => Promise<IDBValidKey[]>;
};

/** Bytes free for this site as the browser estimates them, or null when it does not say. */
async function roomLeft(): Promise<number | null> {
  try {
    const estimate = await navigator.storage?.estimate?.();
    if (!estimate || estimate.quota === undefined) return null;
    return estimate.quota - (estimate.usage ?? 0);
  } catch {
    return null;
  }
}

/** What a failed IndexedDB call means for the user: storage full, or storage refused (privacy modes). */
export const refusalOf = (error: unknown): StoreRefusal =>
  error instanceof Error && /quota/i.test(`${error.name} ${error.message}`) ? 'quota' : 'unavailable';

/** The opening of the notice for a refused write: "This browser’s storage is full" or refuses `what`. */
export const refusalText = (outcome: StoreRefusal, what: 'files' | 'data'): string =>
  outcome === 'quota'
    ? 'This browser’s storage is full'
    : `This browser refuses to store ${what} for this site`;

/**
 * The store `storeName` of database `database`, or null where IndexedDB does not exist (very old
 * browsers; some privacy modes fail later, on the first write, as 'unavailable'). `estimate` is
 * the room left (tests pass their own).
 */
export function openIdbStore(
  database: string,
  storeName: string,
  estimate: () => Promise<number | null> = roomLeft,
): IdbStore | null {
  if (typeof indexedDB === 'undefined') return null;
  let store: UseStore | null = null;
  // Opened on first use: a page that never keeps anything never opens the database.
  const db = () => (store ??= createStore(database, storeName));
  return {
    get: (key) => get(key, db()),
    put: async (key, bytes, value) => {
      try {
        const room = await estimate();
        if (room !== null && room < bytes) return 'quota';
        await set(key, await value(), db());
        return 'stored';
      } catch (error) {
        return refusalOf(error);
      }
    },
    del: (key) => del(key, db()),
    keys: () => keys(db()),
  };
}
