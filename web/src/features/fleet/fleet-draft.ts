import { z } from 'zod';
import { openIdbStore, refusalOf, type StoreRefusal } from '../../lib/idb-store.ts';
import { classifyFleetFile, type FleetFile } from './fleet-files.ts';

/**
 * The Fleet page's unsaved plan kept in the browser's IndexedDB: the dropped AWS CLI outputs (as
 * JSON text), so a reload or a closed tab does not lose them. The options live in the address
 * (fleet-address.ts). On restore every file is classified and parsed again, exactly as a drop
 * is: stored data is parsed, never cast. Writes check the room left (navigator.storage.estimate)
 * and report a refusal as an outcome, never a throw (lib/idb-store.ts, shared with the session's
 * kept files).
 */

export type FleetDraftStore = {
  save: (files: readonly FleetFile[]) => Promise<'stored' | 'cleared' | StoreRefusal>;
  /** The kept files, classified again; null when nothing is kept or storage cannot be read. */
  load: () => Promise<{ files: FleetFile[]; unreadable: string[] } | null>;
};

const DraftSchema = z.object({
  version: z.literal(1),
  files: z.array(z.object({ name: z.string().max(500), text: z.string() })).max(500),
});

const DRAFT_KEY = 'draft';

export function indexedDbFleetDraft(
  database = 'blockwise-fleet',
  estimate?: () => Promise<number | null>,
): FleetDraftStore | null {
  const store = openIdbStore(database, 'draft', estimate);
  if (!store) return null;
  return {
    save: async (files) => {
      try {
        if (files.length === 0) {
          await store.del(DRAFT_KEY);
          return 'cleared';
        }
        const draft = {
          version: 1,
          files: files.map((f) => ({ name: f.name, text: JSON.stringify(f.json) })),
        };
        const bytes = draft.files.reduce((n, f) => n + f.text.length * 2, 0);
        return await store.put(DRAFT_KEY, bytes, () => draft);
      } catch (error) {
        return refusalOf(error);
      }
    },
    load: async () => {
      try {
        const draft = DraftSchema.safeParse(await store.get(DRAFT_KEY));
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
