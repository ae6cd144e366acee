import { FleetStatisticSchema, type FleetStatistic } from '@blockwise/shared/fleet';
import { z } from 'zod';
import { DEFAULT_SORT, SORT_KEYS, type Sort } from './fleet-view.ts';

/**
 * The Fleet page's view state in the address (`?sort=saving:descending&statistic=p99&headroom=30
 * &region=eu-west-1&recurring=ignore`), so a reload, the back button and a copied link keep it.
 * The address is untrusted input: each parameter is parsed on its own, and one that does not
 * parse is left at its default (never an error page for a hand-edited link).
 */

export type FleetAddress = {
  sort: Sort;
  statistic: FleetStatistic | null;
  /** As typed (percent text): the page validates it and says what is wrong. */
  headroomText: string | null;
  region: string | null;
  ignoreRecurring: boolean;
};

const SortSchema = z.tuple([z.enum(SORT_KEYS), z.enum(['ascending', 'descending'])]);
const RegionSchema = z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/);

export function readFleetAddress(search: string): FleetAddress {
  const params = new URLSearchParams(search);
  const sort = SortSchema.safeParse(params.get('sort')?.split(':'));
  const statistic = FleetStatisticSchema.safeParse(params.get('statistic'));
  const region = RegionSchema.safeParse(params.get('region'));
  const headroom = params.get('headroom');
  return {
    sort: sort.success ? { key: sort.data[0], direction: sort.data[1] } : DEFAULT_SORT,
    statistic: statistic.success ? statistic.data : null,
    headroomText: headroom !== null && headroom.length <= 20 ? headroom : null,
    region: region.success ? region.data : null,
    ignoreRecurring: params.get('recurring') === 'ignore',
  };
}

/** The search string with the patch applied; defaults (and nulls) leave the address. */
export function withFleetAddress(search: string, patch: Partial<FleetAddress>): string {
  const params = new URLSearchParams(search);
  const put = (key: string, value: string | null) =>
    value === null ? params.delete(key) : params.set(key, value);
  if (patch.sort)
    put(
      'sort',
      patch.sort.key === DEFAULT_SORT.key && patch.sort.direction === DEFAULT_SORT.direction
        ? null
        : `${patch.sort.key}:${patch.sort.direction}`,
    );
  if ('statistic' in patch) put('statistic', patch.statistic ?? null);
  if ('headroomText' in patch) put('headroom', patch.headroomText ?? null);
  if ('region' in patch) put('region', patch.region ?? null);
  if ('ignoreRecurring' in patch) put('recurring', patch.ignoreRecurring ? 'ignore' : null);
  const text = params.toString();
  return text ? `?${text}` : '';
}
