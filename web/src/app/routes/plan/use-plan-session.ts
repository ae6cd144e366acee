import { type InstanceSpec } from '@blockwise/shared/aws';
import { volumeFromLabels } from '@blockwise/shared/plan';
import { accessOf } from '@blockwise/shared/profile';
import { useCallback, useMemo, useRef, useState } from 'react';
import { liveWaste, type WasteRow } from '../../../features/right-size/right-size-view.ts';
import { useCatalog } from '../../../lib/catalog.ts';
import {
  analyzeSession,
  planContextOf,
  seriesPlanSettings,
  type SeriesPlanSettings,
} from '../../session/analysis.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { refOf, type FioInput, type SeriesInput } from '../../session/session-state.ts';
import { demandSourcesOf, statusOfAction, type DemandSourceOption, type LastAction } from './demand-view.ts';
import { inputTitle, kindLabelOf } from './input-text.ts';

/**
 * The planning session's state and everything derived from it, for the page's sections: the
 * analysis, the catalog's lists, the planned input and the
 * actions that need more than a dispatch (the run's configuration as the first candidate, waste).
 */
export function usePlanSession() {
  const session = useSession();
  const { state, dispatch } = session;
  // The catalog is needed once the session has data or an instance, or someone reaches for the
  // instance picker; an empty page (a first visit) does not parse it (bench P11).
  const [catalogRequested, setCatalogRequested] = useState(false);
  const catalog = useCatalog(
    catalogRequested || state.inputs.length > 0 || state.settings.instanceType !== null,
  );
  // Reaching for the picker again after a failed load tries again (the retry button of the
  // analysis shows only once there is data).
  const { status: catalogStatus, retry: retryCatalog } = catalog;
  const requestCatalog = useCallback(() => {
    setCatalogRequested(true);
    if (catalogStatus === 'error') retryCatalog();
  }, [catalogStatus, retryCatalog]);

  // One render per change, analysis included (≈ 1–2 ms): a deferred copy of the state rendered
  // the whole page twice per slider step. What a step does not change keeps its identity or is
  // compared by value below it (memoized sections and charts), so a step costs what changed
  // (bench P16).
  const analysis = useMemo(() => analyzeSession(state, catalog.catalog), [state, catalog.catalog]);
  const instanceTypes: readonly InstanceSpec[] | null = useMemo(
    () => catalog.catalog?.listInstanceTypes() ?? null,
    [catalog.catalog],
  );
  const regions = useMemo(
    () => catalog.catalog?.listPriceRegions().filter((r) => r.complete) ?? null,
    [catalog.catalog],
  );
  const { settings } = state;
  const names = useMemo(
    () => Object.fromEntries(state.inputs.map((i) => [i.id, inputTitle(i)])),
    [state.inputs],
  );
  const result = analysis.result;
  const plannedRef = analysis.effective.profileRef;
  const fioInputs = state.inputs.filter((i): i is FioInput => i.kind === 'fio');
  const labelledRun = fioInputs.find((i) => i.labels.instanceType || i.labels.volumeType);

  const { candidates } = settings;
  const applyRunConfig = useCallback(
    (input: FioInput) => {
      const l = input.labels;
      const patch: Partial<typeof settings> = {};
      if (l.instanceType) patch.instanceType = l.instanceType;
      if (l.region && regions?.some((r) => r.code === l.region)) patch.region = l.region;
      const volume = l.kind === 'ebs' ? volumeFromLabels(l) : null;
      if (volume) patch.candidates = [{ ...volume, count: volume.count ?? 1 }, ...candidates.slice(1)];
      dispatch({ type: 'settings-changed', settings: patch });
    },
    [dispatch, regions, candidates],
  );

  // What an imported metrics series' per-statistic plans use: the session's own settings, kept
  // as the same object while they do not change (the series view does not recompute meanwhile).
  const eff = analysis.effective;
  const contextKey = JSON.stringify(seriesPlanSettings(eff));
  const planContext = useMemo(
    () => planContextOf(JSON.parse(contextKey) as SeriesPlanSettings, analysis.rateCard, catalog.catalog),
    [contextKey, analysis.rateCard, catalog.catalog],
  );

  const firstPlan = result?.ok ? result.value.plans[0]?.plan : undefined;
  const planEntries = result?.ok ? result.value.plans : [];

  /** The over-provisioning rows of the i-th plan: its candidate as configured, live. */
  const wasteFor = (i: number): WasteRow[] => {
    const index = analysis.candidateIndex[i];
    const candidate = index === undefined ? undefined : state.settings.candidates[index];
    const plan = planEntries[i]?.plan;
    return candidate && plan && analysis.rateCard
      ? liveWaste(candidate, plan, analysis.rateCard, state.settings.nodes, state.settings.gp3Generation)
      : [];
  };

  const usable = state.inputs.filter((i) => analysis.inputs.get(i.id)?.profile?.ok);
  const jobProfiles = usable.flatMap((i) => {
    const p = analysis.inputs.get(i.id)?.profile;
    return p?.ok
      ? [{ key: refOf(i), title: inputTitle(i), kindLabel: kindLabelOf(i), profile: p.value }]
      : [];
  });
  const plannedInput = state.inputs.find((i) => refOf(i) === plannedRef);
  // The planned profile's access pattern (random / sequential, and who said so), for the profile summary.
  const plannedProfile = plannedInput ? analysis.inputs.get(plannedInput.id)?.profile : null;
  const plannedAccess = plannedProfile?.ok ? accessOf(plannedProfile.value) : null;
  const series = state.inputs.filter(
    (i): i is SeriesInput & { imported: NonNullable<SeriesInput['imported']> } =>
      i.kind === 'series' && i.status === 'ready' && i.imported !== null,
  );

  // Set when a form that produces results is submitted: the answer takes focus once it is shown.
  const answerFocusRef = useRef(false);
  const requestAnswerFocus = useCallback(() => {
    answerFocusRef.current = true;
  }, []);
  /** True once after `requestAnswerFocus` (the answer then takes focus). */
  const takeAnswerFocus = useCallback(() => {
    const pending = answerFocusRef.current;
    answerFocusRef.current = false;
    return pending;
  }, []);

  // The demand sources and the last action's outcome (issue 27): what "Needs …" comes from, and
  // the status shown beside the control pressed and in the answer box.
  const demandSources = useMemo(() => demandSourcesOf(state.inputs, analysis), [state.inputs, analysis]);
  const waitingSource: DemandSourceOption | null =
    demandSources.find((s) => s.ref === analysis.demand.waiting) ?? null;
  const [lastAction, setLastAction] = useState<LastAction | null>(null);
  const { addFiles: addFilesOf, addMetricsFiles: addMetricsOf } = session;
  const addFiles = useCallback(
    (files: readonly File[]) =>
      addFilesOf(files).then((ids) => {
        setLastAction({ control: 'files', ids });
        return ids;
      }),
    [addFilesOf],
  );
  const addMetricsFiles = useCallback(
    (files: readonly File[]) =>
      addMetricsOf(files).then((ids) => {
        setLastAction({ control: 'metrics', ids });
        return ids;
      }),
    [addMetricsOf],
  );
  const notePeaksAdded = useCallback((id: string) => setLastAction({ control: 'peaks', ids: [id] }), []);
  const actionStatus = statusOfAction(state.inputs, lastAction, analysis.demand);

  return {
    ...session,
    addFiles,
    addMetricsFiles,
    notePeaksAdded,
    lastAction,
    actionStatus,
    demandSources,
    waitingSource,
    requestAnswerFocus,
    takeAnswerFocus,
    catalog,
    requestCatalog,
    analysis,
    instanceTypes,
    regions,
    names,
    result,
    plannedRef,
    fioInputs,
    labelledRun,
    applyRunConfig,
    eff,
    planContext,
    firstPlan,
    wasteFor,
    usable,
    jobProfiles,
    plannedInput,
    plannedAccess,
    series,
  };
}

export type PlanSessionView = ReturnType<typeof usePlanSession>;
