import { openIdbStore, refusalOf } from '../../lib/idb-store.ts';

/**
 * The raw files of the planning session (fio results, metrics exports) kept in the browser's
 * IndexedDB, keyed by their content hash (SHA-256 of the bytes), so that a reloaded session can
 * still "Save & share" (the upload needs the original bytes) and re-read a metrics export with
 * its analysis. localStorage holds the session itself (session-storage.ts); it cannot hold files
 * (≈5 MiB a site, text only). The same bytes are one entry whatever their name.
 *
 * Every write checks the room left first (navigator.storage.estimate) and reports a refusal as
 * an outcome, never a throw: the page keeps working and tells the user the file is not kept
 * (lib/idb-store.ts, shared with the Fleet page's draft).
 */

export type FileStoreOutcome = 'stored' | 'quota' | 'unavailable';

export type FileStore = {
  /** Keeps the file under its hash (a no-op when that hash is already kept). */
  put: (hash: string, file: File) => Promise<FileStoreOutcome>;
  /** The file kept under a hash, or null (never kept, removed, or storage unreadable). */
  get: (hash: string) => Promise<File | null>;
  /** Removes every kept file whose hash is not in `keep` (files the session no longer has). */
  prune: (keep: ReadonlySet<string>) => Promise<void>;
};

/** SHA-256 of a file's bytes as 64 lowercase hex digits: what "the same file" means here. */
export async function contentHash(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const HASH = /^[0-9a-f]{64}$/;

/**
 * What is stored per file: the bytes as an ArrayBuffer (every IndexedDB clones those; some
 * implementations refuse Blobs) with the name and type they came with.
 */
type StoredFile = { name: string; type: string; bytes: ArrayBuffer };

function isStoredFile(value: unknown): value is StoredFile {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.name === 'string' && typeof v.type === 'string' && v.bytes instanceof ArrayBuffer;
}

/**
 * The store in IndexedDB (database `blockwise-files`), or null where IndexedDB does not exist
 * (very old browsers; some privacy modes fail later, on the first write, as 'unavailable').
 */
export function indexedDbFileStore(
  database = 'blockwise-files',
  estimate?: () => Promise<number | null>,
): FileStore | null {
  const store = openIdbStore(database, 'files', estimate);
  if (!store) return null;
  return {
    put: async (hash, file) => {
      try {
        if ((await store.get(hash)) !== undefined) return 'stored';
        return await store.put(hash, file.size, async () => {
          const stored: StoredFile = { name: file.name, type: file.type, bytes: await file.arrayBuffer() };
          return stored;
        });
      } catch (error) {
        return refusalOf(error);
      }
    },
    get: async (hash) => {
      if (!HASH.test(hash)) return null;
      try {
        const value = await store.get(hash);
        // Stored data is parsed, never cast: anything else under the key is not a kept file.
        return isStoredFile(value) ? new File([value.bytes], value.name, { type: value.type }) : null;
      } catch {
        return null;
      }
    },
    prune: async (keep) => {
      try {
        for (const key of await store.keys())
          if (typeof key !== 'string' || !keep.has(key)) await store.del(key);
      } catch {
        // Nothing to free if the store cannot be read; the next prune tries again.
      }
    },
  };
}
