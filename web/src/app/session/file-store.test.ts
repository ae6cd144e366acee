import 'fake-indexeddb/auto';
import { createStore, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { contentHash, indexedDbFileStore, type FileStore } from './file-store.ts';

let n = 0;
/** A store in its own (fake, in-memory) IndexedDB database, with the room left the test says. */
function freshStore(room: number | null = null): { store: FileStore; name: string } {
  const name = `file-store-test-${++n}`;
  return { store: indexedDbFileStore(name, () => Promise.resolve(room))!, name };
}

const file = (text: string, name = 'run.json') => new File([text], name, { type: 'application/json' });

describe('contentHash', () => {
  it.each([
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  ])('SHA-256 of %j is the FIPS 180-2 value', async (text, hex) => {
    expect(await contentHash(new Blob([text]))).toBe(hex);
  });

  it('the same bytes under another name hash alike; one byte more does not', async () => {
    expect(await contentHash(file('{"a":1}', 'a.json'))).toBe(await contentHash(file('{"a":1}', 'b.json')));
    expect(await contentHash(file('{"a":1}'))).not.toBe(await contentHash(file('{"a":1} ')));
  });
});

describe('indexedDbFileStore', () => {
  it('keeps a file by its hash and gives back its bytes, name and type', async () => {
    const { store } = freshStore();
    const f = file('{"fio version":"fio-3.36"}', 'nvme.json');
    const hash = await contentHash(f);
    expect(await store.put(hash, f)).toBe('stored');
    const back = await store.get(hash);
    expect(back?.name).toBe('nvme.json');
    expect(back?.type).toBe('application/json');
    expect(await back?.text()).toBe('{"fio version":"fio-3.36"}');
    expect(await contentHash(back!)).toBe(hash);
  });

  it('refuses a file larger than the room the browser estimates, as an outcome', async () => {
    const { store } = freshStore(10);
    const f = file('x'.repeat(100));
    const hash = await contentHash(f);
    expect(await store.put(hash, f)).toBe('quota');
    expect(await store.get(hash)).toBeNull();
  });

  it('a hash already kept is not written again (the room check is not needed)', async () => {
    const { name } = freshStore();
    const roomy = indexedDbFileStore(name, () => Promise.resolve(null))!;
    const f = file('same bytes');
    const hash = await contentHash(f);
    expect(await roomy.put(hash, f)).toBe('stored');
    const full = indexedDbFileStore(name, () => Promise.resolve(0))!;
    expect(await full.put(hash, f)).toBe('stored');
  });

  it('prune removes every file not kept by the session', async () => {
    const { store } = freshStore();
    const a = file('a');
    const b = file('b');
    const [ha, hb] = await Promise.all([contentHash(a), contentHash(b)]);
    await store.put(ha, a);
    await store.put(hb, b);
    await store.prune(new Set([hb]));
    expect(await store.get(ha)).toBeNull();
    expect(await (await store.get(hb))?.text()).toBe('b');
  });

  it('anything else under a key, or a key that is no hash, is no file', async () => {
    const { store, name } = freshStore();
    const hash = 'a'.repeat(64);
    await set(hash, { name: 'x', bytes: 'not bytes' }, createStore(name, 'files'));
    expect(await store.get(hash)).toBeNull();
    expect(await store.get('../etc')).toBeNull();
  });
});
