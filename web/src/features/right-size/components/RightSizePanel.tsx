import { VOLUME_TYPES } from '@blockwise/shared/aws';
import { type PlanResult } from '@blockwise/shared/plan';
import { HOURS_PER_MONTH } from '@blockwise/shared/units';
import { memo, useMemo, useState, type ReactNode } from 'react';
import { lazyChart } from '../../../components/lazy-chart.ts';
import { ChartFrame, barChartHeight } from '../../../components/ChartFrame.tsx';
import { EmptyState } from '../../../components/States.tsx';
import { Unit } from '../../../components/Unit.tsx';
import { PriceStamp } from '../../../components/PriceStamp.tsx';
import { fmtInt, fmtPct, fmtUsd } from '../../../lib/format.ts';
import { sameData } from '../../../lib/same-data.ts';
import { CHART_SETTLE_MS, useSettledValue } from '../../../lib/use-settled-value.ts';
import {
  SIDE_BY_SIDE,
  STATUS_TEXT,
  STATUS_TONE,
  costBars,
  instanceOptionRows,
  nodesOf,
  recommendationCells,
  typeColumns,
  type CostBar,
  type PlanEntry,
  type RecommendationCells,
  type WasteRow,
} from '../right-size-view.ts';
import { TableScroll } from '../../../components/TableScroll.tsx';

const CostChart = lazyChart(() => import('./CostChart.tsx'));

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
              {b.kind === 'right-sized' && b.status ? (
                <span className={`badge badge--${STATUS_TONE[b.status]}`}>
                  {b.status === 'meets' ? 'right-sized' : STATUS_TEXT[b.status]}
                </span>
              ) : null}
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

/** One row of the side-by-side table: a cell per type, from the view's text. */
function CellRow({
  header,
  cols,
  cell,
  num = true,
}: {
  header: string;
  cols: { type: string; cells: RecommendationCells | null }[];
  cell: (c: RecommendationCells) => ReactNode;
  num?: boolean;
}) {
  return (
    <tr>
      <th scope="row">{header}</th>
      {cols.map((c) => (
        <td key={c.type} className={num ? 'num' : undefined}>
          {c.cells ? cell(c.cells) : '—'}
        </td>
      ))}
    </tr>
  );
}

/** Compared by value: the advice changes only when the target crosses an instance's cap. */
const InstanceOptions = memo(function InstanceOptions({
  advice,
}: {
  advice: PlanResult['rightSizing']['instanceAdvice'];
}) {
  const rows = instanceOptionRows(advice);
  if (!advice) return null;
  const caption = `Instances that sustain the target (on-demand Linux, us-east-1, ${HOURS_PER_MONTH} hours)`;
  return (
    <div className="callout callout--concern">
      <p>
        <strong>The instance caps this target: </strong>
        {advice.message}
      </p>
      {rows.length > 0 ? (
        <TableScroll label={caption}>
          <table className="table table--dense">
            <caption>{caption}</caption>
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col" className="num">
                  EBS baseline bandwidth
                </th>
                <th scope="col" className="num">
                  EBS baseline IOPS
                </th>
                <th scope="col" className="num">
                  Per month
                </th>
                <th scope="col">Storage</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.instanceType}>
                  <th scope="row">
                    {r.instanceType}
                    {r.role === 'cheapest' ? <span className="badge badge--ok">cheapest upgrade</span> : null}
                  </th>
                  <td className="num">{r.bandwidth}</td>
                  <td className="num">{r.iops}</td>
                  <td className="num">{r.monthly}</td>
                  <td>{r.instanceStore}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
    </div>
  );
}, sameData);

function TypesTable({ plan }: { plan: PlanResult }) {
  const [all, setAll] = useState(false);
  const cols = typeColumns(plan, all ? VOLUME_TYPES : SIDE_BY_SIDE).map((c) => ({
    ...c,
    cells: c.rec ? recommendationCells(c.rec) : null,
  }));
  const t = plan.rightSizing.target;
  const unmerged = t.iopsUnmerged ?? null;
  return (
    <div className="types">
      <p className="types__target">
        Target with {fmtPct(t.headroom, 0)} headroom: <strong>{fmtInt(t.iops)}</strong> <Unit unit="IOPS" />{' '}
        (as EBS counts them
        {unmerged !== null ? (
          <>
            ; <strong>{fmtInt(unmerged)}</strong> <Unit unit="IOPS" /> if sequential I/O is not merged
          </>
        ) : null}
        ) and <strong>{fmtInt(t.throughputMiBps)}</strong> <Unit unit="MiB/s" />, at least{' '}
        <strong>{fmtInt(t.minSizeGiB)}</strong> <Unit unit="GiB" />. Costs below:{' '}
        <PriceStamp rates={plan.rates} />
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
            <CellRow
              header="Verdict"
              cols={cols}
              num={false}
              cell={(c) => <span className={`badge badge--${c.tone}`}>{c.verdict}</span>}
            />
            <CellRow header="Provision" cols={cols} num={false} cell={(c) => c.provision} />
            <CellRow
              header="Size"
              cols={cols}
              cell={(c) => (
                <>
                  {c.size}
                  {c.sizeNote ? <span className="cell-note">{c.sizeNote}</span> : null}
                </>
              )}
            />
            <CellRow header="Sustained IOPS" cols={cols} cell={(c) => c.iops} />
            <CellRow header="Sustained throughput" cols={cols} cell={(c) => c.throughput} />
            <CellRow header="Per node / month" cols={cols} cell={(c) => c.perNode} />
            <CellRow header="Cluster / month" cols={cols} cell={(c) => c.cluster} />
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
      <InstanceOptions advice={plan.rightSizing.instanceAdvice} />
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

export function WasteTable({
  rows,
  nodes,
  rates,
}: {
  rows: WasteRow[];
  nodes: number;
  /** The prices the costs use, stamped beside them. */
  rates?: { date: string; source?: string; region?: string | null };
}) {
  if (rows.length === 0) return null;
  return (
    <TableScroll label={`Over-provisioning across ${nodes} node${nodes === 1 ? '' : 's'}, per month`}>
      <table className="table table--dense">
        <caption>
          Over-provisioning across {nodes} node{nodes === 1 ? '' : 's'}, per month
          {rates ? (
            <>
              {' '}
              <PriceStamp rates={rates} />
            </>
          ) : null}
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
  const bars = useMemo(() => costBars(plans), [plans]);
  // The chart draws the bars once a what-if drag rests (bench P16); the cost table follows every step.
  const drawnBars = useSettledValue(bars, CHART_SETTLE_MS);
  const entry = plans[selected] ?? plans[0];
  if (!entry) return <EmptyState title="Nothing to right-size yet" />;
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
          height={barChartHeight(bars.length)}
          table={<CostTable bars={bars} nodes={nodes} caption={title} />}
        >
          <CostChart bars={drawnBars} title={title} />
        </ChartFrame>
      ) : null}
      <WasteTable rows={waste} nodes={nodes} rates={entry.plan.rates} />
    </div>
  );
}
