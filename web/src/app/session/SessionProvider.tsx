import { MAX_UPLOAD_BYTES, fitsUploadLimit, type Comparison, type Run } from '@blockwise/shared/api';
import type { SeriesImportOptions } from '@blockwise/shared/timeseries';
import {
  createContext,
  use,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type Dispatch,
  type ReactNode,
} from 'react';
import { looksLikeMetricsExport } from '@blockwise/shared/timeseries';
import { parseFioFile } from '../../features/ingest/parse-client.ts';
import { importMetricsFile } from '../../features/metrics-import/metrics-client.ts';
import { SNIFF_BYTES, looksLikeSysbench } from '../../features/sysbench/detect.ts';
import { parseSysbenchFile } from '../../features/sysbench/sysbench-client.ts';
import { getRun } from '../../lib/api-client.ts';
import { readSessionParam, withSessionParam } from '../../lib/session-url.ts';
import { matchRoute, useLocation } from '../router.tsx';
import {
  fromPlanSession,
  initialSession,
  newId,
  newObservedId,
  sessionLinkText,
  sessionReducer,
  type FioInput,
  type SeriesInput,
  type SessionAction,
  type SessionInput,
  type SessionState,
  type SysbenchInput,
} from './session-state.ts';
import { contentHash, type FileStore } from './file-store.ts';
import { refusalText, type StoreRefusal } from '../../lib/idb-store.ts';
import {
  readStoredSession,
  restoreSeriesInput,
  type KeptSeries,
  serializeSession,
  writeStoredSession,
} from './session-storage.ts';

/**
 * The planning session lives above the routes: going to the archive and back, or opening a share
 * view, keeps what the user brought. Actions that need I/O (parsing, fetching runs) live here.
 */

export type SessionApi = {
  state: SessionState;
  dispatch: Dispatch<SessionAction>;
  /**
   * fio results; sysbench outputs and metrics exports dropped here are recognized and routed.
   * Resolves to the ids of the inputs added (what the action's status line follows).
   */
  addFiles: (files: readonly File[]) => Promise<string[]>;
  /** Production metrics exports (CloudWatch CSV/JSON, Grafana CSV); returns the ids added. */
  addMetricsFiles: (files: readonly File[]) => Promise<string[]>;
  /** Reads a metrics export again with new answers (statistic, period, time zone, volume…). */
  rereadSeries: (input: SeriesInput, options: SeriesImportOptions) => void;
  addArchiveRun: (run: Run) => void;
  /** Replaces the session with a comparison's inputs (its runs are fetched from the archive). */
  openComparison: (comparison: Comparison, signal?: AbortSignal) => Promise<void>;
  /** Changed since it was last loaded, saved or shared (what the unload warning guards). */
  isUnsaved: () => boolean;
};

/** Actions after which the session is no longer unsaved work: a fresh start, something loaded, a save. */
const CLEAN_ACTIONS: ReadonlySet<SessionAction['type']> = new Set([
  'session-loaded',
  'link-opened',
  'reset',
  'session-saved',
]);
/** Actions that are no change of the user's: results of reading, notices. */
const NEUTRAL_ACTIONS: ReadonlySet<SessionAction['type']> = new Set([
  'file-parsed',
  'file-failed',
  'sysbench-read',
  'sysbench-failed',
  'series-read',
  'uploaded',
  'files-restored',
  'notice-dismissed',
  'notice-shown',
]);

/** Writes to storage wait this long after the last change (a slider drag writes once, at its end). */
const PERSIST_DELAY_MS = 300;

/** The browser's localStorage, or null where it cannot be used (privacy modes, no window). */
export function browserStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

const SessionContext = createContext<SessionApi | null>(null);

/** Marks a history entry whose `#session=` this tab wrote (kept current), unlike a link opened. */
const OWN_URL = 'blockwiseSessionUrl';
const ownsUrl = () => (window.history.state as Record<string, unknown> | null)?.[OWN_URL] === true;

/**
 * Points the address at the session — `/#session=…` on the planning page while a link carries all
 * of it — or drops a stale `#session=` (files, an empty session, another page). Replaces the
 * history entry: typing adds no back-button steps. Returns the text the address now holds.
 */
