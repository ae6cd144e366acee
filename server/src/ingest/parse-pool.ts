import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunLabels } from '@blockwise/shared';
import { HttpError } from '../http/errors.ts';
import type { AnalyzedUpload } from './analyze-upload.ts';

export type WorkerRequest = { id: number; bytes: Uint8Array; labels: RunLabels; maxBytes: number };
export type WorkerResponse = { id: number; result: AnalyzedUpload } | { id: number; crash: string };

type Job = {
  request: WorkerRequest;
  resolve: (r: AnalyzedUpload) => void;
  reject: (e: unknown) => void;
};

/**
 * A slot of the pool held by one request from admission (before its body is read) until its
 * analysis is done. Release it in a `finally`: releasing twice is harmless.
 */
export type Reservation = { release: () => void };

type Slot = { worker: Worker; job: Job | null; timer: NodeJS.Timeout | null };

/**
 * Where the worker's code is: beside this module in the bundle (dist/parse-worker.mjs), or the
 * TypeScript source run through tsx (tests, `pnpm blockwise serve` from source).
 */
function workerEntry(): URL {
  const bundled = new URL('./parse-worker.mjs', import.meta.url);
  if (existsSync(fileURLToPath(bundled))) return bundled;
  return new URL('./parse-worker.dev.mjs', import.meta.url);
}

/** Body bytes the pool lets requests hold at once (see ParsePool): two 20 MiB json+ files. */
export const DEFAULT_MAX_HELD_BYTES = 48 * 1024 * 1024;

export type ParsePoolOptions = {
  /** Worker threads. */
  size: number;
  /** Jobs that may wait for a worker. */
  maxQueue: number;
  /** A job running longer is stopped (its worker replaced) and answered 503. */
  timeoutMs: number;
  /**
   * Body bytes admitted requests may hold at once (default DEFAULT_MAX_HELD_BYTES). One request
   * is always admitted when nothing is held, so an upload at the size limit still gets through.
   */
  maxHeldBytes?: number;
};

/**
 * A small pool of worker threads for large uploads, with a bounded queue. Bounding the queue
 * bounds memory (each queued 20 MB body is held until parsed): past it the server answers 503
 * with Retry-After instead of growing until it is killed (docs/performance.md P7).
 *
 * What the bench measured (P7: 8 concurrent 20 MiB json+ uploads, peak RSS vs a bare Express
 * server parsing all 8, ~530–800 MiB):
 * - Admission has to happen BEFORE a body is read, or the bound is on parses only. Checking
 *   `load` at request start let all 8 pass (nothing was queued yet), buffer 8 × 20 MiB and only
 *   then refuse 4: peak 688 MiB. So a request `reserve()`s at admission and holds the reservation
 *   through reading, analysis and storing.
 * - A count alone does not bound memory: one 20 MiB upload costs ~235 MiB of peak RSS in the app
 *   (the body, its copy for the worker, ~110 MiB of parse in the worker, GC lag), so 4 admitted
 *   uploads still peaked at ~650 MiB, and 4 × the 50 MiB limit would be far worse. Reservations
 *   therefore also count the declared body bytes against `maxHeldBytes`.
 */
