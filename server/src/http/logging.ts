import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { pino, type Logger } from 'pino';
import { logLevelFromEnv } from '../config.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Per-request child logger carrying the request id. */
      log: Logger;
      id: string;
    }
  }
}

/**
 * Structured JSON logs (pino) with a request id on every line and response header. Tokens never
 * reach a log line: the Authorization header is not logged, and neither are bodies.
 */
export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? logLevelFromEnv(),
      base: { service: 'blockwise' },
      redact: {
        paths: ['req.headers.authorization', 'headers.authorization', '*.token'],
        censor: '[redacted]',
      },
    },
    options.destination as never,
  );
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Request ids only tie log lines together: a random prefix per process (48 bits, so replicas do
 * not collide) and a counter. Nine random bytes per request cost a synchronous randomFillSync on
 * every request, ~2.5 % of a share-link read's CPU (bench P3).
 */
const ID_PREFIX = randomBytes(6).toString('base64url');
let requestCount = 0;

/**
 * Logs each response (its error code too, when it is an error) and hands its duration to
 * `observe` (GET /metrics' histogram): one `finish` listener per request for both.
 */
export function requestLogging(
  logger: Logger,
  observe?: (req: Request, res: Response, seconds: number) => void,
): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id =
      typeof incoming === 'string' && REQUEST_ID.test(incoming)
        ? incoming
        : `${ID_PREFIX}.${(requestCount++).toString(36)}`;
    req.id = id;
    req.log = logger.child({ reqId: id });
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      observe?.(req, res, ms / 1000);
      const code = (res.locals as { errorCode?: unknown }).errorCode;
      const line = {
        method: req.method,
        url: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        ...(typeof code === 'string' ? { code } : {}),
      };
      if (res.statusCode >= 500) req.log.error(line, 'request');
      else req.log.info(line, 'request');
    });
    next();
  };
}
