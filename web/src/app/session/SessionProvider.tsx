import type { Comparison, Run, SeriesImportOptions } from '@blockwise/shared';
import { createContext, use, useEffect, useMemo, useReducer, type Dispatch, type ReactNode } from 'react';
import { parseFioFile } from '../../features/ingest/parse-client.ts';
import { looksLikeMetricsExport } from '../../features/metrics-import/detect.ts';
import { importMetricsFile } from '../../features/metrics-import/metrics-client.ts';
import { SNIFF_BYTES, looksLikeSysbench } from '../../features/sysbench/detect.ts';
import { parseSysbenchFile } from '../../features/sysbench/sysbench-client.ts';
import { getRun } from '../../lib/api-client.ts';
import { readSessionParam } from '../../lib/session-url.ts';
import {
  fromPlanSession,
  initialSession,
  newId,
  newObservedId,
  sessionReducer,
  type FioInput,
  type SeriesInput,
  type SessionAction,
  type SessionState,
  type SysbenchInput,
} from './session-state.ts';

/**
 * The planning session lives above the routes: going to the archive and back, or opening a share
 * view, keeps what the user brought. Actions that need I/O (parsing, fetching runs) live here.
 */

export type SessionApi = {
  state: SessionState;
  dispatch: Dispatch<SessionAction>;
  /** fio results; sysbench outputs and metrics exports dropped here are recognized and routed. */
  addFiles: (files: readonly File[]) => void;
  /** Production metrics exports (CloudWatch CSV/JSON, Grafana CSV). */
  addMetricsFiles: (files: readonly File[]) => void;
  /** Reads a metrics export again with new answers (statistic, period, time zone, volume…). */
  rereadSeries: (input: SeriesInput, options: SeriesImportOptions) => void;
  addArchiveRun: (run: Run) => void;
  /** Replaces the session with a comparison's inputs (its runs are fetched from the archive). */
  openComparison: (comparison: Comparison, signal?: AbortSignal) => Promise<void>;
};

const SessionContext = createContext<SessionApi | null>(null);

/** Refused before reading: parseFio's own limit is 100 MiB. */
export const MAX_FILE_BYTES = 100 * 1024 * 1024;

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

export function SessionProvider({ children, initial }: { children: ReactNode; initial?: SessionState }) {
  const [state, dispatch] = useReducer(sessionReducer, initial ?? initialSession);

  const api = useMemo<Omit<SessionApi, 'state'>>(() => {
    const fioInput = (file: File): FioInput => ({
      kind: 'fio',
      id: newId(),
      origin: 'file',
      fileName: file.name || 'unnamed file',
      sizeBytes: file.size,
      blob: file,
      serverRunId: null,
      status: file.size > MAX_FILE_BYTES || file.size === 0 ? 'error' : 'parsing',
      report: null,
      error:
        file.size === 0
          ? { code: 'empty_input', message: 'the file is empty' }
          : file.size > MAX_FILE_BYTES
            ? {
                code: 'too_large',
                message: `the file is ${Math.round(file.size / 1048576)} MiB; the limit is 100 MiB`,
              }
            : null,
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
    const seriesInput = (file: File): SeriesInput => ({
      kind: 'series',
      id: newObservedId(),
      fileName: file.name || 'unnamed file',
      sizeBytes: file.size,
      blob: file,
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
      if (file.size === 0 || file.size > MAX_FILE_BYTES) return 'fio';
      try {
        const head = await file.slice(0, SNIFF_BYTES).text();
        if (looksLikeSysbench(head)) return 'sysbench';
        if (looksLikeMetricsExport(head, file.name)) return 'series';
      } catch {
        // Unreadable here: the fio parser reports it with the file's name.
      }
      return 'fio';
    };
    const addFiles = (files: readonly File[]) => {
      void Promise.all(files.map(sniff)).then((kinds) => {
        const inputs = files.map((file, i) =>
          kinds[i] === 'sysbench'
            ? sysbenchInput(file)
            : kinds[i] === 'series'
              ? seriesInput(file)
              : fioInput(file),
        );
        dispatch({ type: 'files-added', inputs });
        inputs.forEach((input, i) => {
          const file = files[i]!;
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
      });
    };
    const addMetricsFiles = (files: readonly File[]) => {
      const inputs = files.map(seriesInput);
      dispatch({ type: 'files-added', inputs });
      inputs.forEach((input, i) => readSeries(input, files[i]!, {}));
    };
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
        state: { ...base, inputs: [...runs.map(archiveInput), ...base.inputs] },
      });
    };
    return { dispatch, addFiles, addMetricsFiles, rereadSeries, addArchiveRun, openComparison };
  }, []);

  // A session link (`/#session=…`), on load or when one is opened in this tab: decode it into the
  // session, then drop it from the address bar (later edits would make it stale).
  useEffect(() => {
    const open = () => {
      const text = readSessionParam(window.location);
      if (text === null) return;
      dispatch({ type: 'link-opened', text });
      window.history.replaceState(null, '', window.location.pathname);
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, []);

  const value = useMemo<SessionApi>(() => ({ state, ...api }), [state, api]);
  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): SessionApi {
  const ctx = use(SessionContext);
  if (!ctx) throw new Error('useSession outside <SessionProvider>');
  return ctx;
}
