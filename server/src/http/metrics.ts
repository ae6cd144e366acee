import type { Request, Response } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ParsePool } from '../ingest/parse-pool.ts';
import { checkStoreHealth } from '../services/store-health.ts';
import { STORE_FAULTS, type StoreHealth } from '../store/run-store.ts';

/**
 * Request durations from 1 ms (a share-link read, bench P3) to the 60 s request timeout (a 50 MiB
 * upload on a busy machine). Prometheus's `le` buckets are cumulative: 15 of them per series.
 */
const DURATION_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Methods Node's parser accepts are ~35; the ones the API answers are these, the rest are `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/**
 * The route label: the Express pattern that answered (`/api/runs/:id`), never the path a client
 * chose, so one label value per route whatever ids are requested. Requests no route answered are
 * `(static)` (built assets, served by middleware) or `(unmatched)` (404s and refusals before
 * routing): two values, whatever paths scanners try.
 */
export function routeLabel(req: Request, res: Response): string {
  const route = req.route as { path?: unknown } | undefined;
  if (route?.path !== undefined) return `${req.baseUrl}${String(route.path)}`;
  return res.statusCode < 400 ? '(static)' : '(unmatched)';
}

const methodLabel = (method: string): string => (METHODS.has(method) ? method : 'other');
const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/**
 * Process metrics (prom-client's defaults: CPU, memory, event-loop lag and its percentiles, GC,
 * handles) are the process's, not an app's: collected once per process in a registry of their
 * own, never prom-client's global one, however many apps a process creates (tests create
 * hundreds; each collectDefaultMetrics adds a GC observer and an event-loop monitor that are
 * never removed).
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * One app's metrics, in a registry of its own. The per-request cost is one histogram observe (and
 * one counter increment for an error response); the rest is read from the store and the parse
 * pool when Prometheus scrapes.
 */
export class AppMetrics {
  private readonly registry = new Registry();
  private readonly duration = new Histogram({
    name: 'blockwise_http_request_duration_seconds',
    help: 'Time from a request arriving to its response finishing, by method, Express route pattern and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: DURATION_BUCKETS_S,
    registers: [this.registry],
  });
  private readonly errors = new Counter({
    name: 'blockwise_http_error_responses_total',
    help: 'Error responses by route, status and error code (the `error.code` of the JSON body: http/errors.ts).',
    labelNames: ['route', 'status', 'code'] as const,
    registers: [this.registry],
  });
  private readonly runs = new Counter({
    name: 'blockwise_runs_uploaded_total',
    help: 'Runs accepted by POST /api/runs: created, or already stored (the same bytes and labels uploaded again).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  private readonly storeUp = new Gauge({
    name: 'blockwise_store_up',
    help: "1 when the store answers /healthz's read check at scrape time, else 0.",
    labelNames: ['dialect'] as const,
    registers: [this.registry],
  });
  private readonly storeWritable = new Gauge({
    name: 'blockwise_store_writable',
    help: "1 when /healthz's write check passes at scrape time (a write rolled back at once, and no recent real write failed with a write fault), else 0.",
    registers: [this.registry],
  });
  private readonly storeLatency = new Gauge({
    name: 'blockwise_store_ping_seconds',
    help: 'Round trip of the read check at scrape time (absent when it failed).',
    // A label, so that reset() leaves no sample (a metric without labels always shows one).
    labelNames: ['dialect'] as const,
    registers: [this.registry],
  });
  private readonly storeErrors = new Counter({
    name: 'blockwise_store_unavailable_errors_total',
    help: 'Store calls that failed with the database unavailable, by fault; read_only, disk_full and io_error are write failures.',
    labelNames: ['fault'] as const,
    registers: [this.registry],
  });
  private readonly pendingWrites: Gauge | null;
  private readonly queued = new Gauge({
    name: 'blockwise_parse_pool_queued_jobs',
    help: 'Parse-pool jobs waiting for a worker thread, by size class (large: above 1 MiB).',
    labelNames: ['size'] as const,
    registers: [this.registry],
  });
  private readonly running = new Gauge({
    name: 'blockwise_parse_pool_running_jobs',
    help: 'Parse-pool jobs a worker thread is running.',
    registers: [this.registry],
  });
  private readonly admitted = new Gauge({
    name: 'blockwise_parse_pool_admitted_requests',
    help: 'Requests holding a parse-pool slot (admitted before their body is read), by size class; past the limits the server answers 503 busy.',
    labelNames: ['size'] as const,
    registers: [this.registry],
  });
  private readonly heldBytes = new Gauge({
    name: 'blockwise_parse_pool_held_bytes',
    help: 'Body bytes the admitted requests hold (bounded by the pool: docs/performance.md P7).',
    registers: [this.registry],
  });
  private readonly jobs = new Counter({
    name: 'blockwise_parse_pool_jobs_total',
    help: 'Jobs the parse pool dispatched to a worker thread.',
    registers: [this.registry],
  });

