import { parentPort, workerData } from 'node:worker_threads';
import { installCatalog } from '@blockwise/shared/catalog';
import { analyzeUpload } from './analyze-upload.ts';
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

function perform(task: WorkerTask): WorkerResult {
  switch (task.kind) {
    case 'analyze':
      return analyzeUpload(task.bytes, task.labels, task.maxBytes);
    case 'compare':
      return buildPairComparison(task.runs);
    case 'fleet':
      return planFleetRequest(task.bytes);
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
  let response: WorkerResponse;
  try {
    response = { id: message.id, result: perform(message.task) };
  } catch (error) {
    response = {
      id: message.id,
      crash: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  parentPort!.postMessage(response);
});
