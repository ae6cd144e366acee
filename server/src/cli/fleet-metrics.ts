import { isAscii } from 'node:buffer';
import { existsSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  addMetricDataText,
  createFleetMetrics,
  mergeFleetMetrics,
  summarizeMetricDataBytes,
  type ConcurrencyGroups,
  type FleetMetrics,
  type FleetMetricsPart,
} from '@blockwise/shared/fleet';
import { type Problem } from '@blockwise/shared/problem';

/** An input file that could not be used: exit 1, naming the file and field. */
export class FleetInputError extends Error {
  constructor(
    readonly file: string,
    readonly problem: Problem,
  ) {
    super(problem.message);
  }
}

/** get-metric-data output merged by the aws cli for 500 queries × 4,032 points is ~70 MB. */
const MAX_FILE_BYTES = 400 * 1024 * 1024;

/** A file's text; FleetInputError (naming the file) when it is missing, not a file or too large. */
export async function readText(file: string, cwd: string): Promise<string> {
  return decodeText(await readBytes(file, cwd));
}

/** A file's bytes; FleetInputError (naming the file) when it is missing, not a file or too large. */
async function readBytes(file: string, cwd: string): Promise<Buffer> {
  const read = await readReused(file, cwd);
  const bytes = Buffer.from(read.bytes);
  read.release();
  return bytes;
}

/**
 * The read buffer kept for the next file. A new 3–4 MB Buffer per file (the bench's responses) made
 * V8 run a full mark-compact every ~5 files for the external memory alone: ~9 % of a worker's
 * time (docs/performance.md P15). One is enough: a worker (and the main thread) reads one file at
 * a time. None larger than MAX_SPARE_READ_BYTES is kept, so what a worker holds between files is
 * bounded whatever it read: a larger file's buffer goes with it (its parse outweighs one more GC).
 */
let spareReadBuffer: Buffer | null = null;
/** 8× the bench's 3–4 MB responses (fixtures/fleet/generate.mjs: ≤ 100,800 points a file). */
export const MAX_SPARE_READ_BYTES = 32 * 1024 * 1024;

/** The spare if it holds `size` bytes (it is then in use), else null (it stays spare). */
function takeSpare(size: number): Buffer | null {
  const spare = spareReadBuffer;
  if (spare === null || spare.length < size) return null;
  spareReadBuffer = null;
  return spare;
}

/** Keeps `buffer` for the next file when it is small enough; the larger of two is kept. */
function giveBack(buffer: Buffer): void {
  if (buffer.length > MAX_SPARE_READ_BYTES) return;
  if (spareReadBuffer === null || spareReadBuffer.length < buffer.length) spareReadBuffer = buffer;
}

/** The bytes kept between reads (fleet-metrics.test.ts holds the bound). */
export function spareReadBytes(): number {
  return spareReadBuffer?.length ?? 0;
}

/**
 * A file's bytes in a reused buffer: `release()` gives the buffer back once nothing refers to
 * `bytes` any more. FleetInputError (naming the file) when it is missing, not a file or too large.
 */
