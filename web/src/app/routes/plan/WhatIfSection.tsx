import { RateCardEditor, RateMeta } from '../../../features/right-size/components/RateCardPanel.tsx';
import { WhatIfControls } from '../../../features/right-size/components/WhatIfControls.tsx';
import { catalogLabel } from '../../../lib/catalog.ts';
import type { PlanSessionView } from './use-plan-session.ts';

/** The what-if knobs beside right-sizing: the candidates, headroom, nodes (the instance is picked with the data). */
export function WhatIfSection({ session }: { session: PlanSessionView }) {
  const { state, dispatch, analysis, firstPlan } = session;
  const { settings } = state;
  return (
    <div className="what-if-wrap">
      <WhatIfControls
        settings={settings}
        focusPercentile={state.focusPercentile}
        candidateProblems={analysis.candidateProblems}
        recommendations={firstPlan?.rightSizing.recommendations ?? []}
        onSettings={(patch) => dispatch({ type: 'settings-changed', settings: patch })}
        onFocusPercentile={(percentile) => dispatch({ type: 'focus-percentile-changed', percentile })}
        onCandidate={(index, volume) => dispatch({ type: 'candidate-changed', index, volume })}
        onAddCandidate={(volume) => dispatch({ type: 'candidate-added', volume })}
        onRemoveCandidate={(index) => dispatch({ type: 'candidate-removed', index })}
      />
    </div>
  );
}

/** The rate card: editable once the catalog is loaded, else the plan's own rates and their date. */
export function RatesSection({ session }: { session: PlanSessionView }) {
  const { state, dispatch, catalog, analysis, regions, firstPlan } = session;
  const { settings } = state;
  if (catalog.catalog && analysis.rateCard && regions)
    return (
      <RateCardEditor
        regions={regions}
        region={settings.region}
        overrides={settings.rateOverrides}
        base={catalog.catalog.rateCardFor(settings.region) ?? catalog.catalog.defaultRateCard()}
        card={analysis.rateCard}
        problem={analysis.rateProblem}
        onRegion={(region) => dispatch({ type: 'settings-changed', settings: { region } })}
        onOverrides={(rateOverrides) => dispatch({ type: 'settings-changed', settings: { rateOverrides } })}
        catalog={catalogLabel(catalog.catalog)}
      />
    );
  return firstPlan ? <RateMeta rates={firstPlan.rates} /> : null;
}
