import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { HttpError } from '../http/errors.ts';
import { StoreUnavailableError, type StoreResult } from '../store/run-store.ts';

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

/** Query parameters through their schema; the first problem is a 400 `query_invalid` naming the parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.join('.');
  throw new HttpError(400, 'query_invalid', `${path}: ${issue.message}`, path);
}

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
