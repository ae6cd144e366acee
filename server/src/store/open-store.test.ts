import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCEPTED_STORE_URLS, openStore, parseStoreUrl } from './open-store.ts';
import { DEFAULT_SQLITE_PATH, StoreConfigError } from './run-store.ts';
import { runInput } from './testing/run-inputs.ts';

const dir = mkdtempSync(join(tmpdir(), 'blockwise-open-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseStoreUrl', () => {
  it.each([
    [undefined, { dialect: 'sqlite', path: DEFAULT_SQLITE_PATH }],
    ['sqlite:/var/lib/blockwise/archive.db', { dialect: 'sqlite', path: '/var/lib/blockwise/archive.db' }],
    ['sqlite:///var/lib/blockwise/archive.db', { dialect: 'sqlite', path: '/var/lib/blockwise/archive.db' }],
    ['sqlite:data/archive.db', { dialect: 'sqlite', path: 'data/archive.db' }],
    ['SQLITE:x.db', { dialect: 'sqlite', path: 'x.db' }],
    ['sqlite::memory:', { dialect: 'sqlite', path: ':memory:' }],
    [':memory:', { dialect: 'sqlite', path: ':memory:' }],
    ['./data/blockwise.db', { dialect: 'sqlite', path: './data/blockwise.db' }],
    ['/srv/blockwise.db', { dialect: 'sqlite', path: '/srv/blockwise.db' }],
    ['blockwise.db', { dialect: 'sqlite', path: 'blockwise.db' }],
    ['C:\\blockwise\\archive.db', { dialect: 'sqlite', path: 'C:\\blockwise\\archive.db' }],
    [' ./padded.db ', { dialect: 'sqlite', path: './padded.db' }],
    [
      'postgres://bw:secret@db:5432/blockwise',
      { dialect: 'postgres', url: 'postgres://bw:secret@db:5432/blockwise' },
    ],
    [
      'postgresql://db/blockwise?sslmode=require',
      { dialect: 'postgres', url: 'postgresql://db/blockwise?sslmode=require' },
    ],
    ['POSTGRES://db/blockwise', { dialect: 'postgres', url: 'POSTGRES://db/blockwise' }],
  ])('%j → %j', (url, expected) => {
    expect(parseStoreUrl(url)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['sqlite:', 'needs a path'],
    ['mysql://root:hunter2@db/blockwise', 'unsupported store URL scheme "mysql:"'],
    ['file:/var/lib/x.db', 'unsupported store URL scheme "file:"'],
    ['https://example.com/x.db', 'unsupported store URL scheme "https:"'],
    ['postgres:/missing-slashes', 'unsupported store URL scheme "postgres:"'],
  ])('%j is refused (%s), listing the accepted forms', (url, reason) => {
    const parsed = parseStoreUrl(url);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.code).toBe('invalid_store_url');
    expect(parsed.error.message).toContain(reason);
    expect(parsed.error.message).toContain(ACCEPTED_STORE_URLS);
    expect(parsed.error.message).not.toContain('hunter2');
  });
});

describe('openStore', () => {
  it('opens SQLite from sqlite:PATH and from a plain path', async () => {
    for (const url of [`sqlite:${join(dir, 'a.db')}`, join(dir, 'b.db')]) {
      const store = await openStore(url);
      expect(store.dialect).toBe('sqlite');
      expect((await store.insertRun(runInput())).created).toBe(true);
      await store.close();
    }
  });

  it('rejects an unsupported URL with StoreConfigError naming the accepted forms', async () => {
    const opening = openStore('mysql://root:hunter2@db/blockwise');
    await expect(opening).rejects.toBeInstanceOf(StoreConfigError);
    await expect(opening).rejects.toThrow(ACCEPTED_STORE_URLS);
  });
});
