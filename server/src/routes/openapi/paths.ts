import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { IdSchema } from '@blockwise/shared/records';
import { runsValidators, seriesValidators } from '../validators.ts';
import { OPTIONAL_BEARER, error, json, response, type ComponentName } from './registry.ts';

/**
 * Every route the app mounts, one registerPath each, with the request schemas the route validates
 * with (its validate() schemas, from routes/validators.ts). A route added to a router and not here
 * fails openapi.test.ts (the app's routes and the document's paths are compared both ways).
 */
export function registerPaths(registry: OpenAPIRegistry): void {
  registerRunPaths(registry);
  registerComparisonPaths(registry);
  registerFleetPaths(registry);
  registerSeriesPaths(registry);
  registerCatalogAndHealthPaths(registry);
}

const idParams = z.object({ id: IdSchema });

/** What any write open to anonymous clients may also answer (http/auth.ts and its cross-origin check). */
const WRITE_AUTH_ERRORS = {
  401: error('Token required or invalid'),
  403: error('cross_origin: sent without a token by a page on another site'),
};

/** GET of a frozen share-link document by id: the document or 404 `notFound`. */
function registerFrozenGet(
  registry: OpenAPIRegistry,
  doc: { path: string; summary: string; name: ComponentName; description: string; notFound: string },
): void {
  registry.registerPath({
    method: 'get',
    path: doc.path,
    summary: doc.summary,
    request: { params: idParams },
    responses: { 200: response(doc.description, doc.name), 404: error(doc.notFound) },
  });
}

/** Every optional documentation string of a parameter, added without changing what it accepts. */
function describeParams<T extends z.ZodRawShape>(
  schema: z.ZodObject<T>,
  descriptions: Partial<Record<keyof T, string>>,
): z.ZodObject<T> {
  const shape = { ...schema.shape };
  for (const [key, description] of Object.entries(descriptions))
    if (description) Object.assign(shape, { [key]: (shape[key] as z.ZodType).describe(description) });
  return z.object(shape) as z.ZodObject<T>;
}

/** pageLimitParam(200, 50): digits, then 1–200 (the pipe after the regex is not in the generated schema). */
const LIMIT_HELP = 'a page size from 1 to 200, written in digits (default 50)';
const CURSOR_HELP = 'nextCursor of the previous page';

const seriesParams = (schema: z.ZodObject<{ series: z.ZodType }>) =>
  describeParams(schema, { series: 'URL-encoded (a / is %2F)' });

/**
 * Labels of an upload, as query parameters (or X-Blockwise-* headers): read by ingest/labels.ts
 * from either place and checked with RunLabelsSchema, so they are listed here by hand.
 */
const labelParams = [
  ['name', 'string'],
  ['kind', 'string'],
  ['instanceType', 'string'],
  ['volumeType', 'string'],
  ['volumeSizeGiB', 'number'],
  ['volumeIops', 'number'],
  ['volumeThroughputMiBps', 'number'],
  ['volumeCount', 'integer'],
  ['region', 'string'],
  ['series', 'string'],
  ['branch', 'string'],
  ['baseBranch', 'string'],
  ['commit', 'string'],
  ['filename', 'string'],
].map(([name, type]) => ({ name: name!, in: 'query' as const, required: false, schema: { type } }));

function registerRunPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/runs',
    summary:
      'Upload fio output (raw JSON/text, gzip accepted) or multipart files; labels as query parameters or X-Blockwise-* headers',
    security: OPTIONAL_BEARER,
    parameters: labelParams as never,
    request: {
      body: {
        required: true,
        content: {
          'application/json': { schema: { type: 'string', format: 'binary' } },
          'text/plain': { schema: { type: 'string' } },
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: { file: { type: 'array', items: { type: 'string', format: 'binary' } } },
            },
          },
        },
      },
    },
    responses: {
      201: response('Stored (raw body: CreatedRun; multipart: UploadResponse)', 'CreatedRun'),
      200: response('Identical bytes and labels were stored before: that run', 'CreatedRun'),
      400: error(
        'Malformed body, corrupt or truncated compression (gzip_invalid, deflate_invalid), nesting too deep, bad labels (labels_invalid: also a label given twice, a number not in decimal), a query parameter given twice (query_invalid)',
      ),
      ...WRITE_AUTH_ERRORS,
      413: error('Over the size limit (after decompression)'),
      415: error('Unsupported Content-Type or Content-Encoding'),
      422: error(
        'Not fio output, or fio output with wrong types or more keys than fio writes (path given); report_too_large: the analysis would be stored in more than 2 × the file + 64 KiB',
      ),
      429: error(
        'Rate limited: too many uploads, or too many body bytes (inflated) per minute (Retry-After)',
      ),
      503: error('Busy or archive unavailable (Retry-After)'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/runs',
    summary: 'List runs, newest first, cursor pagination',
    security: OPTIONAL_BEARER,
    request: { query: describeParams(runsValidators.list.schemas.query, { limit: LIMIT_HELP }) },
    responses: {
      200: response('A page of runs', 'RunList'),
      400: error('Bad query or cursor'),
      401: error('Token required'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/runs/{id}',
    summary: 'A run: labels, normalized report and analysis',
    description:
      'The analysis is today\'s: a run stored by an older analysis version is re-analyzed from its raw bytes on read. Served with Cache-Control: no-cache and ETag "analysis-<version>" (If-None-Match → 304), so a cached copy is revalidated when the analysis changes.',
    request: { params: idParams },
    responses: {
      200: response('The run', 'Run'),
      304: { description: 'Not modified: the cached copy has the current analysis version' },
      404: error('No such run'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/runs/{id}/raw',
    summary: 'The exact bytes uploaded',
    request: { params: idParams },
    responses: { 200: { description: 'The uploaded bytes' }, 404: error('No such run') },
  });
}

function registerComparisonPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/comparisons',
    summary: 'Freeze a comparison of runs and/or a planning session; returns a share link',
    security: OPTIONAL_BEARER,
    request: { body: { required: true, content: json('CreateComparison') } },
    responses: {
      201: response('Created', 'CreatedComparison'),
      ...WRITE_AUTH_ERRORS,
      422: error('Invalid body or unknown run'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/comparisons/{id}',
    summary: 'A frozen comparison',
    description:
      'Frozen, but read as this release reads it (fields added since are derived on reading), so it is not cached for good: served with Cache-Control: public, no-cache and a strong ETag "analysis-<version>-<digest of the body>" (If-None-Match → 304), so a cached copy is revalidated.',
    request: { params: idParams },
    responses: {
      200: response('The comparison', 'Comparison'),
      304: { description: 'Not modified: the cached copy is the body this release serves' },
      404: error('No such comparison'),
    },
  });
}

function registerFleetPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/api/fleet/plans',
    summary:
      'Plan a fleet of EBS volumes from AWS CLI outputs (describe-volumes, get-metric-data responses, optional describe-instances) and freeze it; returns a share link (/fleet/ID)',
    security: OPTIONAL_BEARER,
    request: { body: { required: true, content: json('CreateFleetPlan') } },
    responses: {
      201: response('Created: the plan as stored (the same document GET answers)', 'CreatedFleetPlan'),
      200: response(
        'The same body was posted before (idempotent: SHA-256 of the body, analysis version, price date): the plan stored then',
        'CreatedFleetPlan',
      ),
      400: error('invalid_json, gzip_invalid'),
      ...WRITE_AUTH_ERRORS,
      413: error(
        'payload_too_large: over BLOCKWISE_MAX_UPLOAD_MB after decompression; too_many_volumes (over 10,000), too_many_instances (over 20,000), too_many_metric_points (over 2,000,000): docs/fleet.md §7',
      ),
      415: error('unsupported_media_type: send application/json'),
      422: error(
        "body_invalid, volumes_invalid (also a Size, Iops or Throughput above the volume type's maximum, or a volume id listed twice), metrics_invalid (also a point outside 0–4.2e18, 100 GiB/s over 455 days), instances_invalid or region_unknown; `path` names the field (e.g. metrics.1.MetricDataResults.0.Label); fleet_plan_too_large: the plan would take more than 2 × the request + 64 KiB",
      ),
      429: error('rate_limited: uploads or upload bytes per minute (Retry-After)'),
      503: error('busy: the server is planning as many large requests as it can hold (Retry-After)'),
    },
  });
  registerFrozenGet(registry, {
    path: '/api/fleet/plans/{id}',
    summary: 'A frozen fleet plan (immutable: served with a one-year cache)',
    name: 'StoredFleetPlan',
    description: 'The fleet plan as stored, with its analysis version',
    notFound: 'fleet_plan_not_found',
  });
}

function registerSeriesPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/series',
    summary:
      'The CI series with their run and branch counts and latest run, most recently active first (cursor pagination)',
    security: OPTIONAL_BEARER,
    request: {
      query: describeParams(seriesValidators.list.schemas.query, { limit: LIMIT_HELP, cursor: CURSOR_HELP }),
    },
    responses: {
      200: response('A page of series', 'SeriesList'),
      400: error('Bad query or cursor'),
      401: error('Token required'),
      429: error('Rate limited (Retry-After)'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/series/{series}/settings',
    summary: 'How a CI series is judged by the regression gate (public; an unknown series has the defaults)',
    request: { params: seriesParams(seriesValidators.settings.schemas.params) },
    responses: {
      200: response('The effective settings', 'SeriesSettings'),
      400: error('Not a series name'),
    },
  });
  registry.registerPath({
    method: 'put',
    path: '/api/series/{series}/settings',
    summary: 'Replace the settings of a series (omitted fields follow the defaults)',
    security: OPTIONAL_BEARER,
    request: {
      params: seriesParams(seriesValidators.putSettings.schemas.params),
      body: { required: true, content: json('SeriesConfigInput') },
    },
    responses: {
      200: response('Stored', 'SeriesSettings'),
      400: error('Not a series name, or malformed JSON'),
      ...WRITE_AUTH_ERRORS,
      415: error('Not application/json'),
      422: error('Invalid settings (path given)'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/series/{series}/runs',
    summary: 'The history of a CI series, newest first (an unknown series is an empty list)',
    security: OPTIONAL_BEARER,
    request: {
      params: seriesParams(seriesValidators.runs.schemas.params),
      query: describeParams(seriesValidators.runs.schemas.query, { limit: LIMIT_HELP, before: CURSOR_HELP }),
    },
    responses: {
      200: response('A page of runs', 'RunList'),
      400: error('Bad query or cursor'),
      401: error('Token required'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/runs/{id}/regression',
    summary:
      "The storage regression gate: the run against the latest runs of its base branch (labels.baseBranch, else the series' baseBranch), with a link to the comparison with its latest baseline run (/c/ID once frozen; before, /c/pair/BASELINE/RUN, which freezes it when first opened and answers 303 to /c/ID). Read-only: it never writes",
    security: OPTIONAL_BEARER,
    request: { params: idParams },
    responses: {
      200: response('The report', 'RunRegression'),
      401: error('Token required'),
      404: error('No such run'),
      422: error('The run has no series label (no_series)'),
    },
  });
}

function registerCatalogAndHealthPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/api/catalog',
    summary: 'Which AWS catalog (prices, instance types) the server plans with',
    description:
      'The built-in catalog, or the file given to `serve --catalog` / BLOCKWISE_CATALOG (written by `blockwise catalog update`): origin (its file name), builtIn, generatedAt, pricesFrom / pricesTo (the oldest and newest EBS price dates, YYYY-MM-DD), ebsRegions, ec2Regions, instanceTypes, and the etag of /api/catalog/data. Reads no archive.',
    responses: { 200: { description: 'The catalog in use', content: { 'application/json': {} } } },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/catalog/data',
    summary: 'The catalog file the server plans with',
    description:
      'The whole catalog (format blockwise-catalog/v1: sources with URL or file, publication and fetch dates; EBS prices per region; EC2 on-demand prices; instance types), gzip-compressed when accepted, with an ETag (If-None-Match answers 304). The web app loads it when it is not the built-in one.',
    responses: {
      200: { description: 'The catalog', content: { 'application/json': {} } },
      304: { description: 'Unchanged since the ETag given in If-None-Match' },
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document',
    responses: { 200: { description: 'The OpenAPI document', content: { 'application/json': {} } } },
  });
  registry.registerPath({
    method: 'get',
    path: '/healthz',
    summary: 'Health, including the archive',
    description:
      '503 only when the archive cannot be read (store.ok false): a load balancer then takes the replica out. When only writes fail (read-only database, full disk), 200 with status "degraded" and store.writable false: reads still work on every replica.',
    responses: {
      200: response(
        'Reads work: status "ok", or "degraded" with store.writable false when writes fail',
        'Health',
      ),
      503: response('Degraded: the archive cannot be read (store.ok false)', 'Health'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics',
    description:
      'Prometheus text exposition (version 0.0.4): request durations per route pattern, error responses by code, runs uploaded, the store check, parse-pool queue, process metrics (docs/operations.md). BLOCKWISE_METRICS decides who may read it: token (the default) needs a CI token, open anyone, off answers 404.',
    security: OPTIONAL_BEARER,
    responses: {
      200: { description: 'The metrics', content: { 'text/plain; version=0.0.4': {} } },
      401: error('BLOCKWISE_METRICS=token and no valid CI token was sent'),
      404: error('BLOCKWISE_METRICS=off'),
      503: error('BLOCKWISE_METRICS=token and the archive cannot check the token'),
    },
  });
}
