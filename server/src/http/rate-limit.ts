import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { MemoryWindowCounters } from '../store/replica-state.ts';
import {
  StoreUnavailableError,
  WRITE_FAULTS,
  type RateLimitRecords,
  type WindowCount,
} from '../store/run-store.ts';
import { HttpError } from './errors.ts';
import { formatLimit } from './read-body.ts';

/**
 * Fixed-window rate limits per client (ASVS 2.4.1 anti-automation): `limit` requests — or, for a
 * byte budget, `limit` body bytes — per `windowMs`; past it, 429 with Retry-After (seconds until
 * the window resets). The client key is the CI token's id when authenticated, else the remote
 * address. A window starts at a client's first hit.
 *
 * Where the counters live decides what a limit means with replicas: the limits that protect the
 * shared archive (uploads, bytes parsed, unknown-id probes) count in the store — one table every
 * PostgreSQL replica charges, so N replicas still allow the limit once; SQLite serves one process
 * and counts in memory. Limits that protect a process's own event loop (reads) count per process.
 * A counter store that cannot answer fails the request (503), never lets it through unlimited —
 * except one that answers reads but refuses writes (see storeCounter).
 */
export type RateLimitRule = {
  name: string;
  limit: number;
  windowMs: number;
  /** What `limit` counts: requests (the default) or body bytes. */
  unit?: 'requests' | 'bytes';
};

/** Where a limiter's windows are counted. */
export interface WindowCounter {
  hit(key: string, amount: number, windowMs: number): Promise<WindowCount>;
  /** The same, answered at once: counters in this process's memory only. */
  hitNow?(key: string, amount: number, windowMs: number): WindowCount;
}

/** Counters in this process's memory (bounded; see MemoryWindowCounters). */
export function memoryCounter(now: () => number = Date.now): WindowCounter {
  const counters = new MemoryWindowCounters(now);
  return {
    hit: async (key, amount, windowMs) => counters.hit(key, amount, windowMs),
    hitNow: (key, amount, windowMs) => counters.hit(key, amount, windowMs),
  };
}

const isWriteFault = (error: unknown): error is StoreUnavailableError =>
  error instanceof StoreUnavailableError && WRITE_FAULTS.has(error.fault);

/**
 * Counters in the store: shared by every replica on PostgreSQL, in memory on SQLite.
 *
 * A database that serves reads but refuses writes (read-only, disk full, I/O errors) cannot charge
 * a counter: then this process counts in its own memory — still limited, per replica — rather
 * than answer 503 to every limited request. Otherwise a 404 for an unknown id (charged to the
 * unknown-ids limit) would be a 503 on a read-only standby that serves every read. Logged once
 * per episode; each charge tries the store again first, and the first that goes through ends it.
 * Any other failure (the database unreachable) still rejects: reads fail then too.
 */
export function storeCounter(
  store: RateLimitRecords,
  logger?: Logger,
  now: () => number = Date.now,
): WindowCounter {
  const local = new MemoryWindowCounters(now);
  let fallback = false;
  return {
    hit: async (key, amount, windowMs) => {
      // While charges go to memory, reads of a window must see them too.
      if (fallback && amount === 0) return local.hit(key, 0, windowMs);
      try {
        const counted = await store.hitRateLimit(key, amount, windowMs);
        if (fallback && amount > 0) {
          fallback = false;
          logger?.info('rate limits: the store takes writes again; counting there');
        }
        return counted;
      } catch (error) {
        if (!isWriteFault(error)) throw error;
        if (!fallback) {
          fallback = true;
          logger?.warn(
            { err: error },
            'rate limits: the store refuses writes; counting in this process until it takes them again',
          );
        }
        return local.hit(key, amount, windowMs);
      }
    },
  };
}

export class RateLimiter {
  /**
   * @param scope names this limit's counters (`writesAnonymous`): two limiters never share a
   *   window, and replicas with the same configuration share theirs.
   */
  constructor(
    readonly rule: RateLimitRule,
    private readonly counter: WindowCounter = memoryCounter(),
    private readonly scope: string = rule.name,
  ) {}

