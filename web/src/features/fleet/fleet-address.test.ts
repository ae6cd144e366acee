import { describe, expect, it } from 'vitest';
import { readFleetAddress, withFleetAddress } from './fleet-address.ts';
import { DEFAULT_SORT } from './fleet-view.ts';

describe('the Fleet page’s state in the address', () => {
  it.each([
    ['', { sort: DEFAULT_SORT, statistic: null, headroomText: null, region: null, ignoreRecurring: false }],
    [
      '?sort=saving:descending&statistic=p99&headroom=30&region=eu-west-1&recurring=ignore',
      {
        sort: { key: 'saving', direction: 'descending' },
        statistic: 'p99',
        headroomText: '30',
        region: 'eu-west-1',
        ignoreRecurring: true,
      },
    ],
    // Hand-edited or stale links: each bad parameter falls back to its default, alone.
    [
      '?sort=price:up&statistic=p50&region=../x&headroom=' + '9'.repeat(30),
      { sort: DEFAULT_SORT, statistic: null, headroomText: null, region: null, ignoreRecurring: false },
    ],
    [
      '?sort=volume&statistic=max',
      { sort: DEFAULT_SORT, statistic: 'max', headroomText: null, region: null, ignoreRecurring: false },
    ],
  ])('%j', (search, expected) => {
    expect(readFleetAddress(search)).toEqual(expected);
  });

  it('writes what differs from the defaults, keeps other parameters, and reads back the same', () => {
    const search = withFleetAddress('?utm=x', {
      sort: { key: 'volume', direction: 'ascending' },
      statistic: 'p95',
      headroomText: '40',
      ignoreRecurring: true,
    });
    expect(search).toBe('?utm=x&sort=volume%3Aascending&statistic=p95&headroom=40&recurring=ignore');
    expect(readFleetAddress(search)).toMatchObject({
      sort: { key: 'volume', direction: 'ascending' },
      statistic: 'p95',
      headroomText: '40',
      ignoreRecurring: true,
    });
    // Back to the defaults: the parameters leave the address.
    expect(
      withFleetAddress(search, {
        sort: DEFAULT_SORT,
        statistic: null,
        headroomText: null,
        ignoreRecurring: false,
      }),
    ).toBe('?utm=x');
  });
});
