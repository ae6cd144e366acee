import { useCallback } from 'react';
import { RateCardEditor, RateMeta } from '../../../features/right-size/components/RateCardPanel.tsx';
import { WhatIfControls } from '../../../features/right-size/components/WhatIfControls.tsx';
import { catalogLabel } from '../../../lib/catalog.ts';
import type { Candidate, Settings } from '../../session/session-state.ts';
import type { PlanSessionView } from './use-plan-session.ts';

/** The what-if knobs beside right-sizing: the candidates, headroom, nodes (the instance is picked with the data). */
export function WhatIfSection({ session }: { session: PlanSessionView }) {
  const { state, dispatch, analysis, firstPlan } = session;
  const { settings } = state;
  // Stable handlers: the candidate editors are compared by value and skip a headroom step (bench P16).
  const onCandidate = useCallback(
    (index: number, volume: Candidate) => dispatch({ type: 'candidate-changed', index, volume }),
    [dispatch],
  );
  const onRemoveCandidate = useCallback(
    (index: number) => dispatch({ type: 'candidate-removed', index }),
    [dispatch],
  );
  return (
    <div className="what-if-wrap">
      <WhatIfControls
        settings={settings}
        focusPercentile={state.focusPercentile}
        candidateProblems={analysis.candidateProblems}
        recommendations={firstPlan?.rightSizing.recommendations ?? []}
        onSettings={(patch) => dispatch({ type: 'settings-changed', settings: patch })}
        onFocusPercentile={(percentile) => dispatch({ type: 'focus-percentile-changed', percentile })}
        onCandidate={onCandidate}
        onAddCandidate={(volume) => dispatch({ type: 'candidate-added', volume })}
        onRemoveCandidate={onRemoveCandidate}
      />
    </div>
  );
}

/** The rate card: editable once the catalog is loaded, else the plan's own rates and their date. */
export function RatesSection({ session }: { session: PlanSessionView }) {
  const { state, dispatch, catalog, analysis, regions, firstPlan } = session;
  const { settings } = state;
  // Stable handlers: the editor is compared by value and skips what-if steps (bench P16).
  const onRegion = useCallback(
    (region: string) => dispatch({ type: 'settings-changed', settings: { region } }),
    [dispatch],
  );
  const onOverrides = useCallback(
    (rateOverrides: Settings['rateOverrides']) =>
      dispatch({ type: 'settings-changed', settings: { rateOverrides } }),
    [dispatch],
  );
  if (catalog.catalog && analysis.rateCard && regions)
    return (
      <RateCardEditor
        regions={regions}
        region={settings.region}
        overrides={settings.rateOverrides}
        base={catalog.catalog.rateCardFor(settings.region) ?? catalog.catalog.defaultRateCard()}
        card={analysis.rateCard}
        problem={analysis.rateProblem}
        onRegion={onRegion}
        onOverrides={onOverrides}
        catalog={catalogLabel(catalog.catalog)}
      />
    );
  return firstPlan ? <RateMeta rates={firstPlan.rates} /> : null;
}
