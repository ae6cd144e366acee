import type { FleetVolumePlan } from '@blockwise/shared/fleet';
import { useId, useState } from 'react';
import { SelectField, TextField } from '../../../components/Field.tsx';
import {
  activeFilters,
  filterChoices,
  isFleetVolumeStatus,
  NO_FILTER,
  STATUS_LABELS,
  type FilterChoice,
  type FleetFilter,
} from '../fleet-view.ts';

/** Where no filter applies: the select's value for "all". */
const ALL = '';

/**
 * The options of one filter: "all", what the plan has (with counts), and the value in use when
 * the plan has none of it (a link from another plan): shown as such, never silently dropped.
 */
function Options({
  all,
  choices,
  value,
  label = (v) => v,
}: {
  all: string;
  choices: FilterChoice[];
  value: string | null;
  label?: (value: string) => string;
}) {
  return (
    <>
      <option value={ALL}>{all}</option>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label} ({c.volumes})
        </option>
      ))}
      {value !== null && !choices.some((c) => c.value === value) ? (
        <option value={value}>{label(value)} (none in this plan)</option>
      ) : null}
    </>
  );
}

/**
 * The volume table's filters: status, volume type, instance and a text search on the volume id
 * or Name tag. On a phone they fold behind one "Filters" button, so the table (its Recommended
 * and Saving columns) stays in view; the count line is always shown.
 */
export function FleetFilters({
  volumes,
  filter,
  onFilter,
}: {
  volumes: readonly FleetVolumePlan[];
  filter: FleetFilter;
  onFilter: (filter: FleetFilter) => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const choices = filterChoices(volumes);
  const active = activeFilters(filter);
  const set = (patch: Partial<FleetFilter>) => onFilter({ ...filter, ...patch });
  return (
    <div className="fleet-filters">
      <div className="fleet-filters__bar">
        <button
          type="button"
          className="btn btn--small fleet-filters__toggle"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide filters' : 'Filters'}
          {active > 0 ? ` (${active} on)` : ''}
        </button>
        {active > 0 ? (
          <button type="button" className="btn btn--small btn--ghost" onClick={() => onFilter(NO_FILTER)}>
            Clear filters
          </button>
        ) : null}
      </div>
      <div
        id={panelId}
        className={`fleet-filters__controls${open ? ' is-open' : ''}`}
        role="group"
        aria-label="Filter the volumes"
      >
        <TextField
          label="Volume id or name"
          type="search"
          value={filter.text}
          maxLength={100}
          placeholder="vol-0… or a Name tag"
          onChange={(e) => set({ text: e.target.value })}
        />
        <SelectField
          label="Status"
          value={filter.status ?? ALL}
          onChange={(e) => {
            const value = e.target.value;
            set({ status: isFleetVolumeStatus(value) ? value : null });
          }}
        >
          <Options
            all="All statuses"
            choices={choices.statuses}
            value={filter.status}
            label={(s) => (isFleetVolumeStatus(s) ? STATUS_LABELS[s] : s)}
          />
        </SelectField>
        <SelectField
          label="Volume type"
          value={filter.volumeType ?? ALL}
          onChange={(e) => set({ volumeType: e.target.value || null })}
        >
          <Options all="All types" choices={choices.volumeTypes} value={filter.volumeType} />
        </SelectField>
        <SelectField
          label="Instance"
          value={filter.instance ?? ALL}
          onChange={(e) => set({ instance: e.target.value || null })}
        >
          <Options all="All instances" choices={choices.instances} value={filter.instance} />
        </SelectField>
      </div>
    </div>
  );
}
