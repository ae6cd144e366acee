import type { FioReport } from '@blockwise/shared/fio';
import { type Problem, type Result } from '@blockwise/shared/problem';
import { profileFromObserved, type IoProfile, type ObservedMetrics } from '@blockwise/shared/profile';
import { PlanSessionSchema, type PlanSession, type RunLabels } from '@blockwise/shared/records';
import type { SysbenchFileio } from '@blockwise/shared/sysbench';
import {
  METRICS_FORMATS,
  type SeriesChoice,
  type SeriesImportOptions,
  type SizingStatistic,
} from '@blockwise/shared/timeseries';
import type { ImportedSeries } from '../../features/metrics-import/metrics-reader.ts';
import { decodeSession, encodeSession } from '../../lib/session-url.ts';

/**
 * The planning session, as the browser holds it: the inputs (fio files, typed-in metrics, runs
 * from the archive, production metrics exports, sysbench runs) and the planning settings, which
 * are exactly a PlanSession's fields — so "Save & share" and the URL form send what the page
 * shows. A metrics export or a sysbench run enters the plan, the share link and the URL form as
 * an `observed` entry (its peak IOPS and bytes/s per direction, labelled with where it came
 * from): the PlanSession contract stores typed-in profiles only.
 */

export type FioInput = {
  kind: 'fio';
  /** Local id, or the server's run id for archive runs and uploaded files. */
  id: string;
  origin: 'file' | 'archive';
  fileName: string;
  sizeBytes: number;
  /** The original bytes, kept for "Save & share" (null for runs already on the server). */
  blob: Blob | null;
  /** SHA-256 of those bytes (file-store.ts): the same bytes added again are this card. */
  contentHash?: string;
  serverRunId: string | null;
  status: 'parsing' | 'ready' | 'error';
  report: FioReport | null;
  error: Problem | null;
  labels: RunLabels;
  /**
   * The user says this run replays the workload's load (demand), though no `rate` is set in it:
   * absent or false, a run without a rate cap is capacity evidence (@blockwise/shared/demand roleOfEvidence).
   */
  replaysLoad?: boolean;
};

export type ObservedInput = {
  kind: 'observed';
  /** ≤ 40 characters (PlanSession observed ids). */
  id: string;
  metrics: ObservedMetrics;
  /**
   * A benchmark's numbers (a sysbench run's, read back from a saved session): what a storage
   * delivered, never sized on by default. Absent: typed-in peaks, demand.
   */
  capacity?: true;
  /** What measured a benchmark's numbers (read back from a saved session): named so, as before saving. */
  benchmark?: 'sysbench';
};

/** A production metrics export (CloudWatch console CSV, get-metric-data JSON, Grafana CSV). */
export type SeriesInput = {
  kind: 'series';
  /** ≤ 40 characters: it becomes an observed entry when planned or saved. */
  id: string;
  fileName: string;
  sizeBytes: number;
  /** The file, kept to read it again with other answers (time zone, statistic, volume…). */
  blob: Blob | null;
  /** SHA-256 of its bytes (file-store.ts): the same bytes added again are this card. */
  contentHash?: string;
  /** `choice`: the file leaves a question open (`choices`); it is never guessed. */
  status: 'reading' | 'choice' | 'ready' | 'error';
  /** The answers the file was read with. */
  options: SeriesImportOptions;
  choices: SeriesChoice[];
  imported: ImportedSeries | null;
  error: Problem | null;
  /** Which sizing profile the session plans with (the max of the points at their own step by default). */
  statistic: SizingStatistic;
};

/** A `sysbench fileio … run` text output (read in the browser; the archive takes fio only). */
export type SysbenchInput = {
  kind: 'sysbench';
  /** ≤ 40 characters: it becomes an observed entry when planned or saved. */
  id: string;
  fileName: string;
  sizeBytes: number;
  status: 'parsing' | 'ready' | 'error';
  run: SysbenchFileio | null;
  profile: Result<IoProfile> | null;
  error: Problem | null;
};

export type SessionInput = FioInput | ObservedInput | SeriesInput | SysbenchInput;

