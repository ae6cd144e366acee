import type { FleetPlan, FleetVolumePlan, FleetVolumeStatus } from '@blockwise/shared/fleet';
import { fmtInt, fmtUsd, fmtUsdSigned } from '../../lib/format.ts';

/**
 * Display shaping of a FleetPlan (computed in @blockwise/shared): labels, sort orders and chart
 * rows. No arithmetic on the plan's numbers: sorting compares them, the chart plots the totals
 * the planner summed.
 */

export const STATUS_LABELS: Record<FleetVolumeStatus, string> = {
  under: 'Under-provisioned (risk)',
  over: 'Over-provisioned',
  ok: 'Right-sized',
  no_data: 'No data',
  too_little_history: 'Too little history',
  unattached: 'Unattached',
  stopped_instance: 'Instance stopped',
};

/** Badge tone per status (the existing badge--ok / --watch / --concern styles). */
export const STATUS_TONE: Record<FleetVolumeStatus, 'ok' | 'watch' | 'concern'> = {
  under: 'concern',
  over: 'watch',
  ok: 'ok',
  no_data: 'watch',
  too_little_history: 'watch',
  unattached: 'watch',
  stopped_instance: 'watch',
};

/** Risks first, then savings, then the rest: the order a reviewer reads in. */
const STATUS_ORDER: Record<FleetVolumeStatus, number> = {
  under: 0,
  over: 1,
  ok: 2,
  too_little_history: 3,
  no_data: 4,
  stopped_instance: 5,
  unattached: 6,
};

