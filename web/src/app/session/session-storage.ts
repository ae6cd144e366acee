import { RunSchema } from '@blockwise/shared/api';
import { PlanSessionSchema, RunLabelsSchema } from '@blockwise/shared/records';
import { CloudWatchStatisticSchema, SIZING_STATISTICS, ValueKindSchema } from '@blockwise/shared/timeseries';
import { z } from 'zod';
import {
  fromPlanSession,
  initialSession,
  refOf,
  toPlanSession,
  type FioInput,
  type SeriesInput,
  type SessionState,
} from './session-state.ts';

/**
 * The planning session kept in the browser (localStorage), so a reload or a closed tab loses
 * nothing. What is kept: the settings and typed-in profiles (the PlanSession a link carries; a
 * metrics export or a sysbench run as the observed entry it plans with, labelled with its file and
 * statistic), and each read fio file as its parsed report with its labels. The raw bytes are
 * not here (localStorage holds a few MiB of text): they are kept in IndexedDB by their SHA-256
 * (file-store.ts), which each run and metrics export names here (`contentHash`), so a reload
 * finds them again to save & share and to re-read a metrics export with its analysis (its
 * answers and statistic are kept here; without its file it plans with its peaks, as before). The
 * document is versioned by its key; on restore it is parsed with the domain's Zod schemas, and
 * whatever fails is left out with a visible notice.
 */

export const STORAGE_KEY = 'blockwise.session.v1';

// The run contract's report schema, not '@blockwise/shared/fio': that entry point also carries the
// fio parser, which every page would then load with the app's code instead of on a file's drop.
const FioReportSchema = RunSchema.shape.report;

const ContentHashSchema = z.string().regex(/^[0-9a-f]{64}$/);

const StoredRunSchema = z.object({
  id: z.string().min(1).max(64),
  contentHash: ContentHashSchema.optional(),
  origin: z.enum(['file', 'archive']),
  fileName: z.string().max(500),
  sizeBytes: z.number().int().nonnegative(),
  serverRunId: z.string().max(64).nullable(),
  labels: RunLabelsSchema,
  report: FioReportSchema,
  /** Marked "this run replays our load" (demand); absent: judged by its rate settings. */
  replaysLoad: z.boolean().optional(),
});

/** The answers a metrics export was read with (SeriesImportOptions), bounded. */
const SeriesOptionsSchema = z
  .object({
    statistic: CloudWatchStatisticSchema.optional(),
    periodSec: z.number().positive().max(31_622_400).optional(),
    sourceIntervalSec: z.number().positive().max(31_622_400).optional(),
    timeZone: z.string().max(100).optional(),
    throughputUnit: z.string().max(50).optional(),
    match: z.string().max(500).optional(),
    device: z.string().max(200).optional(),
    valueKind: ValueKindSchema.optional(),
    maxPoints: z.number().int().positive().optional(),
    label: z.string().max(500).optional(),
  })
  .strict();

/** A metrics export whose file is kept in IndexedDB: enough to read it again as it was read. */
const KeptSeriesSchema = z.object({
  id: z.string().min(1).max(40),
  fileName: z.string().max(500),
  sizeBytes: z.number().int().nonnegative(),
  contentHash: ContentHashSchema,
  options: SeriesOptionsSchema,
  statistic: z.enum(SIZING_STATISTICS),
});

/** A metrics export kept by its hash, as restored: its file is looked up in IndexedDB. */
export type KeptSeries = z.infer<typeof KeptSeriesSchema>;

const OriginSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('new') }),
  z.object({ kind: z.literal('link') }),
  z.object({ kind: z.literal('comparison'), id: z.string().max(64), title: z.string().max(500).nullable() }),
]);

/** The envelope: parsed strictly; the runs one by one (one unreadable run does not lose the rest). */
const StoredSessionSchema = z.object({
  plan: PlanSessionSchema,
  runs: z.array(z.unknown()).max(200),
  /** Metrics exports whose files are kept (absent in sessions stored before files were kept). */
  series: z.array(z.unknown()).max(200).optional(),
  /** Every input's reference (`run:…` / `observed:…`), in the order the page showed them. */
  order: z.array(z.string().max(100)).max(300),
  focusPercentile: z.string().max(10),
  origin: OriginSchema,
  /** Whether the session changed since it was last loaded, saved or shared (the unload warning). */
  unsaved: z.boolean(),
});

type StoredSession = z.infer<typeof StoredSessionSchema>;

