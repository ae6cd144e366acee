import {
  SeriesConfigSchema,
  defaultSeriesConfig,
  pickBaseBranch,
  type SeriesConfig,
} from '@blockwise/shared/history';
import { comparedRunOf } from '@blockwise/shared/analysis';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { RunLabelsSchema, type RunLabels } from '@blockwise/shared/records';
import type { RouteContext } from '../context.ts';
import type { AnalyzedDocuments } from '../ingest/analyze-upload.ts';
import {
  comparePair,
  parseStoredRun,
  storedRunBytes,
  utf8Bytes,
  type BuiltComparison,
  type SerializedRun,
  type StoredRunText,
} from '../ingest/pair-comparison.ts';
import { recentReportsOf, recentRunsOf } from '../ingest/recent-runs.ts';
import type { Reservation } from '../ingest/parse-pool.ts';
import { cursorForRun } from '../store/cursor.ts';
import {
  JsonObjectText,
  type PairComparisonRef,
  type RunJsonBytes,
  type ComparisonRecords,
  type RunMeta,
  type RunRecords,
  type SeriesRecords,
  type SeriesSettings,
} from '../store/run-store.ts';
import { storeCall } from '../http/route-helpers.ts';

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

/** The records the regression gate reads and writes: runs, their series' settings, pair comparisons. */
export type GateRecords = RunRecords & SeriesRecords & ComparisonRecords;

/**
 * Reads the gate's state for a run of `series`; `baselineRuns` overrides how many baseline runs to
 * read; `labels` are the run's, when the caller parsed them already (storedLabels).
 */
