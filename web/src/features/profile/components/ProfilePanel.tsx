import type { PlanResult } from '@blockwise/shared/plan';
import type { Access } from '@blockwise/shared/profile';
import { memo } from 'react';
import { Quantity } from '../../../components/Unit.tsx';
import { Warnings } from '../../../components/Warnings.tsx';
import { fmtInt, fmtNum, fmtPct, fmtRate, fmtRateValue, fmtSize } from '../../../lib/format.ts';
import { samePropsBesidesWhatIf } from '../../../lib/same-data.ts';
import {
  BOUND_TEXT,
  SIZE_CLASS_TEXT,
  accessText,
  measuredForText,
  profileRows,
  type ObservedOrigin,
} from '../profile-view.ts';
import { TableScroll } from '../../../components/TableScroll.tsx';

/**
 * The I/O profile: per direction IOPS, throughput, average block size (bytes/s ÷ IOPS), its size
 * class and the likely bound — with each benchmark warning beside the number it concerns.
 */
export const ProfilePanel = memo(ProfilePanelView, samePropsBesidesWhatIf);

function ProfilePanelView({
  plan,
  access = null,
  origin = 'unknown',
}: {
  plan: PlanResult;
  access?: Access | null;
  /** Where observed peaks came from, when the page knows (see measuredForText). */
  origin?: ObservedOrigin;
}) {
  const { rows, slots } = profileRows(plan);
  const p = plan.profile;
  const pattern = accessText(access, plan);
  return (
    <div className="profile">
      <TableScroll label={`I/O profile per direction${p.label ? ` of ${p.label}` : ''}`}>
        <table className="table">
          <caption className="visually-hidden">
            I/O profile per direction{p.label ? ` of ${p.label}` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Direction</th>
              <th scope="col" className="num">
                Peak IOPS
              </th>
              <th scope="col" className="num">
                Throughput
              </th>
              <th scope="col" className="num">
                Avg block size
              </th>
              <th scope="col">Size class</th>
              <th scope="col">Likely bound</th>
            </tr>
          </thead>
          {rows.map((r) => (
            <tbody key={r.direction}>
              <tr>
                <th scope="row">{r.direction === 'read' ? 'Read' : 'Write'}</th>
                <td className="num">
                  <Quantity value={fmtInt(r.iops)} unit="IOPS" />
                </td>
                <td
                  className="num"
                  title={`${fmtRate(r.bytesPerSec, 'MB/s')} = ${fmtRate(r.bytesPerSec, 'Mbps', 0)}`}
                >
                  <Quantity value={fmtRateValue(r.bytesPerSec)} unit="MiB/s" />
                </td>
                <td className="num">{fmtSize(r.blockSizeBytes)}</td>
                <td>{r.sizeClass ? SIZE_CLASS_TEXT[r.sizeClass] : 'no I/O'}</td>
                <td>{r.likelyBound ? BOUND_TEXT[r.likelyBound] : '—'}</td>
              </tr>
              {r.warnings.length > 0 ? (
                <tr className="row-warnings">
                  <td colSpan={6}>
                    <Warnings warnings={r.warnings} compact />
                  </td>
                </tr>
              ) : null}
            </tbody>
          ))}
        </table>
      </TableScroll>
      {slots.blockSize.length > 0 ? (
        <div className="fact-warnings">
          <span className="fact-warnings__label">Block size</span>
          <Warnings warnings={slots.blockSize} compact />
        </div>
      ) : null}
      <dl className="facts">
        <div>
          <dt>Demand as EBS counts it</dt>
          <dd>
            <Quantity value={fmtInt(p.demand.iops)} unit="IOPS" /> ·{' '}
            <Quantity value={fmtNum(p.demand.throughputMiBps, 1)} unit="MiB/s" />
          </dd>
        </div>
        <div>
          <dt>Read share of operations</dt>
          <dd>{p.readShare === null ? 'no I/O' : fmtPct(p.readShare, 0)}</dd>
        </div>
        <div>
          <dt>Measured for</dt>
          <dd>{measuredForText(p, origin)}</dd>
        </div>
        {pattern ? (
          <div>
            <dt>Access pattern</dt>
            <dd>{pattern}</dd>
          </div>
        ) : null}
        <div>
          <dt>Source</dt>
          <dd>
            {p.source}
            {p.label ? ` · ${p.label}` : ''}
          </dd>
        </div>
      </dl>
      {slots.access.length > 0 ? (
        <div className="fact-warnings">
          <span className="fact-warnings__label">Access pattern</span>
          <Warnings warnings={slots.access} compact />
        </div>
      ) : null}
      {slots.demand.length > 0 ? (
        <div className="fact-warnings">
          <span className="fact-warnings__label">Demand</span>
          <Warnings warnings={slots.demand} compact />
        </div>
      ) : null}
      {slots.runtime.length > 0 ? (
        <div className="fact-warnings">
          <span className="fact-warnings__label">Duration</span>
          <Warnings warnings={slots.runtime} compact />
        </div>
      ) : null}
      {slots.latency.length > 0 ? (
        <div className="fact-warnings">
          <span className="fact-warnings__label">Latency</span>
          <Warnings warnings={slots.latency} compact />
        </div>
      ) : null}
      {slots.configuration.length > 0 ? (
        <div className="fact-warnings">
          <span className="fact-warnings__label">Configuration</span>
          <Warnings warnings={slots.configuration} compact />
        </div>
      ) : null}
      {slots.general.length > 0 ? (
        <div className="fact-warnings">
          <span className="fact-warnings__label">Benchmark checks</span>
          <Warnings warnings={slots.general} compact />
        </div>
      ) : null}
    </div>
  );
}