async function readReused(file: string, cwd: string): Promise<{ bytes: Buffer; release: () => void }> {
  const path = resolve(cwd, file);
  const tooLarge = (size: number) =>
    new FleetInputError(file, {
      code: 'file_too_large',
      message: `${size} bytes; the limit is ${MAX_FILE_BYTES} (split the queries into smaller batches)`,
    });
  let buffer: Buffer | undefined;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new FleetInputError(file, { code: 'file_unreadable', message: 'not a file' });
    if (info.size > MAX_FILE_BYTES) throw tooLarge(info.size);
    // One byte more than the size: a read that fills it means the file grew since stat.
    buffer = takeSpare(info.size + 1) ?? Buffer.allocUnsafeSlow(info.size + 1);
    const handle = await open(path, 'r');
    let n = 0;
    try {
      for (;;) {
        if (n === buffer.length) {
          if (n > MAX_FILE_BYTES) throw tooLarge(n);
          const bigger = Buffer.allocUnsafeSlow(n * 2);
          buffer.copy(bigger, 0, 0, n);
          buffer = bigger;
        }
        const { bytesRead } = await handle.read(buffer, n, buffer.length - n, n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
    } finally {
      await handle.close();
    }
    const kept = buffer;
    return {
      bytes: kept.subarray(0, n),
      release: () => giveBack(kept),
    };
  } catch (error) {
    if (error instanceof FleetInputError) throw error;
    throw new FleetInputError(file, {
      code: 'file_unreadable',
      message: `cannot read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    });
  }
}

/** Two ranges of a file's bytes compared by memcmp (scan.ts: repeated Timestamps arrays). */
function sameBytes(bytes: Uint8Array, a: number, b: number, length: number): boolean {
  return Buffer.prototype.compare.call(bytes, bytes, a, a + length, b, b + length) === 0;
}

/**
 * get-metric-data output is ASCII in practice (ids, the labels `fleet query` wrote, dates,
 * numbers): then latin1 gives the same text, decoded ~40 % faster than UTF-8 (measured on the
 * bench's responses). Anything else is decoded as UTF-8.
 */
function decodeText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** What a worker answers for one file (see fleet-worker.ts). */
export type FleetWorkerRequest = { index: number; file: string };
export type FleetWorkerResponse =
  | { index: number; ok: true; part: FleetMetricsPart }
  | { index: number; ok: false; file: string; problem: Problem }
  | { index: number; crash: string };
export type FleetWorkerData = {
  cwd: string;
  volumeIds: readonly string[];
  /** --period when given: files spaced otherwise are refused (metrics.ts). */
  periodSeconds: number | undefined;
  /** Volumes summed per instance while reading (shared/src/fleet/concurrent.ts). */
  concurrency: ConcurrencyGroups | undefined;
};

/** Reads and summarizes one metrics file (the worker's job; also the in-thread path's). */
export async function summarizeMetricsFile(
  file: string,
  cwd: string,
  volumeIds: readonly string[],
  periodSeconds?: number,
  concurrency?: ConcurrencyGroups,
): Promise<FleetMetricsPart> {
  // Scanned as bytes: the file is decoded into a string only when the scanner refuses it (scan.ts).
  // Nothing summarized refers to the bytes (the scanner copies what it keeps): the buffer is reused.
  const { bytes, release } = await readReused(file, cwd);
  let part;
  try {
    part = summarizeMetricDataBytes(
      bytes,
      {
        fileName: file,
        volumeIds,
        ...(periodSeconds !== undefined ? { periodSeconds } : {}),
        ...(concurrency !== undefined ? { concurrency } : {}),
      },
      () => decodeText(bytes),
      sameBytes,
    );
  } finally {
    release();
  }
  if (!part.ok) throw new FleetInputError(file, part.error);
  return part.value;
}

/**
 * Below this many bytes in all, the files are read on the main thread: starting workers (and, from
 * source, tsx inside each) costs more than it saves.
 */
const THREADED_MIN_BYTES = 64 * 1024 * 1024;

/** Worker threads worth starting for these files: one per core when there is enough to read, else 0. */
export async function threadsFor(files: readonly string[], cwd: string): Promise<number> {
  if (files.length < 2) return 0;
  let bytes = 0;
  for (const file of files) bytes += (await stat(resolve(cwd, file)).catch(() => null))?.size ?? 0;
  return bytes < THREADED_MIN_BYTES ? 0 : Math.min(availableParallelism(), files.length);
}

/**
 * Every metrics file merged into one FleetMetrics. With `threads` > 0 the files are read and
 * summarized in that many worker threads (reading 3 GB of JSON is most of a large fleet's plan)
 * and merged here in file order (mergeFleetMetrics), so the result — and the first refused file,
 * which is the one reported — is the same as reading them one after another. Memory stays bounded:
 * at most 4 files per thread are read ahead of the oldest one not yet merged.
 */
export async function readMetricsFiles(
  files: readonly string[],
  cwd: string,
  volumeIds: readonly string[],
  threads: number,
  periodSeconds?: number,
  concurrency?: ConcurrencyGroups,
): Promise<FleetMetrics> {
  const metrics = createFleetMetrics();
  if (threads <= 0) {
    // One file at a time: each response is summarized and dropped before the next is read.
    for (const file of files) {
      const added = addMetricDataText(metrics, await readText(file, cwd), {
        fileName: file,
        volumeIds,
        ...(periodSeconds !== undefined ? { periodSeconds } : {}),
        ...(concurrency !== undefined ? { concurrency } : {}),
      });
      if (!added.ok) throw new FleetInputError(file, added.error);
    }
    return metrics;
  }
  await readInWorkers(files, { cwd, volumeIds, periodSeconds, concurrency }, threads, metrics);
  return metrics;
}

/** The worker's code: beside the bundle (dist/fleet-worker.mjs), or the TypeScript source through tsx. */
function workerEntry(): URL {
  const bundled = new URL('./fleet-worker.mjs', import.meta.url);
  if (existsSync(fileURLToPath(bundled))) return bundled;
  return new URL('./fleet-worker.dev.mjs', import.meta.url);
}

type Slot = { worker: Worker; busy: boolean };

function readInWorkers(
  files: readonly string[],
  data: FleetWorkerData,
  threads: number,
  into: FleetMetrics,
): Promise<void> {
  const aheadLimit = threads * 4;
  const slots: Slot[] = [];
  const done = new Map<number, FleetWorkerResponse>();
  let next = 0;
  let merged = 0;
  return new Promise<void>((resolveAll, rejectAll) => {
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      for (const s of slots) void s.worker.terminate();
      if (error === undefined) resolveAll();
      else rejectAll(error);
    };
    const feed = () => {
      for (const slot of slots) {
        if (slot.busy || next >= files.length || next - merged >= aheadLimit) continue;
        slot.busy = true;
        const request: FleetWorkerRequest = { index: next, file: files[next]! };
        next++;
        slot.worker.postMessage(request);
      }
    };
    const mergeReady = () => {
      for (let r = done.get(merged); r !== undefined; r = done.get(merged)) {
        done.delete(merged);
        if ('crash' in r) return finish(new Error(`fleet worker failed on ${files[r.index]}: ${r.crash}`));
        if (!r.ok) return finish(new FleetInputError(r.file, r.problem));
        mergeFleetMetrics(into, r.part);
        merged++;
      }
      if (merged === files.length) finish();
    };
    for (let t = 0; t < threads; t++) {
      const slot: Slot = { worker: new Worker(workerEntry(), { workerData: data }), busy: false };
      slot.worker.on('message', (msg: FleetWorkerResponse) => {
        slot.busy = false;
        done.set(msg.index, msg);
        mergeReady();
        if (!settled) feed();
      });
      slot.worker.on('error', (error) => finish(error));
      slot.worker.on('exit', (code) => {
        if (code !== 0) finish(new Error(`fleet worker exited with code ${code}`));
      });
      slots.push(slot);
    }
    feed();
  });
}
