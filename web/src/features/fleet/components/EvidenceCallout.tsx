import type { FleetPlan, FleetVolumePlan } from '@blockwise/shared/fleet';
import { fmtInt } from '../../../lib/format.ts';

type Evidence = NonNullable<FleetVolumePlan['evidence']>;

/** What a volume's checks show, in a word: the badge beside its findings ("no data" is never "0 minutes"). */
function verdictOf(e: Evidence): { label: string; tone: 'ok' | 'watch' | 'concern' } {
  if (e.bindingCheck === 'contradicted') return { label: 'Checks contradict the model', tone: 'concern' };
  if ((e.throttledMinutes ?? 0) > 0)
    return { label: `Throttled ${fmtInt(e.throttledMinutes!)} min`, tone: 'concern' };
  if ((e.instanceThrottledMinutes ?? 0) > 0)
    return { label: `Instance throttled ${fmtInt(e.instanceThrottledMinutes!)} min`, tone: 'concern' };
  // The volume's own checks returned nothing: not "never throttled".
  if (e.throttledMinutes === null) return { label: 'No data', tone: 'watch' };
  return { label: 'Never throttled', tone: 'ok' };
}

/**
 * AWS's own evidence beside the plan (issue 28): per volume the exceeded checks' minutes, whether
 * they confirm the model's binding limit, latency beside the type's promise and burst credits; per
 * instance its EBS checks and balances. A list, not a table: readable at 390 px without scrolling.
 */
export function EvidenceCallout({ plan }: { plan: FleetPlan }) {
  const volumes = plan.volumes.filter((v) => v.evidence && v.evidence.findings.length > 0);
  const instances = (plan.instances ?? []).filter((r) => r.evidence && r.evidence.findings.length > 0);
  if (volumes.length === 0 && instances.length === 0) return null;
  return (
    <ul className="fleet-evidence" data-testid="fleet-evidence">
      {volumes.map((v) => {
        const verdict = verdictOf(v.evidence!);
        return (
          <li key={v.volumeId} className="fleet-evidence__item" data-evidence-id={v.volumeId}>
            <p className="fleet-evidence__head">
              <code>{v.volumeId}</code>{' '}
              <span className={`badge badge--${verdict.tone}`}>{verdict.label}</span>
            </p>
            <ul className="fleet-evidence__findings fleet-wrap">
              {v.evidence!.findings.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </ul>
          </li>
        );
      })}
      {instances.map((r) => (
        <li key={r.instanceId} className="fleet-evidence__item" data-evidence-id={r.instanceId}>
          <p className="fleet-evidence__head">
            <code>{r.instanceId}</code> {r.instanceType ?? ''}
          </p>
          <ul className="fleet-evidence__findings fleet-wrap">
            {r.evidence!.findings.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
