import { z } from 'zod';
import { FioReportSchema } from '../fio/fio-report.schema.ts';
import { ProblemSchema } from '../problem.ts';
import { RegressionReportSchema } from '../history/regression-report.schema.ts';
import { SeriesConfigSchema } from '../history/series-config.ts';
import { ComparisonResultSchema } from '../records/comparison.ts';
import {
  IdSchema,
  RunHeadlineSchema,
  RunLabelsSchema,
  RunSummarySchema,
  TargetKindSchema,
  type RunLabels,
} from '../records/run.ts';
import { PlanSessionSchema } from '../records/session.ts';
import { labelTextSchema as labelText, storableTextSchema as storableText } from '../records/text.ts';

/**
 * The HTTP API's request and response shapes: the server validates what it receives and sends
 * with these, the web app and the CLI validate what they get back with the same schemas, and the
 * OpenAPI document at /api/openapi.json is generated from them.
 */

/**
 * The records the contract composes live in records/ (runs, planning sessions, comparisons);
 * re-exported here so imports of the contract keep working.
 */
export {
  ComparisonResultSchema,
  IdSchema,
  PlanSessionSchema,
  RunHeadlineSchema,
  RunLabelsSchema,
  RunSummarySchema,
  TargetKindSchema,
};
export type { RunHeadline, RunLabels } from '../records/run.ts';

/**
 * Label names as query parameters (`?instanceType=r5d.4xlarge&tag.env=prod`) and as headers
 * (`X-Blockwise-Instance-Type: r5d.4xlarge`, `X-Blockwise-Tag: env=prod`). Values are strings on
 * the wire; the server converts numbers at the edge.
 */
export const LABEL_WIRE_NAMES: Record<
  Exclude<keyof RunLabels, 'tags'>,
  { query: string[]; header: string }
> = {
  name: { query: ['name'], header: 'x-blockwise-name' },
  kind: { query: ['kind'], header: 'x-blockwise-kind' },
  instanceType: { query: ['instanceType', 'instance'], header: 'x-blockwise-instance-type' },
  volumeType: { query: ['volumeType'], header: 'x-blockwise-volume-type' },
  volumeSizeGiB: { query: ['volumeSizeGiB', 'volumeSize'], header: 'x-blockwise-volume-size-gib' },
  volumeIops: { query: ['volumeIops'], header: 'x-blockwise-volume-iops' },
  volumeThroughputMiBps: {
    query: ['volumeThroughputMiBps', 'volumeThroughput'],
    header: 'x-blockwise-volume-throughput-mibps',
  },
  volumeCount: { query: ['volumeCount'], header: 'x-blockwise-volume-count' },
  region: { query: ['region'], header: 'x-blockwise-region' },
  series: { query: ['series'], header: 'x-blockwise-series' },
  branch: { query: ['branch'], header: 'x-blockwise-branch' },
  baseBranch: { query: ['baseBranch'], header: 'x-blockwise-base-branch' },
  commit: { query: ['commit'], header: 'x-blockwise-commit' },
};
export const NUMERIC_LABELS = [
  'volumeSizeGiB',
  'volumeIops',
  'volumeThroughputMiBps',
  'volumeCount',
] as const;

export const CreatedRunSchema = z.object({
  id: IdSchema,
  url: z.string(),
  /** false when identical bytes + labels were uploaded before: the existing run is returned. */
  created: z.boolean(),
  summary: RunSummarySchema,
});
export type CreatedRun = z.infer<typeof CreatedRunSchema>;

export const UploadResponseSchema = z.object({ runs: z.array(CreatedRunSchema) });

export const RunSchema = z.object({
  id: IdSchema,
  createdAt: z.string(),
  url: z.string(),
  rawUrl: z.string(),
  fileName: z.string().nullable(),
  mediaType: z.string(),
  rawSha256: z.string(),
  sizeBytes: z.number().int(),
  labels: RunLabelsSchema,
  fioVersion: z.string().nullable(),
  report: FioReportSchema,
  summary: RunSummarySchema,
});
export type Run = z.infer<typeof RunSchema>;

export const RunListItemSchema = z.object({
  id: IdSchema,
  createdAt: z.string(),
  url: z.string(),
  labels: RunLabelsSchema,
  fioVersion: z.string().nullable(),
  headline: RunHeadlineSchema,
});
export type RunListItem = z.infer<typeof RunListItemSchema>;

export const RunListSchema = z.object({
  items: z.array(RunListItemSchema),
  nextCursor: z.string().nullable(),
});
export type RunList = z.infer<typeof RunListSchema>;

/**
 * A page size in a query string: digits only. `0x10`, `1e1`, ` 5` or `5.0` are refused, not read
 * as some other number (Number() would take all of them).
 */
export const pageLimitParam = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/, 'a whole number written in digits, such as 50')
    .transform(Number)
    .pipe(z.number().int().min(1).max(max))
    .default(fallback);

/**
 * `GET /api/runs` query. Each parameter at most once: the server refuses `kind=ebs&kind=nvme`
 * (400 query_invalid naming it) instead of reading one of them.
 */
export const RunListQuerySchema = z.object({
  series: storableText().max(100).optional(),
  instance: storableText().max(64).optional(),
  kind: TargetKindSchema.optional(),
  branch: storableText().max(200).optional(),
  limit: pageLimitParam(200, 50),
  cursor: z.string().max(200).optional(),
});

export const CreateComparisonSchema = z.object({
  title: z.string().trim().max(200).optional(),
  runIds: z.array(IdSchema).max(20),
  plan: PlanSessionSchema.optional(),
});
export type CreateComparison = z.infer<typeof CreateComparisonSchema>;

