import type { FleetPlan } from '@blockwise/shared/fleet';
import { fmtInt, fmtPct, fmtUsd } from '../../lib/format.ts';
import { describeSaving } from '../../features/fleet/fleet-view.ts';
import type { Answer } from '@blockwise/shared/answer';

const volumes = (n: number) => `${fmtInt(n)} ${n === 1 ? 'volume' : 'volumes'}`;

const STATISTIC_TEXT: Record<FleetPlan['statistic'], string> = {
  max: 'maximum',
  p99: 'p99',
  p95: 'p95',
};

/**
 * A fleet plan's answer in the planning page's lines (AnswerLines): what the fleet asks for, what
 * binds (the under-provisioned volumes and their binding limit), what to change and what the
 * fleet costs a month before and after. Every number is the planner's (totals, per-volume status).
 */
export function fleetAnswerOf(plan: FleetPlan): Answer {
  const { fleet } = plan.totals;
  const count = (status: string) => plan.volumes.filter((v) => v.status === status).length;
  const under = plan.volumes.filter((v) => v.status === 'under');
  const over = count('over');
  const changes = plan.volumes.filter((v) => v.recommended !== null && v.commands.modify.length > 0).length;
  const firstBinding = under.find((v) => v.binding)?.binding?.explanation.replace(/\.$/, '');
  const binds =
    under.length > 0
      ? `${volumes(under.length)} under-provisioned${firstBinding ? ` (${under[0]!.volumeId}: ${firstBinding})` : ''}; ${volumes(over)} over-provisioned.`
      : over > 0
        ? `No volume is under-provisioned; ${volumes(over)} over-provisioned.`
        : 'No volume is under- or over-provisioned.';
  const unpriced =
    fleet.unpricedCount > 0 ? ` (${volumes(fleet.unpricedCount)} without a price left out)` : '';
  const unused =
    fleet.unusedSavingUsdPerMonth > 0
      ? `; deleting unused volumes after a snapshot saves ${fmtUsd(fleet.unusedSavingUsdPerMonth)}/month more`
      : '';
  return {
    needs: `${volumes(fleet.volumes)} sized from their CloudWatch ${STATISTIC_TEXT[plan.statistic]} (${fmtInt(plan.periodSeconds)} s periods) plus ${fmtPct(plan.headroom, 0)} headroom.`,
    binds,
    bindsTone: under.length > 0 ? 'concern' : over > 0 ? 'watch' : 'ok',
    provision:
      changes > 0
        ? `Change ${volumes(changes)}: the fleet goes from ${fmtUsd(fleet.currentUsdPerMonth)}/month to ${fmtUsd(fleet.recommendedUsdPerMonth)}/month, ${describeSaving(fleet.savingUsdPerMonth)}${unpriced}${unused}.`
        : `Keep every volume as it is: ${fmtUsd(fleet.currentUsdPerMonth)}/month${unpriced}${unused}.`,
    instance: null,
    nvme: null,
    prices: `${plan.region ?? 'custom'} prices of ${plan.priceDate}`,
  };
}
