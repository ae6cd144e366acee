import { VOLUME_TYPES, type PlanResult } from '@blockwise/shared';
import { lazy, useState } from 'react';
import { ChartFrame } from '../../../components/ChartFrame.tsx';
import { EmptyState } from '../../../components/States.tsx';
import { Unit } from '../../../components/Unit.tsx';
import { fmtInt, fmtNum, fmtPct, fmtUsd } from '../../../lib/format.ts';
import {
  SIDE_BY_SIDE,
  STATUS_TEXT,
  costBars,
  nodesOf,
  typeColumns,
  type CostBar,
  type PlanEntry,
  type WasteRow,
} from '../right-size-view.ts';
import { TableScroll } from '../../../components/TableScroll.tsx';

const CostChart = lazy(() => import('./CostChart.tsx'));

function CostTable({ bars, nodes, caption }: { bars: CostBar[]; nodes: number; caption: string }) {
  return (
    <table className="table table--dense">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Configuration</th>
          <th scope="col" className="num">
            Storage
          </th>
          <th scope="col" className="num">
            IOPS
          </th>
          <th scope="col" className="num">
            Throughput
          </th>
          <th scope="col" className="num">
            Per node / month
          </th>
          <th scope="col" className="num">
            {nodes} node{nodes === 1 ? '' : 's'} / month
          </th>
        </tr>
      </thead>
      <tbody>
        {bars.map((b) => (
          <tr key={b.key}>
            <th scope="row">
              {b.name}
              {b.kind === 'right-sized' ? <span className="badge badge--ok">right-sized</span> : null}
            </th>
            <td className="num">{b.kind === 'nvme' ? '—' : fmtUsd(b.storage)}</td>
            <td className="num">{b.kind === 'nvme' ? '—' : fmtUsd(b.iops)}</td>
            <td className="num">{b.kind === 'nvme' ? '—' : fmtUsd(b.throughput)}</td>
            <td className="num">
              {fmtUsd(b.total)}
              {b.kind === 'nvme' ? <span className="cell-note">instance-store premium</span> : null}
            </td>
            <td className="num">
              {b.clusterTotal === null ? `× ${nodes} instances` : fmtUsd(b.clusterTotal)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TypesTable({ plan }: { plan: PlanResult }) {
  const [all, setAll] = useState(false);
  const cols = typeColumns(plan, all ? VOLUME_TYPES : SIDE_BY_SIDE);
  const t = plan.rightSizing.target;
  return (
    <div className="types">
      <p className="types__target">
        Target with {fmtPct(t.headroom, 0)} headroom: <strong>{fmtInt(t.iops)}</strong> <Unit unit="IOPS" />{' '}
        (as EBS counts them) and <strong>{fmtInt(t.throughputMiBps)}</strong> <Unit unit="MiB/s" />, at least{' '}
        <strong>{fmtInt(t.minSizeGiB)}</strong> <Unit unit="GiB" />.
      </p>
      <TableScroll label="Volume types side by side, right-sized for this profile">
        <table className="table table--dense table--columns">
          <caption className="visually-hidden">
            Volume types side by side, right-sized for this profile
          </caption>
          <thead>
            <tr>
              <td />
              {cols.map((c) => (
                <th key={c.type} scope="col">
                  {c.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Verdict</th>
              {cols.map((c) => (
                <td key={c.type}>
                  {c.rec ? (
                    <span
                      className={`badge badge--${c.rec.status === 'meets' ? 'ok' : c.rec.status === 'capped-by-instance' ? 'watch' : 'concern'}`}
                    >
                      {c.rec.rank}. {STATUS_TEXT[c.rec.status]}
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Size</th>
              {cols.map((c) => (
                <td key={c.type} className="num">
                  {c.rec && c.rec.status !== 'not-viable' ? `${fmtInt(c.rec.sizeGiB)} GiB` : '—'}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Sustained IOPS</th>
              {cols.map((c) => (
                <td key={c.type} className="num">
                  {c.rec && c.rec.status !== 'not-viable' ? fmtInt(c.rec.iops) : '—'}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Sustained throughput</th>
              {cols.map((c) => (
                <td key={c.type} className="num">
                  {c.rec && c.rec.status !== 'not-viable' ? `${fmtNum(c.rec.throughputMiBps, 1)} MiB/s` : '—'}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Per node / month</th>
              {cols.map((c) => (
                <td key={c.type} className="num">
                  {c.rec && c.rec.status !== 'not-viable' ? fmtUsd(c.rec.monthlyUsd.total) : '—'}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Cluster / month</th>
              {cols.map((c) => (
                <td key={c.type} className="num">
                  {c.rec && c.rec.status !== 'not-viable' ? fmtUsd(c.rec.clusterMonthlyUsd.total) : '—'}
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Durability</th>
              {cols.map((c) => (
                <td key={c.type}>
                  {c.traits.durability} (AFR {c.traits.annualFailureRate})
                </td>
              ))}
            </tr>
            <tr>
              <th scope="row">Consistency</th>
              {cols.map((c) => (
                <td key={c.type}>{c.traits.consistency}</td>
              ))}
            </tr>
            <tr>
              <th scope="row">Why</th>
              {cols.map((c) => (
                <td key={c.type}>
                  <ul className="reasons">
                    {(c.rec?.reasons ?? []).map((r) => (
                      <li key={r}>{r}</li>
                    ))}
                  </ul>
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </TableScroll>
      <button
        type="button"
        className="btn btn--small btn--ghost"
        aria-pressed={all}
        onClick={() => setAll((a) => !a)}
      >
        {all ? 'Show gp3, io2 and gp2 only' : 'Also show io1, st1 and sc1'}
      </button>
      {plan.rightSizing.instanceAdvice ? (
        <p className="callout callout--concern">
          <strong>The instance caps this target: </strong>
          {plan.rightSizing.instanceAdvice.message}
        </p>
      ) : null}
      {plan.rightSizing.notes.length > 0 ? (
        <ul className="notes">
          {plan.rightSizing.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function WasteTable({ rows, nodes }: { rows: WasteRow[]; nodes: number }) {
  if (rows.length === 0) return null;
  return (
    <TableScroll label={`Over-provisioning across ${nodes} node${nodes === 1 ? '' : 's'}, per month`}>
      <table className="table table--dense">
        <caption>
          Over-provisioning across {nodes} node{nodes === 1 ? '' : 's'}, per month
        </caption>
        <thead>
          <tr>
            <th scope="col">Provisioned</th>
            <th scope="col" className="num">
              Provisioned cost
            </th>
            <th scope="col" className="num">
              Right-sized cost
            </th>
            <th scope="col" className="num">
              Wasted / month
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <th scope="row">{r.label}</th>
              <td className="num">{fmtUsd(r.provisioned.total)}</td>
              <td className="num">{fmtUsd(r.rightSized.total)}</td>
              <td className={`num ${r.wasteUsd > 0 ? 'text-concern' : ''}`}>
                {r.wasteUsd >= 0 ? (
                  <strong>{fmtUsd(r.wasteUsd)}</strong>
                ) : (
                  <>
                    none
                    <span className="cell-note">
                      under-provisioned: {fmtUsd(-r.wasteUsd)} below the right-sized cost
                    </span>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Right-sizing of one plan (types side by side) and the cost of every option. */
export function RightSizePanel({
  plans,
  selected,
  waste,
}: {
  plans: PlanEntry[];
  selected: number;
  waste: WasteRow[];
}) {
  const entry = plans[selected] ?? plans[0];
  if (!entry) return <EmptyState title="Nothing to right-size yet" />;
  const bars = costBars(plans);
  const nodes = nodesOf(plans);
  const title = `Monthly cost per node (${entry.plan.rates.region ?? 'custom rates'}, prices of ${entry.plan.rates.date})`;
  return (
    <div className="right-size">
      <TypesTable plan={entry.plan} />
      {bars.length > 0 ? (
        <ChartFrame
          title={title}
          caption={
            <>
              USD per month per node, by component; <Unit unit="GiB" /> storage, provisioned IOPS above what
              the type includes, provisioned <Unit unit="MiB/s" /> above what it includes
            </>
          }
          height={60 + bars.length * 34}
          table={<CostTable bars={bars} nodes={nodes} caption={title} />}
        >
          <CostChart bars={bars} title={title} />
        </ChartFrame>
      ) : null}
      <WasteTable rows={waste} nodes={nodes} />
    </div>
  );
}