export const ComparisonSchema = z.object({
  id: IdSchema,
  url: z.string(),
  createdAt: z.string(),
  title: z.string().nullable(),
  runIds: z.array(IdSchema),
  plan: PlanSessionSchema.nullable(),
  result: ComparisonResultSchema,
  /** The date of the price table the costs were computed with, and the rules' version. */
  priceTableDate: z.string(),
  analysisVersion: z.string(),
});
export type Comparison = z.infer<typeof ComparisonSchema>;

export const CreatedComparisonSchema = z.object({ id: IdSchema, url: z.string() });

/** Every error response: `{error: {code, message, path?}}` with a stable code. */
export const ErrorResponseSchema = z.object({ error: ProblemSchema });

export const ERROR_CODES = [
  'fio_invalid',
  'not_fio_json',
  'invalid_json',
  'unsupported_fio_output',
  'empty_input',
  'too_deep',
  'binary_input',
  'labels_invalid',
  'payload_too_large',
  'unsupported_media_type',
  'run_not_found',
  'comparison_not_found',
  'invalid_cursor',
  'query_invalid',
  'body_invalid',
  'unauthorized',
  'rate_limited',
  'method_not_allowed',
  'not_found',
  'busy',
  'store_unavailable',
  'internal_error',
  'no_series',
  'cross_origin',
  'fleet_plan_not_found',
  'request_aborted',
  'gzip_invalid',
  'deflate_invalid',
  'bad_request',
] as const;
/**
 * A code the server answers with itself (server/src/http/errors.ts HttpError); codes of parser
 * problems (fio, sysbench, planning) pass through from their own lists.
 */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Why the archive's database cannot serve (the driver's message is in the server log only):
 * unreachable (refused, lost, restarting, missing), busy (locks or statements beyond their
 * timeout, out of connections), read_only, disk_full, io_error, closed (shutting down).
 */
export const StoreFaultSchema = z.enum([
  'unreachable',
  'busy',
  'read_only',
  'disk_full',
  'io_error',
  'closed',
]);

/** `GET /healthz`: 200 `ok` when the store answers and takes writes, else 503 `degraded`. */
export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  store: z.object({
    kind: z.enum(['sqlite', 'postgres']),
    /** Reads: a round trip answered. */
    ok: z.boolean(),
    latencyMs: z.number().nullable(),
    /** Writes go through (false while `ok` is false). */
    writable: z.boolean(),
    /**
     * What `writable` rests on: `probe`, a write rolled back at once (it cannot change data;
     * `unknown` while another connection holds the write lock, `skipped` when reads already
     * fail), and the last real write that failed for a full disk, a read-only database or an I/O
     * error — which the probe cannot see, as its write never reaches the disk. That failure
     * counts until a write succeeds, for at most a minute.
     */
    writeCheck: z.object({
      probe: z.enum(['ok', 'failed', 'unknown', 'skipped']),
      lastWriteFailureAt: z.string().nullable(),
    }),
    fault: StoreFaultSchema.optional(),
    /** What is wrong, in words (never the driver's message). */
    error: z.string().optional(),
  }),
  version: z.string(),
  analysisVersion: z.string(),
});
export type Health = z.infer<typeof HealthSchema>;

// ── CI history and regression gates ──────────────────────────────────────────────────────────

/** A series name, as the `series` label accepts it (also the path segment of /api/series/:series). */
export const SeriesNameSchema = RunLabelsSchema.shape.series.unwrap();

/** `GET|PUT /api/series/:series/settings`: the effective configuration (defaults filled in). */
export const SeriesSettingsSchema = z.object({
  series: SeriesNameSchema,
  config: SeriesConfigSchema,
  /** false: nobody configured the series; `config` is the defaults. */
  stored: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type SeriesSettingsResponse = z.infer<typeof SeriesSettingsSchema>;

/** `GET /api/series/:series/runs`: newest first; `before` is the previous page's `nextCursor`. */
export const SeriesRunsQuerySchema = z.object({
  branch: labelText(200).optional(),
  limit: pageLimitParam(200, 50),
  before: z.string().max(200).optional(),
});

/** `GET /api/series`: most recently active first; `cursor` is the previous page's `nextCursor`. */
export const SeriesListQuerySchema = z.object({
  limit: pageLimitParam(200, 50),
  cursor: z.string().max(200).optional(),
});

/** One series in `GET /api/series`: its counts (kept as runs arrive) and its latest run. */
export const SeriesListItemSchema = z.object({
  series: SeriesNameSchema,
  runCount: z.number().int().nonnegative(),
  /** Distinct branch labels among its runs. */
  branchCount: z.number().int().nonnegative(),
  latestRun: RunListItemSchema,
});
export type SeriesListItem = z.infer<typeof SeriesListItemSchema>;

export const SeriesListSchema = z.object({
  items: z.array(SeriesListItemSchema),
  nextCursor: z.string().nullable(),
});
export type SeriesList = z.infer<typeof SeriesListSchema>;

/** `GET /api/runs/:id/regression`: the gate's report plus where to look. */
export const RunRegressionSchema = RegressionReportSchema.extend({
  runUrl: z.string(),
  /**
   * The comparison of the latest baseline run and this run: `/c/ID` once frozen, else
   * `/c/pair/BASELINE/RUN`, which freezes it the first time it is opened and redirects to
   * `/c/ID`; null without a baseline run.
   */
  comparisonUrl: z.string().nullable(),
});
export type RunRegression = z.infer<typeof RunRegressionSchema>;
