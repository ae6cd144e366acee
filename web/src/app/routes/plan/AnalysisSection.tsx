import { lazy, Suspense } from 'react';
import { EmptyState, ErrorState, LoadingState } from '../../../components/States.tsx';
import type { ObservedOrigin } from '../../../features/profile/profile-view.ts';
import type { SessionInput } from '../../session/session-state.ts';
import type { PlanSessionView } from './use-plan-session.ts';

// Loaded when there is something to show: a first visit (an empty session) never needs the
// comparison's panels, and the planning page's first load stays within its budget (P10, P11).
const ComparisonView = lazy(() =>
  import('../../ComparisonView.tsx').then((m) => ({ default: m.ComparisonView })),
);
import { RatesSection, WhatIfSection } from './WhatIfSection.tsx';

/** Where the planned input's peaks came from: a metrics export or sysbench run, or the form. */
function originOf(input: SessionInput | undefined): ObservedOrigin {
  if (input?.kind === 'series' || input?.kind === 'sysbench') return 'imported';
  return input?.kind === 'observed' ? 'typed' : 'unknown';
}

/** What the session's data says: nothing yet, the catalog loading or failing, or the plans. */
export function AnalysisSection({ session }: { session: PlanSessionView }) {
  const {
    analysis,
    catalog,
    result,
    names,
    state,
    usable,
    plannedRef,
    plannedAccess,
    plannedInput,
    wasteFor,
  } = session;
  if (!analysis.hasProfiles)
    return (
      <EmptyState title="Add data to start">
        <p>
          Drop a fio result file or type in peak IOPS and throughput. The profile, the limits that bind,
          right-sized volumes, costs and the NVMe-vs-EBS comparison appear here.
        </p>
      </EmptyState>
    );
  if (catalog.status === 'loading')
    return <LoadingState label="Loading the AWS catalog (instance types and prices)…" />;
  if (catalog.status === 'error')
    return (
      <ErrorState
        title="The AWS catalog could not be loaded"
        message={catalog.error}
        onRetry={catalog.retry}
      />
    );
  if (result && !result.ok)
    return <ErrorState title="This session cannot be planned yet" message={result.error.message} />;
  if (!result?.ok) return null;
  return (
    <Suspense fallback={<LoadingState label="Loading the plan’s panels…" />}>
      <ComparisonView
        result={result.value}
        names={names}
        focusPercentile={state.focusPercentile}
        premiums={analysis.nvmePremiums}
        wasteFor={wasteFor}
        access={plannedAccess}
        origin={originOf(plannedInput)}
        rightSizeControls={<WhatIfSection session={session} />}
        rates={<RatesSection session={session} />}
        profileHeader={
          analysis.demand.ref === null ? (
            <p className="field__hint">
              No demand yet: the sections below treat{' '}
              <strong>{names[plannedRef?.split(':')[1] ?? ''] ?? '—'}</strong>’s delivered rates as if the
              workload asked for them — a what-if, not a need. Give the workload’s peaks in the answer above.
            </p>
          ) : usable.length > 1 ? (
            <p className="field__hint">
              Planned for <strong>{names[plannedRef?.split(':')[1] ?? ''] ?? '—'}</strong>. Pick another input
              with “Plan for this” above.
            </p>
          ) : null
        }
      />
    </Suspense>
  );
}
