import { sectionsOf } from '@blockwise/shared/answer';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { useMemo } from 'react';
import { ErrorState, LoadingState } from '../../components/States.tsx';
import { useStoredFleetPlan } from '../../features/fleet/api/use-fleet-plan.ts';
import { FleetFacts, FleetPlanView } from '../../features/fleet/components/FleetPlanView.tsx';
import { FleetWorkbench, type FleetAddressApi } from '../../features/fleet/components/FleetWorkbench.tsx';
import { readFleetAddress, withFleetAddress } from '../../features/fleet/fleet-address.ts';
import { indexedDbFleetDraft } from '../../features/fleet/fleet-draft.ts';
import { Link, navigate, paths, useLocation } from '../router.tsx';
import { fleetAnswerOf } from './fleet-answer.ts';
import { AnswerBox } from './plan/AnswerBox.tsx';
import { AnswerLines } from './plan/AnswerLines.tsx';
import { usePageTitle } from './use-page-title.ts';

/** The unsaved fleet plan's files, kept across reloads (null where the browser has no IndexedDB). */
const FLEET_DRAFT = indexedDbFleetDraft();

/**
 * The Fleet page's view state (sort, filters, statistic, headroom, region, recurring peaks) in the
 * address: a reload, back/forward and a copied link keep it. Changes replace the history entry.
 */
function useFleetAddress(): FleetAddressApi {
  const { search } = useLocation();
  // Read once per address: the table's filter and sort memos then see the same objects.
  const value = useMemo(() => readFleetAddress(search), [search]);
  return {
    value,
    set: (patch) => {
      const { pathname, hash } = window.location;
      navigate(`${pathname}${withFleetAddress(window.location.search, patch)}${hash}`, { replace: true });
    },
  };
}

/** /fleet/:id — a saved fleet plan, read-only: the numbers as they were computed when it was saved. */
function SharedFleetPlan({ id }: { id: string }) {
  usePageTitle('Shared fleet plan');
  const state = useStoredFleetPlan(id);
  const address = useFleetAddress();
  if (state.status === 'loading') return <LoadingState label="Loading the fleet plan…" />;
  if (state.status === 'error')
    return (
      <div className="page">
        <ErrorState
          title={
            state.code === 'fleet_plan_not_found'
              ? 'No fleet plan at this link'
              : 'The fleet plan could not be loaded'
          }
          message={state.error}
          onRetry={state.code === 'fleet_plan_not_found' ? undefined : state.reload}
        />
      </div>
    );
  const stored = state.data;
  return (
    <div className="page">
      <header className="page-head">
        <div>
          <p className="page-head__kicker">Shared fleet plan · read-only</p>
          <h1 tabIndex={-1} id="page-title">
            Fleet plan: {stored.plan.totals.fleet.volumes} volumes
          </h1>
        </div>
        <div className="page-head__actions">
          <Link to={paths.fleet()} className="btn">
            Plan another fleet
          </Link>
        </div>
      </header>
      <AnswerBox>
        <AnswerLines answer={fleetAnswerOf(stored.plan)} sections={sectionsOf({ kind: 'fleet' })} />
      </AnswerBox>
      <dl className="facts facts--inline">
        <div>
          <dt>Created</dt>
          <dd>
            <time dateTime={stored.createdAt}>{new Date(stored.createdAt).toUTCString()}</time>
          </dd>
        </div>
        <div>
          <dt>Analysis version</dt>
          <dd>{stored.analysisVersion}</dd>
        </div>
      </dl>
      <FleetFacts plan={stored.plan} />
      <p className="banner banner--info">
        This plan was computed once, when the link was created, and never changes: later price updates or rule
        changes do not alter it.
        {stored.analysisVersion !== ANALYSIS_VERSION
          ? ` This app now runs analysis version ${ANALYSIS_VERSION}; drop the same files on the Fleet page to recompute.`
          : ''}
      </p>
      <FleetPlanView
        plan={stored.plan}
        createdAt={stored.createdAt}
        order={{
          sort: address.value.sort,
          onSort: (sort) => address.set({ sort }),
          filter: address.value.filter,
          onFilter: (filter) => address.set({ filter }),
        }}
      />
    </div>
  );
}

/** /fleet — plan a fleet from AWS CLI outputs; /fleet/:id — a saved plan. */
export default function FleetPage({ id }: { id?: string }) {
  usePageTitle(id ? 'Shared fleet plan' : 'Fleet right-sizing');
  const address = useFleetAddress();
  if (id !== undefined) return <SharedFleetPlan id={id} />;
  return (
    <div className="page">
      <header className="page-head">
        <div>
          <p className="page-head__kicker">Fleet right-sizing</p>
          <h1 tabIndex={-1} id="page-title">
            Fleet
          </h1>
          <p className="page-head__lead">
            Every EBS volume of an account, sized from its CloudWatch peaks: what to change, what it saves,
            where it is at risk, and the commands to do it.
          </p>
        </div>
      </header>
      <FleetWorkbench address={address} draft={FLEET_DRAFT} />
    </div>
  );
}
