import { ANALYSIS_VERSION } from '@blockwise/shared/plan';
import { type RunLabels, type RunSummary } from '@blockwise/shared/records';
import type { RouteContext, StorelessContext } from '../context.ts';
import type { RunRecords } from '../store/run-store.ts';
import { analyzeUpload, type AnalyzedUpload } from '../ingest/analyze-upload.ts';
import type { Reservation } from '../ingest/parse-pool.ts';
import { storedSummaryOf } from '../store/records.ts';
import { storeCall } from '../http/route-helpers.ts';

/**
 * Bodies above largeBodyBytes (128 KiB) are analyzed off the main thread, so that no upload can
 * hold the event loop for long (docs/performance.md P13); smaller ones inline, where the parse
 * holds it for a few ms at most and costs less CPU than the worker round trip.
 */
export async function analyze(
  ctx: StorelessContext,
  bytes: Uint8Array,
  labels: RunLabels,
  admission: Reservation | null,
  maxBytes = ctx.config.maxUploadBytes,
): Promise<AnalyzedUpload> {
  if (bytes.length > ctx.config.largeBodyBytes) return ctx.pool.analyze(bytes, labels, maxBytes, admission);
  return analyzeUpload(bytes, labels, maxBytes);
}

/** A stored run as the analysis reads it: its labels and the version its documents were made by. */
export type StoredRunRef = { id: string; labels: RunLabels; analysisVersion: string };

/** A run's report (JSON text) and summary as today's analysis makes them. */
export type CurrentAnalysis = { reportJson: string; summary: RunSummary; recomputed: boolean };

/**
 * The analysis of a stored run under today's rules. A run stored by this analysis version is
 * served as stored; one stored by another version is analyzed again from its raw bytes (kept
 * verbatim for this), so a share link shows what today's rules say about it. Not stored back:
 * runs are append-only, and re-running the analysis costs what the upload cost (the parse pool
 * takes large files, as it does uploads). When today's parser refuses bytes an earlier version
 * took, the stored documents are served instead (the summary upgraded to today's shape), and
 * the log says why.
 */
export async function currentAnalysis(
  ctx: RouteContext<RunRecords>,
  run: StoredRunRef,
  stored: { reportJson: string; summaryJson: string },
): Promise<CurrentAnalysis> {
  const asStored = () => ({
    reportJson: stored.reportJson,
    summary: storedSummaryOf(run, stored.summaryJson),
    recomputed: false,
  });
  if (run.analysisVersion === ANALYSIS_VERSION) return asStored();
  const raw = await storeCall(() => ctx.store.getRunRaw(run.id));
  if (!raw) throw new Error(`run ${run.id}: its raw bytes vanished (runs are append-only)`);
  // The bytes were within the upload limit of their day: a lower limit today must not refuse them.
  const analyzed = await analyze(
    ctx,
    raw.bytes,
    run.labels,
    null,
    Math.max(ctx.config.maxUploadBytes, raw.bytes.length),
  );
  if (analyzed.ok) {
    const { reportJson } = analyzed;
    // From the parse pool, the report comes as its UTF-8 bytes; the answer is built as text.
    const text =
      typeof reportJson === 'string'
        ? reportJson
        : Buffer.from(reportJson.buffer, reportJson.byteOffset, reportJson.byteLength).toString('utf8');
    return { reportJson: text, summary: analyzed.summary, recomputed: true };
  }
  ctx.logger.warn(
    { runId: run.id, storedVersion: run.analysisVersion, problem: analyzed.error },
    'a run stored by an earlier analysis version could not be analyzed again; serving it as stored',
  );
  return asStored();
}
