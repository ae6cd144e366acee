import { decodeInput } from '../fio/decode-input.ts';
import type { Problem, Warning } from '../problem.ts';
import { MiB } from '../units.ts';
import type { SeriesImportResult } from './series.schema.ts';

/** Largest metrics export accepted: a million 1-minute points with four metrics is ~80 MB of CSV. */
export const MAX_METRICS_INPUT_CHARS = 200 * MiB;

export type DecodedMetrics = { ok: true; text: string; warnings: Warning[] } | { ok: false; error: Problem };

/** Bytes or text in, text out (BOM, UTF-16 from PowerShell, binary files refused). */
export function decodeMetricsInput(input: string | Uint8Array): DecodedMetrics {
  const decoded = decodeInput(input, { maxBytes: MAX_METRICS_INPUT_CHARS });
  if (!decoded.ok) {
    if (decoded.error.code === 'too_large') {
      return {
        ok: false,
        error: {
          code: 'too_large',
          message: `the file is larger than ${MAX_METRICS_INPUT_CHARS / MiB} MiB: export a shorter range or a longer period`,
        },
      };
    }
    if (decoded.error.code === 'empty_input') {
      return { ok: false, error: { code: 'empty_input', message: 'the file is empty' } };
    }
    return {
      ok: false,
      error: {
        code: decoded.error.code,
        message: decoded.error.message.replace(/fio (result|output)s?/g, 'metrics export'),
      },
    };
  }
  return { ok: true, text: decoded.value.text, warnings: decoded.value.warnings };
}

export type DecodedMetricsJson =
  { ok: true; json: unknown; warnings: Warning[] } | { ok: false; error: Problem };

/** decodeMetricsInput, then the text as JSON: text that is not JSON is a `bad_json` problem. */
export function decodeMetricsJson(input: string | Uint8Array): DecodedMetricsJson {
  const decoded = decodeMetricsInput(input);
  if (!decoded.ok) return decoded;
  try {
    return { ok: true, json: JSON.parse(decoded.text) as unknown, warnings: decoded.warnings };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: { code: 'bad_json', message: `not valid JSON: ${detail}` } };
  }
}

/** A failed import: the problem's code, message and, when one applies, its path. */
export function importFailure(code: string, message: string, path?: string): SeriesImportResult {
  return { ok: false, error: path === undefined ? { code, message } : { code, message, path } };
}
