import { METRICS_FORMATS } from '@blockwise/shared/timeseries';
import { lazy, memo, Suspense } from 'react';
import { Disclosure } from '../../../components/Disclosure.tsx';
import { LoadingState } from '../../../components/States.tsx';
import { describeVolume } from '../../../features/archive/components/RunsTable.tsx';
import { InputCard } from '../../../features/ingest/components/InputCard.tsx';
import { LabelsForm } from '../../../features/ingest/components/LabelsForm.tsx';
import { ObservedForm } from '../../../features/ingest/components/ObservedForm.tsx';
import { periodText } from '../../../features/metrics-import/labels.ts';
import { SysbenchFacts } from '../../../features/sysbench/components/SysbenchFacts.tsx';
import { TEST_MODE_TEXT } from '../../../features/sysbench/sysbench-facts.ts';
import { fmtInt, fmtSize } from '../../../lib/format.ts';
import { sameData } from '../../../lib/same-data.ts';
import { refOf, type SessionInput } from '../../session/session-state.ts';
import { cardStatus, inputTitle, kindLabelOf } from './input-text.ts';
import type { InputAnalysis } from '../../session/analysis.ts';
import type { PlanSessionView } from './use-plan-session.ts';

// Loaded when needed: the importer's questions.
const SeriesQuestions = lazy(() => import('../../../features/metrics-import/components/SeriesQuestions.tsx'));

type CardProps = {
  input: SessionInput;
  /** The input's profile and run summary, as the session's analysis read them. */
  analysis: InputAnalysis | undefined;
  /** The plan is for this input. */
  planned: boolean;
  /** A demand source among several: "Plan for this" is offered (capacity evidence is never sized on). */
  selectable: boolean;
  /** Demand or capacity evidence, and why (null: not read yet). */
  role: { role: 'demand' | 'capacity'; why: string } | null;
  dispatch: PlanSessionView['dispatch'];
  rereadSeries: PlanSessionView['rereadSeries'];
  instanceTypes: PlanSessionView['instanceTypes'];
  regions: PlanSessionView['regions'];
  catalogError: string | null;
};

/** The card's props from the session: what it reads, and nothing a what-if step changes. */
export function inputCardProps(input: SessionInput, session: PlanSessionView): CardProps {
  return {
    input,
    analysis: session.analysis.inputs.get(input.id),
    planned: session.plannedRef === refOf(input),
    selectable: session.demandSources.length > 1 && session.analysis.roles.get(input.id)?.role === 'demand',
    role: session.analysis.roles.get(input.id) ?? null,
    dispatch: session.dispatch,
    rereadSeries: session.rereadSeries,
    instanceTypes: session.instanceTypes,
    regions: session.regions,
    catalogError: session.catalog.error,
  };
}

/**
 * One input of the session as a card: what it is, its profile, and what can be done with it.
 * Compared by value: a what-if slider step leaves every card as it is (bench P16).
 */
export const SessionInputCard = memo(SessionInputCardView, sameData);

function SessionInputCardView({
  input,
  analysis: a,
  planned,
  selectable,
  role,
  dispatch,
  rereadSeries,
  instanceTypes,
  regions,
  catalogError,
}: CardProps) {
  const profile = a?.profile?.ok ? a.profile.value : null;
  const profileError = a?.profile && !a.profile.ok ? a.profile.error : null;
  const title = inputTitle(input);
  const ref = refOf(input);
  const common = {
    title,
    profile,
    profileError,
    selected: planned,
    onSelect: selectable ? () => dispatch({ type: 'settings-changed', settings: { profileRef: ref } }) : null,
    onRemove: () => dispatch({ type: 'input-removed', id: input.id }),
  };
  const roleNote = role ? <RoleNote role={role} /> : null;
  if (input.kind === 'series') {
    const imported = input.imported;
    return (
      <InputCard
        {...common}
        kindLabel={kindLabelOf(input)}
        status={cardStatus(input)}
        error={input.status === 'error' ? input.error : null}
        meta={
          imported
            ? `${METRICS_FORMATS[imported.series.format].label} · ${fmtInt(imported.summary.points)} ${periodText(imported.series.periodSec)} points${imported.series.label ? ` · ${imported.series.label}` : ''} · sized on the ${input.statistic === 'max' ? 'maximum' : input.statistic} of the points (never averaged up)`
            : null
        }
      >
        {roleNote}
        {input.status === 'choice' ? (
          <div className="callout callout--info">
            <p>
              <strong>{title}</strong> leaves a question open. Blockwise does not guess: answer and the file
              is read again.
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
          <button type="button" className="btn btn--small" onClick={() => rereadSeries(input, {})}>
            Read {title} again without the answers given
          </button>
        ) : null}
        {input.status === 'ready' && imported ? (
          <p className="cell-note">
            <a href={`#metrics-${input.id}`}>Statistics, sizing statistic and demand over time</a> below. Not
            uploaded: a share link stores its chosen profile.
          </p>
        ) : null}
      </InputCard>
    );
  }
  if (input.kind === 'sysbench') {
    const run = input.run;
    return (
      <InputCard
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
                run.threads !== null ? `${run.threads} thread${run.threads === 1 ? '' : 's'}` : null,
                fmtSize(input.sizeBytes),
              ]
                .filter(Boolean)
                .join(' · ')
            : null
        }
        warnings={profile?.warnings ?? []}
      >
        {roleNote}
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
      <InputCard {...common} kindLabel="typed in" status="ready" error={null}>
        {roleNote}
        <Disclosure className="input-card__details" summary="Edit numbers" label={`Edit numbers of ${title}`}>
          <ObservedForm
            initial={input.metrics}
            submitLabel="Save changes"
            onSubmit={(metrics) => dispatch({ type: 'observed-changed', id: input.id, metrics })}
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
      {...common}
      kindLabel={kindLabelOf(input)}
      status={input.status}
      error={input.error}
      meta={meta}
      warnings={(summary?.warnings ?? []).filter((w) => w.subject?.startsWith('labels.'))}
    >
      {roleNote}
      {input.status === 'ready' ? (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={input.replaysLoad === true}
            onChange={(e) =>
              dispatch({ type: 'replays-load-changed', id: input.id, replaysLoad: e.target.checked })
            }
          />
          This run replays our load (its rates are the workload’s demand)
        </label>
      ) : null}
      {input.origin === 'archive' ? (
        <p className="cell-note">
          {describeVolume(input.labels)}
          {input.labels.instanceType ? ` on ${input.labels.instanceType}` : ''}
          {input.labels.region ? ` in ${input.labels.region}` : ''}. Archived runs keep the labels they were
          uploaded with; to relabel, upload the file again.
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
            catalogError={catalogError}
            onChange={(labels) => dispatch({ type: 'labels-changed', id: input.id, labels })}
          />
        </Disclosure>
      ) : null}
    </InputCard>
  );
}

/** Whether the input is demand (sized on) or capacity evidence (compared), and why. */
function RoleNote({ role }: { role: { role: 'demand' | 'capacity'; why: string } }) {
  return (
    <p className="cell-note">
      <strong>{role.role === 'demand' ? 'Demand' : 'Capacity evidence'}</strong>: {role.why}.
    </p>
  );
}
