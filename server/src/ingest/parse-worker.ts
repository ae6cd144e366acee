import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { installCatalog } from '@blockwise/shared/catalog';
import { analyzeUpload, movableAnalysis } from './analyze-upload.ts';
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

function perform(task: WorkerTask): { result: WorkerResult; transfer: ArrayBuffer[] } {
  switch (task.kind) {
    case 'analyze':
      return movableAnalysis(analyzeUpload(task.bytes, task.labels, task.maxBytes));
    case 'compare':
      return { result: buildPairComparison(task.runs), transfer: [] };
    case 'fleet':
      return { result: planFleetRequest(task.bytes), transfer: [] };
  }
}

/**
 * Worker thread body: analyzes one upload, compares stored runs or plans a fleet, per message.
 * Only the result crosses back to the main thread, serialized (no latency bins): the report as
 * the UTF-8 bytes of its JSON, moved (movableAnalysis), a comparison as its JSON string.
 * Structured-cloning the parse's 60 MB object graph would cost more than the parse itself, and
 * even the report of 7,000 jobs (11 MB) cost the main thread ~150 ms to rebuild and ~80 ms to
 * serialize again for the store.
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
  // What the job left this thread holding: the pool retires a worker left large (P7).
  const heap = getHeapStatistics();
  const memoryBytes = heap.total_heap_size + heap.external_memory;
  parentPort!.postMessage({ id: message.id, ...outcome, memoryBytes } satisfies WorkerResponse, transfer);
});
