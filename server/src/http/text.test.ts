import { describe, expect, it } from 'vitest';
import { isStorableText } from '../store/run-store.ts';
import { storableName } from './text.ts';

describe('storableName (client file names → storable text)', () => {
  it.each([
    ['plain.json', 255, 'plain.json'],
    ['nul\u0000byte.json', 255, 'nul\uFFFDbyte.json'],
    ['lone\uD800surrogate', 255, 'lone\uFFFDsurrogate'],
    [`${'a'.repeat(254)}😀.json`, 255, 'a'.repeat(254)], // the cut would split the pair
    [`${'a'.repeat(253)}😀.json`, 255, `${'a'.repeat(253)}😀`],
  ])('%j (max %d)', (input, max, expected) => {
    const out = storableName(input, max);
    expect(out).toBe(expected);
    expect(isStorableText(out)).toBe(true);
    expect(out.length).toBeLessThanOrEqual(max);
  });
});
