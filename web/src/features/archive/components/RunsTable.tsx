import type { RunHeadline, RunLabels } from '@blockwise/shared/records';
import type { ReactNode } from 'react';
import { fmtInt, fmtRate, fmtSize } from '../../../lib/format.ts';
import { TableScroll } from '../../../components/TableScroll.tsx';

/** Archived runs with their labels and headline numbers; labels are rendered as text. */

export type RunRow = {
  id: string;
  createdAt?: string;
  labels: RunLabels;
  fioVersion: string | null;
  headline: RunHeadline;
};

export function describeVolume(l: RunLabels): string {
  if (l.kind === 'nvme') return 'NVMe instance store';
  if (!l.volumeType) return l.kind === 'ebs' ? 'EBS (volume not labelled)' : '—';
  const parts = [
    `${l.volumeCount && l.volumeCount > 1 ? `${l.volumeCount} × ` : ''}${l.volumeType}`,
    l.volumeSizeGiB !== undefined ? `${fmtInt(l.volumeSizeGiB)} GiB` : null,
    l.volumeIops !== undefined ? `${fmtInt(l.volumeIops)} IOPS` : null,
    l.volumeThroughputMiBps !== undefined ? `${fmtInt(l.volumeThroughputMiBps)} MiB/s` : null,
  ];
  return parts.filter(Boolean).join(', ');
}

/**
 * Read and Write, the numbers a reader compares, come right after the run's name: on a phone the
 * table scrolls sideways and those columns are what shows.
 */
export function RunsTable({
  items,
  caption,
  nameOf = (r) => r.labels.name ?? r.id,
  actions,
}: {
  items: RunRow[];
  caption: string;
  nameOf?: (r: RunRow) => ReactNode;
  actions?: (r: RunRow) => ReactNode;
}) {
  return (
    <TableScroll label={caption}>
      <table className="table table--dense">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Run</th>
            <th scope="col" className="num">
              Read
            </th>
            <th scope="col" className="num">
              Write
            </th>
            <th scope="col">Storage</th>
            <th scope="col">Instance</th>
            <th scope="col">fio</th>
            {actions ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {items.map((r) => (
            <tr key={r.id}>
              <th scope="row">
                {nameOf(r)}
                {r.createdAt ? (
                  <span className="cell-note">
                    <time dateTime={r.createdAt}>
                      {new Date(r.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC
                    </time>
                    {r.labels.series ? ` · series ${r.labels.series}` : ''}
                    {r.labels.branch ? ` · ${r.labels.branch}` : ''}
                  </span>
                ) : null}
              </th>
              <td className="num">
                {fmtInt(r.headline.readIops)} IOPS
                <span className="cell-note">
                  {fmtRate(r.headline.readBytesPerSec)} · {fmtSize(r.headline.readBlockSizeBytes)}
                </span>
              </td>
              <td className="num">
                {fmtInt(r.headline.writeIops)} IOPS
                <span className="cell-note">
                  {fmtRate(r.headline.writeBytesPerSec)} · {fmtSize(r.headline.writeBlockSizeBytes)}
                </span>
              </td>
              <td>{describeVolume(r.labels)}</td>
              <td>
                {r.labels.instanceType ?? '—'}
                {r.labels.region ? <span className="cell-note">{r.labels.region}</span> : null}
              </td>
              <td>{r.fioVersion ?? '—'}</td>
              {actions ? <td className="nowrap">{actions(r)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
