import { SERIES_FORMAT_LABELS, accessOf, type InstanceSpec } from '@blockwise/shared';
import { lazy, Suspense, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Disclosure } from '../../components/Disclosure.tsx';
import { InstanceCombobox } from '../../components/InstanceCombobox.tsx';
import { Region } from '../../components/Region.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../components/States.tsx';
import { describeVolume } from '../../features/archive/components/RunsTable.tsx';
import { ExportMenu } from '../../features/export/components/ExportMenu.tsx';
import { FileDrop } from '../../features/ingest/components/FileDrop.tsx';
import { InputCard } from '../../features/ingest/components/InputCard.tsx';
import { LabelsForm } from '../../features/ingest/components/LabelsForm.tsx';
import { ObservedForm } from '../../features/ingest/components/ObservedForm.tsx';
import { MetricsDrop } from '../../features/metrics-import/components/MetricsDrop.tsx';
import { periodText } from '../../features/metrics-import/labels.ts';
import { RateCardEditor, RateMeta } from '../../features/right-size/components/RateCardPanel.tsx';
import { WhatIfControls } from '../../features/right-size/components/WhatIfControls.tsx';
import { liveWaste } from '../../features/right-size/right-size-view.ts';
import { ShareActions } from '../../features/share/components/ShareActions.tsx';
import { SysbenchFacts } from '../../features/sysbench/components/SysbenchFacts.tsx';
import { TEST_MODE_TEXT } from '../../features/sysbench/sysbench-facts.ts';
import { catalogLabel, useCatalog } from '../../lib/catalog.ts';
import { fmtInt, fmtSize } from '../../lib/format.ts';
import { ComparisonView } from '../ComparisonView.tsx';
import { navigate, paths } from '../router.tsx';
import {
  analyzeSession,
  planContextOf,
  seriesPlanSettings,
  type SeriesPlanSettings,
} from '../session/analysis.ts';
import { saveBlockers, saveSession } from '../session/save-session.ts';
import { useSession } from '../session/SessionProvider.tsx';
import {
  newObservedId,
  refOf,
  toPlanSession,
  type FioInput,
  type SeriesInput,
  type SessionInput,
  type SysbenchInput,
} from '../session/session-state.ts';
import { usePageTitle } from './use-page-title.ts';

// Loaded when needed: the metrics view (and its chart), the importer's questions, the fio job generator.
const SeriesPanel = lazy(() => import('../../features/metrics-import/components/SeriesPanel.tsx'));
const SeriesQuestions = lazy(() => import('../../features/metrics-import/components/SeriesQuestions.tsx'));
const FioJobPanel = lazy(() => import('../../features/fio-job/components/FioJobPanel.tsx'));

function inputTitle(input: SessionInput): string {
  if (input.kind === 'fio') return input.labels.name ?? input.fileName;
  if (input.kind === 'observed') return input.metrics.label ?? `typed-in metrics ${input.id.slice(0, 4)}`;
  return input.fileName;
}

const KIND_LABEL = { series: 'metrics', sysbench: 'sysbench', observed: 'typed in' } as const;

function kindLabelOf(input: SessionInput): string {
  if (input.kind !== 'fio') return KIND_LABEL[input.kind];
  return input.labels.kind === 'nvme' ? 'fio · NVMe' : input.labels.kind === 'ebs' ? 'fio · EBS' : 'fio';
}

/** A metrics export or sysbench run's card status in the shared card's terms. */
const cardStatus = (input: SeriesInput | SysbenchInput) =>
  input.status === 'reading' || input.status === 'parsing'
    ? ('parsing' as const)
    : input.status === 'error'
      ? ('error' as const)
      : ('ready' as const);

