import {
  SeriesConfigSchema,
  defaultSeriesConfig,
  pickBaseBranch,
  type SeriesConfig,
} from '@blockwise/shared/history';
import { type ComparedRun } from '@blockwise/shared/analysis';
import type { Problem } from '@blockwise/shared/problem';
import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { RunLabelsSchema, type RunLabels } from '@blockwise/shared/records';
import type { RouteContext } from '../context.ts';
import {
  comparePair,
  parseStoredLabels,
  readComparedRun,
  storedRunBytes,
  utf8Bytes,
  type BuiltComparison,
  type StoredRunText,
} from '../ingest/pair-comparison.ts';
import { recentRunsOf } from '../ingest/recent-runs.ts';
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
 * The regression gate's state, read the same way by GET /api/runs/:id/regression (which only
 * reads) and by the link it gives (which freezes the baseline comparison once):
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
  run: Pick<RunMeta, 'id' | 'createdAt' | 'labels'>,
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

/** A run of the pair: its documents parsed already (RecentRuns), else its stored JSON. */
type PairSide =
  { id: string; parsed: ComparedRun; text?: never } | { id: string; parsed?: never; text: RunJsonBytes };

/**
 * Builds the comparison off the event loop unless the reports are small: parsing two stored
 * reports (up to ~11 MB of JSON each for a 7,000-job file) and comparing them would hold it for
 * hundreds of ms. Same threshold as an upload's analysis (largeBodyBytes); in the pool it holds
 * room like an upload, and a full pool is a 503 the client retries. A run parsed here is
 * remembered for the next comparison with it (the runs of a branch share one baseline).
 */
async function compare(ctx: RouteContext<RunRecords>, sides: readonly PairSide[]): Promise<BuiltComparison> {
  const texts = sides.flatMap((side) => (side.text ? [side.text] : []));
  if (storedRunBytes(texts) > ctx.config.largeBodyBytes) {
    // The worker takes stored JSON: a side parsed already is read again (rare: a large run in
    // RecentRuns). Reports are UTF-8 bytes as read from the store, moved to the worker (P13):
    // never decoded nor copied on the event loop.
    const all = await Promise.all(sides.map((side) => side.text ?? readStoredRun(ctx, side.id)));
    return ctx.pool.compare(all.map(storedRunText));
  }
  const runs: ComparedRun[] = [];
  for (const side of sides) {
    if (side.parsed) {
      runs.push(side.parsed);
      continue;
    }
    const read = readComparedRun(storedRunText(side.text));
    if (!read.ok) return read;
    // Kept without its report: the comparison reads only its fio version and job settings.
    const compared = read.value;
    recentRunsOf(ctx.store).remember(
      compared,
      utf8Bytes(side.text.summaryJson) + utf8Bytes(JSON.stringify(compared.jobSettings)),
    );
    runs.push(compared);
  }
  return comparePair(runs);
}

/** A stored run with its report as UTF-8 bytes: decoded only where it is compared (inline or in the pool). */
async function readStoredRun(ctx: RouteContext<RunRecords>, id: string): Promise<RunJsonBytes> {
  const run = await storeCall(() => ctx.store.getRunJsonBytes(id));
  if (!run) throw new Error(`run ${id} vanished (runs are append-only)`);
  return run;
}

/**
 * The frozen comparison of a run with its baseline, or why there is none: not a pair the gate
 * makes (`notFound`: no such run, no series, no baseline, another baseline), or runs that cannot
 * be compared today (`problem`: a stored document that no longer validates).
 */
export type FrozenPair =
  | { ok: true; comparisonId: string }
  | { ok: false; notFound: PairNotFound; problem?: never }
  | { ok: false; notFound?: never; problem: Problem };

/** Why a link makes no comparison: a 404 naming the id it is about. */
type PairNotFound = {
  code: 'run_not_found' | 'comparison_not_found';
  message: string;
  path: 'runId' | 'baselineId';
};

/** The id of the comparison of [baseline, run] frozen already (of any analysis version), or null. */
export async function findFrozenPair(
  ctx: RouteContext<ComparisonRecords>,
  baselineId: string,
  runId: string,
): Promise<string | null> {
  return (
    pickPairComparison(await storeCall(() => ctx.store.findPairComparisons([baselineId, runId])))?.id ?? null
  );
}

/** The builds in progress in this process, per store and pair: concurrent openings share one. */
const building = new WeakMap<object, Map<string, Promise<FrozenPair>>>();