  /** Charges `amount` (1 request, or a body's bytes); the seconds to wait when past the limit, else null. */
  async hit(client: string, amount = 1): Promise<number | null> {
    const { count, resetInMs } = await this.counter.hit(
      `${this.scope}:${client}`,
      amount,
      this.rule.windowMs,
    );
    return count <= this.rule.limit ? null : retryAfterSeconds(resetInMs);
  }

  /**
   * hit() answered at once, when the counter is this process's memory; undefined (nothing charged)
   * when it is the store's.
   */
  hitNow(client: string, amount = 1): number | null | undefined {
    const counted = this.counter.hitNow?.(`${this.scope}:${client}`, amount, this.rule.windowMs);
    if (!counted) return undefined;
    return counted.count <= this.rule.limit ? null : retryAfterSeconds(counted.resetInMs);
  }

  /** Whether the budget is already spent (reads the window, charges nothing): the seconds to wait, else null. */
  async exhausted(client: string): Promise<number | null> {
    const { count, resetInMs } = await this.counter.hit(`${this.scope}:${client}`, 0, this.rule.windowMs);
    return count < this.rule.limit ? null : retryAfterSeconds(resetInMs);
  }

  /** The 429 for a client past this limit. */
  refusal(wait: number): HttpError {
    const { name, limit, windowMs, unit } = this.rule;
    const amount = unit === 'bytes' ? `${formatLimit(limit)} of request bodies` : `${limit}`;
    return new HttpError(
      429,
      'rate_limited',
      `too many ${unit === 'bytes' ? 'bytes' : 'requests'} (${name}: ${amount} per ${windowMs / 1000} s); retry in ${wait} s`,
      undefined,
      { 'Retry-After': String(wait) },
    );
  }
}

const retryAfterSeconds = (resetInMs: number) => Math.max(1, Math.ceil(resetInMs / 1000));

export function clientKey(req: Request): string {
  return req.tokenId ? `token:${req.tokenId}` : `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

export function rateLimit(
  limiter: RateLimiter,
  options: { key?: (req: Request) => string } = {},
): RequestHandler {
  return (req, _res, next) => {
    limiter.hit((options.key ?? clientKey)(req)).then(
      (wait) => next(wait === null ? undefined : limiter.refusal(wait)),
      // The counter store down: errorHandler answers a StoreUnavailableError 503 (storeUnavailable).
      (error: unknown) => next(error),
    );
  };
}

/**
 * Before reading a body: 429 at once when the client's byte budget is already spent, so a client
 * past it costs no more reading or inflating.
 */
export async function checkByteBudget(limiter: RateLimiter, req: Request): Promise<void> {
  const wait = await limiter.exhausted(clientKey(req));
  if (wait !== null) {
    req.resume();
    throw limiter.refusal(wait);
  }
}

/**
 * After reading a body and before parsing it: charges its (inflated) size; 429 when that takes the
 * client past its budget — parsing, the costly part, never starts.
 */
export async function chargeBodyBytes(limiter: RateLimiter, req: Request, bytes: number): Promise<void> {
  const wait = await limiter.hit(clientKey(req), bytes);
  if (wait !== null) throw limiter.refusal(wait);
}

/**
 * The limits every write route applies: the write rate and the byte budget, each per token when
 * the request carries one, else per anonymous client (docs/server.md §3). `bytesLimiter` is what
 * the route charges the body's real (inflated) size to once it has read it.
 */
export function writeLimits(limiters: {
  writesToken: RateLimiter;
  writesAnonymous: RateLimiter;
  bytesToken: RateLimiter;
  bytesAnonymous: RateLimiter;
}) {
  const bytesLimiter = (req: Request) => (req.tokenId ? limiters.bytesToken : limiters.bytesAnonymous);
  const writeLimit: RequestHandler = (req, res, next) =>
    rateLimit(req.tokenId ? limiters.writesToken : limiters.writesAnonymous)(req, res, next);
  const byteBudget: RequestHandler = (req, _res, next) => {
    checkByteBudget(bytesLimiter(req), req).then(() => next(), next);
  };
  return { writeLimit, bytesLimiter, byteBudget };
}
