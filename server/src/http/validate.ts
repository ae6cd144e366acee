import type { Request, RequestHandler } from 'express';
import type { z } from 'zod';
import { HttpError } from './errors.ts';

/** The parts of a request a route validates, each through its schema. */
export type RequestSchemas = {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
};

/** What the handler reads: each validated part as its schema's output type. */
export type Validated<S extends RequestSchemas> = {
  [K in keyof S]: S[K] extends z.ZodType ? z.output<S[K]> : never;
};

export type Validator<S extends RequestSchemas> = RequestHandler & {
  /** The schemas, for the OpenAPI document (routes/openapi): the document describes what is checked. */
  readonly schemas: S;
  /** The values this validator parsed for `req` (it must have run before the handler). */
  values: (req: Request) => Validated<S>;
};

type Part = keyof RequestSchemas;

/**
 * The first problem of a part as the client's error, with the codes clients match on: a path or
 * query parameter is a 400 `query_invalid` naming it (the URL is malformed); a body is a 422
 * `body_invalid` naming the field (well-formed JSON, invalid content).
 */
function partError(part: Part, issue: z.core.$ZodIssue): HttpError {
  const path = issue.path.join('.');
  if (part === 'body')
    return new HttpError(422, 'body_invalid', `${path || 'body'}: ${issue.message}`, path || undefined);
  return new HttpError(400, 'query_invalid', `${path}: ${issue.message}`, path);
}

/** One value through its schema; the first problem is the part's HttpError. */
export function parsePart<S extends z.ZodType>(part: Part, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw partError(part, parsed.error.issues[0]!);
}

const ORDER: readonly Part[] = ['params', 'query', 'body'];

/**
 * Validation middleware: parses the request's params, query and body (in that order: the first
 * failing part answers) and keeps the typed values for the handler (`validator.values(req)`).
 * The request itself is left as it came: a handler that stores what the client wrote (series
 * settings) still reads `req.body`.
 */
export function validate<S extends RequestSchemas>(schemas: S): Validator<S> {
  const parsedFor = new WeakMap<Request, Validated<S>>();
  const handler: RequestHandler = (req, _res, next) => {
    const values: Partial<Record<Part, unknown>> = {};
    try {
      for (const part of ORDER) {
        const schema = schemas[part];
        if (schema) values[part] = parsePart(part, schema, req[part]);
      }
    } catch (error) {
      return next(error);
    }
    parsedFor.set(req, values as Validated<S>);
    next();
  };
  return Object.assign(handler, {
    schemas,
    values: (req: Request) => {
      const values = parsedFor.get(req);
      // A bug in the route's wiring, not the client's request.
      if (!values) throw new Error('validate(): the validator did not run before this handler');
      return values;
    },
  });
}
