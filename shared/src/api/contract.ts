import { z } from 'zod';
import { Gp3GenerationSchema, VolumeTypeSchema } from '../aws/volume-types.ts';
import { RunJobSettingsSchema } from '../compare/compare-jobs.ts';
import { RunPairComparisonSchema } from '../compare/compare-runs.ts';
import { FioReportSchema } from '../fio/fio-report.schema.ts';
import { LatencyComparisonSchema } from '../plan/latency.ts';
import { PlanResultSchema } from '../plan/plan.ts';
import { ResidencySchema } from '../plan/viability.ts';
import { VolumeConfigSchema } from '../plan/volume.ts';
import { ProblemSchema, WarningSchema } from '../problem.ts';
import { ObservedMetricsSchema } from '../profile/observed.ts';
import { RegressionReportSchema } from '../history/regression-report.schema.ts';
import { SeriesConfigSchema } from '../history/series-config.ts';
import { STORABLE_TEXT_MESSAGE, isStorableText } from '../storable-text.ts';

/**
 * The HTTP API's request and response shapes: the server validates what it receives and sends
 * with these, the web app and the CLI validate what they get back with the same schemas, and the
 * OpenAPI document at /api/openapi.json is generated from them.
 */

/** Ids: 16 CSPRNG bytes, base64url (22 characters) — unguessable, never sequential. */
export const IdSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'a 22-character id');

export const TargetKindSchema = z.enum(['nvme', 'ebs']);

/** Keys that would touch Object.prototype if anything ever copied labels naively. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Free text the archive can store and query (see isStorableText). */
const storableText = () => z.string().refine(isStorableText, STORABLE_TEXT_MESSAGE);
const labelText = (max: number) =>
  z.string().trim().min(1).max(max).refine(isStorableText, STORABLE_TEXT_MESSAGE);
const positive = z.number().positive().finite();

/** What an upload is about. Every field optional; numbers in the EBS units (GiB, IOPS, MiB/s). */
export const RunLabelsSchema = z.object({
  name: labelText(200).optional(),
  kind: TargetKindSchema.optional(),
  instanceType: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9.-]{0,62}$/, 'an EC2 instance type such as r5d.4xlarge')
    .optional(),
  volumeType: VolumeTypeSchema.optional(),
  volumeSizeGiB: positive.max(1_000_000).optional(),
  volumeIops: positive.max(10_000_000).optional(),
  volumeThroughputMiBps: positive.max(1_000_000).optional(),
  volumeCount: z.number().int().min(1).max(64).optional(),
  region: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{2,40}$/, 'an AWS region code such as us-east-1')
    .optional(),
  /** CI history: e.g. `pg-data-volume`. */
  series: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._/-]{1,100}$/, 'letters, digits and . _ / - (at most 100)')
    .optional(),
  branch: labelText(200).optional(),
  baseBranch: labelText(200).optional(),
  commit: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{4,64}$/, 'a commit hash (4–64 hex digits)')
    .optional(),
  tags: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/, 'tag names: letters, digits and . _ - (at most 64)')
        .refine((k) => !RESERVED_KEYS.has(k), 'a reserved name (__proto__, constructor, prototype)'),
      storableText().max(200),
    )
    .refine((t) => Object.keys(t).length <= 20, 'at most 20 tags')
    .optional(),
});
export type RunLabels = z.infer<typeof RunLabelsSchema>;

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

/** Headline numbers of a run, for lists and history (read/write, total over jobs). */
export const RunHeadlineSchema = z.object({
  readIops: z.number(),
  writeIops: z.number(),
  readBytesPerSec: z.number(),
  writeBytesPerSec: z.number(),
  readBlockSizeBytes: z.number().nullable(),
  writeBlockSizeBytes: z.number().nullable(),
  /** clat percentiles in ms (exact, or the upper bound when approximate). */
  readClatMs: z.record(z.string(), z.number()).nullable(),
  writeClatMs: z.record(z.string(), z.number()).nullable(),
  clatApproximate: z.boolean(),
  runtimeSec: z.number().nullable(),
});
export type RunHeadline = z.infer<typeof RunHeadlineSchema>;

