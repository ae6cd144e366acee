import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
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
 * The request's id — the client's X-Request-Id when it is a plain token, else a new one — set as
 * the X-Request-Id response header.
 */
export function requestIdOf(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id =
    typeof incoming === 'string' && REQUEST_ID.test(incoming)
      ? incoming
      : `${ID_PREFIX}.${(requestCount++).toString(36)}`;
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * When the response is finished: its duration to `observe` (GET /metrics' histogram) and its log
 * line (`url` is the path without the query; `code`, an error's code, read then). `log` is the
 * request's logger, carrying its id.
 */
export function logWhenFinished(
  log: Pick<Logger, 'info' | 'error'>,
  req: IncomingMessage,
  res: ServerResponse,
  url: () => string,
  observe?: (seconds: number) => void,
  code?: () => unknown,
): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    observe?.(ms / 1000);
    const errorCode = code?.();
    const line = {
      method: req.method,
      url: url(),
      status: res.statusCode,
      ms: Math.round(ms * 10) / 10,
      ...(typeof errorCode === 'string' ? { code: errorCode } : {}),
    };
    if (res.statusCode >= 500) log.error(line, 'request');
    else log.info(line, 'request');
  });
}

/**
 * Logs each response (its error code too, when it is an error) and hands its duration to
 * `observe` (GET /metrics' histogram): one `finish` listener per request for both.
 */
export function requestLogging(
  logger: Logger,
  observe?: (req: Request, res: Response, seconds: number) => void,
): RequestHandler {
  return (req, res, next) => {
    const id = requestIdOf(req, res);
    req.id = id;
    req.log = logger.child({ reqId: id });
    logWhenFinished(
      req.log,
      req,
      res,
      () => req.originalUrl.split('?')[0] ?? '',
      observe && ((seconds) => observe(req, res, seconds)),
      () => (res.locals as { errorCode?: unknown }).errorCode,
    );
    next();
  };
}
