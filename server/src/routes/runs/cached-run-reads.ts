import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { acceptsGzip } from '../../http/compressed-assets.ts';
import { logWhenFinished, requestIdOf } from '../../http/logging.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import { isValidId } from '../../store/ids.ts';
import type { RunAnswers } from './run-answers.ts';

/** The route label of GET /metrics' histogram for these reads: Express's route path. */
export const RUN_READ_ROUTE = '/api/runs/:id';

const RUN_PATH = /^\/api\/runs\/([A-Za-z0-9_-]{22})$/;

type CachedRunReadsOptions = {
  answers: RunAnswers;
  /** The reads limiter of `GET /api/runs/:id` (its counters must be this process's: hitNow). */
  limiter: RateLimiter;
  logger: Logger;
  /** The client's address as Express's `req.ip` reads it (its `trust proxy` setting applied). */
  clientAddress: (req: IncomingMessage) => string | undefined;
  securityHeaders: (res: ServerResponse) => void;
  etag: (id: string, encoding: 'gzip' | 'identity') => string;
  observe?: (status: number, seconds: number) => void;
};

/**
 * `GET /api/runs/:id` for an answer this process already holds (RunAnswers), answered before
 * Express sees the request; anything else returns false and goes to Express as before.
 *
 * Why: with the answer's bytes at hand, what is left of a read is Express itself. Its per-request
 * set-up (the request and response prototypes swapped, a walk over a dozen layers and routers)
 * and res.send cost 2–3 × writing the 50 KiB answer (bench P3: bare node:http sent the same bytes
 * for ~50 µs of CPU a request, bare Express ~160, the app ~290). A share link is read again and
 * again, so this is the read the page and CI checks make.
 *
 * The answer is the one the Express route gives, byte for byte, headers in the same order
 * (cached-run-reads.test.ts compares both): what the app's middlewares do to such a request is
 * done here by the same functions — the request id and log line (requestLogging), the security
 * headers, the reads rate limit and the histogram of GET /metrics — and the others do nothing to it
 * (sameOriginWrites: not a write; refuseRepeatedQuery: no query). Only the plainest requests are
 * taken: GET (not HEAD), the path exactly as the app writes it (no query, no trailing slash, no
 * percent-encoding), no conditional header (Express's `fresh` decides 304s), a reads limiter
 * counted in memory; the client's address is read as Express reads it (clientAddress). A client
 * over its read limit goes to Express, which charges it again and answers the same 429: past the
 * limit a fixed window refuses until it resets whatever the count, so the extra charge changes
 * nothing.
 */
export function cachedRunReads(
  options: CachedRunReadsOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { answers, limiter, logger, clientAddress, securityHeaders, etag, observe } = options;
  return (req, res) => {
    if (req.method !== 'GET' || req.url === undefined) return false;
    const id = RUN_PATH.exec(req.url)?.[1];
    if (id === undefined || !isValidId(id)) return false;
    const headers = req.headers;
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) return false;
    const answer = answers.get(id);
    if (!answer) return false;
    // http/rate-limit.ts clientKey: no token on this route.
    const wait = limiter.hitNow(`ip:${clientAddress(req) ?? req.socket.remoteAddress ?? 'unknown'}`);
    if (wait !== null) return false;

    const reqId = requestIdOf(req, res);
    const url = req.url;
    logWhenFinished(
      {
        info: (line: object, msg: string) => logger.info({ reqId, ...line }, msg),
        error: (line: object, msg: string) => logger.error({ reqId, ...line }, msg),
      } as Pick<Logger, 'info' | 'error'>,
      req,
      res,
      () => url,
      observe && ((seconds) => observe(res.statusCode, seconds)),
    );
    securityHeaders(res);
    const gzip = answer.gzip && acceptsGzip(headers['accept-encoding']) ? answer.gzip : null;
    res.setHeader('Cache-Control', 'public, no-cache');
    res.setHeader('ETag', etag(id, gzip ? 'gzip' : 'identity'));
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    if (gzip) res.setHeader('Content-Encoding', 'gzip');
    const body = gzip ?? answer.json;
    res.setHeader('Content-Length', body.length);
    res.statusCode = 200;
    res.end(body);
    return true;
  };
}