/** Inputs that become an observed entry of the PlanSession (their profile, not their file). */
export type ImportedInput = SeriesInput | SysbenchInput;

/** A candidate EBS configuration (VolumeConfig with its count made explicit). */
export type Candidate = PlanSession['candidates'][number];

/** The session's settings; the replay marks live on the fio inputs (FioInput.replaysLoad). */
export type Settings = Omit<PlanSession, 'version' | 'observed' | 'replaysLoad'>;

export type SessionState = {
  inputs: SessionInput[];
  settings: Settings;
  /** The latency percentile the what-if summary judges ("99", "99.9"…). */
  focusPercentile: string;
  /** Where the session came from, for the banner (a link, a share view). */
  origin: { kind: 'new' } | { kind: 'link' } | { kind: 'comparison'; id: string; title: string | null };
  /** A message for the page banner (a link that could not be read, a session loaded). */
  notice: { tone: 'info' | 'error'; text: string } | null;
};

export const DEFAULT_REGION = 'us-east-1';

export const DEFAULT_SETTINGS: Settings = {
  profileRef: null,
  instanceType: null,
  candidates: [],
  headroom: 0.25,
  region: DEFAULT_REGION,
  rateOverrides: null,
  nodes: 1,
  gp3Generation: 'current',
  syncCommits: false,
  residency: 'unknown',
  datasetGiB: null,
};

export const initialSession: SessionState = {
  inputs: [],
  settings: DEFAULT_SETTINGS,
  focusPercentile: '99',
  origin: { kind: 'new' },
  notice: null,
};

export type SeriesRead =
  { ok: true; imported: ImportedSeries } | { ok: false; error: Problem; choices: SeriesChoice[] };

export type SessionAction =
  | { type: 'files-added'; inputs: (FioInput | SysbenchInput | SeriesInput)[] }
  | { type: 'sysbench-read'; id: string; run: SysbenchFileio; profile: Result<IoProfile> }
  | { type: 'sysbench-failed'; id: string; error: Problem }
  | { type: 'series-reading'; id: string; options: SeriesImportOptions }
  | { type: 'series-read'; id: string; options: SeriesImportOptions; result: SeriesRead }
  | { type: 'series-statistic-changed'; id: string; statistic: SizingStatistic }
  | { type: 'file-parsed'; id: string; report: FioReport }
  | { type: 'file-failed'; id: string; error: Problem }
  | { type: 'input-removed'; id: string }
  | { type: 'labels-changed'; id: string; labels: RunLabels }
  | { type: 'replays-load-changed'; id: string; replaysLoad: boolean }
  | { type: 'observed-added'; input: ObservedInput }
  | { type: 'observed-changed'; id: string; metrics: ObservedMetrics }
  | { type: 'archive-run-added'; input: FioInput }
  | { type: 'uploaded'; id: string; serverRunId: string }
  /**
   * Files found again (kept in the browser, or the same bytes added again): each fio card by id
   * gets its bytes back; each metrics export takes the place of its peaks (the observed entry
   * of the same id), to be read again with its analysis.
   */
  | { type: 'files-restored'; files: { id: string; blob: Blob }[]; series: SeriesInput[] }
  | { type: 'settings-changed'; settings: Partial<Settings> }
  | { type: 'candidate-changed'; index: number; volume: Candidate }
  | { type: 'candidate-added'; volume: Candidate }
  | { type: 'candidate-removed'; index: number }
  | { type: 'focus-percentile-changed'; percentile: string }
  | { type: 'session-loaded'; state: SessionState }
  | { type: 'link-opened'; text: string }
  | { type: 'notice-dismissed' }
  | { type: 'notice-shown'; notice: NonNullable<SessionState['notice']> }
  /** Saved & shared: nothing changes here, but the session no longer counts as unsaved work. */
  | { type: 'session-saved' }
  | { type: 'reset' };

export const refOf = (input: SessionInput) =>
  input.kind === 'fio' ? `run:${input.id}` : `observed:${input.id}`;

