import type { RequestHandler } from 'express';
import { HttpError } from './errors.ts';

/**
 * Fixed-window rate limits per client (ASVS 2.4.1 anti-automation): `limit` requests per
 * `windowMs`; past it, 429 with Retry-After (seconds until the window resets). The client key is
 * the CI token's id when authenticated, else the remote address. Memory is bounded: windows are
 * swept when they expire and the table is capped.
 */
export type RateLimitRule = { name: string; limit: number; windowMs: number };

const MAX_CLIENTS = 100_000;

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  constructor(
    readonly rule: RateLimitRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request; returns the seconds to wait when over the limit, else null. */
  hit(client: string): number | null {
    const t = this.now();
    this.sweep(t);
    let w = this.windows.get(client);
    if (!w || t - w.start >= this.rule.windowMs) {
      if (!w && this.windows.size >= MAX_CLIENTS) return Math.ceil(this.rule.windowMs / 1000);
      w = { start: t, count: 0 };
      this.windows.set(client, w);
    }
    w.count += 1;
    if (w.count <= this.rule.limit) return null;
    return Math.max(1, Math.ceil((w.start + this.rule.windowMs - t) / 1000));
  }

  private sweep(t: number) {
    if (t - this.lastSweep < this.rule.windowMs) return;
    this.lastSweep = t;
    for (const [key, w] of this.windows) if (t - w.start >= this.rule.windowMs) this.windows.delete(key);
  }
}

export function clientKey(req: Parameters<RequestHandler>[0]): string {
  return req.tokenId ? `token:${req.tokenId}` : `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

export function rateLimit(
  limiter: RateLimiter,
  options: { key?: (req: Parameters<RequestHandler>[0]) => string } = {},
): RequestHandler {
  return (req, _res, next) => {
    const wait = limiter.hit((options.key ?? clientKey)(req));
    if (wait === null) return next();
    next(
      new HttpError(
        429,
        'rate_limited',
        `too many requests (${limiter.rule.name}: ${limiter.rule.limit} per ${limiter.rule.windowMs / 1000} s); retry in ${wait} s`,
        undefined,
        {
          'Retry-After': String(wait),
        },
      ),
    );
  };
}
