import type { VolumeType } from '@blockwise/shared/aws';
import { useMemo } from 'react';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { fmtInt } from '../../../lib/format.ts';
import { ebsEvidenceView, latencyView, MAX_EVIDENCE_ROWS } from '../latency-view.ts';

const s2 = (v: number) => `${v.toFixed(2)} s`;

/**
 * Latency as evidence beside the plan: the EBS NVMe statistics per interval (latency percentiles
 * and the seconds over the volume's and the instance's four limits) when the file carries them
 * (`nvme amzn stats`, the EBS CSI driver's metrics), then the measured latency — from those
 * histograms or from iostat/sar's await — against what the session's candidate type, and every
 * other type, promises.
 */
export function SeriesLatency({
  id,
  title,
  series,
  candidateType,
}: {
  id: string;
  title: string;
  series: Parameters<typeof ebsEvidenceView>[0];
  candidateType: VolumeType | null;
}) {
  const evidence = useMemo(() => ebsEvidenceView(series), [series]);
  const latency = useMemo(() => latencyView(series, candidateType), [series, candidateType]);
  if (!evidence && !latency) return null;
  return (
    <section className="series-panel__section" aria-labelledby={`${id}-latency`}>
      <h3 className="subhead" id={`${id}-latency`}>
        Latency and limits
      </h3>
      {evidence ? <EbsEvidence title={title} view={evidence} /> : null}
      {latency ? (
        <>
          <p>
            Measured latency: <strong>{latency.headline}</strong>
            {latency.measured.verdicts.map((v) => (
              <span key={v.percentile}>
                {' '}
                — p{v.percentile} {v.verdict} (light load: ok below {v.okBelowMs} ms)
              </span>
            ))}
          </p>
          <ul className="notes" aria-label={`${title}: measured latency against each type's promise`}>
            {latency.promises.map((p) => (
              <li key={p.type} data-verdict={p.verdict}>
                {p.verdict === 'slower-than-today' ? <strong>{p.message}</strong> : p.message}
                {p.type === candidateType ? ' (the candidate)' : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function EbsEvidence({
  title,
  view,
}: {
  title: string;
  view: NonNullable<ReturnType<typeof ebsEvidenceView>>;
}) {
  const t = view.summary.exceededSec;
  const caption = `${title}: EBS NVMe statistics per interval — latency percentiles (ms, each a histogram bin's upper bound) and seconds over each limit`;
  return (
    <>
      <p>
        Seconds over a limit, all {fmtInt(view.intervals)} interval(s): volume IOPS{' '}
        <strong>{s2(t.volumeIops)}</strong>, volume throughput <strong>{s2(t.volumeThroughput)}</strong>,
        instance EBS IOPS <strong>{s2(t.instanceIops)}</strong>, instance EBS throughput{' '}
        <strong>{s2(t.instanceThroughput)}</strong> ({fmtInt(view.summary.intervalsOverLimit)} interval(s)
        touched a limit).
      </p>
      <TableScroll label={caption}>
        <table className="table table--dense" aria-label={caption}>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Interval start (UTC)</th>
              <th scope="col" className="num">
                Read p50
              </th>
              <th scope="col" className="num">
                Read p99
              </th>
              <th scope="col" className="num">
                Read p99.9
              </th>
              <th scope="col" className="num">
                Write p50
              </th>
              <th scope="col" className="num">
                Write p99
              </th>
              <th scope="col" className="num">
                Write p99.9
              </th>
              <th scope="col" className="num">
                Over volume IOPS
              </th>
              <th scope="col" className="num">
                Over volume throughput
              </th>
              <th scope="col" className="num">
                Over instance EBS IOPS
              </th>
              <th scope="col" className="num">
                Over instance EBS throughput
              </th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((r) => (
              <tr key={r.timeMs}>
                <th scope="row" className="nowrap">
                  {r.at}
                </th>
                {[...r.read, ...r.write, ...r.exceeded].map((c, i) => (
                  <td key={i} className="num">
                    {c}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {view.rows.length < view.intervals ? (
        <p className="hint">
          {view.rows.length} of {fmtInt(view.intervals)} intervals shown: those over a limit (at most{' '}
          {MAX_EVIDENCE_ROWS}).
        </p>
      ) : null}
    </>
  );
}
