import { parentPort, workerData } from 'node:worker_threads';
import {
  FleetInputError,
  summarizeMetricsFile,
  type FleetWorkerData,
  type FleetWorkerRequest,
  type FleetWorkerResponse,
} from './fleet-metrics.ts';

/**
 * Worker thread of `blockwise fleet plan` (fleet-metrics.ts): reads and summarizes one metrics
 * file per message and answers its summaries. The points it keeps for the merge (a few MB per file)
 * are transferred, not copied.
 */
const { cwd, volumeIds, periodSeconds, concurrency } = workerData as FleetWorkerData;

parentPort?.on('message', (request: FleetWorkerRequest) => {
  void summarizeMetricsFile(request.file, cwd, volumeIds, periodSeconds, concurrency).then(
    (part) => {
      const transfer: ArrayBuffer[] = [];
      for (const perVolume of part.values.values())
        for (const arrays of Object.values(perVolume))
          for (const a of arrays ?? []) transfer.push(a.buffer as ArrayBuffer);
      const response: FleetWorkerResponse = { index: request.index, ok: true, part };
      parentPort!.postMessage(response, transfer);
    },
    (error: unknown) => {
      const response: FleetWorkerResponse =
        error instanceof FleetInputError
          ? { index: request.index, ok: false, file: error.file, problem: error.problem }
          : {
              index: request.index,
              crash: error instanceof Error ? (error.stack ?? error.message) : String(error),
            };
      parentPort!.postMessage(response);
    },
  );
});
