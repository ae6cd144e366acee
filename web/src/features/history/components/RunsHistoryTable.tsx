import {
  formatMetricNumber,
  metricDefinition,
  type MetricId,
  type RegressionVerdict,
} from '@blockwise/shared/history';
import type { ReactNode } from 'react';
import { TableScroll } from '../../../components/TableScroll.tsx';
import type { RegressionState } from '../api/history.ts';
import { fmtWhen, type HistoryPoint } from '../history-view.ts';

export const VERDICT_BADGE: Record<
  RegressionVerdict,
  { text: string; tone: 'ok' | 'watch' | 'concern' | '' }
> = {
  pass: { text: 'pass', tone: 'ok' },
  regression: { text: 'regression', tone: 'concern' },
  'insufficient-history': { text: 'insufficient history', tone: 'watch' },
  'no-base': { text: 'no base branch', tone: '' },
};

export function VerdictCell({ state, wanted }: { state: RegressionState | undefined; wanted: boolean }) {
  if (!state) return <span className="cell-note">{wanted ? 'checking…' : 'not checked'}</span>;
  if (state.status === 'error')
    return <span className="cell-note text-concern">check failed: {state.error}</span>;
  const b = VERDICT_BADGE[state.report.verdict];
  return <span className={`badge${b.tone ? ` badge--${b.tone}` : ''}`}>{b.text}</span>;
}

const COLUMNS: { id: MetricId; head: string }[] = [
  { id: 'read.iops', head: 'Read IOPS' },
  { id: 'write.iops', head: 'Write IOPS' },
  { id: 'read.bytesPerSec', head: 'Read MiB/s' },
  { id: 'write.bytesPerSec', head: 'Write MiB/s' },
  { id: 'read.clat.p99', head: 'Read p99 ms' },
  { id: 'write.clat.p99', head: 'Write p99 ms' },
];

const cell = (p: HistoryPoint, id: MetricId) => {
  const v = p.metrics[id];
  return v === undefined ? '—' : formatMetricNumber(v, metricDefinition(id).unit);
};

/**
 * The runs of the series, newest first — the charts' numbers as a table and the keyboard way to
 * pick a run: "Details" shows its regression report below; the date opens the run. The gate's
 * verdict comes right after the run (on a 390 px phone the numbers scroll sideways, the verdict
 * must not), and the run column stays put while the rest scrolls (ux-details.css).
 */
export function RunsHistoryTable({
  points,
  reports,
  wanted,
  selected,
  onSelect,
  runLink,
  caption,
}: {
  /** Newest first. */
  points: readonly HistoryPoint[];
  reports: ReadonlyMap<string, RegressionState>;
  wanted: ReadonlySet<string>;
  selected: string | null;
  onSelect: (id: string) => void;
  runLink: (id: string, text: string) => ReactNode;
  caption: string;
}) {
  return (
    <TableScroll label={caption} className="history-runs">
      <table className="table table--dense history-runs__table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Uploaded (UTC)</th>
            <th scope="col">Gate</th>
            <th scope="col">Branch @ commit</th>
            {COLUMNS.map((c) => (
              <th key={c.id} scope="col" className="num">
                {c.head}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => {
            const label = `${fmtWhen(p.createdAt)}${p.branch ? ` on ${p.branch}` : ''}${p.commit ? ` @ ${p.commit.slice(0, 10)}` : ''}`;
            return (
              <tr key={p.id} className={p.id === selected ? 'is-changed' : undefined}>
                <th scope="row">{runLink(p.id, fmtWhen(p.createdAt))}</th>
                <td>
                  <VerdictCell state={reports.get(p.id)} wanted={wanted.has(p.id)} />
                </td>
                <td>
                  {p.branch ?? <span className="cell-note">no branch</span>}
                  {p.commit ? <span className="cell-note"> @ {p.commit.slice(0, 10)}</span> : null}
                </td>
                {COLUMNS.map((c) => (
                  <td key={c.id} className="num">
                    {cell(p, c.id)}
                  </td>
                ))}
                <td>
                  <button
                    type="button"
                    className="btn btn--small"
                    aria-pressed={p.id === selected}
                    aria-label={`Details of the run of ${label}`}
                    onClick={() => onSelect(p.id)}
                  >
                    Details
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableScroll>
  );
}
