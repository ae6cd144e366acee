import type { ErrorRequestHandler, Response } from 'express';
import type { ErrorCode } from '@blockwise/shared/api';
import type { Problem } from '@blockwise/shared/problem';
import { StoreUnavailableError, WRITE_FAULTS } from '../store/run-store.ts';

/**
 * A code a shared parser put in its Problem (fio, sysbench, planning: each parser keeps its own
 * list). Only problemCode() makes one, so a code written by hand must be in ERROR_CODES
 * (shared/src/api/contract.ts): a typo fails typecheck instead of reaching clients.
 */
export type ProblemCode = string & { readonly __problemCode: true };
export type HttpErrorCode = ErrorCode | ProblemCode;

/** A parser problem's code, as sent: the one place a code is not checked against ERROR_CODES. */
export const problemCode = (code: string): HttpErrorCode => code as ProblemCode;

/**
 * Every error response is `{error: {code, message, path?}}` with a stable code (the web app maps
 * codes to copy; CI scripts match on them). Status codes: 400 malformed, 401, 404, 405, 413, 415,
 * 422 well-formed but invalid, 429, 503 busy or store unavailable.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: HttpErrorCode,
    message: string,
    readonly path?: string,
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toProblem(): Problem {
    return this.path === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, path: this.path };
  }
}

export function sendError(res: Response, error: HttpError): void {
  // For the request log line and GET /metrics' error counter (http/logging.ts, http/metrics.ts).
  (res.locals as { errorCode?: string }).errorCode = error.code;
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.status(error.status).json({ error: error.toProblem() });
}

/** Status for a parse/ingest problem code (fio ingestion codes come from shared/src/fio). */
export function statusForProblem(code: string): number {
  switch (code) {
    case 'invalid_json':
    case 'too_deep':
    case 'empty_input':
    case 'binary_input':
    case 'labels_invalid':
    case 'query_invalid':
    case 'invalid_cursor':
      return 400;
    // too_many_*: a fleet request asking for more than one plan takes (shared/src/fleet/limits.ts).
    case 'too_large':
    case 'payload_too_large':
    case 'too_many_volumes':
    case 'too_many_instances':
    case 'too_many_metric_points':
      return 413;
    default:
      return 422;
  }
}

export function problemError(problem: Problem): HttpError {
  const code = problem.code === 'too_large' ? 'payload_too_large' : problemCode(problem.code);
  return new HttpError(statusForProblem(code), code, problem.message, problem.path);
}

/** Seconds a client should wait before retrying a request the archive could not serve. */
export const STORE_RETRY_AFTER_S = 5;

/**
 * The 503 for a database that cannot serve (unreachable, read-only, disk full, …). The cause
 * stays in `cause`, for the log: the response says only what the client can act on.
 */
export function storeUnavailable(error: StoreUnavailableError): HttpError {
  const message = WRITE_FAULTS.has(error.fault)
    ? 'the archive cannot store anything right now; retry later'
    : 'the archive is temporarily unavailable; retry shortly';
  return new HttpError(
    503,
    'store_unavailable',
    message,
    undefined,
    { 'Retry-After': String(STORE_RETRY_AFTER_S) },
    { cause: error },
  );
}

/** zlib's own failures (Z_DATA_ERROR, Z_BUF_ERROR "unexpected end of file", …): the data, not the connection. */
export function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('Z_');
}

/** 400 `gzip_invalid` / `deflate_invalid`: a compressed body that is corrupt or truncated. */
export function corruptCompressedBody(encoding: 'gzip' | 'deflate', error: unknown): HttpError {
  const detail = (error as { message?: unknown } | null)?.message;
  return new HttpError(
    400,
    `${encoding}_invalid`,
    `the ${encoding} data is corrupt or truncated${typeof detail === 'string' && detail ? `: ${detail}` : ''}`,
  );
}

/** Errors thrown by body parsers and the like, by their `type` (raw-body / http-errors conventions). */
function fromLibraryError(
  err: {
    status?: number;
    statusCode?: number;
    type?: string;
    code?: unknown;
    message?: string;
  },
  contentEncoding: string | undefined,
): HttpError | null {
  const status = err.status ?? err.statusCode;
  // express.json inflating a corrupt or truncated body.
  if (isZlibError(err))
    return corruptCompressedBody(
      contentEncoding?.trim().toLowerCase() === 'deflate' ? 'deflate' : 'gzip',
      err,
    );
  if (err.type === 'entity.too.large' || status === 413)
    return new HttpError(413, 'payload_too_large', 'the request body is larger than the limit');
  if (err.type === 'entity.parse.failed')
    return new HttpError(400, 'body_invalid', `the body is not valid JSON: ${err.message ?? ''}`.trim());
  if (err.type === 'encoding.unsupported' || status === 415)
    return new HttpError(415, 'unsupported_media_type', err.message ?? 'unsupported content encoding');
  if (err.type === 'request.aborted')
    return new HttpError(400, 'request_aborted', 'the client aborted the request');
  if (status !== undefined && status >= 400 && status < 500)
    return new HttpError(status, 'bad_request', err.message ?? 'bad request');
  return null;
}

/**
 * Last middleware: known errors become their responses; anything else is a bug → 500, logged, no
 * details leaked. A StoreUnavailableError from any route or middleware is a 503 here, so no
 * store call can forget its wrapper (the auth check, a rate limit kept in the database…).
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const known =
    err instanceof HttpError
      ? err
      : err instanceof StoreUnavailableError
        ? storeUnavailable(err)
        : fromLibraryError(err as never, req.headers['content-encoding']);
  if (known) {
    // The driver's message (which host, which file, which SQLSTATE) is logged, never sent.
    if (known.status >= 500) req.log?.warn({ err: known.cause ?? err }, known.message);
    if (!res.headersSent) sendError(res, known);
    return;
  }
  req.log?.error({ err }, 'unhandled error');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendError(
    res,
    new HttpError(
      500,
      'internal_error',
      'internal error: the request was not processed (see the server log with this request id)',
    ),
  );
};
