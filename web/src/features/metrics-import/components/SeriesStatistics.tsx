import { useState } from 'react';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { Unit } from '../../../components/Unit.tsx';
import { fmtInt } from '../../../lib/format.ts';
import type { ImportedSeries } from '../metrics-reader.ts';
import { peakWindows, periodText, queueView, requestSizeText, statsRows } from '../series-view.ts';

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The series' statistics per direction, its device queue (iostat, sar) and its peak windows — at
 * the points as exported or, when sizing resamples them, at the 5-minute windows sizing uses: the
 * user picks which, so the numbers behind the sizing can be checked.
 */
export function SeriesStatistics({
  id,
  title,
  imported,
}: {
  id: string;
  title: string;
  imported: ImportedSeries;
}) {
  const { series, summary, sizing } = imported;
  const [resolution, setResolution] = useState<'points' | 'sizing'>('points');
  const sizedDiffers = sizing !== null && sizing.periodSec !== summary.periodSec;
  const shownSummary = resolution === 'sizing' && sizing ? sizing : summary;
  return (
    <section className="series-panel__section" aria-labelledby={`${id}-stats`}>
      <h3 className="subhead" id={`${id}-stats`}>
        Statistics
      </h3>
      {sizedDiffers ? (
        <fieldset className="segmented">
          <legend className="visually-hidden">Statistics of</legend>
          {(
            [
              ['points', `${capitalize(periodText(series.periodSec))} points as exported`],
              ['sizing', '5-minute windows (what sizing uses)'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className={`segmented__item${resolution === value ? ' is-checked' : ''}`}>
              <input
                type="radio"
                name={`${id}-resolution`}
                value={value}
                checked={resolution === value}
                onChange={() => setResolution(value)}
              />
              {label}
            </label>
          ))}
        </fieldset>
      ) : null}
      <StatsTable
        rows={statsRows(shownSummary)}
        caption={`${title}: statistics of ${fmtInt(shownSummary.points)} ${periodText(shownSummary.periodSec)} points (IOPS = I/O operations per second; MiB/s = mebibytes per second)`}
      />
      <DeviceQueue title={title} imported={imported} />
      <h4 className="subhead">Peak windows</h4>
      <ul className="notes">
        {peakWindows(shownSummary).map((p) => (
          <li key={p.what}>
            Busiest {periodText(shownSummary.periodSec)} window for {p.what}: <strong>{p.value}</strong>,
            starting {p.at}
          </li>
        ))}
      </ul>
    </section>
  );
}

function StatsTable({ rows, caption }: { rows: ReturnType<typeof statsRows>; caption: string }) {
  return (
    <TableScroll label={caption}>
      <table className="table table--dense series-panel__stats">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Direction</th>
            <th scope="col">Quantity</th>
            <th scope="col" className="num">
              Average
            </th>
            <th scope="col" className="num">
              p50
            </th>
            <th scope="col" className="num">
              p95
            </th>
            <th scope="col" className="num">
              p99
            </th>
            <th scope="col" className="num">
              Max
            </th>
            <th scope="col">Max at (UTC)</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key}>
              <th scope="row">{r.direction}</th>
              <td>
                {r.quantity} (<Unit unit={r.unit} />)
              </td>
              {r.cells.map((c, i) => (
                <td key={i} className="num">
                  {c}
                </td>
              ))}
              <td className="nowrap">{r.peakAt}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * Per-device exports only: the queue with Little's law, so IOPS read as queue depth ÷ latency
 * (more IOPS at the same latency needs more I/Os in flight), and the average request size.
 */
function DeviceQueue({ title, imported }: { title: string; imported: ImportedSeries }) {
  const queue = queueView(imported.queue);
  const requestSize = requestSizeText(imported.series);
  if (!queue && !requestSize) return null;
  return (
    <>
      <h4 className="subhead">Device queue</h4>
      <ul className="notes" aria-label={`${title}: device queue and Little's law`}>
        {queue ? (
          <>
            <li>
              Little’s law, IOPS = queue depth ÷ latency: <strong>{queue.mean}</strong> ({queue.measured}).
            </li>
            {queue.busiest ? <li>Busiest point: {queue.busiest}.</li> : null}
            <li>
              The same queue depth at 1 ms per request (a typical EBS latency) gives {queue.atEbsLatency}: at
              a given queue depth IOPS falls as latency rises; more IOPS at the same latency needs more I/Os
              in flight.
            </li>
          </>
        ) : null}
        {requestSize ? <li>{requestSize}</li> : null}
      </ul>
    </>
  );
}
