import { listInstanceTypes } from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import {
  expandInstanceAbbreviation,
  filterInstanceTypes,
  resolveInstanceType,
  sizeRank,
  suggestInstanceTypes,
} from './instance-suggest.ts';

// The built-in catalog: all 1,390 types, as the picker searches them.
const types = listInstanceTypes();
const names = (ts: readonly { instanceType: string }[]) => ts.map((t) => t.instanceType);

describe('expandInstanceAbbreviation', () => {
  it.each([
    ['r6id.4xl', 'r6id.4xlarge'],
    ['R6ID.4XL', 'r6id.4xlarge'],
    ['m5.xl', 'm5.xlarge'],
    ['c7g.16x', 'c7g.16xlarge'],
    ['t3.med', 't3.medium'],
    ['t3.sm', 't3.small'],
    ['r6i.lg', 'r6i.large'],
    ['r6i.4xlarge', 'r6i.4xlarge'],
    ['r6i', 'r6i'],
    ['  i4i.metal ', 'i4i.metal'],
  ])('%s → %s', (typed, expanded) => {
    expect(expandInstanceAbbreviation(typed)).toBe(expanded);
  });
});

describe('sizeRank', () => {
  it('orders sizes as AWS doubles them, metal last, unknown null', () => {
    const sizes = [
      'nano',
      'micro',
      'small',
      'medium',
      'large',
      'xlarge',
      '2xlarge',
      '24xlarge',
      'metal-48xl',
    ];
    const ranks = sizes.map(sizeRank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a! - b!));
    expect(sizeRank('huge')).toBeNull();
  });
});

describe('filterInstanceTypes (the listbox)', () => {
  it.each([
    ['r6id.4xl', 'r6id.4xlarge'],
    ['R5D.4X', 'r5d.4xlarge'],
    ['m5.xl', 'm5.xlarge'],
  ])('%s lists %s first', (typed, first) => {
    expect(filterInstanceTypes(types, typed)[0]!.instanceType).toBe(first);
  });

  it('keeps prefix matches before substring matches, every match containing the text', () => {
    const sub = filterInstanceTypes(types, '4xlarge');
    expect(sub.length).toBeGreaterThan(50);
    expect(sub.every((t) => t.instanceType.includes('4xlarge'))).toBe(true);
    const g = names(filterInstanceTypes(types, 'g'));
    const firstOther = g.findIndex((n) => !n.startsWith('g'));
    expect(firstOther).toBeGreaterThan(0); // g4dn… first, then m6g… (Graviton) by substring
    expect(g.slice(firstOther).some((n) => n.startsWith('g'))).toBe(false);
  });
});

describe('resolveInstanceType (what Enter and blur pick)', () => {
  it.each([
    ['r6id.4xlarge', 'r6id.4xlarge'],
    ['r6id.4xl', 'r6id.4xlarge'],
    ['t3.med', 't3.medium'],
    ['r6id.32xlar', 'r6id.32xlarge'], // one type starts with it
    ['r6id', null], // a family: many sizes
    ['', null],
  ])('%s → %s', (typed, picked) => {
    expect(resolveInstanceType(types, typed)?.instanceType ?? null).toBe(picked);
  });
});

describe('suggestInstanceTypes ("did you mean")', () => {
  it('offers the same family first, nearest size first', () => {
    // No r6id.5xlarge: its neighbours 4xlarge and 8xlarge come first.
    expect(names(suggestInstanceTypes(types, 'r6id.5xlarge', 2)).sort()).toEqual([
      'r6id.4xlarge',
      'r6id.8xlarge',
    ]);
    // An abbreviation that names no type still finds its family.
    expect(names(suggestInstanceTypes(types, 'r6id.5xl', 3)).every((n) => n.startsWith('r6id.'))).toBe(true);
  });

  it('offers a family one edit away, its same size first, when the family is misspelt', () => {
    const [first] = names(suggestInstanceTypes(types, 'r6di.4xlarge'));
    expect(first).toBe('r6id.4xlarge');
  });

  it('offers nothing for text that is no family', () => {
    expect(suggestInstanceTypes(types, '')).toEqual([]);
  });
});
