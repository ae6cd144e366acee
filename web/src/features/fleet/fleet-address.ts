import { FleetStatisticSchema, type FleetStatistic } from '@blockwise/shared/fleet';
import { z } from 'zod';
import {
  DEFAULT_SORT,
  isFleetVolumeStatus,
  NO_INSTANCE,
  SORT_KEYS,
  type FleetFilter,
  type Sort,
} from './fleet-view.ts';

/**
 * The Fleet page's view state in the address (`?sort=saving:descending&statistic=p99&headroom=30
 * &region=eu-west-1&recurring=ignore`) with the volume table's filters (`&status=over&type=gp3
 * &instance=i-0abc&q=db`), so a reload, the back button and a copied link keep it.
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
  /** Which volumes the table shows. */
  filter: FleetFilter;
};

/** The parameters that shape the view of a plan (not the plan): what a share link carries. */
export type FleetView = Pick<FleetAddress, 'sort' | 'filter'>;

const SortSchema = z.tuple([z.enum(SORT_KEYS), z.enum(['ascending', 'descending'])]);
const RegionSchema = z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/);
/** AWS's volume type names (gp3, io2, st1, standard…). */
const VolumeTypeSchema = z.string().regex(/^[a-z0-9]{1,20}$/);
/** An instance id (`i-…`) or NO_INSTANCE. */
const InstanceSchema = z.union([z.literal(NO_INSTANCE), z.string().regex(/^i-[A-Za-z0-9]{1,40}$/)]);
/** The text filter as typed; longer than anything a volume id or Name tag search needs is ignored. */
const MAX_TEXT_CHARS = 100;

function readFilter(params: URLSearchParams): FleetFilter {
  const status = params.get('status');
  const volumeType = VolumeTypeSchema.safeParse(params.get('type'));
  const instance = InstanceSchema.safeParse(params.get('instance'));
  const text = params.get('q') ?? '';
  return {
    status: status !== null && isFleetVolumeStatus(status) ? status : null,
    volumeType: volumeType.success ? volumeType.data : null,
    instance: instance.success ? instance.data : null,
    text: text.length <= MAX_TEXT_CHARS ? text : '',
  };
}

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
    filter: readFilter(params),
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
  if (patch.filter) {
    put('status', patch.filter.status);
    put('type', patch.filter.volumeType);
    put('instance', patch.filter.instance);
    put('q', patch.filter.text === '' ? null : patch.filter.text);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The search string of a view alone (sort and filters): what a share link carries, so it opens
 * the table as it was shown. The planning options are not in it: a saved plan has its own.
 */
export function fleetViewSearch(view: FleetView): string {
  // Only these two: a whole FleetAddress passed in must not carry its planning options along.
  return withFleetAddress('', { sort: view.sort, filter: view.filter });
}
