import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isValidId, newId } from './ids.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('newId', () => {
  it('gives 10^6 distinct ids, all 22 base64url characters (R6)', () => {
    const random = vi.spyOn(Math, 'random');
    const n = 1_000_000;
    const seen = new Set<string>();
    let malformed = 0;
    for (let i = 0; i < n; i++) {
      const id = newId();
      if (!isValidId(id)) malformed++;
      seen.add(id);
    }
    expect(malformed).toBe(0);
    expect(seen.size).toBe(n);
    expect(random).not.toHaveBeenCalled();
  });

  it('decodes to exactly 16 bytes (128 bits)', () => {
    for (let i = 0; i < 1000; i++) {
      const id = newId();
      expect(Buffer.from(id, 'base64url')).toHaveLength(16);
      // Canonical encoding: re-encoding the bytes gives the same string.
      expect(Buffer.from(id, 'base64url').toString('base64url')).toBe(id);
    }
  });

  it('is not sequential: consecutive ids share no common prefix beyond chance', () => {
    // With 64 symbols, two random ids share a first character with p = 1/64; 1,000 pairs sharing
    // a 4-character prefix would be a counter or a broken pool, not chance.
    let sharedPrefix4 = 0;
    let previous = newId();
    for (let i = 0; i < 1000; i++) {
      const next = newId();
      if (next.slice(0, 4) === previous.slice(0, 4)) sharedPrefix4++;
      previous = next;
    }
    expect(sharedPrefix4).toBeLessThan(3);
  });

  it('store code never uses Math.random or randomUUID for ids', () => {
    const dir = new URL('.', import.meta.url);
    const offenders = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .filter((file) => /Math\.random|randomUUID/.test(readFileSync(new URL(file, dir), 'utf8')));
    expect(offenders).toEqual([]);
  });
});

describe('isValidId', () => {
  it.each([
    ['AAAAAAAAAAAAAAAAAAAAAA', true],
    ['abcdefghijklmnopqrstu_', true],
    ['-_-_-_-_-_-_-_-_-_-_-_', true],
    ['AAAAAAAAAAAAAAAAAAAAA', false], // 21
    ['AAAAAAAAAAAAAAAAAAAAAAA', false], // 23
    ['AAAAAAAAAAAAAAAAAAAAA=', false],
    ['AAAAAAAAAAAAAAAAAAAA+/', false], // base64, not base64url
    ['AAAAAAAAAAAAAAAAAAAAA\n', false],
    ['', false],
    ['../../../../etc/passwd', false],
  ])('%j → %s', (value, expected) => {
    expect(isValidId(value)).toBe(expected);
  });

  it('rejects non-strings', () => {
    expect(isValidId(undefined)).toBe(false);
    expect(isValidId(12)).toBe(false);
    expect(isValidId(null)).toBe(false);
  });
});
