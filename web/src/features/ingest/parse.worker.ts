import '../../lib/zod-config.ts';
import { parseFio, type ParseFioResult } from '@blockwise/shared/fio';

/**
 * Parses fio result files off the main thread: a 20 MB json+ file takes seconds to validate, and
 * the page must never freeze. Receives the file's bytes (transferred, not copied) and answers with
 * the normalized report — a small object next to the raw bins.
 */
export type ParseRequest = { id: string; bytes: ArrayBuffer };
export type ParseResponse = { id: string; result: ParseFioResult };

/** The worker's global scope, typed by hand (the DOM and WebWorker libs cannot both be loaded). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ParseRequest>) => void) | null;
  postMessage: (message: ParseResponse) => void;
};

scope.onmessage = (event: MessageEvent<ParseRequest>) => {
  const { id, bytes } = event.data;
  let result: ParseFioResult;
  try {
    result = parseFio(new Uint8Array(bytes));
  } catch (error) {
    // parseFio returns expected failures as values; reaching here is a parser bug.
    result = {
      ok: false,
      error: {
        code: 'parser_crashed',
        message: `the parser failed unexpectedly (${error instanceof Error ? error.message : String(error)}); please report this file`,
      },
    };
  }
  scope.postMessage({ id, result } satisfies ParseResponse);
};
