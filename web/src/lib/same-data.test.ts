import { describe, expect, it } from 'vitest';
import { sameData } from './same-data.ts';

const format = (v: number) => `${v} ms`;

describe('sameData', () => {
  it.each([
    ['equal numbers', 1, 1, true],
    ['NaN and NaN', Number.NaN, Number.NaN, true],
    ['different numbers', 1, 2, false],
    ['a number and its text', 1, '1', false],
    ['null and undefined', null, undefined, false],
    ['equal rows, new arrays', [{ p: '99', ms: 1.5 }], [{ p: '99', ms: 1.5 }], true],
    ['one value differs deep inside', [{ p: '99', ms: 1.5 }], [{ p: '99', ms: 1.6 }], false],
    ['a missing key', { a: 1, b: undefined }, { a: 1, c: undefined }, false],
    ['an extra row', [1, 2], [1, 2, 3], false],
    ['an array and an object with its indexes', [1], { 0: 1 }, false],
    ['the same function', { format }, { format }, true],
    ['equal-looking closures', { f: (v: number) => v }, { f: (v: number) => v }, false],
    ['Dates by identity', new Date(0), new Date(0), false],
  ])('%s', (_, a, b, expected) => {
    expect(sameData(a, b)).toBe(expected);
  });
});
