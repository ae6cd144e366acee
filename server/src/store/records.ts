import { FioReportSchema, type FioReport } from '@blockwise/shared/fio';
import {
  PlanSessionSchema,
  RunLabelsSchema,
  readStoredComparisonResult,
  readStoredSummary,
  type ComparisonResult,
  type PlanSession,
  type RunLabels,
  type RunSummary,
} from '@blockwise/shared/records';
import type { z } from 'zod';
import type { Comparison, JsonObject, Run, RunMeta } from './run-store.ts';

/**
 * The store boundary for documents: the RunStore keeps report, summary, plan and result as opaque
 * JSON, byte for byte (its contract), and this module turns what it reads back into typed records
 * through the shared schemas — never a cast. Summaries and comparison results go through the
 * versioned readers (shared records/stored-summary.ts), so a document stored under an earlier
 * analysis version arrives in today's shape.
 *
 * A stored document that does not parse is a fault of the archive, not of the request: it is a
 * StoredRecordError naming the record and the field (HTTP: 500 internal_error, the message in the
 * log), and the process carries on.
 */
export class StoredRecordError extends Error {
  readonly code = 'stored_record_invalid';
  constructor(
    /** e.g. `run AbC…` or `comparison XyZ…`. */
    readonly record: string,
    message: string,
  ) {
    super(`${record}: ${message}`);
    this.name = 'StoredRecordError';
  }
}

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON object as the store decoded it (not an array, not null), else a StoredRecordError. */
export function jsonObjectOf(value: unknown, record: string, column: string): JsonObject {
  if (!isJsonObject(value)) throw new StoredRecordError(record, `its stored ${column} is not a JSON object`);
  return value;
}

/** A list of ids as stored (a JSON array of strings), else a StoredRecordError. */
export function idListOf(value: unknown, record: string, column: string): string[] {
  if (!Array.isArray(value) || !value.every((id): id is string => typeof id === 'string')) {
    throw new StoredRecordError(record, `its stored ${column} is not a list of ids`);
  }
  return value;
}

function parseStored<S extends z.ZodType>(
  schema: S,
  value: unknown,
  record: string,
  column: string,
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = [column, ...(issue?.path ?? [])].map(String).join('.');
  throw new StoredRecordError(record, `${path}: ${issue?.message ?? 'does not validate'}`);
}

/** Stored labels, through the one RunLabelsSchema (the store validated them on the way in). */
export function storedLabelsOf(value: unknown, runId: string): RunLabels {
  return parseStored(RunLabelsSchema, value, `run ${runId}`, 'labels');
}

/** A run's summary in today's shape (upgraded from its analysis version; see readStoredSummary). */
export function storedSummaryOf(run: { id: string; analysisVersion: string }, summary: unknown): RunSummary {
  const read = readStoredSummary(summary, run.analysisVersion);
  if (!read.ok) throw new StoredRecordError(`run ${run.id}`, read.error.message);
  return read.value.value;
}

/** A run's metadata with its summary parsed. */
export type RunRecord = Omit<RunMeta, 'summary'> & { summary: RunSummary };

export function runRecordOf(meta: RunMeta): RunRecord {
  return { ...meta, summary: storedSummaryOf(meta, meta.summary) };
}

/** A run with its summary and normalized fio report parsed. */
export type RunWithReport = RunRecord & { report: FioReport };

export function runWithReportOf(run: Run): RunWithReport {
  return {
    ...runRecordOf(run),
    report: parseStored(FioReportSchema, run.report, `run ${run.id}`, 'report'),
  };
}

/** A frozen comparison with its session and result parsed (the result in today's shape). */
export type ComparisonRecord = Omit<Comparison, 'plan' | 'result'> & {
  plan: PlanSession | null;
  result: ComparisonResult;
};

export function comparisonRecordOf(c: Comparison): ComparisonRecord {
  const record = `comparison ${c.id}`;
  const result = readStoredComparisonResult(c.result);
  if (!result.ok) throw new StoredRecordError(record, result.error.message);
  return {
    ...c,
    plan: c.plan === null ? null : parseStored(PlanSessionSchema, c.plan, record, 'plan'),
    result: result.value,
  };
}
