import { lazy, Suspense } from 'react';
import { Region } from '../../../components/Region.tsx';
import { LoadingState } from '../../../components/States.tsx';
import type { PlanSessionView } from './use-plan-session.ts';

// Loaded when needed: the metrics view (and its chart).
const SeriesPanel = lazy(() => import('../../../features/metrics-import/components/SeriesPanel.tsx'));

/** One region per imported metrics export: how it was read, its statistics and demand over time. */
export function SeriesSections({ session }: { session: PlanSessionView }) {
  const { series, dispatch, rereadSeries, planContext, catalog } = session;
  return series.map((input) => (
    <Region
      key={input.id}
      id={`metrics-${input.id}`}
      title={`Production metrics: ${input.fileName}`}
      description="How the export was read, its statistics per direction, the sizing statistic the session plans with (and what each choice buys and costs), and demand over time against the volume's and the instance's ceilings."
      resetKey={input.imported}
    >
      <Suspense fallback={<LoadingState label={`Loading the metrics view of ${input.fileName}…`} />}>
        <SeriesPanel
          title={input.fileName}
          imported={input.imported}
          options={input.options}
          statistic={input.statistic}
          onStatistic={(statistic) => dispatch({ type: 'series-statistic-changed', id: input.id, statistic })}
          onReimport={(options) => rereadSeries(input, options)}
          plan={planContext}
          catalogStatus={catalog.status}
        />
      </Suspense>
    </Region>
  ));
}
