import type { SeriesListItem } from '@blockwise/shared/api';
import type { ReactNode } from 'react';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { fmtInt } from '../../../lib/format.ts';
import { fmtWhen } from '../history-view.ts';

/** The archive's CI series: name (a link to its history), runs, branches, latest run. */
export function SeriesList({
  rows,
  caption,
  seriesLink,
  runLink,
}: {
  rows: readonly SeriesListItem[];
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
              Runs
            </th>
            <th scope="col" className="num">
              Branches
            </th>
            <th scope="col">Latest run</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const { branch, commit } = r.latestRun.labels;
            return (
              <tr key={r.series}>
                <th scope="row">{seriesLink(r.series)}</th>
                <td className="num">{fmtInt(r.runCount)}</td>
                <td className="num">
                  {r.branchCount === 0 ? (
                    <span className="cell-note">none labelled</span>
                  ) : (
                    fmtInt(r.branchCount)
                  )}
                </td>
                <td>
                  {runLink(r.latestRun.id, fmtWhen(r.latestRun.createdAt))}
                  {branch ? (
                    <span className="cell-note">
                      {' '}
                      {branch}
                      {commit ? ` @ ${commit.slice(0, 10)}` : ''}
                    </span>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
