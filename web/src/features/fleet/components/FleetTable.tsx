import { describeFleetConfig, type FleetPlan, type FleetVolumePlan } from '@blockwise/shared/fleet';
import { Fragment, useMemo, useState } from 'react';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { fmtInt, fmtNum } from '../../../lib/format.ts';
import { FleetFilters } from './FleetFilters.tsx';
import {
  DEFAULT_SORT,
  NO_FILTER,
  STATUS_LABELS,
  STATUS_TONE,
  describeVolumeSaving,
  filterVolumes,
  fmtUsdMonth,
  nextSort,
  shownNote,
  sortVolumes,
  type FleetFilter,
  type Sort,
  type SortKey,
} from '../fleet-view.ts';

/**
 * Recommended and Saving, what a reader acts on, come right after the volume: on a phone the table
 * scrolls sideways and those columns are what shows.
 */
const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: 'volume', label: 'Volume' },
  { key: 'recommended', label: 'Recommended' },
  { key: 'saving', label: 'Saving / risk', numeric: true },
  { key: 'status', label: 'Status' },
  { key: 'current', label: 'Current' },
  { key: 'instance', label: 'Instance' },
  { key: 'peaks', label: 'Observed peaks', numeric: true },
  { key: 'binding', label: 'Binding limit' },
];

/** A column header that sorts: a real button (keyboard, screen readers) and aria-sort on the header. */
function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  sort: Sort;
  onSort: (key: SortKey) => void;
}) {
  const active = sort.key === column.key;
  return (
    <th
      scope="col"
      aria-sort={active ? sort.direction : 'none'}
      className={column.numeric ? 'num' : undefined}
    >
      <button type="button" className="sort-button" onClick={() => onSort(column.key)}>
        {column.label}
        <span aria-hidden="true" className="sort-button__arrow">
          {active ? (sort.direction === 'ascending' ? '▲' : '▼') : '↕'}
        </span>
      </button>
    </th>
  );
}

function Peaks({ v }: { v: FleetVolumePlan }) {
  const o = v.observed;
  if (!o) return <>—</>;
  return (
    <>
      read {fmtInt(o.readIops)} IOPS · {fmtNum(o.readMibps)} MiB/s
      <span className="cell-note">
        write {fmtInt(o.writeIops)} IOPS · {fmtNum(o.writeMibps)} MiB/s
      </span>
      <span className="cell-note">
        {fmtInt(o.points)} points over {fmtNum(o.days)} days
        {o.exact ? '' : ' (percentile bounded from above)'}
      </span>
    </>
  );
}

