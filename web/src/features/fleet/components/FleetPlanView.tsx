import { fleetPlanToCsv, recurringPeakNotes, type FleetPlan } from '@blockwise/shared/fleet';
import { type ReactNode } from 'react';
import { lazyChart } from '../../../components/lazy-chart.ts';
import { ChartFrame, barChartHeight } from '../../../components/ChartFrame.tsx';
import { PriceStamp } from '../../../components/PriceStamp.tsx';
import { Region } from '../../../components/Region.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { downloadText } from '../../../lib/download.ts';
import { fmtInt, fmtPct, fmtUsd, fmtUsdSigned } from '../../../lib/format.ts';
import { exportFileName, fmtUsdMonth, savingsBars, STATUS_LABELS, unpricedNote } from '../fleet-view.ts';
import { FleetTable, type FleetOrder } from './FleetTable.tsx';
import { InstancesTable } from './InstancesTable.tsx';
import { EvidenceCallout } from './EvidenceCallout.tsx';
import '../fleet.css';

const SavingsChart = lazyChart(() => import('./SavingsChart.tsx'));

const STATISTIC_LABELS: Record<FleetPlan['statistic'], string> = {
  max: 'maximum of the points',
  p99: '99th percentile of the points',
  p95: '95th percentile of the points',
};

/** Where the prices come from: every cost on the page is as of this date. */
export function FleetFacts({ plan }: { plan: FleetPlan }) {
  return (
    <dl className="facts facts--inline">
      <div>
        <dt>Region</dt>
        <dd>{plan.region ?? 'custom rates'}</dd>
      </div>
      <div>
        <dt>Sized by</dt>
        <dd>
          {STATISTIC_LABELS[plan.statistic]} ({fmtInt(plan.periodSeconds)} s periods) +{' '}
          {fmtPct(plan.headroom, 0)} headroom
        </dd>
      </div>
      <div>
        <dt>Prices</dt>
        <dd>
          <PriceStamp rates={{ date: plan.priceDate, source: plan.priceSource, region: plan.region }} />{' '}
          <span className="cell-note">{plan.priceSource}</span>
        </dd>
      </div>
      <div>
        <dt>Snapshot storage</dt>
        <dd>
          {plan.snapshotUsdPerGibMonth === null
            ? 'no price in the catalog (not included in deletion savings)'
            : `${fmtUsd(plan.snapshotUsdPerGibMonth)} per GiB-month`}
        </dd>
      </div>
    </dl>
  );
}

type TotalsRow = Pick<
  FleetPlan['totals']['fleet'],
  | 'volumes'
  | 'currentUsdPerMonth'
  | 'recommendedUsdPerMonth'
  | 'savingUsdPerMonth'
  | 'riskCount'
  | 'unpricedCount'
>;

/**
 * One totals row. A row of only unpriced volumes (the planner's unpricedCount) reads "no price",
 * never $0.00; a row with some says how many its sums leave out.
 */
function TotalsCells({ row }: { row: TotalsRow }) {
  const none = row.volumes > 0 && row.unpricedCount === row.volumes;
  const usd = (v: number) => (none ? 'no price' : fmtUsdSigned(v));
  const note = none ? null : unpricedNote(row.unpricedCount);
  return (
    <>
      <td className="num">{fmtInt(row.volumes)}</td>
      <td className="num">
        {usd(row.currentUsdPerMonth)}
        {note ? <span className="cell-note">{note}</span> : null}
      </td>
      <td className="num">{usd(row.recommendedUsdPerMonth)}</td>
      <td className="num">{usd(row.savingUsdPerMonth)}</td>
      <td className="num">{fmtInt(row.riskCount)}</td>
    </>
  );
}

