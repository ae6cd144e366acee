import { describe, expect, it } from 'vitest';
import { fleetViewSearch, readFleetAddress, withFleetAddress } from './fleet-address.ts';
import { DEFAULT_SORT, NO_FILTER } from './fleet-view.ts';

describe('the Fleet page’s state in the address', () => {
  it.each([
    [
      '',
      {
        sort: DEFAULT_SORT,
        statistic: null,
        headroomText: null,
        region: null,
        ignoreRecurring: false,
        filter: NO_FILTER,
      },
    ],
    [
      '?sort=saving:descending&statistic=p99&headroom=30&region=eu-west-1&recurring=ignore',
      {
        sort: { key: 'saving', direction: 'descending' },
        statistic: 'p99',
        headroomText: '30',
        region: 'eu-west-1',
        ignoreRecurring: true,
        filter: NO_FILTER,
      },
    ],
    // Hand-edited or stale links: each bad parameter falls back to its default, alone.
    [
      '?sort=price:up&statistic=p50&region=../x&headroom=' + '9'.repeat(30),
      {
        sort: DEFAULT_SORT,
        statistic: null,
        headroomText: null,
        region: null,
        ignoreRecurring: false,
        filter: NO_FILTER,
      },
    ],
    [
      '?sort=volume&statistic=max',
      {
        sort: DEFAULT_SORT,
        statistic: 'max',
        headroomText: null,
        region: null,
        ignoreRecurring: false,
        filter: NO_FILTER,
      },
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

  it.each([
    [
      '?status=over&type=gp3&instance=i-0app1&q=db%20',
      { status: 'over', volumeType: 'gp3', instance: 'i-0app1', text: 'db ' },
    ],
    ['?instance=none', { ...NO_FILTER, instance: 'none' }],
    // Junk, one parameter at a time: each falls back to "no filter" alone, the others stay.
    ['?status=fine&type=gp3', { ...NO_FILTER, volumeType: 'gp3' }],
    ['?status=under&type=GP3;drop', { ...NO_FILTER, status: 'under' }],
    ['?status=toString&instance=../etc&q=vol', { ...NO_FILTER, text: 'vol' }],
    ['?status=__proto__&instance=i-<script>&type=', NO_FILTER],
    [`?q=${'x'.repeat(101)}&status=ok`, { ...NO_FILTER, status: 'ok' }],
    ['?status=over&status=under', { ...NO_FILTER, status: 'over' }],
  ])('filters %j', (search, filter) => {
    const read = readFleetAddress(search);
    expect(read.filter).toEqual(filter);
    // A bad filter never costs the rest of the view.
    expect(read.sort).toEqual(DEFAULT_SORT);
  });

  it('writes the filters, drops the ones cleared, and reads back the same', () => {
    const filter = { status: 'under', volumeType: 'io2', instance: 'none', text: 'db 1' } as const;
    const search = withFleetAddress('?sort=saving:descending&statistic=p99', { filter });
    expect(search).toBe('?sort=saving%3Adescending&statistic=p99&status=under&type=io2&instance=none&q=db+1');
    expect(readFleetAddress(search).filter).toEqual(filter);
    expect(withFleetAddress(search, { filter: NO_FILTER })).toBe('?sort=saving%3Adescending&statistic=p99');
  });

  it('a share link carries the view (sort, filters), never the planning options', () => {
    const address = readFleetAddress(
      '?sort=volume:ascending&statistic=p95&headroom=40&region=eu-west-1&recurring=ignore&type=gp3&q=db',
    );
    expect(fleetViewSearch(address)).toBe('?sort=volume%3Aascending&type=gp3&q=db');
    expect(fleetViewSearch(readFleetAddress(''))).toBe('');
  });
});