export const SORT_KEYS = [
  'volume',
  'instance',
  'status',
  'current',
  'recommended',
  'peaks',
  'binding',
  'saving',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type SortDirection = 'ascending' | 'descending';
export type Sort = { key: SortKey; direction: SortDirection };

/** The default order: risks first, then by saving. */
export const DEFAULT_SORT: Sort = { key: 'status', direction: 'ascending' };

type SortValue = string | number | null;

/** What a column sorts by: one or more values compared in turn (nulls last in either direction). */
function sortValues(v: FleetVolumePlan, key: SortKey): SortValue[] {
  switch (key) {
    case 'volume':
      return [v.name ?? v.volumeId, v.volumeId];
    case 'instance':
      return [v.instanceType, v.instanceId];
    case 'status':
      return [STATUS_ORDER[v.status], -v.savingUsdPerMonth];
    case 'current':
      return [v.current.usdPerMonth];
    case 'recommended':
      return [v.recommended?.usdPerMonth ?? null];
    case 'peaks':
      return [v.observed?.readIops ?? null, v.observed?.writeIops ?? null];
    case 'binding':
      return [v.binding?.id ?? null];
    case 'saving':
      return [v.savingUsdPerMonth];
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en');
}

/** A stable sort of the plan's volumes by one column; ties keep the planner's order. */
export function sortVolumes(volumes: readonly FleetVolumePlan[], sort: Sort): FleetVolumePlan[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return volumes
    .map((volume, index) => ({ volume, index, values: sortValues(volume, sort.key) }))
    .sort((a, b) => {
      for (let i = 0; i < a.values.length; i++) {
        const x = a.values[i] ?? null;
        const y = b.values[i] ?? null;
        // Nulls stay last whichever way the column is sorted.
        if (x === null || y === null) {
          const nulls = compareValues(x, y);
          if (nulls !== 0) return nulls;
          continue;
        }
        const c = compareValues(x, y);
        if (c !== 0) return sign * c;
      }
      return a.index - b.index;
    })
    .map((row) => row.volume);
}

/** Clicking a column header: a new column sorts ascending (saving: largest first); the same one flips. */
export function nextSort(current: Sort, key: SortKey): Sort {
  if (current.key === key)
    return { key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key, direction: key === 'saving' ? 'descending' : 'ascending' };
}

export const fmtUsdMonth = (usd: number | null) => (usd === null ? 'no price' : `${fmtUsdSigned(usd)}/month`);

/** A saving with its sign spelled out: "saves $120.00/month", "costs $40.00/month more". */
export function describeSaving(usd: number): string {
  if (usd > 0) return `saves ${fmtUsd(usd)}/month`;
  if (usd < 0) return `costs ${fmtUsd(-usd)}/month more`;
  return 'no change';
}

/**
 * A volume's "Saving / risk" cell. Unused volumes are not resized: what deleting them saves is in
 * the Unused table ("see Unused", never "no change" beside a $20 saving there); a volume without
 * (enough) data has no recommendation, so no saving either ("—").
 */
export function describeVolumeSaving(v: Pick<FleetVolumePlan, 'status' | 'savingUsdPerMonth'>): string {
  if (v.status === 'unattached' || v.status === 'stopped_instance') return 'see Unused';
  if (v.status === 'no_data' || v.status === 'too_little_history') return '—';
  return describeSaving(v.savingUsdPerMonth);
}

/** "2 volumes unpriced" for a totals row's unpricedCount (null when all are priced). */
export function unpricedNote(count: number): string | null {
  if (count === 0) return null;
  return `${fmtInt(count)} ${count === 1 ? 'volume' : 'volumes'} unpriced`;
}

/** Bars of the "savings by volume type" chart: the planner's per-type totals, as they are. */
export type SavingsBar = { type: string; savingUsdPerMonth: number; volumes: number };

export function savingsBars(plan: FleetPlan): SavingsBar[] {
  return plan.totals.byVolumeType.map((t) => ({
    type: t.type,
    savingUsdPerMonth: t.savingUsdPerMonth,
    volumes: t.volumes,
  }));
}

/** A file name for exports: `fleet-plan-us-east-1-2026-11-24.csv`. */
export function exportFileName(plan: FleetPlan, createdAt: string | null, extension: string): string {
  const day = (createdAt ?? new Date().toISOString()).slice(0, 10);
  return `fleet-plan-${plan.region ?? 'custom'}-${day}.${extension}`;
}

/** A status name read from outside (the address): one of the plan's statuses, or not. */
export const isFleetVolumeStatus = (text: string): text is FleetVolumeStatus =>
  Object.hasOwn(STATUS_LABELS, text);

/** The instance filter's value for volumes attached to no instance (instance ids start with `i-`). */
export const NO_INSTANCE = 'none';

/**
 * Which volumes the table shows: each filter narrows (null / empty: no narrowing). The text
 * matches the volume id or its Name tag, anywhere, ignoring case and the spaces around it.
 */
export type FleetFilter = {
  status: FleetVolumeStatus | null;
  volumeType: string | null;
  /** An instance id, or NO_INSTANCE for the volumes attached to none. */
  instance: string | null;
  text: string;
};

export const NO_FILTER: FleetFilter = { status: null, volumeType: null, instance: null, text: '' };

/** How many of the filters narrow the table (what the phone's folded "Filters" button says). */
export function activeFilters(filter: FleetFilter): number {
  return [filter.status, filter.volumeType, filter.instance, filter.text.trim() || null].filter(
    (f) => f !== null,
  ).length;
}

export function filterVolumes(volumes: readonly FleetVolumePlan[], filter: FleetFilter): FleetVolumePlan[] {
  const text = filter.text.trim().toLowerCase();
  return volumes.filter(
    (v) =>
      (filter.status === null || v.status === filter.status) &&
      (filter.volumeType === null || v.current.type === filter.volumeType) &&
      (filter.instance === null || (v.instanceId ?? NO_INSTANCE) === filter.instance) &&
      (text === '' ||
        v.volumeId.toLowerCase().includes(text) ||
        (v.name?.toLowerCase().includes(text) ?? false)),
  );
}

/** One option of a filter's list: its value, label and how many volumes of the plan have it. */
export type FilterChoice<T extends string = string> = { value: T; label: string; volumes: number };

function choicesOf<T extends string>(
  volumes: readonly FleetVolumePlan[],
  valueOf: (v: FleetVolumePlan) => T,
  labelOf: (value: T, v: FleetVolumePlan) => string,
): FilterChoice<T>[] {
  const byValue = new Map<T, FilterChoice<T>>();
  for (const v of volumes) {
    const value = valueOf(v);
    const choice = byValue.get(value) ?? { value, label: labelOf(value, v), volumes: 0 };
    choice.volumes++;
    byValue.set(value, choice);
  }
  return [...byValue.values()];
}

/**
 * The options of the status, volume type and instance filters: what the plan has, with counts
 * (statuses in reading order, types and instances by name; "no instance" last).
 */
export function filterChoices(volumes: readonly FleetVolumePlan[]): {
  statuses: FilterChoice<FleetVolumeStatus>[];
  volumeTypes: FilterChoice[];
  instances: FilterChoice[];
} {
  const byLabel = (a: FilterChoice, b: FilterChoice) => a.label.localeCompare(b.label, 'en');
  return {
    statuses: choicesOf(
      volumes,
      (v) => v.status,
      (s) => STATUS_LABELS[s],
    ).sort((a, b) => STATUS_ORDER[a.value] - STATUS_ORDER[b.value]),
    volumeTypes: choicesOf(
      volumes,
      (v) => v.current.type,
      (t) => t,
    ).sort(byLabel),
    instances: choicesOf(
      volumes,
      (v) => v.instanceId ?? NO_INSTANCE,
      (id, v) => (v.instanceId ? `${id} (${v.instanceType ?? 'type unknown'})` : 'not attached'),
    ).sort((a, b) => Number(a.value === NO_INSTANCE) - Number(b.value === NO_INSTANCE) || byLabel(a, b)),
  };
}

/** "3 of 12 volumes shown" (the table's count line). */
export function shownNote(shown: number, total: number): string {
  return `${fmtInt(shown)} of ${fmtInt(total)} ${total === 1 ? 'volume' : 'volumes'} shown`;
}
