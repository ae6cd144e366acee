import { parseFio } from '@blockwise/shared/fio';
import { type Problem } from '@blockwise/shared/problem';
import { type RunLabels, type RunSummary } from '@blockwise/shared/records';
import { summarizeRun } from '@blockwise/shared/analysis';

/**
 * What an upload becomes before it is stored: the normalized report and the summary, each
 * serialized once, as the store writes them (and as the upload's answer uses them) — or why not.
 */
export type AnalyzedUpload =
  | {
      ok: true;
      /**
       * The report's JSON: text from an inline analysis, its UTF-8 bytes from the parse worker
       * (moved to the event loop, not copied as a string: docs/performance.md P13).
       */
      reportJson: string | Uint8Array;
      fioVersion: string | null;
      summary: RunSummary;
      summaryJson: string;
    }
  | { ok: false; error: Problem };

/**
 * The stored report may be at most this many times the (decompressed) input, plus
 * REPORT_BYTES_SLACK. Real fio output gives at most 0.7× pretty-printed and 1.44× minified (every
 * fixture in fixtures/fio, minified with JSON.stringify; fio 2.1.4's four groups are the most);
 * the 20 MiB json+ file 0.01×. What grows beyond is a file built to grow: each job of the report
 * repeats the global options and carries all three directions and its settings, so a 60-byte job
 * becomes ~1.6 KB, and a 1 MB file of them ~27 MB.
 */
export const MAX_REPORT_TO_INPUT = 2;
/** Room for the report of a small file: one job of the report is ~1.6 KB whatever its input. */
export const REPORT_BYTES_SLACK = 64 * 1024;

export const maxReportBytes = (inputBytes: number) => MAX_REPORT_TO_INPUT * inputBytes + REPORT_BYTES_SLACK;

/**
 * Parse + validate + analyze one uploaded file, and serialize the report. Pure CPU work with no
 * I/O, so it runs the same inline (small bodies) and in a worker thread (larger ones: parsing
 * must not freeze the event loop for everyone else, docs/performance.md P5, P13). Serializing
 * here means the worker hands the main thread the report's JSON (movableAnalysis) instead of an
 * object graph it would have to rebuild (structured clone) and serialize again to store.
 */
export function analyzeUpload(bytes: Uint8Array, labels: RunLabels, maxBytes: number): AnalyzedUpload {
  const limit = maxReportBytes(bytes.length);
  // parseFio refuses what clearly grows too much before normalizing it (an estimate); the exact
  // size is known once serialized.
  const parsed = parseFio(bytes, { maxBytes, maxReportBytes: limit });
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const { report } = parsed;
  const reportJson = JSON.stringify(report);
  const reportBytes = Buffer.byteLength(reportJson);
  if (reportBytes > limit) {
    return {
      ok: false,
      error: {
        code: 'report_too_large',
        message: `the analysis of this ${bytes.length}-byte file would take ${reportBytes} bytes to store, more than ${MAX_REPORT_TO_INPUT} × its size + ${REPORT_BYTES_SLACK} (${limit}); real fio output needs less than 1.5 × (${report.jobs.length} jobs here, each stored with the global options and every direction)`,
      },
    };
  }
  const summary = summarizeRun(report, labels);
  return {
    ok: true,
    reportJson,
    fioVersion: report.fioVersion,
    summary,
    summaryJson: JSON.stringify(summary),
  };
}

/**
 * An analysis as the parse worker sends it to the event loop: the report as UTF-8 bytes in memory
 * of their own, with the buffer to move (transfer) with the message. As a string (~1.9 MB for a
 * 1 MB upload built to grow) it was copied into the main thread's heap, encoded there again for
 * the store, and those large strings were what the event loop's garbage collector paused for
 * (docs/performance.md P13). The store writes the bytes as they are.
 */
export function movableAnalysis(analyzed: AnalyzedUpload): {
  result: AnalyzedUpload;
  transfer: ArrayBuffer[];
} {
  if (!analyzed.ok || typeof analyzed.reportJson !== 'string') return { result: analyzed, transfer: [] };
  // allocUnsafeSlow: memory of its own (a slice of Buffer's shared pool cannot be moved).
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(analyzed.reportJson));
  bytes.write(analyzed.reportJson);
  return { result: { ...analyzed, reportJson: bytes }, transfer: [bytes.buffer as ArrayBuffer] };
}
