import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { activeCatalog, catalogInfo, type CatalogData } from '@blockwise/shared/catalog';
import type { RunLabels } from '@blockwise/shared/records';
import { HttpError } from '../http/errors.ts';
import type { PlannedFleetRequest } from '../services/fleet-plan-request.ts';
import type { AnalyzedUpload } from './analyze-upload.ts';
import {
  movableReportBuffers,
  storedRunBytes,
  type BuiltComparison,
  type StoredRunText,
} from './pair-comparison.ts';

/**
 * What a worker does: analyze an upload, compare stored runs (the regression gate's pair), or
 * plan a fleet (POST /api/fleet/plans).
 */
export type WorkerTask =
  | { kind: 'analyze'; bytes: Uint8Array; labels: RunLabels; maxBytes: number }
  | { kind: 'compare'; runs: StoredRunText[] }
  | { kind: 'fleet'; bytes: Uint8Array };
export type WorkerRequest = { id: number; task: WorkerTask };
export type WorkerResult = AnalyzedUpload | BuiltComparison | PlannedFleetRequest;
/**
 * A worker's answer, with the memory it holds once the job is done: its V8 heap as committed
 * (garbage and the pages V8 keeps included) plus the external memory of its buffers. What decides
 * whether the worker is kept (see ParsePoolOptions.retireMemoryBytes).
 */
export type WorkerResponse = ({ id: number; result: WorkerResult } | { id: number; crash: string }) & {
  memoryBytes: number;
};

type Job = {
  request: WorkerRequest;
  /** Moved to the worker instead of copied (the caller no longer reads them). */
  transfer: ArrayBuffer[];
  resolve: (r: WorkerResult) => void;
  reject: (e: unknown) => void;
};

/**
 * A slot of the pool held by one request from admission (before its body is read) until its
 * analysis is done. Release it in a `finally`: releasing twice is harmless.
 */
export type Reservation = {
  /** The bytes held: what was reserved, or grown to. */
  readonly bytes: number;
  /**
   * Holds `bytes` in all (when more than now) if the pool has room for that — the same check as a
   * new reservation of that size, which also classes it large or small again — else false and
   * nothing changes. A gzip body declares its compressed length; this is how its inflated size
   * is held before it is buffered or parsed.
   */
  grow: (bytes: number) => boolean;
  release: () => void;
};

type Slot = { worker: Worker; job: Job | null; timer: NodeJS.Timeout | null };

type PoolSnapshot = {
  queued: { small: number; large: number };
  running: number;
  admitted: { small: number; large: number };
  heldBytes: number;
  jobs: number;
};

/**
 * Where the worker's code is: beside this module in the bundle (dist/parse-worker.mjs), or the
 * TypeScript source run through tsx (tests, `pnpm blockwise serve` from source).
 */
/** What a parse worker starts with: the installed catalog, or null for the built-in one. */
export type ParseWorkerData = { catalog: { data: CatalogData; origin: string } | null };

function catalogForWorkers(): ParseWorkerData['catalog'] {
  const info = catalogInfo();
  return info.builtIn ? null : { data: activeCatalog(), origin: info.origin };
}

function workerEntry(): URL {
  const bundled = new URL('./parse-worker.mjs', import.meta.url);
  if (existsSync(fileURLToPath(bundled))) return bundled;
  return new URL('./parse-worker.dev.mjs', import.meta.url);
}

/** Body bytes the pool lets requests hold at once (see ParsePool): two 20 MiB json+ files. */
export const DEFAULT_MAX_HELD_BYTES = 48 * 1024 * 1024;
/** Jobs above this are large (see ParsePoolOptions.largeJobBytes). */
export const DEFAULT_LARGE_JOB_BYTES = 1024 * 1024;
/** A worker holding more after a job is retired (see ParsePoolOptions.retireMemoryBytes). */
export const DEFAULT_RETIRE_MEMORY_BYTES = 128 * 1024 * 1024;
/** Small jobs admitted at once (see ParsePoolOptions.maxSmallJobs). */
export const DEFAULT_MAX_SMALL_JOBS = 64;