  constructor(
    private readonly store: StoreHealth,
    private readonly pool: ParsePool,
  ) {
    // Only a store that queues writes has a queue to show (SQLite's writer thread).
    this.pendingWrites =
      typeof store.pendingWrites === 'function'
        ? new Gauge({
            name: 'blockwise_store_pending_writes',
            help: "Writes (and report reads) sent to SQLite's writer thread and not answered yet.",
            registers: [this.registry],
          })
        : null;
    processMetrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** On every response's `finish` (http/logging.ts): the one per-request cost. */
  observeRequest(req: Request, res: Response, seconds: number): void {
    const route = routeLabel(req, res);
    this.observeRoute(req.method, route, res.statusCode, seconds);
    const code = (res.locals as { errorCode?: unknown }).errorCode;
    if (typeof code === 'string') this.errors.inc({ route, status: String(res.statusCode), code });
  }

  /** A request's duration in the histogram, under its route's label (`/api/runs/:id`). */
  observeRoute(method: string, route: string, status: number, seconds: number): void {
    this.duration.observe({ method: methodLabel(method), route, status_class: statusClass(status) }, seconds);
  }

  /** A run POST /api/runs accepted: `created`, or `existing` when it was already stored. */
  runUploaded(created: boolean): void {
    this.runs.inc({ result: created ? 'created' : 'existing' });
  }

  /**
   * The exposition text: the store checked now (the same check as /healthz, each step within
   * 2 s), the pool and store counts read now, then the process's metrics.
   */
  async exposition(): Promise<string> {
    const { store } = await checkStoreHealth(this.store);
    this.storeUp.reset();
    this.storeUp.set({ dialect: store.kind }, store.ok ? 1 : 0);
    this.storeWritable.set(store.writable ? 1 : 0);
    this.storeLatency.reset();
    if (store.latencyMs !== null) this.storeLatency.set({ dialect: store.kind }, store.latencyMs / 1000);
    // Counters mirrored from the store's own tally: reset, then set to its totals.
    const tally = this.store.unavailableErrors();
    this.storeErrors.reset();
    for (const fault of STORE_FAULTS) this.storeErrors.inc({ fault }, tally[fault] ?? 0);
    const pending = this.store.pendingWrites?.();
    if (this.pendingWrites && typeof pending === 'number') this.pendingWrites.set(pending);

    const pool = this.pool.snapshot();
    this.queued.set({ size: 'small' }, pool.queued.small);
    this.queued.set({ size: 'large' }, pool.queued.large);
    this.running.set(pool.running);
    this.admitted.set({ size: 'small' }, pool.admitted.small);
    this.admitted.set({ size: 'large' }, pool.admitted.large);
    this.heldBytes.set(pool.heldBytes);
    this.jobs.reset();
    this.jobs.inc(pool.jobs);

    const [own, proc] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${own}\n${proc}`;
  }
}
