import type { RequestHandler } from 'express';
import { HttpError, storeUnavailable } from '../http/errors.ts';
import { StoreUnavailableError, TokenRevokedError, type StoreResult } from '../store/run-store.ts';

/**
 * Runs a store call; an unavailable database becomes 503 + Retry-After (the server keeps serving),
 * a token revoked before the write committed 401 (as at the start of the request).
 * The errorHandler maps a StoreUnavailableError that reaches it the same way, so an unwrapped
 * call is no 500 either; this wrapper is for code that must see the HttpError itself.
 */
export async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw storeUnavailable(error);
    if (error instanceof TokenRevokedError)
      throw new HttpError(
        401,
        'unauthorized',
        'the token was revoked while the upload was being received: nothing was stored',
        undefined,
        { 'WWW-Authenticate': 'Bearer realm="blockwise"' },
      );
    throw error;
  }
}

/** Methods a resource does not support: 405 with Allow (ASVS 4.1.4; published runs are immutable). */
export function methodNotAllowed(allow: string): RequestHandler {
  return (req, res, next) => {
    if (allow.split(', ').includes(req.method)) return next();
    res.setHeader('Allow', allow);
    next(
      new HttpError(
        405,
        'method_not_allowed',
        `${req.method} is not allowed here${allow.includes('POST') ? '' : ': published runs and comparisons are immutable'} (allowed: ${allow})`,
      ),
    );
  };
}

/** The first query parameter given more than once (`?kind=ebs&kind=nvme`), if any. */
function repeatedParameter(query: unknown): string | null {
  if (typeof query !== 'object' || query === null) return null;
  for (const [name, value] of Object.entries(query)) if (Array.isArray(value)) return name;
  return null;
}

/**
 * The one check for repeated query parameters: every API route refuses a parameter given twice
 * (400 `query_invalid` naming it) rather than read one of its values — whether the route reads
 * it as a filter, a label or not at all. Mounted once on /api (app.ts) rather than in each
 * reader (parseQuery, the upload's labels), so no route can forget it and no reader repeats it:
 * past it, every query value under /api is a single string (see QueryLabels in ingest/labels.ts).
 */
export const refuseRepeatedQuery: RequestHandler = (req, _res, next) => {
  const name = repeatedParameter(req.query);
  next(
    name === null
      ? undefined
      : new HttpError(
          400,
          'query_invalid',
          `${name}: given more than once; send each query parameter once`,
          name,
        ),
  );
};

/** A page the store refused (a cursor it did not issue, a bad filter) is the client's 400. */
export function pageOrThrow<T>(page: StoreResult<T>): T {
  if (page.ok) return page.value;
  throw new HttpError(
    400,
    page.error.code === 'invalid_cursor' ? 'invalid_cursor' : 'query_invalid',
    page.error.message,
    page.error.path,
  );
}
