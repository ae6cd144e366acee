import { describe, expect, it } from 'vitest';
import { parseNumberText } from './parse-number.ts';

describe('parseNumberText', () => {
  it.each([
    ['12000', 12000],
    ['12,000', 12000],
    [' 12 000 ', 12000],
    ['1_000', 1000],
    ['3.5', 3.5],
    ['.5', 0.5],
    ['0', 0],
  ])('%j → %d', (text, n) => expect(parseNumberText(text)).toBe(n));

  it.each(['', ' ', 'abc', '12k', '-5', '1e3', '1.2.3', 'NaN', 'Infinity'])('%j → null', (text) =>
    expect(parseNumberText(text)).toBeNull(),
  );
});
