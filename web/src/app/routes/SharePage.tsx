import { sectionsOf, storedAnswerPlan, storedCapacityAnswer } from '@blockwise/shared/answer';
import { type Comparison } from '@blockwise/shared/api';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { useDeferredValue, useState } from 'react';
import { Region } from '../../components/Region.tsx';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { Warnings } from '../../components/Warnings.tsx';
import { ExportMenu } from '../../features/export/components/ExportMenu.tsx';
import { storedCapacityExport } from '../../features/export/capacity-export.ts';
import { RunsTable } from '../../features/archive/components/RunsTable.tsx';
import { RateMeta } from '../../features/right-size/components/RateCardPanel.tsx';
import { storedWaste } from '../../features/right-size/right-size-view.ts';
import { useComparison } from '../../features/share/api/comparison.ts';
import { describeApiError } from '../../lib/api-client.ts';
import { ComparisonView } from '../ComparisonView.tsx';
import { navigate, paths } from '../router.tsx';
import { useSession } from '../session/SessionProvider.tsx';
import { StoredAnswer, StoredCapacity } from './plan/StoredAnswer.tsx';
import { usePageTitle } from './use-page-title.ts';

/** Everything under the banner: runs, then the stored plans in the shared comparison view. */
function SharedBody({ comparison }: { comparison: Comparison }) {
  const { result } = comparison;
  // A link answered with capacity whose plans are on a run at saturation: they are a what-if.
  const plansNote = storedCapacityAnswer(comparison)?.plansNote;
  return (
    <>
      {result.runs.length > 0 ? (
        <Region title="Runs" description="The fio results this comparison was computed from." id="runs">
          <RunsTable
            items={result.runs.map((r) => ({
              id: r.id,
              labels: r.labels,
              fioVersion: r.fioVersion,
              headline: r.summary.headline,
            }))}
            caption="Runs in this comparison"
          />
        </Region>
      ) : null}
      {plansNote ? <p className="banner banner--info">{plansNote}</p> : null}
      {result.plans.length > 0 ? (
        <ComparisonView
          result={result}
          focusPercentile="99"
          wasteFor={(i) => {
            const candidate = comparison.plan?.candidates[i];
            const plan = result.plans[i]?.plan;
            return candidate && plan ? storedWaste(plan, candidate.type) : [];
          }}
          rates={<RateMeta rates={result.rates} />}
        />
      ) : (
        <Region title="Plans" id="plans">
          <p>
            {comparison.plan
              ? 'No plan: the session held no demand (the workload’s peaks) to size on, only what each storage delivered.'
              : 'This comparison holds runs without a configuration to plan for.'}
          </p>
          <RateMeta rates={result.rates} />
        </Region>
      )}
    </>
  );
}