function Commands({ v, rule }: { v: FleetVolumePlan; rule: string }) {
  const { modify, rollback, terraform } = v.commands;
  return (
    <div className="fleet-commands">
      {modify.length > 0 ? (
        <>
          <p className="fleet-commands__title">Change (AWS CLI)</p>
          <pre>{modify.join('\n')}</pre>
          <p className="fleet-commands__title">Rollback</p>
          <pre>{rollback.length > 0 ? rollback.join('\n') : '(none)'}</pre>
          <p className="fleet-commands__title">Terraform (aws_ebs_volume)</p>
          <pre>{terraform}</pre>
          <p className="cell-note">{rule}</p>
        </>
      ) : (
        <p>No change recommended for this volume.</p>
      )}
      {v.notes.length > 0 ? (
        <ul className="fleet-commands__notes">
          {v.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The table's order and filters held by its page (the address), with their setters. */
export type FleetOrder = {
  sort: Sort;
  onSort: (sort: Sort) => void;
  filter: FleetFilter;
  onFilter: (filter: FleetFilter) => void;
};

/**
 * Every volume of the plan, filtered and sortable by each column; each row expands to its
 * commands. The count line says how many the filters show, and that the fleet totals are not
 * filtered.
 */
export function FleetTable({ plan, order }: { plan: FleetPlan; order?: FleetOrder }) {
  // The order and filters may live outside (the Fleet page keeps them in the address); else here.
  const [ownSort, setOwnSort] = useState<Sort>(DEFAULT_SORT);
  const [ownFilter, setOwnFilter] = useState<FleetFilter>(NO_FILTER);
  const sort = order?.sort ?? ownSort;
  const setSort = order?.onSort ?? setOwnSort;
  const filter = order?.filter ?? ownFilter;
  const setFilter = order?.onFilter ?? setOwnFilter;
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(
    () => sortVolumes(filterVolumes(plan.volumes, filter), sort),
    [plan.volumes, filter, sort],
  );
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const caption = 'Volumes of the fleet';
  const total = plan.volumes.length;
  return (
    <>
      <FleetFilters volumes={plan.volumes} filter={filter} onFilter={setFilter} />
      <p className="fleet-shown" role="status" data-testid="fleet-shown">
        <strong>{shownNote(rows.length, total)}</strong>
        {rows.length < total ? ` · the Fleet totals above are of all ${fmtInt(total)}, not only these` : null}
      </p>
      <TableScroll label={caption}>
        <table className="table table--dense fleet-table">
          <caption className="visually-hidden">
            {caption}; column headers are buttons that sort the table.
          </caption>
          <thead>
            <tr>
              {COLUMNS.map((column) => (
                <SortHeader
                  key={column.key}
                  column={column}
                  sort={sort}
                  onSort={(key) => setSort(nextSort(sort, key))}
                />
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={COLUMNS.length}>No volume matches these filters: change or clear them above.</td>
              </tr>
            ) : null}
            {rows.map((v) => {
              const expanded = open.has(v.volumeId);
              const detailsId = `fleet-commands-${v.volumeId}`;
              return (
                <Fragment key={v.volumeId}>
                  <tr
                    className={v.status === 'under' ? 'is-bottleneck' : undefined}
                    data-volume-id={v.volumeId}
                  >
                    <th scope="row">
                      <code>{v.volumeId}</code>
                      {v.name ? <span className="cell-note">{v.name}</span> : null}
                      <button
                        type="button"
                        className="btn btn--small btn--ghost fleet-table__toggle"
                        aria-expanded={expanded}
                        aria-controls={detailsId}
                        onClick={() => toggle(v.volumeId)}
                      >
                        {expanded ? 'Hide commands' : 'Commands'}
                        <span className="visually-hidden"> for {v.volumeId}</span>
                      </button>
                    </th>
                    <td>
                      {v.recommended ? (
                        <>
                          {describeFleetConfig(v.recommended)}
                          <span className="cell-note">{fmtUsdMonth(v.recommended.usdPerMonth)}</span>
                        </>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className="num">
                      {describeVolumeSaving(v)}
                      {v.risk ? <span className="cell-note fleet-risk">Risk: {v.risk}</span> : null}
                    </td>
                    <td>
                      <span className={`badge badge--${STATUS_TONE[v.status]}`}>
                        {STATUS_LABELS[v.status]}
                      </span>
                    </td>
                    <td>
                      {describeFleetConfig(v.current)}
                      <span className="cell-note">{fmtUsdMonth(v.current.usdPerMonth)}</span>
                    </td>
                    <td>
                      {v.instanceType ?? '—'}
                      {v.instanceId ? <span className="cell-note">{v.instanceId}</span> : null}
                    </td>
                    <td className="num">
                      <Peaks v={v} />
                    </td>
                    <td>
                      {v.binding ? v.binding.explanation : '—'}
                      {v.evidence?.bindingCheck === 'confirmed' ||
                      v.evidence?.bindingCheck === 'contradicted' ? (
                        <span className="cell-note">
                          {v.evidence.bindingCheck === 'confirmed'
                            ? "AWS's exceeded checks confirm it"
                            : `AWS's exceeded checks contradict the model (${v.evidence.modelBinding ?? ''}): trusted`}
                        </span>
                      ) : null}
                    </td>
                  </tr>
                  {expanded ? (
                    <tr id={detailsId} className="fleet-table__details">
                      <td colSpan={COLUMNS.length}>
                        <Commands v={v} rule={plan.modificationRule} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}