function syncSessionUrl(state: SessionState): string | null {
  const { pathname, search, hash } = window.location;
  const text = matchRoute(pathname).name === 'plan' ? sessionLinkText(state) : null;
  const next = withSessionParam(window.location, text);
  if (next !== `${pathname}${search}${hash}` || (text !== null && !ownsUrl()))
    window.history.replaceState(text === null ? null : { [OWN_URL]: true }, '', next);
  return text;
}

/**
 * Why a fio file is refused before reading, or null: empty, or over the server's upload limit
 * (the API contract's), so every file planned with can also be saved and shared. parseFio's own
 * limit (100 MiB) is higher.
 */
export function fileSizeProblem(
  sizeBytes: number,
): { code: 'empty_input' | 'too_large'; message: string } | null {
  if (sizeBytes === 0) return { code: 'empty_input', message: 'the file is empty' };
  if (fitsUploadLimit(sizeBytes)) return null;
  return {
    code: 'too_large',
    message: `the file is ${Math.round(sizeBytes / 1048576)} MiB; the limit is ${MAX_UPLOAD_BYTES / 1048576} MiB`,
  };
}

export function archiveInput(run: Run): FioInput {
  return {
    kind: 'fio',
    id: run.id,
    origin: 'archive',
    fileName: run.fileName ?? `run ${run.id}`,
    sizeBytes: run.sizeBytes,
    blob: null,
    serverRunId: run.id,
    status: 'ready',
    report: run.report,
    error: null,
    labels: run.labels,
  };
}

/** A stored run as a session input, with the mark "this run replays our load" the session kept. */
function replayMarked(run: Run, plan: Comparison['plan']): FioInput {
  const input = archiveInput(run);
  return plan?.replaysLoad?.includes(`run:${run.id}`) ? { ...input, replaysLoad: true } : input;
}

/** The hash of a file's bytes, or undefined where the browser cannot hash (no crypto.subtle: not a secure context). */
async function hashOf(file: Blob): Promise<string | undefined> {
  try {
    return await contentHash(file);
  } catch {
    return undefined;
  }
}

const keptFileNotice = (names: string[], outcome: StoreRefusal) =>
  `${refusalText(outcome, 'files')}: ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} not kept across reloads. Save & share before you reload, or add ${names.length === 1 ? 'it' : 'them'} again after.`;

