import { z } from 'zod';

/**
 * An expected failure, as a value: a stable machine code, a sentence for people, and where it
 * happened (a JSON path such as `jobs.0.read.iops`, a CLI flag such as `--iops`, a form field).
 * The same shape is the CLI's `error` object and the HTTP API's `{error: ...}` body.
 */
export const ProblemSchema = z.object({
  code: z.string(),
  message: z.string(),
  path: z.string().optional(),
});
export type Problem = z.infer<typeof ProblemSchema>;

export type Result<T, E = Problem> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const fail = (code: string, message: string, path?: string): { ok: false; error: Problem } => ({
  ok: false,
  error: path === undefined ? { code, message } : { code, message, path },
});

/** A warning attached to a result: the code is stable (tests, UI copy), the message plain words. */
export const WarningSchema = z.object({
  code: z.string(),
  message: z.string(),
  /** What the warning is about, when it concerns one number: e.g. `read.iops`, `runtime`. */
  subject: z.string().optional(),
});
export type Warning = z.infer<typeof WarningSchema>;