/** The planning session: bring data, see the profile and what binds, right-size, compare, share. */
export default function PlanPage() {
  usePageTitle('Planning session');
  const { state, dispatch, addFiles, addMetricsFiles, rereadSeries } = useSession();
  const catalog = useCatalog();
  const [addingObserved, setAddingObserved] = useState(false);
  // The typed-in form replaces its "Type in metrics…" button: focus moves into the form when it
  // opens and back to the button when it closes, instead of falling to <body>.
  const typeInButton = useRef<HTMLButtonElement>(null);
  const refocusTypeIn = useRef(false);
  const closeObserved = () => {
    refocusTypeIn.current = true;
    setAddingObserved(false);
  };
  useEffect(() => {
    if (addingObserved || !refocusTypeIn.current) return;
    refocusTypeIn.current = false;
    typeInButton.current?.focus();
  }, [addingObserved]);

  // Sliders stay responsive: the analysis (and the charts) follow the typing at React's pace.
  const deferred = useDeferredValue(state);
  const analysis = useMemo(() => analyzeSession(deferred, catalog.catalog), [deferred, catalog.catalog]);
  const instanceTypes: readonly InstanceSpec[] | null = catalog.catalog?.listInstanceTypes() ?? null;
  const regions = useMemo(
    () => catalog.catalog?.listPriceRegions().filter((r) => r.complete) ?? null,
    [catalog.catalog],
  );
  const { settings } = state;
  const names = Object.fromEntries(state.inputs.map((i) => [i.id, inputTitle(i)]));
  const result = analysis.result;
  const plannedRef = analysis.effective.profileRef;
  const fioInputs = state.inputs.filter((i): i is FioInput => i.kind === 'fio');
  const labelledRun = fioInputs.find((i) => i.labels.instanceType || i.labels.volumeType);

  const applyRunConfig = (input: FioInput) => {
    const l = input.labels;
    const patch: Partial<typeof settings> = {};
    if (l.instanceType) patch.instanceType = l.instanceType;
    if (l.region && regions?.some((r) => r.code === l.region)) patch.region = l.region;
    if (l.kind === 'ebs' && l.volumeType && l.volumeSizeGiB) {
      const volume = {
        type: l.volumeType,
        sizeGiB: l.volumeSizeGiB,
        count: l.volumeCount ?? 1,
        ...(l.volumeIops !== undefined && ['gp3', 'io1', 'io2'].includes(l.volumeType)
          ? { iops: l.volumeIops }
          : {}),
        ...(l.volumeThroughputMiBps !== undefined && l.volumeType === 'gp3'
          ? { throughputMiBps: l.volumeThroughputMiBps }
          : {}),
      };
      patch.candidates = [volume, ...settings.candidates.slice(1)];
    }
    dispatch({ type: 'settings-changed', settings: patch });
  };

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

  const whatIf = (
    <div className="what-if-wrap">
      <div className="field-row field-row--wide">
        <InstanceCombobox
          label="Instance type for the plan"
          description="Its EBS bandwidth and IOPS caps, instance store and family (for upgrade advice)."
          value={settings.instanceType}
          types={instanceTypes}
          catalogError={catalog.error}
          onChange={(instanceType) => dispatch({ type: 'settings-changed', settings: { instanceType } })}
        />
        {labelledRun ? (
          <button
            type="button"
            className="btn btn--small align-end"
            onClick={() => applyRunConfig(labelledRun)}
          >
            Use the configuration of {inputTitle(labelledRun)}
          </button>
        ) : null}
      </div>
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

  const rates =
    catalog.catalog && analysis.rateCard && regions ? (
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
    ) : firstPlan ? (
      <RateMeta rates={firstPlan.rates} />
    ) : null;

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

  return (
    <div className="page">
      <header className="page-head">
        <div>
          <h1 tabIndex={-1} id="page-title">
            Planning session
          </h1>
          <p className="page-head__lead">
            Bring fio results or the peaks your dashboards show. Blockwise says which limit binds, what to
            provision instead, what it costs per month — and whether the benchmark itself can be trusted.
          </p>
        </div>
        {result?.ok ? (
          <ExportMenu
            result={result.value}
            session={toPlanSession(state)}
            analysisVersion={firstPlan?.analysisVersion ?? ''}
            title="planning session"
            names={names}
          />
        ) : null}
      </header>

      {state.notice ? (
        <div
          className={`banner banner--${state.notice.tone}`}
          role={state.notice.tone === 'error' ? 'alert' : 'status'}
        >
          <p>{state.notice.text}</p>
          <button
            type="button"
            className="btn btn--small btn--ghost"
            onClick={() => dispatch({ type: 'notice-dismissed' })}
          >
            Dismiss
          </button>
        </div>
      ) : null}
      {state.origin.kind === 'comparison' ? (
        <p className="banner banner--info">
          Started from the shared comparison{' '}
          {state.origin.title ? `“${state.origin.title}”` : state.origin.id}. Changes here do not alter the
          shared link.
        </p>
      ) : null}

      <Region
        title="Bring data"
        description="fio result files and sysbench fileio outputs (read in your browser), production metrics exported from CloudWatch or Grafana, and numbers typed in from any dashboard."
        id="data"
      >
        <div className="grid-2 grid-2--data">
          <FileDrop onFiles={addFiles} />
          <div className="observed-entry">
            {addingObserved ? (
              <ObservedForm
                autoFocus
                onSubmit={(metrics) => {
                  dispatch({
                    type: 'observed-added',
                    input: { kind: 'observed', id: newObservedId(), metrics },
                  });
                  closeObserved();
                }}
                onCancel={closeObserved}
              />
            ) : (
              <div className="dropzone dropzone--plain">
                <p className="dropzone__title">No fio file? Type in your peaks</p>
                <p className="dropzone__hint">
                  Peak read/write IOPS and throughput from a dashboard, in any unit, with optional latency
                  percentiles.
                </p>
                <button
                  ref={typeInButton}
                  type="button"
                  className="btn btn--primary"
                  onClick={() => setAddingObserved(true)}
                >
                  Type in metrics…
                </button>
              </div>
            )}
          </div>
          <div style={{ gridColumn: '1 / -1' }}>
            <MetricsDrop onFiles={addMetricsFiles} />
          </div>
        </div>
        {state.inputs.length > 0 ? (
          <>
            <h3 className="subhead" id="inputs-heading">
              In this session ({state.inputs.length})
            </h3>
            <ul className="input-list" aria-labelledby="inputs-heading">
              {state.inputs.map((input) => {
                const a = analysis.inputs.get(input.id);
                const profile = a?.profile?.ok ? a.profile.value : null;
                const profileError = a?.profile && !a.profile.ok ? a.profile.error : null;
                const title = inputTitle(input);
                const ref = refOf(input);
                const common = {
                  title,
                  profile,
                  profileError,
                  selected: plannedRef === ref,
                  onSelect:
                    usable.length > 1
                      ? () => dispatch({ type: 'settings-changed', settings: { profileRef: ref } })
                      : null,
                  onRemove: () => dispatch({ type: 'input-removed', id: input.id }),
                };
                if (input.kind === 'series') {
                  const imported = input.imported;
                  return (
                    <InputCard
                      key={input.id}
                      {...common}
                      kindLabel={kindLabelOf(input)}
                      status={cardStatus(input)}
                      error={input.status === 'error' ? input.error : null}
                      meta={
                        imported
                          ? `${SERIES_FORMAT_LABELS[imported.series.format]} · ${fmtInt(imported.summary.points)} ${periodText(imported.series.periodSec)} points${imported.series.label ? ` · ${imported.series.label}` : ''} · sized on the ${input.statistic === 'max' ? 'maximum' : input.statistic} of 5-minute points`
                          : null
                      }
                    >
                      {input.status === 'choice' ? (
                        <div className="callout callout--info">
                          <p>
                            <strong>{title}</strong> leaves a question open. Blockwise does not guess: answer
                            and the file is read again.
                          </p>
                          <Suspense fallback={<LoadingState label="Loading the questions…" />}>
                            <SeriesQuestions
                              fileName={title}
                              choices={input.choices}
                              options={input.options}
                              onAnswer={(options) => rereadSeries(input, options)}
                            />
                          </Suspense>
                        </div>
                      ) : null}
                      {input.status === 'error' && Object.keys(input.options).length > 0 ? (
                        <button
                          type="button"
                          className="btn btn--small"
                          onClick={() => rereadSeries(input, {})}
                        >
                          Read {title} again without the answers given
                        </button>
                      ) : null}
                      {input.status === 'ready' && imported ? (
                        <p className="cell-note">
                          <a href={`#metrics-${input.id}`}>
                            Statistics, sizing statistic and demand over time
                          </a>{' '}
                          below. Not uploaded: a share link stores its chosen profile.
                        </p>
                      ) : null}
                    </InputCard>
                  );
                }
                if (input.kind === 'sysbench') {
                  const run = input.run;
                  return (
                    <InputCard
                      key={input.id}
                      {...common}
                      kindLabel={kindLabelOf(input)}
                      status={cardStatus(input)}
                      error={input.error}
                      meta={
                        run
                          ? [
                              run.version ? `sysbench ${run.version}` : 'sysbench',
                              run.testMode ? TEST_MODE_TEXT[run.testMode] : null,
                              run.blockSizeBytes !== null ? fmtSize(run.blockSizeBytes) : null,
                              run.threads !== null
                                ? `${run.threads} thread${run.threads === 1 ? '' : 's'}`
                                : null,
                              fmtSize(input.sizeBytes),
                            ]
                              .filter(Boolean)
                              .join(' · ')
                          : null
                      }
                      warnings={profile?.warnings ?? []}
                    >
                      {run ? (
                        <Disclosure
                          className="input-card__details"
                          initiallyOpen
                          summary="How it ran"
                          label={`How it ran: ${title}`}
                        >
                          <SysbenchFacts run={run} title={title} />
                          <p className="cell-note">
                            Not uploaded (the archive takes fio results): a share link stores its profile.
                          </p>
                        </Disclosure>
                      ) : null}
                    </InputCard>
                  );
                }
                if (input.kind === 'observed') {
                  return (
                    <InputCard key={input.id} {...common} kindLabel="typed in" status="ready" error={null}>
                      <Disclosure
                        className="input-card__details"
                        summary="Edit numbers"
                        label={`Edit numbers of ${title}`}
                      >
                        <ObservedForm
                          initial={input.metrics}
                          submitLabel="Save changes"
                          onSubmit={(metrics) =>
                            dispatch({ type: 'observed-changed', id: input.id, metrics })
                          }
                        />
                      </Disclosure>
                    </InputCard>
                  );
                }
                const summary = a?.summary ?? null;
                const meta = input.report
                  ? [
                      input.report.fioVersion ?? 'fio version unknown',
                      `${input.report.jobs.length} job${input.report.jobs.length === 1 ? '' : 's'}`,
                      `${input.report.groups.length} group${input.report.groups.length === 1 ? '' : 's'}`,
                      input.report.jsonPlus ? 'json+' : null,
                      fmtSize(input.sizeBytes),
                      input.origin === 'archive' ? 'from the archive' : input.serverRunId ? 'uploaded' : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')
                  : null;
                return (
                  <InputCard
                    key={input.id}
                    {...common}
                    kindLabel={kindLabelOf(input)}
                    status={input.status}
                    error={input.error}
                    meta={meta}
                    warnings={(summary?.warnings ?? []).filter((w) => w.subject?.startsWith('labels.'))}
                  >
                    {input.origin === 'archive' ? (
                      <p className="cell-note">
                        {describeVolume(input.labels)}
                        {input.labels.instanceType ? ` on ${input.labels.instanceType}` : ''}
                        {input.labels.region ? ` in ${input.labels.region}` : ''}. Archived runs keep the
                        labels they were uploaded with; to relabel, upload the file again.
                      </p>
                    ) : input.status === 'ready' ? (
                      <Disclosure
                        className="input-card__details"
                        initiallyOpen={input.origin === 'file' && !input.labels.kind}
                        summary="Labels: what was measured"
                        label={`Labels: what was measured in ${title}`}
                      >
                        <LabelsForm
                          key={input.id}
                          subject={input.fileName}
                          labels={input.labels}
                          instanceTypes={instanceTypes}
                          regions={regions}
                          catalogError={catalog.error}
                          onChange={(labels) => dispatch({ type: 'labels-changed', id: input.id, labels })}
                        />
                      </Disclosure>
                    ) : null}
                  </InputCard>
                );
              })}
            </ul>
          </>
        ) : null}
      </Region>

      {series.map((input) => (
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
              onStatistic={(statistic) =>
                dispatch({ type: 'series-statistic-changed', id: input.id, statistic })
              }
              onReimport={(options) => rereadSeries(input, options)}
              plan={planContext}
              catalogStatus={catalog.status}
            />
          </Suspense>
        </Region>
      ))}

      {!analysis.hasProfiles ? (
        <EmptyState title="Add data to start">
          <p>
            Drop a fio result file or type in peak IOPS and throughput. The profile, the limits that bind,
            right-sized volumes, costs and the NVMe-vs-EBS comparison appear here.
          </p>
        </EmptyState>
      ) : catalog.status === 'loading' ? (
        <LoadingState label="Loading the AWS catalog (instance types and prices)…" />
      ) : catalog.status === 'error' ? (
        <ErrorState
          title="The AWS catalog could not be loaded"
          message={catalog.error}
          onRetry={catalog.retry}
        />
      ) : result && !result.ok ? (
        <ErrorState title="This session cannot be planned yet" message={result.error.message} />
      ) : result?.ok ? (
        <ComparisonView
          result={result.value}
          names={names}
          focusPercentile={state.focusPercentile}
          premiums={analysis.nvmePremiums}
          wasteFor={(i) => {
            const index = analysis.candidateIndex[i];
            const candidate = index === undefined ? undefined : deferred.settings.candidates[index];
            const plan = planEntries[i]?.plan;
            return candidate && plan && analysis.rateCard
              ? liveWaste(
                  candidate,
                  plan,
                  analysis.rateCard,
                  deferred.settings.nodes,
                  deferred.settings.gp3Generation,
                )
              : [];
          }}
          access={plannedAccess}
          rightSizeControls={whatIf}
          rates={rates}
          profileHeader={
            usable.length > 1 ? (
              <p className="field__hint">
                Planned for <strong>{names[plannedRef?.split(':')[1] ?? ''] ?? '—'}</strong>. Pick another
                input with “Plan for this” above.
              </p>
            ) : null
          }
        />
      ) : null}

      {jobProfiles.length > 0 ? (
        <Region
          title="Reproduce with fio"
          id="fio-job"
          description="The fio job that reproduces a profile on a candidate volume — every option with its reason — the command that runs it, and the upload line that sends the result back with this session's labels."
        >
          <Disclosure
            className="input-card__details"
            summary="Generate the fio job"
            label="Generate the fio job: job file, command line and upload line"
          >
            <Suspense fallback={<LoadingState label="Loading the fio job generator…" />}>
              <FioJobPanel
                profiles={jobProfiles}
                initialKey={plannedRef}
                target={{
                  instanceType: eff.instanceType,
                  region: eff.region,
                  candidates: eff.candidates,
                  kind: plannedInput?.kind === 'fio' ? (plannedInput.labels.kind ?? null) : null,
                }}
              />
            </Suspense>
          </Disclosure>
        </Region>
      ) : null}

      <Region
        title="Share & export"
        description="A link a reviewer can open: results frozen with their price date and analysis version."
        id="share"
      >
        <ShareActions
          blockers={saveBlockers(state, analysis)}
          onSave={(title, progress) =>
            // Saved from the current state, not the deferred one the page may still be catching up to.
            saveSession(state, analyzeSession(state, catalog.catalog), dispatch, title, progress)
          }
          linkSession={
            analysis.effective.observed.length > 0
              ? {
                  ...analysis.effective,
                  profileRef: analysis.effective.profileRef?.startsWith('run:')
                    ? null
                    : analysis.effective.profileRef,
                }
              : null
          }
          fileCount={fioInputs.length}
          onOpenShared={(id) => navigate(paths.share(id))}
          version={JSON.stringify([analysis.effective, fioInputs.map((i) => [i.id, i.labels])])}
        />
      </Region>
    </div>
  );
}