function TotalsTable({
  caption,
  first,
  rows,
}: {
  caption: string;
  first: string;
  rows: { key: string; label: ReactNode; row: TotalsRow }[];
}) {
  return (
    <TableScroll label={caption}>
      <table className="table table--dense">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col" className="num">
              Volumes
            </th>
            <th scope="col" className="num">
              Current (USD/month)
            </th>
            <th scope="col" className="num">
              Recommended (USD/month)
            </th>
            <th scope="col" className="num">
              Saving (USD/month)
            </th>
            <th scope="col" className="num">
              Risks
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ key, label, row }) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              <TotalsCells row={row} />
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** The fleet's totals, the savings chart, every volume, the unused ones and those without data. */
export function FleetPlanView({
  plan,
  createdAt = null,
  order,
}: {
  plan: FleetPlan;
  createdAt?: string | null;
  /** The volumes table's order when the page keeps it (in the address). */
  order?: FleetOrder;
}) {
  const fleet = plan.totals.fleet;
  const bars = savingsBars(plan);
  const fleetUnpriced = unpricedNote(fleet.unpricedCount);
  const exportCsv = () =>
    downloadText(fleetPlanToCsv(plan), exportFileName(plan, createdAt, 'csv'), 'text/csv');
  const incomplete = plan.incomplete ?? [];
  const recurring = recurringPeakNotes(plan);
  return (
    <>
      {plan.complete === false ? (
        // Before any number: a plan from part of the data must never read as a whole one.
        <div className="callout callout--concern fleet-wrap" role="alert" data-testid="fleet-incomplete">
          <p>
            <strong>Incomplete data for {fmtInt(incomplete.length)} volume(s):</strong> the plan for them is
            from part of their CloudWatch data. Fetch every page and plan again.
          </p>
          <ul>
            {incomplete.map((i) => (
              <li key={i.volumeId}>
                <code>{i.volumeId}</code>: {i.reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {recurring.length > 0 ? (
        // A percentile drops a peak that recurs: said before the savings, as the CLI's report does.
        <div
          className={`callout fleet-wrap ${plan.ignoreRecurring ? 'callout--concern' : 'callout--info'}`}
          role="status"
          data-testid="fleet-recurring"
        >
          <p>
            <strong>Recurring peaks</strong>{' '}
            {plan.ignoreRecurring
              ? `ignored as asked: the ${plan.statistic} sizes below them, and they will be throttled every time they recur.`
              : `kept: the ${plan.statistic} alone would drop them, so these volumes are sized on them.`}
          </p>
          <ul>
            {recurring.map((r) => (
              <li key={`${r.volumeId}:${r.note}`}>
                <code>{r.volumeId}</code>: {r.note}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <Region
        title="Fleet totals"
        description={`The whole fleet: all ${fmtInt(fleet.volumes)} volumes, whatever the Volumes table's filters show. Monthly costs at the ${plan.region ?? 'custom'} prices of ${plan.priceDate}.`}
        actions={
          <button type="button" className="btn btn--small" onClick={exportCsv}>
            Export CSV
          </button>
        }
      >
        <dl className="facts facts--inline fleet-summary" aria-label="Fleet summary">
          <div>
            <dt>Volumes (whole fleet)</dt>
            <dd data-testid="fleet-volumes">{fmtInt(fleet.volumes)}</dd>
          </div>
          <div>
            <dt>Current</dt>
            <dd>
              {fmtUsdMonth(fleet.currentUsdPerMonth)}
              {fleetUnpriced ? (
                <span className="cell-note" data-testid="fleet-unpriced">
                  {fleetUnpriced}: not in the sums
                </span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Recommended</dt>
            <dd>{fmtUsdMonth(fleet.recommendedUsdPerMonth)}</dd>
          </div>
          <div>
            <dt>Saving</dt>
            <dd data-testid="fleet-saving">{fmtUsdMonth(fleet.savingUsdPerMonth)}</dd>
          </div>
          <div>
            <dt>Deleting unused volumes</dt>
            <dd data-testid="fleet-unused-saving">saves {fmtUsdMonth(fleet.unusedSavingUsdPerMonth)}</dd>
          </div>
          <div>
            <dt>At risk</dt>
            <dd data-testid="fleet-risks">
              {fmtInt(fleet.riskCount)} {fleet.riskCount === 1 ? 'volume' : 'volumes'}
            </dd>
          </div>
        </dl>
        <ChartFrame
          title="Monthly saving by volume type"
          caption="USD per month, current − recommended (negative: fixing the risks costs more)"
          height={barChartHeight(bars.length)}
        >
          <SavingsChart bars={bars} title="Monthly saving by volume type" />
        </ChartFrame>
        <TotalsTable
          caption="Totals per volume type"
          first="Volume type"
          rows={plan.totals.byVolumeType.map((t) => ({ key: t.type, label: t.type, row: t }))}
        />
        <TotalsTable
          caption="Totals per instance"
          first="Instance"
          rows={plan.totals.byInstance.map((t) => ({
            key: t.instanceId ?? 'none',
            label: t.instanceId ? `${t.instanceId} (${t.instanceType ?? 'type unknown'})` : 'not attached',
            row: t,
          }))}
        />
      </Region>
      <Region
        title="Volumes"
        description="Current and recommended configuration per volume, the observed peaks, which limit binds, and the saving or risk. Open a row's commands for the AWS CLI change, its rollback and the Terraform diff."
      >
        <FleetTable plan={plan} {...(order ? { order } : {})} />
        <p className="cell-note fleet-wrap">{plan.modificationRule}</p>
      </Region>
      {plan.volumes.some((v) => v.evidence) ? (
        <Region
          title="AWS's evidence"
          description="CloudWatch's own measurements: minutes a volume or instance was asked for more than its limit (the exceeded checks), whether they confirm the binding limit above (where they contradict it, the plan trusts them), measured latency beside what the volume type promises, and burst credits. No data is said as such, never as 0."
        >
          <EvidenceCallout plan={plan} />
        </Region>
      ) : null}
      {(plan.instances?.length ?? 0) > 0 ||
      plan.volumes.some((v) => v.alternatives?.length || v.instanceFlag) ? (
        <Region
          title="Instances and cheaper types"
          description="The volumes of one instance share its EBS caps: their rates summed point by point, minutes a day above the baseline, whether the 30-minute burst carries it, and the cheapest instance whose baseline sustains the target. Then the cheaper volume types that also meet the target, with what they give up."
        >
          <InstancesTable plan={plan} />
        </Region>
      ) : null}
      {plan.unused.length > 0 ? (
        <Region
          title="Unused volumes"
          description="Unattached, or attached to a stopped instance: what deleting them after a snapshot would save."
        >
          <TableScroll label="Unused volumes">
            <table className="table table--dense">
              <caption className="visually-hidden">Unused volumes</caption>
              <thead>
                <tr>
                  <th scope="col">Volume</th>
                  <th scope="col">Why</th>
                  <th scope="col" className="num">
                    Size (GiB)
                  </th>
                  <th scope="col" className="num">
                    Cost (USD/month)
                  </th>
                  <th scope="col" className="num">
                    Snapshot (USD/month)
                  </th>
                  <th scope="col" className="num">
                    Saving (USD/month)
                  </th>
                  <th scope="col">Commands</th>
                </tr>
              </thead>
              <tbody>
                {plan.unused.map((u) => (
                  <tr key={u.volumeId}>
                    <th scope="row">
                      <code>{u.volumeId}</code>
                    </th>
                    <td>
                      {STATUS_LABELS[u.reason]}
                      {u.instanceId ? <span className="cell-note">{u.instanceId}</span> : null}
                    </td>
                    <td className="num">{fmtInt(u.sizeGib)}</td>
                    <td className="num">{u.usdPerMonth === null ? 'no price' : fmtUsd(u.usdPerMonth)}</td>
                    <td className="num">
                      {u.snapshotUsdPerMonth === null ? 'not included' : fmtUsd(u.snapshotUsdPerMonth)}
                    </td>
                    <td className="num">
                      {u.savingUsdPerMonth === null ? '—' : fmtUsd(u.savingUsdPerMonth)}
                    </td>
                    <td>
                      <pre className="fleet-commands__inline">{u.commands.join('\n')}</pre>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Region>
      ) : null}
      {plan.noData.length > 0 ? (
        <Region
          title="Volumes without enough data"
          description="Listed, never dropped: no recommendation without measurements."
        >
          <ul className="fleet-nodata">
            {plan.noData.map((n) => (
              <li key={n.volumeId}>
                <code>{n.volumeId}</code> — {STATUS_LABELS[n.status]}: {n.reason}
              </li>
            ))}
          </ul>
        </Region>
      ) : null}
      {plan.notes.length > 0 ? (
        <Region title="Notes" level={2}>
          <ul>
            {plan.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </Region>
      ) : null}
    </>
  );
}
