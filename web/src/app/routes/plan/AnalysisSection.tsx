import { EmptyState, ErrorState, LoadingState } from '../../../components/States.tsx';
import { ComparisonView } from '../../ComparisonView.tsx';
import type { PlanSessionView } from './use-plan-session.ts';
import { RatesSection, WhatIfSection } from './WhatIfSection.tsx';

/** What the session's data says: nothing yet, the catalog loading or failing, or the plans. */
export function AnalysisSection({ session }: { session: PlanSessionView }) {
  const { analysis, catalog, result, names, state, usable, plannedRef, plannedAccess, wasteFor } = session;
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
    <ComparisonView
      result={result.value}
      names={names}
      focusPercentile={state.focusPercentile}
      premiums={analysis.nvmePremiums}
      wasteFor={wasteFor}
      access={plannedAccess}
      rightSizeControls={<WhatIfSection session={session} />}
      rates={<RatesSection session={session} />}
      profileHeader={
        usable.length > 1 ? (
          <p className="field__hint">
            Planned for <strong>{names[plannedRef?.split(':')[1] ?? ''] ?? '—'}</strong>. Pick another input
            with “Plan for this” above.
          </p>
        ) : null
      }
    />
  );
}