export async function readGate(
  ctx: RouteContext<RunRecords & SeriesRecords>,
  run: RunMeta,
  series: string,
  baselineRuns?: number,
  labels: RunLabels = storedLabels(run),
): Promise<GateState> {
  const { config, problem } = effectiveConfig(await storeCall(() => ctx.store.getSeriesSettings(series)));
  const notes = problem ? [problem] : [];
  const pick = pickBaseBranch(labels, config);
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

/** A run of the pair: its parsed documents when they are at hand, else its stored JSON. */
type PairSide =
  | { id: string; parsed: SerializedRun; text?: never }
  | { id: string; parsed?: never; text: StoredRunText & Pick<RunMeta, 'labels'> };

/**
 * Builds the comparison off the event loop unless the reports are small: parsing two stored
 * reports (up to ~11 MB of JSON each for a 7,000-job file) and comparing them would hold it for
 * hundreds of ms. Same threshold as an upload's analysis (largeBodyBytes); in the pool it holds
 * room like an upload — the upload's own, grown to the comparison's bytes, when it has one — and
 * a full pool is a 503 the client retries (the retried upload is idempotent and freezes again).
 * A side already parsed (the upload just analyzed inline, a run in RecentRuns) is not parsed
 * again; one parsed here is remembered for the next upload of its series.
 */
async function compare(
  ctx: RouteContext<RunRecords>,
  sides: readonly PairSide[],
  reservation: Reservation | null,
): Promise<BuiltComparison> {
  const texts = sides.flatMap((side) => (side.text ? [side.text] : []));
  if (storedRunBytes(texts) > ctx.config.largeBodyBytes) {
    // The worker takes stored JSON: a side parsed here already is read again (rare: a large
    // baseline with a retried upload). Reports are UTF-8 bytes — read from the store, or as the
    // upload's analysis in the pool sent them — moved to the worker (P13): never decoded nor
    // copied on the event loop.
    const all = await Promise.all(sides.map((side) => side.text ?? readStoredRun(ctx, side.id)));
    return ctx.pool.compare(all.map(storedRunText), reservation);
  }
  const runs: SerializedRun[] = [];
  for (const side of sides) {
    if (side.parsed) {
      runs.push(side.parsed);
      continue;
    }
    const read = parseStoredRun(storedRunText(side.text));
    if (!read.ok) return read;
    // Kept without its report: the comparison reads only its fio version and job settings.
    const compared = comparedRunOf(read.value);
    recentRunsOf(ctx.store).remember(
      compared,
      utf8Bytes(side.text.summaryJson) + jobSettingsBytes(compared.jobSettings),
    );
    runs.push(compared);
  }
  return comparePair(runs);
}

/**
 * What a run's job settings weigh in RecentRuns: their JSON's bytes. Small for fio's usual files
 * (~1 KB), but one entry per distinct job: a file of thousands of jobs with per-job options is not.
 */
const jobSettingsBytes = (settings: SerializedRun['jobSettings']): number =>
  utf8Bytes(JSON.stringify(settings));

/** A stored run with its report as UTF-8 bytes: decoded only where it is compared (inline or in the pool). */
async function readStoredRun(ctx: RouteContext<RunRecords>, id: string): Promise<RunJsonBytes> {
  const run = await storeCall(() => ctx.store.getRunJsonBytes(id));
  if (!run) throw new Error(`run ${id} vanished (runs are append-only)`);
  return run;
}

/** What an upload hands the gate about the run it just stored: its JSON and, if analyzed inline, its documents. */
export type JustStored = {
  text: StoredRunText & Pick<RunMeta, 'labels'>;
  documents: AnalyzedDocuments | null;
};

/**
 * After an upload with a series label: freezes the comparison of [latest baseline run, this run]
 * that the regression check links to. Once per pair and analysis version, whichever replica gets
 * there first (ensurePairComparison's UNIQUE key), so a retried upload or two replicas make one.
 * Returns the comparison's id, or null when the run has no baseline (first run of a branch, no
 * base branch to pick). A comparison that cannot be built is logged and skipped: the run is
 * stored, and the check says it has no link.
 */
export async function freezeBaselineComparison(
  ctx: RouteContext<GateRecords>,
  run: RunMeta,
  reservation: Reservation | null = null,
  /** The run's report and summary as just stored, when the caller has them (a new upload). */
  justStored: JustStored | null = null,
): Promise<string | null> {
  const labels = storedLabels(run);
  const recent = recentRunsOf(ctx.store);
  // The documents of a new upload analyzed inline are what its stored JSON parses back to
  // (analyze-upload.test.ts): the next upload of the series compares with them as they are.
  const current: SerializedRun | null = justStored?.documents
    ? { id: run.id, labels, ...justStored.documents }
    : recent.get(run.id);
  if (!labels.series) return null;
  // The summary is kept as objects and as its JSON, with its plan's JSON, and the job settings.
  if (current && justStored?.documents)
    recent.remember(
      current,
      2 * utf8Bytes(justStored.text.summaryJson) +
        utf8Bytes(justStored.documents.summaryText.plan) +
        jobSettingsBytes(current.jobSettings),
    );
  const gate = await readGate(ctx, run, labels.series, 1, labels);
  // Analyzed in the pool, a run of the base branch: the next upload's baseline. A copy of its
  // report's bytes is kept for that comparison (the one below moves these to its worker).
  const ownReport = justStored?.text.reportJson;
  if (ownReport instanceof Uint8Array && gate.pick.ok && gate.pick.baseBranch === labels.branch) {
    const copy = Buffer.allocUnsafeSlow(ownReport.byteLength);
    copy.set(ownReport);
    recentReportsOf(ctx.store).remember(
      { ...justStored!.text, reportJson: copy },
      copy.byteLength + utf8Bytes(justStored!.text.summaryJson),
    );
  }
  const latest = gate.baseline[0];
  if (!latest || !gate.pick.ok) return null;
  const pair = [latest.id, run.id] as const;
  // A retried upload: the pair is frozen already, nothing to compute.
  const existing = pickPairComparison(await storeCall(() => ctx.store.findPairComparisons(pair)));
  if (existing?.analysisVersion === ANALYSIS_VERSION) return existing.id;
  // The reports as the store wrote them (their JSON, as text or UTF-8 bytes), parsed only where
  // the comparison is built, unless they are parsed already. A new upload's own JSON is in hand
  // (the bytes its analysis in the pool sent); a retried one may have been stored by an older
  // analysis.
  const cachedBaseline = recent.get(latest.id);
  const sideOf = async (
    id: string,
    parsed: SerializedRun | null,
    text?: JustStored['text'],
  ): Promise<PairSide> => (parsed ? { id, parsed } : { id, text: text ?? (await readStoredRun(ctx, id)) });
  // The baseline's report kept from its own upload, if it was analyzed here in the pool: taken,
  // as the comparison moves it, rather than read back from the store on the event loop (P13).
  // Taken also when RecentRuns holds the baseline parsed: then it is not needed again.
  const keptReport = recentReportsOf(ctx.store).take(latest.id) ?? undefined;
  const keptBaseline = cachedBaseline ? undefined : keptReport;
  const [baseline, currentSide] = await Promise.all([
    sideOf(latest.id, cachedBaseline, keptBaseline),
    sideOf(run.id, current, justStored?.text),
  ]);
  const result = await compare(ctx, [baseline, currentSide], reservation);
  if (!result.ok) {
    ctx.logger.warn({ runIds: pair, problem: result.error }, 'the baseline comparison could not be built');
    return null;
  }
  const baselineLabels = baseline.parsed ? baseline.parsed.labels : storedLabels(baseline.text);
  const title = `${gate.series}: ${gate.pick.baseBranch}${shortCommit(baselineLabels)} vs ${labels.branch ?? 'run'}${shortCommit(labels)}`;
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