/** The analysis stored with a run (recomputable from the raw bytes when rules or prices change). */
export const RunSummarySchema = z.object({
  analysisVersion: z.string(),
  fioVersion: z.string().nullable(),
  jobCount: z.number().int(),
  groupCount: z.number().int(),
  headline: RunHeadlineSchema,
  /** The plan for the configuration the labels describe (instance + volume, or NVMe); null when they describe none. */
  plan: PlanResultSchema.nullable(),
  warnings: z.array(WarningSchema),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

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

/** A typed-in profile of a planning session (numbers from CloudWatch/Grafana/Datadog). */
export const SessionObservedSchema = ObservedMetricsSchema.extend({ id: z.string().max(40) });

/**
 * The inputs of a planning session: what "Save & share" stores (with the run ids) and what an
 * unsaved session encodes in its URL (typed-in inputs only). The server recomputes the result
 * from these and freezes it in the comparison.
 */
export const PlanSessionSchema = z.object({
  version: z.literal(1),
  observed: z.array(SessionObservedSchema).max(20),
  /** Which profile the plan is for: `run:<id>` or `observed:<id>`; null = the first available. */
  profileRef: z.string().max(60).nullable(),
  instanceType: z.string().max(64).nullable(),
  /** Candidate EBS configurations to compare (gp3 vs io2 vs gp2 …). */
  candidates: z.array(VolumeConfigSchema).max(10),
  headroom: z.number().min(0).max(5),
  region: z.string().max(40),
  /** `storage=0.08,iops=0.005` or qualified `gp3.iops=…`, applied over the region's card. */
  rateOverrides: z.string().max(500).nullable(),
  nodes: z.number().int().min(1).max(100_000),
  gp3Generation: Gp3GenerationSchema,
  syncCommits: z.boolean(),
  residency: ResidencySchema,
  datasetGiB: z.number().positive().max(10_000_000).nullable(),
});
export type PlanSession = z.infer<typeof PlanSessionSchema>;

export const CreateComparisonSchema = z.object({
  title: z.string().trim().max(200).optional(),
  runIds: z.array(IdSchema).max(20),
  plan: PlanSessionSchema.optional(),
});
export type CreateComparison = z.infer<typeof CreateComparisonSchema>;

/**
 * What a share link shows, computed once at creation and never again (immutable). Fields added
 * later are optional: comparisons stored before them must still parse.
 */
export const ComparisonResultSchema = z.object({
  runs: z.array(
    z.object({
      id: IdSchema,
      labels: RunLabelsSchema,
      fioVersion: z.string().nullable(),
      summary: RunSummarySchema,
      /** The settings of the run's fio jobs (absent in comparisons stored before jobs were compared). */
      jobSettings: RunJobSettingsSchema.optional(),
    }),
  ),
  /** One plan per candidate configuration of the session (or per run when there is no session). */
  plans: z.array(z.object({ title: z.string(), plan: PlanResultSchema })),
  /**
   * EBS vs NVMe latency, reads (else writes), when the comparison holds one run of each kind; null
   * when the verdict is withheld because the runs ran different fio jobs. `nvmeVsEbs` has both directions.
   */
  latency: LatencyComparisonSchema.nullable(),
  /**
   * The first NVMe run (reference) against the first EBS run (candidate): whether they ran the
   * same fio job, the numbers side by side, and the verdicts — withheld when the jobs differ.
   * null without a run of each kind; absent in comparisons stored before jobs were compared.
   */
  nvmeVsEbs: RunPairComparisonSchema.nullable().optional(),
  /** About the comparison as a whole: `jobs_differ`. Absent in comparisons stored before it existed. */
  warnings: z.array(WarningSchema).optional(),
  rates: z.object({ region: z.string().nullable(), source: z.string(), date: z.string() }),
});
export type ComparisonResult = z.infer<typeof ComparisonResultSchema>;

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
] as const;

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
   * The comparison of the latest baseline run and this run, frozen when the run was uploaded; null
   * without a baseline run, or when that pair was not the run's baseline at upload (settings
   * changed since, or the run predates frozen comparisons; a note says so).
   */
  comparisonUrl: z.string().nullable(),
});
export type RunRegression = z.infer<typeof RunRegressionSchema>;