export class ParsePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private readonly maxHeldBytes: number;
  /** Admitted requests (reservations) plus unreserved jobs queued or running, and their bytes. */
  private held = { count: 0, bytes: 0 };

  constructor(
    private readonly options: ParsePoolOptions = {
      size: 1,
      maxQueue: 3,
      timeoutMs: 60_000,
    },
  ) {
    this.maxHeldBytes = options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
  }

  /** Admitted large requests plus unreserved jobs: new large bodies are admitted only below capacity. */
  get load(): number {
    return this.held.count;
  }

  get capacity(): number {
    return this.options.size + this.options.maxQueue;
  }

  /** Whether `bytes` more may be held now: below capacity, and within the byte budget unless idle. */
  private hasRoom(bytes: number): boolean {
    if (this.closed || this.held.count >= this.capacity) return false;
    return this.held.count === 0 || this.held.bytes + bytes <= this.maxHeldBytes;
  }

  /** Counts `bytes` as held until the returned function is called (idempotent). */
  private hold(bytes: number): () => void {
    this.held.count += 1;
    this.held.bytes += bytes;
    let holding = true;
    return () => {
      if (!holding) return;
      holding = false;
      this.held.count -= 1;
      this.held.bytes -= bytes;
    };
  }

  /**
   * Holds room for one request of (up to) `bytes` before its body is read, or null when the pool
   * is full: the caller answers 503 without buffering anything.
   */
  reserve(bytes: number): Reservation | null {
    if (!this.hasRoom(bytes)) return null;
    return { release: this.hold(bytes) };
  }

  /**
   * Analyzes in a worker. With a reservation (held by the caller until the promise settles) the
   * job is always accepted; without one it is refused with 503 when the pool is full.
   */
  analyze(
    bytes: Uint8Array,
    labels: RunLabels,
    maxBytes: number,
    reservation?: Reservation | null,
  ): Promise<AnalyzedUpload> {
    if (this.closed) return Promise.reject(new Error('parse pool closed'));
    if (!reservation && !this.hasRoom(bytes.length)) return Promise.reject(busy());
    const release = reservation ? () => {} : this.hold(bytes.length);
    return new Promise((resolve, reject) => {
      this.queue.push({
        request: { id: this.nextId++, bytes, labels, maxBytes },
        resolve: (value) => {
          release();
          resolve(value);
        },
        reject: (error) => {
          release();
          reject(error);
        },
      });
      this.dispatch();
    });
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(workerEntry()), job: null, timer: null };
    slot.worker.unref();
    slot.worker.on('message', (msg: WorkerResponse) => this.finish(slot, msg));
    slot.worker.on('error', (err) => this.fail(slot, err));
    slot.worker.on('exit', (code) => {
      if (code !== 0) this.fail(slot, new Error(`parse worker exited with code ${code}`));
    });
    this.slots.push(slot);
    return slot;
  }

  private dispatch() {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot) {
        if (this.slots.length >= this.options.size) return;
        slot = this.spawn();
      }
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.ref();
      slot.timer = setTimeout(() => {
        // A pathological input: stop that worker rather than keep a core busy forever.
        this.fail(
          slot,
          new HttpError(503, 'busy', 'the upload took too long to analyze', undefined, {
            'Retry-After': '30',
          }),
        );
      }, this.options.timeoutMs);
      slot.worker.postMessage(job.request);
    }
  }

  private release(slot: Slot) {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    slot.worker.unref();
  }

  private finish(slot: Slot, msg: WorkerResponse) {
    const job = slot.job;
    if (!job || job.request.id !== msg.id) return;
    this.release(slot);
    if ('crash' in msg) job.reject(new Error(`parse worker failed: ${msg.crash}`));
    else job.resolve(msg.result);
    this.retire(slot);
    this.dispatch();
  }

  /**
   * One job per worker: a parse of a 20 MiB json+ file leaves ~120 MiB of heap in its worker
   * (garbage V8 collects later, pages it keeps), so back-to-back large uploads stacked a second
   * parse on top of the first one's leftovers (bench P7). A fresh worker per job starts from a
   * clean heap and the memory is returned at once; spawning one costs a few tens of ms, against
   * ~0.5–1 s of parsing for the bodies that come here (> largeBodyBytes).
   */
  private retire(slot: Slot) {
    const i = this.slots.indexOf(slot);
    if (i !== -1) this.slots.splice(i, 1);
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
  }

  /** A worker died or timed out: fail its job, replace the worker, carry on with the queue. */
  private fail(slot: Slot, error: unknown) {
    const job = slot.job;
    this.release(slot);
    const i = this.slots.indexOf(slot);
    if (i !== -1) this.slots.splice(i, 1);
    void slot.worker.terminate();
    job?.reject(error);
    if (!this.closed) this.dispatch();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('parse pool closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }
}

export function busy(): HttpError {
  return new HttpError(
    503,
    'busy',
    'the server is analyzing as many large uploads as it can hold; retry shortly',
    undefined,
    { 'Retry-After': '5' },
  );
}
