import { gzip } from 'node:zlib';

/** Bytes of answers kept per app (identity and gzip copies together). */
export const RUN_ANSWERS_MAX_BYTES = 32 * 1024 * 1024;

/** `GET /api/runs/:id`'s body for one run, encoded once, and gzip'd once off the event loop. */
export type RunAnswer = {
  json: Buffer;
  gzip: Buffer | null;
  /** Settles once gzip is done with it: `gzip` set, or left null (not worth it, dropped, an error). */
  readonly gzipped: Promise<void>;
};

/**
 * The answers of `GET /api/runs/:id` as sent, by run id: a share link is read again and again (a
 * CI check links it, a page reloads it), and its answer never changes — runs are append-only, and
 * it depends only on the stored run, this build's analysis version and the configured public URL,
 * all fixed for the life of the process. Kept, the bytes are served as they are, with no store
 * read, no assembly of the JSON text and no UTF-8 encoding (bench P3), and gzip'd where the client
 * accepts it (the bench's 49 KiB answer is 6 KiB gzip'd). The gzip copy is made once, in libuv's thread
 * pool, after the first answer; until it is ready the identity bytes go out.
 *
 * A cache only: each replica keeps its own, and a miss reads the store as before. Least recently
 * used answers are dropped past maxBytes.
 */
export class RunAnswers {
  readonly #entries = new Map<string, RunAnswer>();
  #bytes = 0;

  constructor(private readonly maxBytes = RUN_ANSWERS_MAX_BYTES) {}

  get(id: string): RunAnswer | null {
    const entry = this.#entries.get(id);
    if (!entry) return null;
    // Most recently used last: Map keeps insertion order.
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    return entry;
  }

  /** Keeps the answer's bytes and starts gzip'ing them; returns the entry. */
  remember(id: string, json: Buffer): RunAnswer {
    const existing = this.#entries.get(id);
    if (existing) return existing;
    if (json.length > this.maxBytes) return { json, gzip: null, gzipped: Promise.resolve() };
    let settled = () => {};
    const gzipped = new Promise<void>((resolve) => (settled = resolve));
    const entry: RunAnswer = { json, gzip: null, gzipped };
    this.#entries.set(id, entry);
    this.#add(json.length);
    gzip(json, (error, compressed) => {
      settled();
      // Dropped meanwhile, or not worth it: identity only.
      if (error || this.#entries.get(id) !== entry || compressed.length >= json.length) return;
      entry.gzip = compressed;
      this.#add(compressed.length);
    });
    return entry;
  }

  /** Answers held and their bytes (tests). */
  get stats(): { answers: number; bytes: number } {
    return { answers: this.#entries.size, bytes: this.#bytes };
  }

  #add(bytes: number): void {
    this.#bytes += bytes;
    for (const [id, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(id);
      this.#bytes -= entry.json.length + (entry.gzip?.length ?? 0);
    }
  }
}
