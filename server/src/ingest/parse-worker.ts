import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { installCatalog } from '@blockwise/shared/catalog';
import { analyzeUpload, type AnalyzedUpload } from './analyze-upload.ts';
import { buildPairComparison } from './pair-comparison.ts';
import { planFleetRequest } from '../services/fleet-plan-request.ts';
import type {
  ParseWorkerData,
  WorkerRequest,
  WorkerResponse,
  WorkerResult,
  WorkerTask,
} from './parse-pool.ts';
import { lowerThisThreadPriority } from './thread-priority.ts';

// The event loop comes first when both want a core (see thread-priority.ts).
lowerThisThreadPriority();

// Plan with the catalog the server installed, not this realm's built-in one (parse-pool.ts spawn).
const started = workerData as ParseWorkerData | null;
if (started?.catalog) installCatalog(started.catalog.data, started.catalog.origin);

/**
 * An analysis as it crosses to the event loop: the report as UTF-8 bytes in memory of their own,
 * moved with the message. As a string (~1.9 MB for a 1 MB upload built to grow) it was copied into
 * the main thread's heap, encoded there again for the store and copied once more into the
 * comparison's worker — and those large strings were what the event loop's garbage collector
 * paused for (docs/performance.md P13). The store writes the bytes as they are.
 */
function movedAnalysis(result: AnalyzedUpload): { result: AnalyzedUpload; transfer: ArrayBuffer[] } {
  if (!result.ok || typeof result.reportJson !== 'string') return { result, transfer: [] };
  // allocUnsafeSlow: memory of its own (a slice of Buffer's shared pool cannot be moved).
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(result.reportJson));
  bytes.write(result.reportJson);
  return { result: { ...result, reportJson: bytes }, transfer: [bytes.buffer as ArrayBuffer] };
}

function perform(task: WorkerTask): { result: WorkerResult; transfer: ArrayBuffer[] } {
  switch (task.kind) {
    case 'analyze':
      return movedAnalysis(analyzeUpload(task.bytes, task.labels, task.maxBytes));
    case 'compare':
      return { result: buildPairComparison(task.runs), transfer: [] };
    case 'fleet':
      return { result: planFleetRequest(task.bytes), transfer: [] };
  }
}

/**
 * Worker thread body: analyzes one upload, or compares stored runs, per message. Only the result
 * crosses back to the main thread, the report or comparison as one JSON string (no latency
 * bins): structured-cloning the parse's 60 MB object graph would cost more than the parse
 * itself, and even the report of 7,000 jobs (11 MB) cost the main thread ~150 ms to rebuild and
 * ~80 ms to serialize again for the store.
 */
parentPort?.on('message', (message: WorkerRequest) => {
  let outcome: { result: WorkerResult } | { crash: string };
  let transfer: ArrayBuffer[] = [];
  try {
    const done = perform(message.task);
    outcome = { result: done.result };
    transfer = done.transfer;
  } catch (error) {
    outcome = { crash: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  // The heap as the job left it, garbage included: the pool retires a worker left large (P7).
  const heapBytes = getHeapStatistics().used_heap_size;
  parentPort!.postMessage({ id: message.id, ...outcome, heapBytes } satisfies WorkerResponse, transfer);
});