export type ParsePoolOptions = {
  /** Worker threads. */
  size: number;
  /** Large jobs that may wait for a worker (large: see largeJobBytes). */
  maxQueue: number;
  /** A job running longer is stopped (its worker replaced) and answered 503. */
  timeoutMs: number;
  /**
   * Body bytes admitted requests may hold at once (default DEFAULT_MAX_HELD_BYTES). One request
   * is always admitted when nothing is held, so an upload at the size limit still gets through.
   */
  maxHeldBytes?: number;
  /**
   * Jobs (and reservations) of more bytes are large (default 1 MiB): at most `size + maxQueue`
   * of them are admitted, and they wait behind small ones.
   */
  largeJobBytes?: number;
  /**
   * A worker that holds more than this after a job (WorkerResponse.memoryBytes) is retired
   * (default 128 MiB; see retire()).
   */
  retireMemoryBytes?: number;
  /**
   * Small jobs admitted at once, queued or running (default 64), within the same byte budget.
   * They are many (every upload above the server's largeBodyBytes, 128 KiB) and cost little
   * memory each, so they are not held to the few slots of the large ones: ten concurrent CI
   * uploads of a 200 KB file must not get 503s.
   */
  maxSmallJobs?: number;
};

/**
 * A small pool of worker threads for every upload above the server's largeBodyBytes, with a
 * bounded queue. Bounding the queue bounds memory (each queued 20 MB body is held until parsed):
 * past it the server answers 503 with Retry-After instead of growing until it is killed
 * (docs/performance.md P7). Parsing off the main thread keeps one client's uploads from stalling
 * everyone else's requests (P5, P13).
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
  /** Small jobs are dispatched first: a 200 KB upload should not wait behind three 20 MiB ones. */
  private readonly queues: { small: Job[]; large: Job[] } = { small: [], large: [] };
  private nextId = 1;
  private closed = false;
  private readonly maxHeldBytes: number;
  private readonly largeJobBytes: number;
  private readonly retireMemoryBytes: number;
  private readonly maxSmallJobs: number;
  /** Admitted requests (reservations) plus unreserved jobs queued or running, and their bytes. */
  private held = { large: 0, small: 0, bytes: 0 };
  /** Jobs each worker ran, in spawn order (for tests: reuse vs retirement). */
  private counters = { jobs: 0, spawned: 0 };
  /** keepWarm() was called: a worker is started whenever none is. */
  private warm = false;

  constructor(
    private readonly options: ParsePoolOptions = {
      size: 1,
      maxQueue: 3,
      timeoutMs: 60_000,
    },
  ) {
    this.maxHeldBytes = options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
    this.largeJobBytes = options.largeJobBytes ?? DEFAULT_LARGE_JOB_BYTES;
    this.retireMemoryBytes = options.retireMemoryBytes ?? DEFAULT_RETIRE_MEMORY_BYTES;
    this.maxSmallJobs = options.maxSmallJobs ?? DEFAULT_MAX_SMALL_JOBS;
  }

  /** Admitted requests plus unreserved jobs, large and small. */
  get load(): number {
    return this.held.large + this.held.small;
  }

  /** How many large requests may be admitted at once. */
  get capacity(): number {
    return this.options.size + this.options.maxQueue;
  }

  /** Jobs analyzed and workers started so far: a warm worker serves many small jobs. */
  get stats(): { jobs: number; workersStarted: number } {
    return { jobs: this.counters.jobs, workersStarted: this.counters.spawned };
  }

  /**
   * What the pool holds now, for GET /metrics: jobs waiting for a worker and running, requests
   * admitted (by size class: past maxSmallJobs or capacity the server answers 503 busy), their
   * body bytes, and jobs dispatched so far.
   */
  snapshot(): PoolSnapshot {
    return {
      queued: { small: this.queues.small.length, large: this.queues.large.length },
      running: this.slots.filter((s) => s.job !== null).length,
      admitted: { small: this.held.small, large: this.held.large },
      heldBytes: this.held.bytes,
      jobs: this.counters.jobs,
    };
  }

  private isLarge(bytes: number): boolean {
    return bytes > this.largeJobBytes;
  }

  /** Whether `bytes` more may be held now: below its count limit, and within the byte budget unless idle. */
  private hasRoom(bytes: number): boolean {
    if (this.closed) return false;
    if (this.isLarge(bytes) ? this.held.large >= this.capacity : this.held.small >= this.maxSmallJobs)
      return false;
    return this.load === 0 || this.held.bytes + bytes <= this.maxHeldBytes;
  }

  /** Counts `bytes` as held until the returned function is called (idempotent). */
  private hold(bytes: number): () => void {
    const kind = this.isLarge(bytes) ? 'large' : 'small';
    this.held[kind] += 1;
    this.held.bytes += bytes;
    let holding = true;
    return () => {
      if (!holding) return;
      holding = false;
      this.held[kind] -= 1;
      this.held.bytes -= bytes;
    };
  }

  /** Body bytes held by admitted requests and unreserved jobs (tests: the bound that matters). */
  get heldBytes(): number {
    return this.held.bytes;
  }

  /**
   * Holds room for one request of (up to) `bytes` before its body is read, or null when the pool
   * is full: the caller answers 503 without buffering anything.
   */
  reserve(bytes: number): Reservation | null {
    if (!this.hasRoom(bytes)) return null;
    let held = bytes;
    let release = this.hold(bytes);
    return {
      get bytes() {
        return held;
      },
      grow: (total) => {
        if (total <= held) return true;
        // Checked as if this request were new at its real size: its own holding does not count.
        release();
        if (!this.hasRoom(total)) {
          release = this.hold(held);
          return false;
        }
        release = this.hold(total);
        held = total;
        return true;
      },
      release: () => release(),
    };
  }

  /**
   * Analyzes in a worker. With a reservation (held by the caller until the promise settles) the
   * job is accepted if the reservation holds its bytes or can grow to them (an inflated gzip
   * body); without one it takes room of its own. Either way, 503 when the pool has no room.
   */
  analyze(
    bytes: Uint8Array,
    labels: RunLabels,
    maxBytes: number,
    reservation?: Reservation | null,
  ): Promise<AnalyzedUpload> {
    return this.run(
      { kind: 'analyze', bytes, labels, maxBytes },
      bytes.length,
      reservation,
    ) as Promise<AnalyzedUpload>;
  }

  /**
   * Compares stored runs in a worker (buildPairComparison), admitted like analyze() by the bytes
   * of stored JSON it parses. Reports given as bytes are moved to the worker, not copied (P13):
   * the caller must not read them afterwards.
   */
  compare(runs: StoredRunText[]): Promise<BuiltComparison> {
    return this.run(
      { kind: 'compare', runs },
      storedRunBytes(runs),
      null,
      movableReportBuffers(runs),
    ) as Promise<BuiltComparison>;
  }

  /**
   * Plans a fleet request in a worker (planFleetRequest: parse, plan, serialize, compress),
   * admitted like analyze() by the request's bytes.
   */
  planFleet(bytes: Uint8Array, reservation?: Reservation | null): Promise<PlannedFleetRequest> {
    // The body is moved, not copied, when it owns its memory: structured-cloning 50 MB cost the
    // event loop ~70 ms (bench P17). The caller must not read `bytes` afterwards.
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const transfer = own && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
    return this.run(
      { kind: 'fleet', bytes },
      bytes.length,
      reservation,
      transfer,
    ) as Promise<PlannedFleetRequest>;
  }

  private run(
    task: WorkerTask,
    bytes: number,
    reservation: Reservation | null | undefined,
    transfer: ArrayBuffer[] = [],
  ) {
    if (this.closed) return Promise.reject(new Error('parse pool closed'));
    let release = () => {};
    const full = () =>
      Promise.reject(busy(task.kind === 'compare' ? 'comparing or analyzing as many large runs' : undefined));
    if (reservation) {
      if (!reservation.grow(bytes)) return full();
    } else {
      if (!this.hasRoom(bytes)) return full();
      release = this.hold(bytes);
    }
    const large = this.isLarge(bytes);
    return new Promise<WorkerResult>((resolve, reject) => {
      this.queues[large ? 'large' : 'small'].push({
        request: { id: this.nextId++, task },
        transfer,
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

  /**
   * Keeps a worker started from now on, idle until a job comes: one now, and another whenever the
   * last one is retired or fails. A worker's start — `new Worker` held the event loop 0.6–1.9 ms
   * and the loop saw 4.5–5 ms gaps while the bundled worker compiled its code, before it can lower
   * its own priority — otherwise comes with the first large upload, on a core the event loop needs
   * then (bench P13: every round's first uploads). It costs an idle thread's memory.
   */
  keepWarm(): void {
    this.warm = true;
    this.startIfCold();
  }

  private startIfCold() {
    if (this.warm && !this.closed && this.slots.length === 0) this.spawn();
  }

  private spawn(): Slot {
    // A worker is a new JavaScript realm with the built-in catalog: it gets the catalog this
    // process installed (`--catalog`/BLOCKWISE_CATALOG), or an upload analyzed there would be
    // priced differently from one analyzed inline.
    const workerData: ParseWorkerData = { catalog: catalogForWorkers() };
    const slot: Slot = { worker: new Worker(workerEntry(), { workerData }), job: null, timer: null };
    this.counters.spawned += 1;
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
    while (this.queues.small.length + this.queues.large.length > 0) {
      let slot = this.slots.find((s) => !s.job);
      if (!slot) {
        if (this.slots.length >= this.options.size) return;
        slot = this.spawn();
      }
      const job = (this.queues.small.length > 0 ? this.queues.small : this.queues.large).shift()!;
      this.counters.jobs += 1;
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
      slot.worker.postMessage(job.request, job.transfer);
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
    if (msg.memoryBytes > this.retireMemoryBytes) this.retire(slot);
    this.dispatch();
  }

  /**
   * Retired when a job left it holding more than retireMemoryBytes: a parse of a 20 MiB json+ file
   * leaves ~190 MiB in its worker (146 MiB of heap committed — garbage V8 collects later, pages it
   * keeps — and 40 MiB of buffers), and a second one kept there stacked on the first one's
   * leftovers (220 + 60 MiB; bench P7). A fresh worker starts from a clean heap and the memory is
   * returned at once; spawning one costs a few tens of ms, against ~0.5–1 s of parsing such a body.
   * Other jobs keep their warm worker: the analysis of a 1 MB upload built to grow and the
   * regression gate's comparison of two of its ~1.9 MB reports leave 60–100 MiB (measured over
   * three in a row), and retiring after every job over 1 MiB, as before, spawned a worker per such
   * CI upload — compiling the worker's code beside the event loop on two cores took 30 of them from
   * ~4 to ~7 s and stalled /healthz (bench P13).
   */
  private retire(slot: Slot) {
    const i = this.slots.indexOf(slot);
    if (i !== -1) this.slots.splice(i, 1);
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    this.startIfCold();
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
    this.startIfCold();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of [...this.queues.small.splice(0), ...this.queues.large.splice(0)])
      job.reject(new Error('parse pool closed'));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }
}

export function busy(doing = 'analyzing as many large uploads'): HttpError {
  return new HttpError(503, 'busy', `the server is ${doing} as it can hold; retry shortly`, undefined, {
    'Retry-After': '5',
  });
}
