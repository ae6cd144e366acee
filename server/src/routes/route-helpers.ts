import type { RequestHandler } from 'express';
import { HttpError } from '../http/errors.ts';
import { StoreUnavailableError } from '../store/run-store.ts';

/** Runs a store call; an unavailable database becomes 503 + Retry-After (the server keeps serving). */
export async function storeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof StoreUnavailableError) {
      throw new HttpError(
        503,
        'store_unavailable',
        'the archive is temporarily unavailable; retry shortly',
        undefined,
        { 'Retry-After': '5' },
      );
    }
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
