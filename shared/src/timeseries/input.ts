import { decodeInput } from '../fio/decode-input.ts';
import type { Problem, Warning } from '../problem.ts';
import { MiB } from '../units.ts';

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
