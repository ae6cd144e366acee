import { bottleneckStateOf, type PlanResult } from '@blockwise/shared/plan';
import { type Access } from '@blockwise/shared/profile';
import { type ComparisonResult } from '@blockwise/shared/records';
import { useState, type ReactNode } from 'react';
import { Region } from '../components/Region.tsx';
import { EmptyState } from '../components/States.tsx';
import { Tabs } from '../components/Tabs.tsx';
import { ComparePanel, type NvmePremiumInfo } from '../features/compare/components/ComparePanel.tsx';
import { runViews } from '../features/compare/compare-rows.ts';
import { LimitsPanel } from '../features/limits/components/LimitsPanel.tsx';
import { ProfilePanel } from '../features/profile/components/ProfilePanel.tsx';
import { type ObservedOrigin } from '../features/profile/profile-view.ts';
import { RightSizePanel } from '../features/right-size/components/RightSizePanel.tsx';
import { focusVerdicts, type WasteRow } from '../features/right-size/right-size-view.ts';
import { fmtPct, fmtUsd } from '../lib/format.ts';

/**
 * What a comparison shows, in the same components for a live planning session and a frozen share
 * link: the profile, what binds for each configuration, right-sizing and cost, NVMe vs EBS. The
 * planning page adds its controls through the slots; a share view passes none (read-only).
 */

type Props = {
  result: ComparisonResult;
  /** Display names of runs (file names in a session). */
  names?: Record<string, string>;
  focusPercentile: string;
  /** Over-provisioning rows for the plan at an index (live or stored). */
  wasteFor: (planIndex: number) => WasteRow[];
  premiums?: Record<string, NvmePremiumInfo>;
  /** Planning page: the what-if controls and the rate card editor. */
  rightSizeControls?: ReactNode;
  rates: ReactNode;
  /** Shown above the profile: which input the plan is for (a picker in the planning page). */
  profileHeader?: ReactNode;
  /** The planned profile's access pattern and its origin (the planning page knows the profile). */
  access?: Access | null;
  /** Where the planned profile's peaks came from (an import, typed in); a share view does not know. */
  origin?: ObservedOrigin;
};

type Entry = { key: string; title: string; plan: PlanResult; measured: boolean };

function tabHint(plan: PlanResult, percentile: string): string {
  const parts: string[] = [];
  const b = plan.bottleneck;
  if (b) {
    const state = bottleneckStateOf(b);
    const at = fmtPct(b.utilization, 0);
    parts.push(
      state === 'impossible'
        ? `not deliverable (${at})`
        : `binds at ${at}${state === 'bursting' ? ' (burst)' : ''}`,
    );
  }
  // Every cost names the date of its prices.
  if (plan.cost.current)
    parts.push(`${fmtUsd(plan.cost.current.clusterMonthlyUsd.total)}/mo (prices of ${plan.rates.date})`);
  else if (plan.cost.nvme)
    parts.push(`+${fmtUsd(plan.cost.nvme.monthlyPremiumUsd)}/mo (prices of ${plan.rates.date})`);
  const v = focusVerdicts(plan, percentile);
  const worst = [v.read, v.write]
    .filter((x) => x !== null)
    .sort((a, b) => rank(b.verdict) - rank(a.verdict))[0];
  if (worst) parts.push(`p${percentile} ${worst.verdict}`);
  return parts.join(' · ');
}
const rank = (v: 'ok' | 'watch' | 'concern') => ({ ok: 0, watch: 1, concern: 2 })[v];

export function ComparisonView({
  result,
  names = {},
  focusPercentile,
  wasteFor,
  premiums,
  rightSizeControls,
  rates,
  profileHeader,
  access,
  origin,
}: Props) {
  const [selected, setSelected] = useState(0);
  const runs = runViews(result, names);
  const entries: Entry[] = [
    ...result.plans.map((p, i) => ({ key: `p${i}`, title: p.title, plan: p.plan, measured: false })),
    ...result.runs.flatMap((r, i) =>
      r.summary.plan
        ? [{ key: `r${i}`, title: `Measured: ${runs[i]!.title}`, plan: r.summary.plan, measured: true }]
        : [],
    ),
  ];
  const current = Math.min(selected, Math.max(entries.length - 1, 0));
  const entry = entries[current];
  const first = result.plans[0]?.plan;
  const planIndex = entry && !entry.measured ? current : 0;

  return (
    <>
      <Region
        title="I/O profile"
        description="What the workload asks of storage, per direction."
        id="profile"
      >
        {profileHeader}
        {first ? (
          <ProfilePanel plan={first} access={access ?? null} origin={origin} />
        ) : (
          <EmptyState title="No profile" />
        )}
      </Region>

      <Region
        title="What binds"
        description="Demand against every ceiling — volume, instance baseline and burst, instance store — for each configuration."
        id="limits"
      >
        {entry ? (
          <Tabs
            label="Configurations"
            items={entries.map((e) => ({
              key: e.key,
              label: e.title,
              hint: tabHint(e.plan, focusPercentile),
            }))}
            selected={current}
            onSelect={setSelected}
          >
            <LimitsPanel plan={entry.plan} title={entry.title} />
            {entry.plan.viability ? (
              <p className="callout callout--info">
                <strong>EBS or NVMe? </strong>
                {entry.plan.viability.message}
              </p>
            ) : null}
          </Tabs>
        ) : (
          <EmptyState title="No configuration to check" />
        )}
      </Region>

      <Region
        title="Right-size & what-if"
        description="The cheapest configuration of each volume type for the peak plus headroom, and what over-provisioning costs."
        id="right-size"
      >
        {rightSizeControls}
        <RightSizePanel plans={result.plans} selected={planIndex} waste={wasteFor(planIndex)} />
      </Region>

      <Region
        title="NVMe vs EBS"
        description="Local NVMe and EBS side by side: bandwidth, IOPS, latency percentiles and cost, with verdicts only when both ran the same fio job."
        id="compare"
      >
        <ComparePanel runs={runs} stored={result.nvmeVsEbs ?? null} premiums={premiums ?? {}} />
      </Region>

      <Region title="Rate card" description="Every cost on this page uses these prices." id="rates">
        {rates}
      </Region>
    </>
  );
}