function withInputs(state: SessionState, inputs: SessionInput[]): SessionState {
  const refs = new Set(inputs.map(refOf));
  const profileRef =
    state.settings.profileRef && refs.has(state.settings.profileRef) ? state.settings.profileRef : null;
  return { ...state, inputs, settings: { ...state.settings, profileRef } };
}

export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case 'files-added':
      return withInputs(state, [...state.inputs, ...action.inputs]);
    case 'file-parsed':
    case 'file-failed':
      return {
        ...state,
        inputs: state.inputs.map((i) =>
          i.kind === 'fio' && i.id === action.id
            ? action.type === 'file-parsed'
              ? { ...i, status: 'ready', report: action.report, error: null }
              : { ...i, status: 'error', report: null, error: action.error }
            : i,
        ),
      };
    case 'input-removed':
      return withInputs(
        state,
        state.inputs.filter((i) => i.id !== action.id),
      );
    case 'labels-changed':
      return {
        ...state,
        inputs: state.inputs.map((i) =>
          i.kind === 'fio' && i.id === action.id
            ? // New labels describe a different run: a new upload (the server dedupes identical ones).
              { ...i, labels: action.labels, serverRunId: i.origin === 'archive' ? i.serverRunId : null }
            : i,
        ),
      };
    case 'replays-load-changed':
      return {
        ...state,
        inputs: state.inputs.map((i) =>
          i.kind === 'fio' && i.id === action.id ? { ...i, replaysLoad: action.replaysLoad } : i,
        ),
      };
    case 'sysbench-read':
    case 'sysbench-failed':
      return {
        ...state,
        inputs: state.inputs.map((i) =>
          i.kind === 'sysbench' && i.id === action.id
            ? action.type === 'sysbench-read'
              ? { ...i, status: 'ready', run: action.run, profile: action.profile, error: null }
              : { ...i, status: 'error', run: null, profile: null, error: action.error }
            : i,
        ),
      };
    case 'series-reading':
      return {
        ...state,
        inputs: state.inputs.map((i) =>
          i.kind === 'series' && i.id === action.id
            ? { ...i, status: 'reading', options: action.options }
            : i,
        ),
      };
    case 'series-read':
      return {
        ...state,
        inputs: state.inputs.map((i): SessionInput => {
          if (i.kind !== 'series' || i.id !== action.id) return i;
          // A slower, earlier read of the same file (answers changed since): not the one asked for.
          if (JSON.stringify(i.options) !== JSON.stringify(action.options)) return i;
          const r = action.result;
          if (r.ok)
            return {
              ...i,
              status: 'ready',
              options: action.options,
              choices: [],
              imported: r.imported,
              error: null,
            };
          return {
            ...i,
            status: r.choices.length > 0 ? 'choice' : 'error',
            options: action.options,
            choices: r.choices,
            imported: null,
            error: r.error,
          };
        }),
      };
    case 'series-statistic-changed':
      return {
        ...state,
        inputs: state.inputs.map((i) =>
          i.kind === 'series' && i.id === action.id ? { ...i, statistic: action.statistic } : i,
        ),
      };
    case 'observed-added':
      return withInputs(state, [...state.inputs, action.input]);
    case 'observed-changed':
      return {
        ...state,
        inputs: state.inputs.map((i) =>
          i.kind === 'observed' && i.id === action.id ? { ...i, metrics: action.metrics } : i,
        ),
      };
    case 'archive-run-added':
      if (state.inputs.some((i) => i.kind === 'fio' && i.serverRunId === action.input.serverRunId))
        return state;
      return withInputs(state, [...state.inputs, action.input]);
    case 'uploaded':
      return {
        ...state,
        inputs: state.inputs.map((i) =>
          i.kind === 'fio' && i.id === action.id ? { ...i, serverRunId: action.serverRunId } : i,
        ),
      };
    case 'files-restored': {
      const blobs = new Map(action.files.map((f) => [f.id, f.blob]));
      const series = new Map(action.series.map((i) => [i.id, i]));
      const inputs = state.inputs.map((i): SessionInput => {
        if (i.kind === 'fio' && blobs.has(i.id)) return { ...i, blob: blobs.get(i.id)! };
        if (i.kind === 'series' && blobs.has(i.id)) return { ...i, blob: blobs.get(i.id)! };
        const restored = i.kind === 'observed' ? series.get(i.id) : undefined;
        if (restored) series.delete(i.id);
        return restored ?? i;
      });
      const present = new Set(inputs.map((i) => i.id));
      return withInputs(state, [...inputs, ...[...series.values()].filter((i) => !present.has(i.id))]);
    }
    case 'settings-changed':
      return { ...state, settings: { ...state.settings, ...action.settings } };
    case 'candidate-changed':
      return {
        ...state,
        settings: {
          ...state.settings,
          candidates: state.settings.candidates.map((c, i) => (i === action.index ? action.volume : c)),
        },
      };
    case 'candidate-added':
      if (state.settings.candidates.length >= 10) return state;
      return {
        ...state,
        settings: { ...state.settings, candidates: [...state.settings.candidates, action.volume] },
      };
    case 'candidate-removed':
      return {
        ...state,
        settings: {
          ...state.settings,
          candidates: state.settings.candidates.filter((_, i) => i !== action.index),
        },
      };
    case 'focus-percentile-changed':
      return { ...state, focusPercentile: action.percentile };
    case 'session-loaded':
      return action.state;
    case 'link-opened': {
      const decoded = decodeSession(action.text);
      if (!decoded.ok) return { ...state, notice: { tone: 'error', text: decoded.error.message } };
      const loaded = fromPlanSession(decoded.value, { kind: 'link' });
      return {
        ...loaded,
        notice: {
          tone: 'info',
          text:
            state.inputs.length > 0
              ? 'Opened the planning session from the link; it replaced the session you had open.'
              : 'Opened the planning session from the link.',
        },
      };
    }
    case 'notice-dismissed':
      return { ...state, notice: null };
    case 'notice-shown':
      return { ...state, notice: action.notice };
    case 'session-saved':
      return state;
    case 'reset':
      return initialSession;
  }
}

