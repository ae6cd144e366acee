import { instanceStoreCapacity, type InstanceSpec } from '@blockwise/shared/aws';
import { deliveredComparison, deliveredText, profileEvidence } from '@blockwise/shared/answer';
import { describeDemandSource, type DemandSourceFacts } from '@blockwise/shared/demand';
import { datasetCapacityOf, datasetFitText, type DatasetGrowth } from '@blockwise/shared/plan';
import { fmtInt, fmtPct } from '../../../lib/format.ts';
import type { SessionAnalysis } from '../../session/analysis.ts';
import { refOf, type SessionInput } from '../../session/session-state.ts';
import { inputTitle, kindLabelOf } from './input-text.ts';

/**
 * What the answer says about its evidence (issue 27): which demand source "Needs …" comes from
 * (name, statistic, resolution), what each storage delivered when the session holds capacity
 * evidence only, whether an alternative holds the dataset, and the outcome of the last action.
 * Text only: every number is the shared package's (`@blockwise/shared/demand`, `/aws`).
 */

export type DemandSourceOption = { ref: string; title: string; description: string };

/** Where an input's demand numbers come from, as describeDemandSource takes them. */
function factsOf(input: SessionInput): DemandSourceFacts {
  const name = inputTitle(input);
  if (input.kind === 'series' && input.imported)
    return {
      kind: 'metrics',
      name,
      statistic: input.statistic,
      resolutionSec: input.imported.series.periodSec,
    };
  if (input.kind === 'fio')
    return { kind: 'fio', name, runtimeSec: input.report?.jobs[0]?.settings.runtimeSec ?? null };
  return { kind: 'typed', name };
}

/** The session's demand sources, in the order they arrived (those with a profile only). */
export function demandSourcesOf(
  inputs: readonly SessionInput[],
  analysis: SessionAnalysis,
): DemandSourceOption[] {
  return inputs
    .filter((i) => analysis.roles.get(i.id)?.role === 'demand' && analysis.inputs.get(i.id)?.profile?.ok)
    .map((i) => ({ ref: refOf(i), title: inputTitle(i), description: describeDemandSource(factsOf(i)) }));
}

export type DeliveredRow = { id: string; title: string; kindLabel: string; text: string };

/**
 * What each storage configuration delivered (capacity evidence: read + write as measured), and,
 * with two or more, the first against the best: "fio · EBS b.json delivered 0.42× the IOPS of …".
 */
export function deliveredOfSession(
  inputs: readonly SessionInput[],
  analysis: SessionAnalysis,
): { rows: DeliveredRow[]; comparison: string | null } {
  const measured = inputs.flatMap((i) => {
    const p = analysis.inputs.get(i.id)?.profile;
    if (analysis.roles.get(i.id)?.role !== 'capacity' || !p?.ok) return [];
    const evidence = {
      title: inputTitle(i),
      kindLabel: kindLabelOf(i),
      ...profileEvidence(p.value),
    };
    return [{ id: i.id, evidence }];
  });
  return {
    rows: measured.map(({ id, evidence: e }) => ({
      id,
      title: e.title,
      kindLabel: e.kindLabel,
      text: deliveredText(e),
    })),
    comparison: deliveredComparison(measured.map((m) => m.evidence)),
  };
}

/**
 * An alternative with local NVMe, checked against the dataset: the store's size after ext4's
 * formatting overhead (`instanceStoreCapacity`), and whether it holds the data.
 */
export function storeHoldsText(
  spec: Pick<InstanceSpec, 'instanceType' | 'instanceStore'> | null,
  datasetGiB: number | null,
  growth: DatasetGrowth | null = null,
): { text: string; holds: boolean | null } | null {
  const c = spec ? instanceStoreCapacity(spec) : null;
  if (!spec || !c) return null;
  const size = `its instance store holds about ${fmtInt(Math.floor(c.usableGiB))} GiB after formatting (${fmtInt(Math.floor(c.rawGiB))} GiB raw, ${fmtPct(c.overheadFraction, 1)} kept by ext4’s defaults)`;
  if (datasetGiB === null)
    return { text: `${size}; capacity not known: enter the dataset size to check it.`, holds: null };
  // The store cannot grow: it is checked against the dataset at the end of the horizon.
  const fit = datasetFitText(c.usableGiB, datasetCapacityOf(datasetGiB, growth)!);
  return { text: `${size}: ${fit.text}.`, holds: fit.holds };
}

/** The files one action brought (the ids it added), as the status of that action. */
export type ActionStatus = { text: string; tone: 'busy' | 'ok' | 'error' };

/**
 * "Reading 3 files…", "2 files read", "2 of 3 files failed: a.json (the file is empty); …". null
 * when none of the ids is still in the session.
 */
export function actionStatusOf(inputs: readonly SessionInput[], ids: readonly string[]): ActionStatus | null {
  const batch = inputs.filter((i) => ids.includes(i.id));
  if (batch.length === 0) return null;
  const n = batch.length;
  const files = (k: number) => `${k} file${k === 1 ? '' : 's'}`;
  const busy = batch.filter((i) =>
    'status' in i ? i.status === 'parsing' || i.status === 'reading' : false,
  );
  if (busy.length > 0) return { text: `Reading ${files(busy.length)} of ${n}…`, tone: 'busy' };
  const failed = batch.flatMap((i) =>
    'status' in i && i.status === 'error' ? [`${inputTitle(i)} (${i.error?.message ?? 'not readable'})`] : [],
  );
  const asking = batch.filter((i) => i.kind === 'series' && i.status === 'choice').length;
  const read = n - failed.length - asking;
  const parts: string[] = [];
  if (failed.length > 0) parts.push(`${failed.length} of ${files(n)} failed: ${failed.join('; ')}`);
  else parts.push(`${n === 1 ? 'The file was' : `All ${n} files were`} read`);
  if (asking > 0)
    parts.push(
      `${files(asking)} ask${asking === 1 ? 's' : ''} a question on ${asking === 1 ? 'its' : 'their'} card`,
    );
  if (failed.length > 0 && read > 0) parts.push(`${files(read)} read`);
  return { text: `${parts.join('; ')}.`, tone: failed.length > 0 ? 'error' : 'ok' };
}

/** The last action that brought inputs: which control, and the ids it added. */
export type LastAction = { control: 'files' | 'metrics' | 'peaks'; ids: readonly string[] };

/**
 * The status of the last action, as the answer box and the control pressed both show it: what was
 * read or failed, and what became of the demand it brought (planned on, or waiting).
 */
export function statusOfAction(
  inputs: readonly SessionInput[],
  action: LastAction | null,
  demand: { ref: string | null; waiting: string | null },
): ActionStatus | null {
  if (!action) return null;
  const added = inputs.filter((i) => action.ids.includes(i.id));
  const base =
    action.control === 'peaks'
      ? added.length > 0
        ? ({ text: 'Peaks added.', tone: 'ok' } as const)
        : null
      : actionStatusOf(inputs, action.ids);
  if (!base || base.tone === 'busy') return base;
  const planned = added.find((i) => refOf(i) === demand.ref);
  const waiting = added.find((i) => refOf(i) === demand.waiting);
  const after = planned
    ? ` The answer plans on ${inputTitle(planned)}.`
    : waiting
      ? ` ${inputTitle(waiting)} waits to be planned for: “Plan for this” in the answer.`
      : '';
  return { ...base, text: `${base.text}${after}` };
}
