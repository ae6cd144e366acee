import type { ComparedRun } from '@blockwise/shared/analysis';

/** JSON bytes of the summaries (and job settings) kept per store: a proxy for their heap. */
export const RECENT_RUNS_MAX_BYTES = 8 * 1024 * 1024;

/**
 * What the comparison reads of runs this process compared lately (their summaries, fio versions
 * and job settings: not their reports), by id, least recently used dropped first. The regression
 * gate compares a run with the latest run of its base branch: the runs of a feature branch are
 * all compared with the same one, whose stored report and summary would otherwise be parsed again
 * through their schemas for each.
 *
 * A cache of immutable facts only: runs are append-only and an id never names other documents,
 * and an entry is what the stored JSON parses back to. Another replica, or a restart, simply
 * misses and reads the store.
 */
export class RecentRuns<T extends { id: string } = ComparedRun> {
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
