import { describe, expect, it } from 'vitest';
import { RecentRuns, recentRunsOf } from './recent-runs.ts';

const entry = (id: string) => ({ id });

describe('RecentRuns: immutable facts by id, least recently used dropped first, within a byte budget', () => {
  it('drops the least recently used when a new entry goes past the budget; a read counts as a use', () => {
    const cache = new RecentRuns<{ id: string }>(100);
    cache.remember(entry('a'), 40);
    cache.remember(entry('b'), 40);
    expect(cache.get('a')?.id).toBe('a'); // a is now the most recent
    cache.remember(entry('c'), 40);
    expect(cache.get('b')).toBeNull();
    expect([cache.get('a')?.id, cache.get('c')?.id]).toEqual(['a', 'c']);
    expect(cache.bytes).toBe(80);
  });

  it('keeps nothing larger than the whole budget, and charges a run remembered again once', () => {
    const cache = new RecentRuns<{ id: string }>(100);
    cache.remember(entry('huge'), 101);
    expect(cache.size).toBe(0);
    cache.remember(entry('a'), 30);
    cache.remember(entry('a'), 50);
    expect([cache.size, cache.bytes]).toEqual([1, 50]);
  });

  it('one cache per store', () => {
    const store = {};
    expect(recentRunsOf(store)).toBe(recentRunsOf(store));
    expect(recentRunsOf({})).not.toBe(recentRunsOf(store));
  });
});
