import type { RunMeta } from '../store/run-store.ts';
import type { SerializedRun, StoredRunText } from './pair-comparison.ts';

/**
 * JSON bytes of the summaries kept per store, charged once per form held (objects, and the text of
 * a run analyzed here): a proxy for their heap.
 */
export const RECENT_RUNS_MAX_BYTES = 8 * 1024 * 1024;

/** Report bytes kept per store (see recentReportsOf): two 11 MB reports of 7,000-job files fit. */
export const RECENT_REPORTS_MAX_BYTES = 32 * 1024 * 1024;

/**
 * What the comparison reads of runs this process stored or compared lately (their summaries, fio
 * versions and job settings: not their reports), by id, least recently used dropped first. The
 * regression gate compares each CI upload with the run before it on the base branch, usually the
 * previous upload: without this, every upload parsed that run's stored report and summary again
 * through their schemas (~1 ms of a 104 KB upload's ~5 ms, bench P2).
 *
 * A cache of immutable facts only: runs are append-only and an id never names other documents,
 * and an entry is what the stored JSON parses back to (the analysis' own objects, or the parse of
 * the stored text). Another replica, or a restart, simply misses and reads the store.
 */
export class RecentRuns<T extends { id: string } = SerializedRun> {
  readonly #entries = new Map<string, { run: T; bytes: number }>();
  #bytes = 0;

  constructor(private readonly maxBytes = RECENT_RUNS_MAX_BYTES) {}

  get(id: string): T | null {
    const entry = this.#entries.get(id);
    if (!entry) return null;
    // Most recently used last: Map keeps insertion order.
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    return entry.run;
  }

  /** The entry of `id`, no longer kept (its caller moves it: recentReportsOf). */
  take(id: string): T | null {
    const entry = this.#entries.get(id);
    if (!entry) return null;
    this.#entries.delete(id);
    this.#bytes -= entry.bytes;
    return entry.run;
  }

  /** Keeps `run`, whose stored JSON takes `bytes`; a run larger than the whole budget is not kept. */
  remember(run: T, bytes: number): void {
    if (bytes > this.maxBytes) return;
    const old = this.#entries.get(run.id);
    if (old) {
      this.#entries.delete(run.id);
      this.#bytes -= old.bytes;
    }
    this.#entries.set(run.id, { run, bytes });
    this.#bytes += bytes;
    for (const [id, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(id);
      this.#bytes -= entry.bytes;
    }
  }

  /** Runs held (tests). */
  get size(): number {
    return this.#entries.size;
  }

  /** Bytes charged for what is held (tests). */
  get bytes(): number {
    return this.#bytes;
  }
}

const perStore = new WeakMap<object, RecentRuns>();

/** The cache of one archive (ids are per archive): created with the first use of the store. */
export function recentRunsOf(store: object): RecentRuns {
  let cache = perStore.get(store);
  if (!cache) {
    cache = new RecentRuns();
    perStore.set(store, cache);
  }
  return cache;
}

/** A run's stored JSON with its labels as the store validated them (regression-gate.ts JustStored). */
type StoredRunJson = StoredRunText & Pick<RunMeta, 'labels'>;

const reportsPerStore = new WeakMap<object, RecentRuns<StoredRunJson>>();

/**
 * The stored JSON of the newest runs analyzed in the parse pool — their reports as the UTF-8 bytes
 * the store was given — by id, up to RECENT_REPORTS_MAX_BYTES. The regression gate compares a CI
 * upload with the run before it, in the pool when their reports are large; reading that run's
 * report back from SQLite held the event loop 2–6 ms for a 1.9 MB one (bench P13), and longer as
 * reports grow. An entry is taken, not read: the comparison moves its bytes to the worker.
 * Immutable facts only, as RecentRuns: another replica, or a restart, reads the store.
 */
export function recentReportsOf(store: object): RecentRuns<StoredRunJson> {
  let cache = reportsPerStore.get(store);
  if (!cache) {
    cache = new RecentRuns<StoredRunJson>(RECENT_REPORTS_MAX_BYTES);
    reportsPerStore.set(store, cache);
  }
  return cache;
}