const STATISTIC_NAMES: Record<SizingStatistic, string> = {
  max: 'max of the points',
  p99: 'p99 of the points',
  p95: 'p95 of the points',
};

/** The profile an imported input plans with: the chosen statistic's, or sysbench's. */
export function importedProfile(input: ImportedInput): Result<IoProfile> | null {
  if (input.kind === 'sysbench') return input.status === 'ready' ? input.profile : null;
  if (input.status !== 'ready' || !input.imported) return null;
  const profiles = input.imported.profiles;
  if (!profiles)
    return {
      ok: false,
      error: input.imported.sizingProblem ?? { code: 'no_operations', message: 'the series cannot be sized' },
    };
  return { ok: true, value: profiles[input.statistic] };
}

/** Where an imported profile came from, as its observed entry's label (≤ 200 characters). */
export function importedLabel(input: ImportedInput): string {
  const text =
    input.kind === 'sysbench'
      ? `sysbench ${input.fileName}${input.run?.testMode ? ` (${input.run.testMode})` : ''}`
      : `${input.imported ? METRICS_FORMATS[input.imported.series.format].name : 'metrics'} ${input.fileName}${input.imported?.series.label ? ` (${input.imported.series.label})` : ''}, ${STATISTIC_NAMES[input.statistic]}`;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * An imported input as the observed entry the PlanSession stores: peak IOPS and bytes/s per
 * direction (and sysbench's latency percentiles), labelled with its source, checked by the rules
 * the API applies (`profileFromObserved`). null until it has a profile.
 */
export function observedOf(input: ImportedInput): Result<ObservedMetrics> | null {
  const p = importedProfile(input);
  if (!p) return null;
  if (!p.ok) return p;
  const dir = (d: IoProfile['read']): ObservedMetrics['read'] => ({
    iops: d.iops,
    throughput: d.bytesPerSec,
    throughputUnit: 'B/s',
    ...(d.latency && Object.keys(d.latency.percentiles).length > 0
      ? { latencyMs: { ...d.latency.percentiles } }
      : {}),
  });
  // The access pattern travels when one pattern covers both directions (sysbench's test mode):
  // the observed entry stores one. A metrics export says nothing of it (random is assumed).
  const access = p.value.access;
  const metrics: ObservedMetrics = {
    label: importedLabel(input),
    read: dir(p.value.read),
    write: dir(p.value.write),
    ...(access && access.origin !== 'assumed' && access.read === access.write ? { access: access.read } : {}),
  };
  const checked = profileFromObserved(metrics);
  if (!checked.ok)
    return {
      ok: false,
      error: { ...checked.error, message: `cannot be planned: ${checked.error.message}` },
    };
  return { ok: true, value: metrics };
}

/** The session's inputs and settings as the API's PlanSession (observed profiles inline). */
export function toPlanSession(state: SessionState, settings: Settings = state.settings): PlanSession {
  const fio = state.inputs.filter((i) => i.kind === 'fio');
  return {
    version: 1,
    observed: state.inputs.flatMap((i) => {
      if (i.kind === 'observed')
        return [
          {
            ...i.metrics,
            id: i.id,
            ...(i.capacity ? { role: 'capacity' as const } : {}),
            ...(i.benchmark ? { kind: i.benchmark } : {}),
          },
        ];
      if (i.kind === 'fio') return [];
      const metrics = observedOf(i);
      // A sysbench run is capacity evidence: the server sizes on demand only (issue 27); its kind
      // names it on the share link as here.
      const role = i.kind === 'sysbench' ? { role: 'capacity' as const, kind: 'sysbench' as const } : {};
      return metrics?.ok ? [{ ...metrics.value, id: i.id, ...role }] : [];
    }),
    ...settings,
    // The runs the user marked "this run replays our load", whenever the session holds runs (even
    // none marked): a stored link then says the marks were kept, so its profileRef is the user's
    // demand source (a link without them was saved before, see @blockwise/shared/answer).
    ...(fio.length > 0 ? { replaysLoad: fio.filter((i) => i.replaysLoad === true).map(refOf) } : {}),
  };
}

/**
 * Whether a link carries the whole session: typed-in inputs only. A fio file, a metrics export or
 * a sysbench output is not in a link (an import travels as its peaks, never its file).
 */
export function linkCarriesAll(state: SessionState): boolean {
  return state.inputs.length > 0 && state.inputs.every((i) => i.kind === 'observed');
}

/**
 * The PlanSession a link carries of the session, or null when a link cannot carry all of it (see
 * linkCarriesAll): the one the browser stores (session-storage.ts), as the schema a link is read
 * back with parses it, so the address bar and the "without saving" link hold the same text and a
 * reload from the address restores what is stored.
 */
export function linkPlanOf(state: SessionState): PlanSession | null {
  if (!linkCarriesAll(state)) return null;
  const plan = PlanSessionSchema.safeParse(toPlanSession(state));
  return plan.success ? plan.data : null;
}

/** The session as the `#session=` text of the address bar (see linkPlanOf), or null. */
export function sessionLinkText(state: SessionState): string | null {
  const plan = linkPlanOf(state);
  return plan ? encodeSession(plan) : null;
}

/** A session rebuilt from a PlanSession (a link or a comparison); fio runs are added separately. */
export function fromPlanSession(session: PlanSession, origin: SessionState['origin']): SessionState {
  // The replay marks go onto the runs, which are added separately (replayMarked).
  const { version: _version, observed, replaysLoad: _replaysLoad, ...settings } = session;
  return {
    ...initialSession,
    origin,
    settings,
    inputs: observed.map(({ id, role, kind, ...metrics }) => ({
      kind: 'observed',
      id,
      metrics,
      ...(role === 'capacity' ? { capacity: true as const } : {}),
      ...(kind ? { benchmark: kind } : {}),
    })),
  };
}

/** 16 random bytes as 22 base64url characters: the same shape as server ids. */
export function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Short ids for typed-in profiles (PlanSession allows ≤ 40 characters). */
export const newObservedId = () => newId().slice(0, 12);
