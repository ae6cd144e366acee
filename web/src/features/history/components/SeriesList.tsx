import type { ReactNode } from 'react';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { fmtInt } from '../../../lib/format.ts';
import { fmtWhen, type SeriesIndexRow } from '../history-view.ts';

/** The CI series found in the archive: name (a link to its history), runs seen, branches, latest run. */
export function SeriesList({
  rows,
  caption,
  seriesLink,
  runLink,
}: {
  rows: readonly SeriesIndexRow[];
  caption: string;
  seriesLink: (series: string) => ReactNode;
  runLink: (id: string, text: string) => ReactNode;
}) {
  return (
    <TableScroll label={caption}>
      <table className="table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col" className="num">
              Runs seen
            </th>
            <th scope="col">Branches</th>
            <th scope="col">Latest run</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.series}>
              <th scope="row">{seriesLink(r.series)}</th>
              <td className="num">{fmtInt(r.runs)}</td>
              <td>
                {r.branches.length === 0 ? (
                  <span className="cell-note">no branch labels</span>
                ) : (
                  r.branches.slice(0, 6).join(', ') +
                  (r.branches.length > 6 ? ` and ${fmtInt(r.branches.length - 6)} more` : '')
                )}
              </td>
              <td>
                {runLink(r.latest.id, fmtWhen(r.latest.createdAt))}
                {r.latest.branch ? (
                  <span className="cell-note">
                    {' '}
                    {r.latest.branch}
                    {r.latest.commit ? ` @ ${r.latest.commit.slice(0, 10)}` : ''}
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
