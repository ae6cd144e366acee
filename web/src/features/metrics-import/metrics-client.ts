import type { SeriesImportOptions } from '@blockwise/shared/timeseries';
import type { MetricsRead } from './metrics-reader.ts';
import type { MetricsRequest, MetricsResponse } from './metrics.worker.ts';

/**
 * Imports a metrics export in a Web Worker (one, shared, created on first use). Without Worker
 * support (tests, very old browsers) it imports on the main thread, loading the importer lazily.
 * Never throws: unreadable files and crashed workers are values like any import error.
 */

/** Refused before reading: the importer's own limit is 200 MiB of text. */
export const MAX_METRICS_FILE_BYTES = 200 * 1024 * 1024;

let worker: Worker | null = null;
const waiting = new Map<string, (result: MetricsRead) => void>();
let counter = 0;

const failure = (code: string, message: string): MetricsRead => ({
  ok: false,
  error: { code, message },
  choices: [],
});

function getWorker(): Worker | null {
  if (typeof Worker === 'undefined') return null;
  if (worker) return worker;
  try {
    worker = new Worker(new URL('./metrics.worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return null;
  }
  worker.onmessage = (event: MessageEvent<MetricsResponse>) => {
    const resolve = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    resolve?.(event.data.result);
  };
  worker.onerror = (event) => {
    event.preventDefault();
    const message = event.message || 'the metrics importer stopped';
    for (const [id, resolve] of waiting) {
      resolve(failure('importer_crashed', message));
      waiting.delete(id);
    }
    worker?.terminate();
    worker = null;
  };
  return worker;
}

async function importOnMainThread(bytes: Uint8Array, options: SeriesImportOptions): Promise<MetricsRead> {
  try {
    const { readMetrics } = await import('./metrics-reader.ts');
    return readMetrics(bytes, options);
  } catch (error) {
    return failure(
      'importer_unavailable',
      `the metrics importer could not be loaded or failed (${error instanceof Error ? error.message : String(error)}); reload the page and try again`,
    );
  }
}

export async function importMetricsFile(file: Blob, options: SeriesImportOptions): Promise<MetricsRead> {
  if (file.size === 0) return failure('empty_input', 'the file is empty');
  if (file.size > MAX_METRICS_FILE_BYTES)
    return failure(
      'too_large',
      `the file is ${Math.round(file.size / 1048576)} MiB; the limit is 200 MiB: export a shorter range or a longer period`,
    );
  let buffer: ArrayBuffer;
  try {
    buffer = await file.arrayBuffer();
  } catch (error) {
    return failure(
      'unreadable_file',
      `the browser could not read the file (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const w = getWorker();
  if (!w) return importOnMainThread(new Uint8Array(buffer), options);
  counter += 1;
  const id = `m${counter}`;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    w.postMessage({ id, bytes: buffer, options } satisfies MetricsRequest, [buffer]);
  });
}
