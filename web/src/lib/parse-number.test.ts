import { describe, expect, it } from 'vitest';
import { numberProblem, parseNumberText, suffixRefusal } from './parse-number.ts';

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

  it.each(['', ' ', 'abc', '-5', '1e3', '1.2.3', 'NaN', 'Infinity', '12kb'])('%j → null', (text) =>
    expect(parseNumberText(text)).toBeNull(),
  );

  // Dashboards print "10k IOPS" and "1.5M": accepted in count fields (IOPS, counts) only.
  it.each([
    ['10k', 10000],
    ['12K', 12000],
    ['1.5M', 1500000],
  ])('count field: %j → %d', (text, n) => expect(parseNumberText(text, { suffixes: true })).toBe(n));

  // Beside a unit a suffix is a misread unit: "500M" MiB/s is not 524 TB/s, "5m" ms not 5,000,000 ms.
  it.each(['500M', '5m', '10k', '1.5 M'])('field with a unit: %j → null (suffix)', (text) => {
    expect(parseNumberText(text)).toBeNull();
    expect(numberProblem(text)).toBe('suffix');
  });

  it.each([
    ['-5', {}, 'negative'],
    ['abc', {}, 'not_a_number'],
    ['10k', { suffixes: true }, null],
    ['10k', {}, 'suffix'],
  ] as const)('numberProblem(%j, %j) → %s', (text, options, problem) =>
    expect(numberProblem(text, options)).toBe(problem),
  );

  it('says which unit to type instead', () =>
    expect(suffixRefusal('MiB/s')).toMatch(/only for counts such as IOPS: type the number in MiB\/s/));
});
