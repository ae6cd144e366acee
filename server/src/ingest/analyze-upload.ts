import { parseFio, type FioReport, type Problem, type RunLabels, type RunSummary } from '@blockwise/shared';
import { summarizeRun } from '@blockwise/shared/catalog';

/** What an upload becomes before it is stored: the normalized report and its analysis — or why not. */
export type AnalyzedUpload =
  { ok: true; report: FioReport; summary: RunSummary } | { ok: false; error: Problem };

/**
 * Parse + validate + analyze one uploaded file. Pure CPU work with no I/O, so it runs the same
 * inline (small bodies) and in a worker thread (large ones: a 20 MB json+ file must not freeze
 * the event loop for everyone else, docs/performance.md P5).
 */
export function analyzeUpload(bytes: Uint8Array, labels: RunLabels, maxBytes: number): AnalyzedUpload {
  const parsed = parseFio(bytes, { maxBytes });
  if (!parsed.ok) return { ok: false, error: parsed.error };
  return { ok: true, report: parsed.report, summary: summarizeRun(parsed.report, labels) };
}