/**
 * The comparison of [baseline, run] that the regression check links to, frozen the first time
 * the link is opened (GET /c/pair/:baselineId/:runId), not at upload: most CI runs pass and
 * their comparison is never looked at, while building and storing it (~59 KB of JSON for a
 * 16-job file) cost a fifth of each upload's CPU (docs/performance.md P2, sixth pass). Once per
 * pair, whichever request or replica gets there first (ensurePairComparison's UNIQUE key; within
 * a process, concurrent openings share one build, the run's read included); a pair frozen
 * already — at an upload by an earlier version, or under an earlier analysis version — is what
 * the link keeps opening (findFrozenPair, which the route asks first). `baselineId` must be the
 * run's latest baseline under today's series settings (the one its regression check names): no
 * other pair can be made this way. Why not is said without naming the baseline: the link is
 * public, and which run is another's baseline is for those who may read the check.
 */
export function freezeBaselineComparison(
  ctx: RouteContext<GateRecords>,
  baselineId: string,
  runId: string,
): Promise<FrozenPair> {
  let inProcess = building.get(ctx.store);
  if (!inProcess) building.set(ctx.store, (inProcess = new Map()));
  const key = `${baselineId}/${runId}`;
  const pending = inProcess.get(key);
  if (pending) return pending;
  const build = buildAndFreeze(ctx, baselineId, runId).finally(() => inProcess.delete(key));
  inProcess.set(key, build);
  return build;
}

async function buildAndFreeze(
  ctx: RouteContext<GateRecords>,
  baselineId: string,
  runId: string,
): Promise<FrozenPair> {
  const notFound = (code: 'run_not_found' | 'comparison_not_found', message: string): FrozenPair => ({
    ok: false,
    notFound: { code, message, path: code === 'run_not_found' ? 'runId' : 'baselineId' },
  });
  // Without its report: a link that makes no pair reads no report, and one that does reads
  // each report once, as bytes, only where it is compared (P13).
  const run = await storeCall(() => ctx.store.getRunMeta(runId));
  if (!run) return notFound('run_not_found', 'no run with this id');
  const labels = parseStoredLabels(run.id, run.labels);
  if (!labels.ok) return { ok: false, problem: labels.error };
  const { series } = labels.value;
  if (!series)
    return notFound('comparison_not_found', `run ${run.id} has no series label, so it has no baseline`);
  const gate = await readGate(ctx, run, series, 1, labels.value);
  const latest = gate.baseline[0];
  if (!gate.pick.ok || !latest)
    return notFound(
      'comparison_not_found',
      [`run ${run.id} has no baseline run in its series ${series}`, ...gate.notes].join('; '),
    );
  if (latest.id !== baselineId)
    return notFound(
      'comparison_not_found',
      `run ${baselineId} is not the latest baseline of run ${run.id} under the series settings in force (its regression check links the comparison with the one that is)`,
    );
  const baselineLabels = parseStoredLabels(latest.id, latest.labels);
  if (!baselineLabels.ok) return { ok: false, problem: baselineLabels.error };
  const pair = [latest.id, run.id] as const;
  // Frozen by another replica since the route looked: ensurePairComparison returns that one.
  const recent = recentRunsOf(ctx.store);
  // Each side parsed already (RecentRuns), else its stored report read as bytes; both reads sent
  // at once (on SQLite they queue together on the writer's connection).
  const [baseline, current] = await Promise.all(
    [latest.id, run.id].map(async (id): Promise<PairSide> => {
      const kept = recent.get(id);
      return kept ? { id, parsed: kept } : { id, text: await readStoredRun(ctx, id) };
    }),
  );
  const result = await compare(ctx, [baseline!, current!]);
  if (!result.ok) {
    ctx.logger.warn({ runIds: pair, problem: result.error }, 'the baseline comparison could not be built');
    return { ok: false, problem: result.error };
  }
  const title = `${gate.series}: ${gate.pick.baseBranch}${shortCommit(baselineLabels.value)} vs ${labels.value.branch ?? 'run'}${shortCommit(labels.value)}`;
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
  return { ok: true, comparisonId: stored.value.comparison.id };
}

/**
 * Which frozen comparison of a pair to link: the one of this analysis version, else the newest
 * (a run uploaded before an upgrade keeps the comparison made at its upload).
 */
export function pickPairComparison(refs: readonly PairComparisonRef[]): PairComparisonRef | null {
  return refs.find((ref) => ref.analysisVersion === ANALYSIS_VERSION) ?? refs[0] ?? null;
}
