import {
  SeriesConfigSchema,
  defaultSeriesConfig,
  pickBaseBranch,
  type SeriesConfig,
} from '@blockwise/shared/history';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { RunLabelsSchema, type RunLabels } from '@blockwise/shared/records';
import type { AppContext } from '../../context.ts';
import {
  buildPairComparison,
  storedRunBytes,
  type BuiltComparison,
  type StoredRunText,
} from '../../ingest/pair-comparison.ts';
import type { Reservation } from '../../ingest/parse-pool.ts';
import { cursorForRun } from '../../store/cursor.ts';
import {
  JsonObjectText,
  type PairComparisonRef,
  type RunMeta,
  type SeriesSettings,
} from '../../store/run-store.ts';
import { storeCall } from '../route-helpers.ts';

/**
 * The regression gate's state, read the same way by the upload (which freezes the baseline
 * comparison once) and by GET /api/runs/:id/regression (which only reads):
 * the series settings in force, the base branch, the baseline runs before the run.
 */

/**
 * The configuration in force: what was stored, read with today's schema. A stored document that
 * no longer validates (written by another version) must not take the gate down: the defaults
 * apply and the reason is reported.
 */
export function effectiveConfig(stored: SeriesSettings | null): {
  config: SeriesConfig;
  problem: string | null;
} {
  if (!stored) return { config: defaultSeriesConfig(), problem: null };
  const parsed = SeriesConfigSchema.safeParse(stored.config);
  if (parsed.success) return { config: parsed.data, problem: null };
  const issue = parsed.error.issues[0];
  return {
    config: defaultSeriesConfig(),
    problem: `the stored series settings do not validate (${issue?.path.join('.') || 'config'}: ${issue?.message ?? 'invalid'}); the defaults were used`,
  };
}

export type GateState = {
  series: string;
  config: SeriesConfig;
  /** Why something was left out (settings that do not validate, a history that cannot be read). */
  notes: string[];
  pick: ReturnType<typeof pickBaseBranch>;
  /** The latest runs of the base branch strictly older than the run, newest first. */
  baseline: RunMeta[];
};

/** Reads the gate's state for a run of `series`; `baselineRuns` overrides how many baseline runs to read. */
export async function readGate(
  ctx: AppContext,
  run: RunMeta,
  series: string,
  baselineRuns?: number,
): Promise<GateState> {
  const { config, problem } = effectiveConfig(await storeCall(() => ctx.store.getSeriesSettings(series)));
  const notes = problem ? [problem] : [];
  const pick = pickBaseBranch(storedLabels(run), config);
  let baseline: RunMeta[] = [];
  if (pick.ok) {
    // Strictly older than the run: the run itself is never in its own baseline, and a run on
    // the base branch is compared with the ones before it.
    const page = await storeCall(() =>
      ctx.store.listSeriesRuns({
        series,
        branch: pick.baseBranch,
        limit: baselineRuns ?? config.baselineRuns,
        before: cursorForRun(run),
      }),
    );
    // A base branch the store cannot query (stored by an older version) judges nothing, not 500.
    if (page.ok) baseline = page.value.items;
    else
      notes.push(
        `the history of ${pick.baseBranch} could not be read (${page.error.message}); nothing was compared`,
      );
  }
  return { series, config, notes, pick, baseline };
}

/**
 * A stored run's labels, parsed with today's schema (stored data is parsed, never cast). The
 * store validated them on the way in, so a failure here is a bug, not a user error.
 */
export function storedLabels(run: Pick<RunMeta, 'id' | 'labels'>): RunLabels {
  const parsed = RunLabelsSchema.safeParse(run.labels);
  if (!parsed.success)
    throw new TypeError(`run ${run.id}: stored labels do not validate: ${parsed.error.message}`);
  return parsed.data;
}

const shortCommit = (labels: RunLabels) => (labels.commit ? `@${labels.commit.slice(0, 12)}` : '');

