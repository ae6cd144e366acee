import { parentPort } from 'node:worker_threads';
import { analyzeUpload } from './analyze-upload.ts';
import type { WorkerRequest, WorkerResponse } from './parse-pool.ts';

/**
 * Worker thread body: analyzes one upload per message. Only the small result (report and summary,
 * no latency bins) crosses back to the main thread — structured-cloning a 60 MB object graph back
 * would cost more than the parse itself.
 */
parentPort?.on('message', (message: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    response = { id: message.id, result: analyzeUpload(message.bytes, message.labels, message.maxBytes) };
  } catch (error) {
    response = {
      id: message.id,
      crash: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  parentPort!.postMessage(response);
});
