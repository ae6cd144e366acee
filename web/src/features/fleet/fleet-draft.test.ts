import 'fake-indexeddb/auto';
import { createStore, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { classifyFleetFile } from './fleet-files.ts';
import { indexedDbFleetDraft } from './fleet-draft.ts';

let n = 0;
const fresh = (room: number | null = null) => {
  const name = `fleet-draft-test-${++n}`;
  return { draft: indexedDbFleetDraft(name, () => Promise.resolve(room))!, name };
};
const file = (name: string, json: unknown) => {
  const r = classifyFleetFile(name, JSON.stringify(json));
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const volumes = file('volumes.json', { Volumes: [{ VolumeId: 'vol-1' }] });
const metrics = file('metrics-1.json', { MetricDataResults: [] });

describe('the Fleet page’s unsaved files (IndexedDB)', () => {
  it('kept files come back classified again, in order', async () => {
    const { draft } = fresh();
    expect(await draft.save([volumes, metrics])).toBe('stored');
    const kept = await draft.load();
    expect(kept?.unreadable).toEqual([]);
    expect(kept?.files.map((f) => [f.name, f.kind, f.fingerprint])).toEqual([
      ['volumes.json', 'volumes', volumes.fingerprint],
      ['metrics-1.json', 'metrics', metrics.fingerprint],
    ]);
  });

  it('no files: the draft is cleared', async () => {
    const { draft } = fresh();
    await draft.save([volumes]);
    expect(await draft.save([])).toBe('cleared');
    expect(await draft.load()).toBeNull();
  });

  it('a draft larger than the room left is refused as an outcome', async () => {
    const { draft } = fresh(10);
    expect(await draft.save([volumes])).toBe('quota');
    expect(await draft.load()).toBeNull();
  });

  it('stored data is parsed: a foreign value is no draft; an entry that is no AWS output is named', async () => {
    const { draft, name } = fresh();
    await set('draft', { version: 2 }, createStore(name, 'draft'));
    expect(await draft.load()).toBeNull();
    await set(
      'draft',
      {
        version: 1,
        files: [
          { name: 'odd.json', text: '{"Nope":1}' },
          { name: 'v.json', text: '{"Volumes":[]}' },
        ],
      },
      createStore(name, 'draft'),
    );
    const kept = await draft.load();
    expect(kept?.unreadable).toEqual(['odd.json']);
    expect(kept?.files.map((f) => f.name)).toEqual(['v.json']);
  });
});