const storedRunText = (run: StoredRunText): StoredRunText => ({
  id: run.id,
  labels: run.labels,
  reportJson: run.reportJson,
  summaryJson: run.summaryJson,
});

/**
 * Builds the comparison off the event loop unless the reports are small: parsing two stored
 * reports (up to ~11 MB of JSON each for a 7,000-job file) and comparing them would hold it for
 * hundreds of ms. Same threshold as an upload's analysis (largeBodyBytes); in the pool it holds
 * room like an upload — the upload's own, grown to the comparison's bytes, when it has one — and
 * a full pool is a 503 the client retries (the retried upload is idempotent and freezes again).
 */
function compare(
  ctx: AppContext,
  runs: StoredRunText[],
  reservation: Reservation | null,
): Promise<BuiltComparison> | BuiltComparison {
  if (storedRunBytes(runs) <= ctx.config.largeBodyBytes) return buildPairComparison(runs);
  return ctx.pool.compare(runs, reservation);
}

/**
 * After an upload with a series label: freezes the comparison of [latest baseline run, this run]
 * that the regression check links to. Once per pair and analysis version, whichever replica gets
 * there first (ensurePairComparison's UNIQUE key), so a retried upload or two replicas make one.
 * Returns the comparison's id, or null when the run has no baseline (first run of a branch, no
 * base branch to pick). A comparison that cannot be built is logged and skipped: the run is
 * stored, and the check says it has no link.
 */
export async function freezeBaselineComparison(
  ctx: AppContext,
  run: RunMeta,
  reservation: Reservation | null = null,
  /** The run's report and summary as just stored, when the caller has them (a new upload). */
  justStored: StoredRunText | null = null,
): Promise<string | null> {
  const labels = storedLabels(run);
  if (!labels.series) return null;
  const gate = await readGate(ctx, run, labels.series, 1);
  const latest = gate.baseline[0];
  if (!latest || !gate.pick.ok) return null;
  const pair = [latest.id, run.id] as const;
  // A retried upload: the pair is frozen already, nothing to compute.
  const existing = pickPairComparison(await storeCall(() => ctx.store.findPairComparisons(pair)));
  if (existing?.analysisVersion === ANALYSIS_VERSION) return existing.id;
  // The reports as the store wrote them (JSON text): parsed only where the comparison is built.
  // A new upload's own text is in hand; a retried one may have been stored by an older analysis.
  const [baseline, current] = await Promise.all([
    storeCall(() => ctx.store.getRunJson(latest.id)),
    justStored ?? storeCall(() => ctx.store.getRunJson(run.id)),
  ]);
  if (!baseline || !current)
    throw new Error(`a run of the pair ${pair.join(', ')} vanished (runs are append-only)`);
  const result = await compare(ctx, [storedRunText(baseline), storedRunText(current)], reservation);
  if (!result.ok) {
    ctx.logger.warn({ runIds: pair, problem: result.error }, 'the baseline comparison could not be built');
    return null;
  }
  const title = `${gate.series}: ${gate.pick.baseBranch}${shortCommit(storedLabels(baseline))} vs ${labels.branch ?? 'run'}${shortCommit(labels)}`;
  const stored = await storeCall(() =>
    ctx.store.ensurePairComparison({
      title: title.slice(0, 200),
      runIds: pair,
      plan: null,
      result: new JsonObjectText(result.resultJson),
      priceTableDate: result.priceTableDate,
      analysisVersion: ANALYSIS_VERSION,
    }),
  );
  if (!stored.ok) throw new Error(`the baseline comparison was refused: ${stored.error.message}`);
  return stored.value.comparison.id;
}

/**
 * Which frozen comparison of a pair to link: the one of this analysis version, else the newest
 * (a run uploaded before an upgrade keeps the comparison made at its upload).
 */
export function pickPairComparison(refs: readonly PairComparisonRef[]): PairComparisonRef | null {
  return refs.find((ref) => ref.analysisVersion === ANALYSIS_VERSION) ?? refs[0] ?? null;
}
