import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { z } from 'zod';
import { classifyFleetFile, type FleetFile } from './fleet-files.ts';

/**
 * The Fleet page's unsaved plan kept in the browser's IndexedDB: the dropped AWS CLI outputs (as
 * JSON text), so a reload or a closed tab does not lose them. The options live in the address
 * (fleet-address.ts). On restore every file is classified and parsed again, exactly as a drop
 * is: stored data is parsed, never cast. Writes check the room left (navigator.storage.estimate)
 * and report a refusal as an outcome, never a throw.
 */

export type FleetDraftStore = {
  save: (files: readonly FleetFile[]) => Promise<'stored' | 'cleared' | 'quota' | 'unavailable'>;
  /** The kept files, classified again; null when nothing is kept or storage cannot be read. */
  load: () => Promise<{ files: FleetFile[]; unreadable: string[] } | null>;
};

const DraftSchema = z.object({
  version: z.literal(1),
  files: z.array(z.object({ name: z.string().max(500), text: z.string() })).max(500),
});

const DRAFT_KEY = 'draft';

async function roomLeft(): Promise<number | null> {
  try {
    const estimate = await navigator.storage?.estimate?.();
    return estimate?.quota === undefined ? null : estimate.quota - (estimate.usage ?? 0);
  } catch {
    return null;
  }
}

export function indexedDbFleetDraft(
  database = 'blockwise-fleet',
  estimate: () => Promise<number | null> = roomLeft,
): FleetDraftStore | null {
  if (typeof indexedDB === 'undefined') return null;
  let store: UseStore | null = null;
  const db = () => (store ??= createStore(database, 'draft'));
  return {
    save: async (files) => {
      try {
        if (files.length === 0) {
          await del(DRAFT_KEY, db());
          return 'cleared';
        }
        const draft = {
          version: 1,
          files: files.map((f) => ({ name: f.name, text: JSON.stringify(f.json) })),
        };
        const bytes = draft.files.reduce((n, f) => n + f.text.length * 2, 0);
        const room = await estimate();
        if (room !== null && room < bytes) return 'quota';
        await set(DRAFT_KEY, draft, db());
        return 'stored';
      } catch (error) {
        return error instanceof Error && /quota/i.test(`${error.name} ${error.message}`)
          ? 'quota'
          : 'unavailable';
      }
    },
    load: async () => {
      try {
        const draft = DraftSchema.safeParse(await get(DRAFT_KEY, db()));
        if (!draft.success) return null;
        const files: FleetFile[] = [];
        const unreadable: string[] = [];
        for (const { name, text } of draft.data.files) {
          const file = classifyFleetFile(name, text);
          if (file.ok) files.push(file.value);
          else unreadable.push(name);
        }
        return { files, unreadable };
      } catch {
        return null;
      }
    },
  };
}
