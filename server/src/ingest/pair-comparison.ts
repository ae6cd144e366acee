import { FioReportSchema } from '@blockwise/shared/fio';
import { type Problem } from '@blockwise/shared/problem';
import { RunLabelsSchema, RunSummarySchema } from '@blockwise/shared/records';
import {
  buildStoredPlansComparison,
  comparedRunOf,
  type ComparedRun,
  type ComparisonRun,
} from '@blockwise/shared/analysis';
import type { z } from 'zod';

/** A stored run as the store hands it out without decoding its two large documents (getRunJson). */
export type StoredRunText = {
  id: string;
  /** The stored labels document (small, decoded by the store): parsed again here, never cast. */
  labels: unknown;
  /**
   * The report's JSON text, or its UTF-8 bytes as stored (getRunJsonBytes): bytes are decoded only
   * where the comparison is built, so a baseline compared in the pool is never a string on the
   * event loop and moves to the worker instead of being copied (docs/performance.md P13).
   */
  reportJson: string | Uint8Array;
  summaryJson: string;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });
/** The report's JSON text: decoded here when it came as bytes. */
const reportText = (run: StoredRunText): string =>
  typeof run.reportJson === 'string' ? run.reportJson : utf8.decode(run.reportJson);

/**
 * The ArrayBuffers of these runs' report bytes that can be moved to a worker: those that own all
 * of their memory (a Buffer cut from Node's shared pool cannot be). The caller must not read
 * those reports afterwards.
 */
export function movableReportBuffers(runs: readonly StoredRunText[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const { reportJson: r } of runs) {
    if (typeof r === 'string' || !(r.buffer instanceof ArrayBuffer)) continue;
    if (r.byteOffset === 0 && r.byteLength === r.buffer.byteLength && !buffers.includes(r.buffer))
      buffers.push(r.buffer);
  }
  return buffers;
}

/** The regression gate's comparison, serialized as the store writes it — or why it cannot be built. */
export type BuiltComparison =
  { ok: true; resultJson: string; priceTableDate: string } | { ok: false; error: Problem };

/** UTF-8 bytes of a JSON document, whether held as text or as the bytes the store gave. */
export const utf8Bytes = (json: string | Uint8Array): number =>
  typeof json === 'string' ? Buffer.byteLength(json, 'utf8') : json.byteLength;

/**
 * UTF-8 bytes of stored JSON a comparison of these runs parses: what decides inline or in the pool.
 * Bytes, whichever form a report came in — a string's `length` counts UTF-16 units, a third of the
 * bytes of text in CJK job names, so one limit meant two sizes.
 */
export const storedRunBytes = (runs: readonly StoredRunText[]): number =>
  runs.reduce((sum, run) => sum + utf8Bytes(run.reportJson) + utf8Bytes(run.summaryJson), 0);

function parseStored<S extends z.ZodType>(
  schema: S,
  value: unknown,
  run: string,
  document: string,
): { ok: true; value: z.infer<S> } | { ok: false; error: Problem } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    error: {
      code: 'stored_run_invalid',
      message: `run ${run}: its stored ${document} does not validate today (${issue?.path.join('.') || document}: ${issue?.message ?? 'invalid'})`,
    },
  };
}

/** A stored run's labels parsed through today's schema, or why they do not validate. */
export const parseStoredLabels = (id: string, labels: unknown) =>
  parseStored(RunLabelsSchema, labels, id, 'labels');

/** A stored run's documents parsed through today's schemas, or why they do not validate. */
export function parseStoredRun(
  run: StoredRunText,
): { ok: true; value: ComparisonRun } | { ok: false; error: Problem } {
  const labels = parseStoredLabels(run.id, run.labels);
  if (!labels.ok) return labels;
  const report = parseStored(FioReportSchema, JSON.parse(reportText(run)), run.id, 'report');
  if (!report.ok) return report;
  const summary = parseStored(RunSummarySchema, JSON.parse(run.summaryJson), run.id, 'summary');
  if (!summary.ok) return summary;
  return {
    ok: true,
    value: { id: run.id, labels: labels.value, report: report.value, summary: summary.value },
  };
}

/**
 * The comparison of stored runs (the regression gate's [baseline, run]), from their stored JSON:
 * parsed through today's schemas, compared, serialized. Pure CPU work: run inline for small
 * reports and in the parse pool's worker for large ones (a 7,000-job report is ~11 MB of JSON,
 * whose parse alone would hold the event loop for ~150 ms), like analyzeUpload.
 */
export function buildPairComparison(runs: readonly StoredRunText[]): BuiltComparison {
  const parsed: ComparedRun[] = [];
  for (const run of runs) {
    const read = readComparedRun(run);
    if (!read.ok) return read;
    parsed.push(read.value);
  }
  return comparePair(parsed);
}

/**
 * What the comparison reads of a stored run (its labels, fio version, job settings and summary:
 * not its report), parsed through today's schemas, or why they do not validate.
 */
export function readComparedRun(
  run: StoredRunText,
): { ok: true; value: ComparedRun } | { ok: false; error: Problem } {
  const read = parseStoredRun(run);
  return read.ok ? { ok: true, value: comparedRunOf(read.value) } : read;
}

/**
 * The comparison of runs whose documents are parsed already (parseStoredRun, or kept in
 * RecentRuns), serialized as the store writes it.
 */
export function comparePair(runs: readonly ComparedRun[]): BuiltComparison {
  const result = buildStoredPlansComparison(runs);
  if (!result.ok) return { ok: false, error: result.error };
  return { ok: true, resultJson: JSON.stringify(result.value), priceTableDate: result.value.rates.date };
}
