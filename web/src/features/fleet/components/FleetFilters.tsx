import type { FleetVolumePlan } from '@blockwise/shared/fleet';
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
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
 * How long typing pauses before the text filter is applied (and written to the address): one
 * write per pause, not one per keystroke. Leaving the field applies it at once.
 */
export const TEXT_IDLE_MS = 300;

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
  // The counts per choice walk every volume: once per plan, not on each keystroke's render.
  const choices = useMemo(() => filterChoices(volumes), [volumes]);
  const active = activeFilters(filter);

  // The text as typed, applied after a pause (see TEXT_IDLE_MS). It follows the applied text when
  // that changes from outside (Clear filters, back/forward).
  const [text, setText] = useState(filter.text);
  const [appliedText, setAppliedText] = useState(filter.text);
  if (filter.text !== appliedText) {
    setAppliedText(filter.text);
    setText(filter.text);
  }
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const cancelPending = () => {
    if (pending.current !== null) clearTimeout(pending.current);
    pending.current = null;
  };
  useEffect(() => cancelPending, []);
  // The filter in use now, for a pending text: back/forward within the pause changed it, and the
  // text must apply on top of that, not restore the filter it was typed over.
  const latest = useRef(filter);
  useLayoutEffect(() => {
    latest.current = filter;
  });
  // Any filter change carries the text as typed, and supersedes a pending one. The field shows
  // the text applied: "Clear filters" while text is pending (no blur: a tap that leaves focus in
  // the field) empties it, though the applied text was already '' and the sync above stays still.
  const set = (patch: Partial<FleetFilter>) => {
    cancelPending();
    const next = { ...filter, text, ...patch };
    setText(next.text);
    setAppliedText(next.text);
    onFilter(next);
  };
  const typeText = (value: string) => {
    setText(value);
    cancelPending();
    // The applied text it was typed over: a text changed from outside meanwhile (back/forward to
    // another search) is the user's newer choice, and the field already shows it.
    const typedOver = latest.current.text;
    pending.current = setTimeout(() => {
      pending.current = null;
      if (latest.current.text !== typedOver) return;
      onFilter({ ...latest.current, text: value });
    }, TEXT_IDLE_MS);
  };
  const flushText = () => {
    if (pending.current === null) return;
    set({});
  };
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
          <button type="button" className="btn btn--small btn--ghost" onClick={() => set(NO_FILTER)}>
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
          value={text}
          maxLength={100}
          placeholder="vol-0… or a Name tag"
          onChange={(e) => typeText(e.target.value)}
          onBlur={flushText}
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
