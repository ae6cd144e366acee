import { describeAlternative, type FleetPlan } from '@blockwise/shared/fleet';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { fmtInt } from '../../../lib/format.ts';

const BURST_LABELS: Record<NonNullable<FleetPlan['instances']>[number]['burst'], string> = {
  'not-needed': 'not needed',
  carried: 'carries it',
  exceeds: 'does not carry it',
  unknown: 'unknown',
};

/**
 * Per instance, its volumes' rates summed point by point against its EBS caps (the shared planner's
 * `instances` rows, shared/src/fleet/instances.ts), and the cheaper types and instance flags of
 * the volumes: the page only formats them.
 */
export function InstancesTable({ plan }: { plan: FleetPlan }) {
  const rows = plan.instances ?? [];
  const extras = plan.volumes.filter((v) => (v.alternatives?.length ?? 0) > 0 || v.instanceFlag);
  return (
    <>
      {rows.length > 0 ? (
        <TableScroll label="Instances">
          <table className="table table--dense" data-testid="fleet-instances">
            <caption className="visually-hidden">Instances: volumes summed point by point</caption>
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col">Volumes</th>
                <th scope="col" className="num">
                  Peak together (IOPS)
                </th>
                <th scope="col" className="num">
                  Peak together (MiB/s)
                </th>
                <th scope="col">Baseline</th>
                <th scope="col" className="num">
                  Above baseline (min/day)
                </th>
                <th scope="col">Burst (30 min / 24 h)</th>
                <th scope="col">Sustained by</th>
                <th scope="col">Verdict</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.instanceId} data-instance-id={r.instanceId}>
                  <th scope="row">
                    <code>{r.instanceId}</code>
                    {r.instanceType ? <span className="cell-note">{r.instanceType}</span> : null}
                  </th>
                  <td>{r.volumeIds.join(', ')}</td>
                  <td className="num">{fmtInt(r.peakIops)}</td>
                  <td className="num">{r.peakMibps}</td>
                  <td>
                    {r.baselineIops === null
                      ? 'not in the catalog'
                      : `${fmtInt(r.baselineIops)} IOPS, ${fmtInt(r.baselineMibps ?? 0)} MiB/s`}
                  </td>
                  <td className="num">
                    {r.minutesAboveBaselinePerDay === null ? '—' : fmtInt(r.minutesAboveBaselinePerDay)}
                  </td>
                  <td>{BURST_LABELS[r.burst]}</td>
                  <td>{r.sustainedBy ? r.sustainedBy.instanceType : '—'}</td>
                  <td className="cell-note">{r.verdict}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {extras.length > 0 ? (
        <ul className="fleet-commands__notes" data-testid="fleet-alternatives">
          {extras.flatMap((v) => [
            ...(v.alternatives ?? []).map((a) => (
              <li key={`${v.volumeId} ${a.config.type}`}>
                <code>{v.volumeId}</code>: cheaper {describeAlternative(a)} — {a.trade}
              </li>
            )),
            ...(v.instanceFlag
              ? [
                  <li key={`${v.volumeId} flag`}>
                    <code>{v.volumeId}</code>: {v.instanceFlag.reason}; {v.instanceFlag.cappingGivesUp}
                  </li>,
                ]
              : []),
          ])}
        </ul>
      ) : null}
    </>
  );
}