export function SessionProvider({
  children,
  initial,
  storage = null,
  fileStore = null,
}: {
  children: ReactNode;
  initial?: SessionState;
  /** Where the session is kept across reloads (the app passes localStorage; tests a stub or none). */
  storage?: Storage | null;
  /** Where the session's raw files are kept across reloads (the app passes IndexedDB; see file-store.ts). */
  fileStore?: FileStore | null;
}) {
  // Restored before the first render: a reload shows the session at once, never an empty page first.
  const [restored] = useState(() => (initial || !storage ? null : readStoredSession(storage)));
  const [state, reduce] = useReducer(sessionReducer, initial ?? restored?.state ?? initialSession);
  const unsaved = useRef(restored?.unsaved ?? false);
  // Hashes of kept files not yet back in the session (read from IndexedDB after the first render):
  // the store's pruning must not remove them meanwhile.
  const pendingHashes = useRef(new Set((restored?.kept ?? []).map((k) => k.contentHash)));
  // Metrics exports restored without their file (planned with their peaks), by hash: the same
  // file added again takes their place, with its analysis.
  const lostSeries = useRef(new Map<string, KeptSeries>());
  const { pathname } = useLocation();
  // The `#session=` text the address holds, as far as this tab knows (written or opened).
  const urlText = useRef<string | null>(null);
  // The latest state, for handlers that run outside render (unload, the delayed write).
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);
  const dispatch = useMemo<Dispatch<SessionAction>>(
    () => (action) => {
      if (CLEAN_ACTIONS.has(action.type)) unsaved.current = false;
      else if (!NEUTRAL_ACTIONS.has(action.type)) unsaved.current = true;
      reduce(action);
    },
    [],
  );

  const api = useMemo<
    Omit<SessionApi, 'state'> & {
      readSeries: (input: SeriesInput, file: Blob, options: SeriesImportOptions) => void;
    }
  >(() => {
    const fioInput = (file: File, hash: string | undefined): FioInput => ({
      kind: 'fio',
      id: newId(),
      origin: 'file',
      fileName: file.name || 'unnamed file',
      sizeBytes: file.size,
      blob: file,
      ...(hash ? { contentHash: hash } : {}),
      serverRunId: null,
      status: fileSizeProblem(file.size) ? 'error' : 'parsing',
      report: null,
      error: fileSizeProblem(file.size),
      labels: {},
    });
    const sysbenchInput = (file: File): SysbenchInput => ({
      kind: 'sysbench',
      id: newObservedId(),
      fileName: file.name || 'unnamed file',
      sizeBytes: file.size,
      status: 'parsing',
      run: null,
      profile: null,
      error: null,
    });
    const seriesInput = (file: File, hash: string | undefined): SeriesInput => ({
      kind: 'series',
      id: newObservedId(),
      fileName: file.name || 'unnamed file',
      sizeBytes: file.size,
      blob: file,
      ...(hash ? { contentHash: hash } : {}),
      status: 'reading',
      options: {},
      choices: [],
      imported: null,
      error: null,
      statistic: 'max',
    });
    const readSeries = (input: SeriesInput, file: Blob, options: SeriesImportOptions) => {
      void importMetricsFile(file, options).then((result) =>
        dispatch({ type: 'series-read', id: input.id, options, result }),
      );
    };
    const readSysbench = (input: SysbenchInput, file: File) => {
      void parseSysbenchFile(file).then((r) =>
        dispatch(
          r.ok
            ? { type: 'sysbench-read', id: input.id, run: r.run, profile: r.profile }
            : { type: 'sysbench-failed', id: input.id, error: r.error },
        ),
      );
    };
    /** What a dropped file is, from its first 64 KiB: sysbench text, a metrics export, or fio. */
    const sniff = async (file: File): Promise<'fio' | 'sysbench' | 'series'> => {
      if (fileSizeProblem(file.size)) return 'fio';
      try {
        const head = await file.slice(0, SNIFF_BYTES).text();
        if (looksLikeSysbench(head)) return 'sysbench';
        if (looksLikeMetricsExport(head, file.name)) return 'series';
      } catch {
        // Unreadable here: the fio parser reports it with the file's name.
      }
      return 'fio';
    };
    /**
     * The files not yet in the session, with their hashes: a file whose bytes a card already has
     * (a re-added file, after a reload or by mistake) is that card — it gets its bytes back if it
     * had lost them, and a notice says so — never a second card. New files are kept in the store.
     */
    const sortNew = async (files: readonly File[]) => {
      const hashes = await Promise.all(files.map(hashOf));
      const byHash = new Map<string, SessionInput>();
      for (const i of stateRef.current.inputs)
        if ((i.kind === 'fio' || i.kind === 'series') && i.contentHash) byHash.set(i.contentHash, i);
      const fresh: { file: File; hash: string | undefined }[] = [];
      const again: { id: string; blob: Blob }[] = [];
      const back: SeriesInput[] = [];
      const sameAs: string[] = [];
      const seen = new Set<string>();
      const present = new Set(stateRef.current.inputs.map((i) => i.id));
      files.forEach((file, n) => {
        const hash = hashes[n];
        const card = hash ? byHash.get(hash) : undefined;
        const lost = hash ? lostSeries.current.get(hash) : undefined;
        if (hash && lost && present.has(lost.id) && !seen.has(hash)) {
          lostSeries.current.delete(hash);
          back.push(restoreSeriesInput(lost, file));
          sameAs.push(`${file.name || 'unnamed file'} is back in its card, with its analysis`);
        } else if (card && (card.kind === 'fio' || card.kind === 'series')) {
          if (!card.blob) again.push({ id: card.id, blob: file });
          sameAs.push(
            `${file.name || 'unnamed file'} is already in this session${card.fileName !== file.name ? ` as ${card.fileName}` : ''} (the same bytes)${card.blob ? '' : ': its card has its file back'}`,
          );
        } else if (hash && seen.has(hash)) sameAs.push(`${file.name} was added twice: kept once`);
        else fresh.push({ file, hash });
        if (hash) seen.add(hash);
      });
      if (again.length > 0 || back.length > 0) {
        reduce({ type: 'files-restored', files: again, series: back });
        for (const input of back) readSeries(input, input.blob!, input.options);
        if (fileStore) void keepFiles(back.map((i) => ({ file: i.blob as File, hash: i.contentHash })));
      }
      if (sameAs.length > 0)
        reduce({ type: 'notice-shown', notice: { tone: 'info', text: `${sameAs.join('; ')}.` } });
      return fresh;
    };
    const keepFiles = async (files: { file: File; hash: string | undefined }[]) => {
      if (!fileStore) return;
      const refused = { quota: [] as string[], unavailable: [] as string[] };
      for (const { file, hash } of files) {
        if (!hash) continue;
        const outcome = await fileStore.put(hash, file);
        if (outcome !== 'stored') refused[outcome].push(file.name || 'unnamed file');
      }
      for (const outcome of ['quota', 'unavailable'] as const)
        if (refused[outcome].length > 0)
          reduce({
            type: 'notice-shown',
            notice: { tone: 'error', text: keptFileNotice(refused[outcome], outcome) },
          });
    };
    const addFiles = (files: readonly File[]) =>
      sortNew(files).then(async (fresh) => {
        const kinds = await Promise.all(fresh.map(({ file }) => sniff(file)));
        const inputs = fresh.map(({ file, hash }, i) =>
          kinds[i] === 'sysbench'
            ? sysbenchInput(file)
            : kinds[i] === 'series'
              ? seriesInput(file, hash)
              : fioInput(file, hash),
        );
        if (inputs.length === 0) return [];
        dispatch({ type: 'files-added', inputs });
        // sysbench outputs travel as their profile: only fio files and metrics exports are kept.
        void keepFiles(fresh.filter((_, i) => inputs[i]!.kind !== 'sysbench'));
        inputs.forEach((input, i) => {
          const file = fresh[i]!.file;
          if (input.kind === 'sysbench') readSysbench(input, file);
          else if (input.kind === 'series') readSeries(input, file, {});
          else if (input.status === 'parsing')
            parseFioFile(file).then((result) =>
              dispatch(
                result.ok
                  ? { type: 'file-parsed', id: input.id, report: result.report }
                  : { type: 'file-failed', id: input.id, error: result.error },
              ),
            );
        });
        return inputs.map((i) => i.id);
      });
    const addMetricsFiles = (files: readonly File[]) =>
      sortNew(files).then((fresh) => {
        const inputs = fresh.map(({ file, hash }) => seriesInput(file, hash));
        if (inputs.length === 0) return [];
        dispatch({ type: 'files-added', inputs });
        void keepFiles(fresh);
        inputs.forEach((input, i) => readSeries(input, fresh[i]!.file, {}));
        return inputs.map((i) => i.id);
      });
    const rereadSeries = (input: SeriesInput, options: SeriesImportOptions) => {
      if (!input.blob) return;
      dispatch({ type: 'series-reading', id: input.id, options });
      readSeries(input, input.blob, options);
    };
    const addArchiveRun = (run: Run) => dispatch({ type: 'archive-run-added', input: archiveInput(run) });
    const openComparison = async (comparison: Comparison, signal?: AbortSignal) => {
      const runs = await Promise.all(comparison.runIds.map((id) => getRun(id, signal)));
      const base = comparison.plan
        ? fromPlanSession(comparison.plan, { kind: 'comparison', id: comparison.id, title: comparison.title })
        : {
            ...initialSession,
            origin: { kind: 'comparison' as const, id: comparison.id, title: comparison.title },
          };
      dispatch({
        type: 'session-loaded',
        state: { ...base, inputs: [...runs.map((r) => replayMarked(r, comparison.plan)), ...base.inputs] },
      });
    };
    const isUnsaved = () => unsaved.current && stateRef.current.inputs.length > 0;
    return {
      dispatch,
      addFiles,
      addMetricsFiles,
      rereadSeries,
      addArchiveRun,
      openComparison,
      isUnsaved,
      readSeries,
    };
  }, [dispatch, fileStore]);

  // After a reload: the kept files back into their cards (fio files to save & share; metrics
  // exports read again, with their analysis). A file the store no longer has leaves its card as
  // it was restored (a fio run without its bytes; a metrics export planned with its peaks), said.
  useEffect(() => {
    if (!fileStore || !restored) return;
    let live = true;
    void (async () => {
      const files: { id: string; blob: Blob }[] = [];
      const lost: string[] = [];
      for (const i of restored.state.inputs)
        if (i.kind === 'fio' && i.origin === 'file' && !i.serverRunId && !i.blob) {
          const blob = i.contentHash ? await fileStore.get(i.contentHash) : null;
          if (blob) files.push({ id: i.id, blob });
          else lost.push(i.fileName);
        }
      const series: SeriesInput[] = [];
      for (const kept of restored.kept) {
        const blob = await fileStore.get(kept.contentHash);
        if (blob) series.push(restoreSeriesInput(kept, blob));
        else {
          lost.push(kept.fileName);
          lostSeries.current.set(kept.contentHash, kept);
        }
      }
      pendingHashes.current.clear();
      if (!live) return;
      if (files.length > 0 || series.length > 0) reduce({ type: 'files-restored', files, series });
      for (const input of series) api.readSeries(input, input.blob!, input.options);
      if (lost.length > 0)
        reduce({
          type: 'notice-shown',
          notice: {
            tone: 'error',
            text: `${lost.join(', ')}: ${lost.length === 1 ? 'its file is' : 'their files are'} no longer kept in this browser. Add ${lost.length === 1 ? 'it' : 'them'} again (the same file finds ${lost.length === 1 ? 'its card' : 'their cards'}) to save & share${series.length < restored.kept.length ? ' and to see a metrics export’s analysis' : ''}.`,
          },
        });
    })();
    return () => {
      live = false;
    };
    // Once, for what was restored at mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Kept in storage a moment after each change; at once when the page is hidden or unloaded.
  const quotaShown = useRef(false);
  useEffect(() => {
    if (!storage) return;
    const persist = () => {
      const outcome = writeStoredSession(storage, serializeSession(stateRef.current, unsaved.current));
      if (fileStore && outcome !== 'unavailable') {
        // Files no card has any more (removed, a new session) leave the store with the session.
        const keep = new Set(pendingHashes.current);
        for (const i of stateRef.current.inputs)
          if ((i.kind === 'fio' || i.kind === 'series') && i.contentHash) keep.add(i.contentHash);
        void fileStore.prune(keep);
      }
      if (outcome === 'written' || outcome === 'cleared') quotaShown.current = false;
      else if (!quotaShown.current) {
        quotaShown.current = true;
        reduce({
          type: 'notice-shown',
          notice: {
            tone: 'error',
            text:
              outcome === 'quota'
                ? 'This browser’s storage is full: the session is not kept across reloads. Save & share it to keep it, or free some space.'
                : 'This browser refuses to store data for this site: the session is not kept across reloads. Save & share it to keep it.',
          },
        });
      }
    };
    const timer = window.setTimeout(persist, PERSIST_DELAY_MS);
    window.addEventListener('pagehide', persist);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('pagehide', persist);
    };
  }, [state, storage, fileStore]);

  // Unsaved work: the browser asks before the tab is closed or reloaded.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (storage) writeStoredSession(storage, serializeSession(stateRef.current, unsaved.current));
      if (!api.isUnsaved()) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [api, storage]);

  // The address follows the session a moment after each change (encoding waits for a pause).
  useEffect(() => {
    const timer = window.setTimeout(() => {
      urlText.current = syncSessionUrl(state);
    }, PERSIST_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [state, pathname]);

  // A session link (`/#session=…`), on load or when one is opened in this tab, replaces the
  // session — unless the address is this tab's own: the session it holds (a reload), or an older
  // state of it reached by back/forward or a reload within the delay above (the stored copy, written
  // on unload, is the newer one). Those only bring the address back to the session.
  const restoredWork = (restored?.state.inputs.length ?? 0) > 0;
  useEffect(() => {
    const open = (event?: Event) => {
      const text = readSessionParam(window.location);
      if (text === null || text === urlText.current) return;
      urlText.current = text;
      const current = stateRef.current;
      if (text === sessionLinkText(current) || (ownsUrl() && (event !== undefined || restoredWork)))
        urlText.current = syncSessionUrl(current);
      else dispatch({ type: 'link-opened', text });
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, [dispatch, restoredWork]);

  const value = useMemo<SessionApi>(() => {
    const { readSeries: _internal, ...rest } = api;
    return { state, ...rest };
  }, [state, api]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionApi {
  const ctx = use(SessionContext);
  if (!ctx) throw new Error('useSession outside <SessionProvider>');
  return ctx;
}