/** The session as stored: null when there is nothing worth keeping (an empty session). */
export function serializeSession(state: SessionState, unsaved: boolean): string | null {
  if (state.inputs.length === 0 && state.origin.kind === 'new') return null;
  const runs = state.inputs.flatMap((i) =>
    i.kind === 'fio' && i.status === 'ready' && i.report
      ? [
          {
            id: i.id,
            ...(i.contentHash ? { contentHash: i.contentHash } : {}),
            origin: i.origin,
            fileName: i.fileName,
            sizeBytes: i.sizeBytes,
            serverRunId: i.serverRunId,
            labels: i.labels,
            report: i.report,
            ...(i.replaysLoad ? { replaysLoad: true } : {}),
          },
        ]
      : [],
  );
  const series = state.inputs.flatMap((i): KeptSeries[] =>
    i.kind === 'series' && i.contentHash && i.status !== 'error'
      ? [
          {
            id: i.id,
            fileName: i.fileName,
            sizeBytes: i.sizeBytes,
            contentHash: i.contentHash,
            options: i.options,
            statistic: i.statistic,
          },
        ]
      : [],
  );
  const doc: StoredSession = {
    plan: toPlanSession(state),
    runs,
    series,
    order: state.inputs.map(refOf),
    focusPercentile: state.focusPercentile,
    origin: state.origin,
    unsaved,
  };
  return JSON.stringify(doc);
}

/** `kept`: the metrics exports to look up in IndexedDB and read again (see restoreSeriesInput). */
export type Restored = { state: SessionState; unsaved: boolean; kept: KeptSeries[] } | null;

/** A kept metrics export as the card it was, waiting to be read again from its file. */
export function restoreSeriesInput(kept: KeptSeries, blob: Blob): SeriesInput {
  return {
    kind: 'series',
    id: kept.id,
    fileName: kept.fileName,
    sizeBytes: kept.sizeBytes,
    blob,
    contentHash: kept.contentHash,
    status: 'reading',
    options: kept.options,
    choices: [],
    imported: null,
    error: null,
    statistic: kept.statistic,
  };
}

const restoredNotice = (text: string): SessionState['notice'] => ({ tone: 'error', text });

/** A stored session back as the page's state; null when nothing is stored. Never throws. */
export function deserializeSession(text: string | null): Restored {
  if (text === null) return null;
  const unreadable = (why: string): Restored => ({
    state: {
      ...initialSession,
      notice: restoredNotice(
        `The session kept in this browser could not be read (${why}); a new session was started.`,
      ),
    },
    unsaved: false,
    kept: [],
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return unreadable('not JSON');
  }
  const parsed = StoredSessionSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return unreadable(`${issue.path.join('.') || 'session'}: ${issue.message}`);
  }
  const doc = parsed.data;
  const dropped: string[] = [];
  const runs: FioInput[] = doc.runs.flatMap((raw, n) => {
    const run = StoredRunSchema.safeParse(raw);
    if (!run.success) {
      const name = (raw as { fileName?: unknown } | null)?.fileName;
      dropped.push(typeof name === 'string' ? name : `run ${n + 1}`);
      return [];
    }
    const r = run.data;
    return [{ kind: 'fio', ...r, blob: null, status: 'ready', error: null } satisfies FioInput];
  });
  const base = fromPlanSession(doc.plan, doc.origin);
  const position = new Map(doc.order.map((ref, i) => [ref, i]));
  const inputs = [...base.inputs, ...runs].sort(
    (a, b) => (position.get(refOf(a)) ?? Infinity) - (position.get(refOf(b)) ?? Infinity),
  );
  // A planned run that was left out: plan for the first available profile instead.
  const refs = new Set(inputs.map(refOf));
  const profileRef =
    base.settings.profileRef && refs.has(base.settings.profileRef) ? base.settings.profileRef : null;
  return {
    state: {
      ...base,
      inputs,
      settings: { ...base.settings, profileRef },
      focusPercentile: doc.focusPercentile,
      notice:
        dropped.length > 0
          ? restoredNotice(
              `Restored the session kept in this browser, without ${dropped.join(', ')}: ${dropped.length === 1 ? 'it' : 'they'} could not be read back. Add ${dropped.length === 1 ? 'it' : 'them'} again.`,
            )
          : null,
    },
    unsaved: doc.unsaved,
    // An unreadable entry is left out: its metrics export stays planned with its peaks.
    kept: (doc.series ?? []).flatMap((raw) => {
      const kept = KeptSeriesSchema.safeParse(raw);
      return kept.success ? [kept.data] : [];
    }),
  };
}

/** Reads the stored session; storage that cannot be read (privacy modes) counts as empty. */
export function readStoredSession(storage: Storage): Restored {
  let text: string | null;
  try {
    text = storage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
  return deserializeSession(text);
}

export type WriteOutcome = 'written' | 'cleared' | 'quota' | 'unavailable';

/** Writes (or clears) the stored session; a full or refused storage is an outcome, never a throw. */
export function writeStoredSession(storage: Storage, text: string | null): WriteOutcome {
  try {
    if (text === null) {
      storage.removeItem(STORAGE_KEY);
      return 'cleared';
    }
    storage.setItem(STORAGE_KEY, text);
    return 'written';
  } catch (error) {
    const name = error instanceof DOMException || error instanceof Error ? error.name : '';
    return /quota/i.test(name) || (error instanceof DOMException && error.code === 22)
      ? 'quota'
      : 'unavailable';
  }
}