function SharedComparison({ comparison }: { comparison: Comparison }) {
  const { openComparison } = useSession();
  const [opening, setOpening] = useState<'idle' | 'opening' | { error: string }>('idle');
  const { result } = comparison;
  const title = comparison.title ?? 'Shared comparison';
  // The heading, facts and banner commit first (the largest paint, right after the data arrives);
  // the sections below render in a transition React splits into short tasks, so drawing every
  // table and panel neither delays that paint nor blocks the main thread in one long task.
  const showBody = useDeferredValue(true, false);
  const answerPlan = storedAnswerPlan(comparison);
  const capacity = answerPlan ? null : storedCapacityAnswer(comparison);
  const answerSections = sectionsOf({ kind: 'share', plans: result.plans.length });

  const open = async () => {
    setOpening('opening');
    try {
      await openComparison(comparison);
      navigate(paths.plan());
    } catch (error) {
      setOpening({ error: describeApiError(error) });
    }
  };

  return (
    <div className="page">
      <header className="page-head">
        <div>
          <p className="page-head__kicker">Shared comparison · read-only</p>
          <h1 tabIndex={-1} id="page-title">
            {title}
          </h1>
          <dl className="facts facts--inline">
            <div>
              <dt>Created</dt>
              <dd>
                <time dateTime={comparison.createdAt}>{new Date(comparison.createdAt).toUTCString()}</time>
              </dd>
            </div>
            <div>
              <dt>Analysis version</dt>
              <dd>{comparison.analysisVersion}</dd>
            </div>
            <div>
              <dt>Prices as of</dt>
              <dd>{comparison.priceTableDate}</dd>
            </div>
            <div>
              <dt>Region</dt>
              <dd>{result.rates.region ?? 'custom rates'}</dd>
            </div>
          </dl>
        </div>
        <div className="page-head__actions">
          <button type="button" className="btn btn--primary" onClick={open} disabled={opening === 'opening'}>
            {opening === 'opening' ? 'Opening…' : 'Open as a new planning session'}
          </button>
          <ExportMenu
            result={result}
            session={comparison.plan}
            analysisVersion={comparison.analysisVersion}
            title={title}
            answer={
              answerPlan
                ? { for: answerPlan.title, ...answerPlan.answer }
                : capacity
                  ? storedCapacityExport(capacity, result.rates)
                  : undefined
            }
          />
        </div>
      </header>
      {/* Right under the heading, in the first viewport of a phone (issue 27), and in the head the
          server paints before any script (share.router.ts, answer-html.ts: no layout shift). */}
      {answerPlan ? (
        <StoredAnswer answer={answerPlan.answer} title={answerPlan.title} sections={answerSections} />
      ) : capacity ? (
        <StoredCapacity answer={capacity} />
      ) : null}
      {typeof opening === 'object' ? (
        <p className="banner banner--error" role="alert">
          Could not open it as a planning session: {opening.error}
        </p>
      ) : null}
      <p className="banner banner--info">
        These results were computed once, when the link was created, and never change: later uploads, price
        updates or rule changes do not alter them.
        {comparison.analysisVersion !== ANALYSIS_VERSION
          ? ` This app now runs analysis version ${ANALYSIS_VERSION}; open it as a planning session to recompute.`
          : ''}
      </p>
      {result.warnings && result.warnings.length > 0 ? (
        // Before any number: a jobs_differ comparison gives no verdict, and the reader must know why.
        <div className="callout callout--concern">
          <p>
            <strong>Read this before the numbers:</strong>
          </p>
          <Warnings warnings={result.warnings} />
        </div>
      ) : null}
      {showBody ? (
        <SharedBody comparison={comparison} />
      ) : (
        // Holds the footer below the fold until the sections arrive (no layout shift).
        <div style={{ minHeight: '100vh' }} aria-hidden="true" />
      )}
    </div>
  );
}

/** `/c/:id`: exactly the stored result of a comparison, read-only. */
export default function SharePage({ id }: { id: string }) {
  const state = useComparison(id);
  // One title, set here: a child's effect runs before its parent's, so a title set in the loaded
  // view would be overwritten by a generic one whenever the comparison is already in the cache.
  usePageTitle(state.status === 'ready' ? (state.data.title ?? 'Shared comparison') : 'Shared comparison');
  if (state.status === 'loading') {
    return (
      <div className="page">
        <h1 tabIndex={-1} id="page-title">
          Shared comparison
        </h1>
        <LoadingState label="Loading the shared comparison…" />
      </div>
    );
  }
  if (state.status === 'error') {
    const missing = state.code === 'comparison_not_found' || state.code === 'not_found';
    return (
      <div className="page">
        <h1 tabIndex={-1} id="page-title">
          Shared comparison
        </h1>
        <ErrorState
          title={missing ? 'This link does not point to a comparison' : 'The comparison could not be loaded'}
          message={
            missing
              ? 'Check that the link was copied completely. Comparison ids are 22 characters long.'
              : state.error
          }
          {...(missing ? {} : { onRetry: state.reload })}
        >
          <p>
            <a href={paths.plan()}>Start a new planning session</a>
          </p>
        </ErrorState>
      </div>
    );
  }
  return <SharedComparison comparison={state.data} />;
}
