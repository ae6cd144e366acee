import '../../lib/zod-config.ts';
import type { SeriesImportOptions } from '@blockwise/shared/timeseries';
import { readMetrics, type MetricsRead } from './metrics-reader.ts';

/**
 * Imports metrics exports off the main thread: a 14-day export of 1-minute points is 20,000 rows
 * per metric, and a year of them a million — parsing, sorting and the percentiles must not freeze
 * the page. Receives the file's bytes (a copy: the session keeps the file to re-import it with
 * other answers) and answers with the series and its statistics.
 */
export type MetricsRequest = { id: string; bytes: ArrayBuffer; options: SeriesImportOptions };
export type MetricsResponse = { id: string; result: MetricsRead };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<MetricsRequest>) => void) | null;
  postMessage: (message: MetricsResponse) => void;
};

scope.onmessage = (event: MessageEvent<MetricsRequest>) => {
  const { id, bytes, options } = event.data;
  let result: MetricsRead;
  try {
    result = readMetrics(new Uint8Array(bytes), options);
  } catch (error) {
    // The importers return expected failures as values; reaching here is a bug.
    result = {
      ok: false,
      error: {
        code: 'importer_crashed',
        message: `the importer failed unexpectedly (${error instanceof Error ? error.message : String(error)}); please report this file`,
      },
      choices: [],
    };
  }
  scope.postMessage({ id, result } satisfies MetricsResponse);
};
