import { Router } from 'express';
import { z } from 'zod';
import {
  ComparisonSchema,
  CreateComparisonSchema,
  CreatedComparisonSchema,
  CreatedRunSchema,
  ErrorResponseSchema,
  HealthSchema,
  RunLabelsSchema,
  RunListSchema,
  RunRegressionSchema,
  RunSchema,
  SeriesConfigSchema,
  SeriesListSchema,
  SeriesSettingsSchema,
  UploadResponseSchema,
} from '@blockwise/shared';

const schemas = {
  Run: RunSchema,
  RunList: RunListSchema,
  RunLabels: RunLabelsSchema,
  CreatedRun: CreatedRunSchema,
  UploadResponse: UploadResponseSchema,
  CreateComparison: CreateComparisonSchema,
  CreatedComparison: CreatedComparisonSchema,
  Comparison: ComparisonSchema,
  Error: ErrorResponseSchema,
  Health: HealthSchema,
  SeriesSettings: SeriesSettingsSchema,
  SeriesList: SeriesListSchema,
  RunRegression: RunRegressionSchema,
  /** Request bodies: every field optional (the defaults apply), hence the input side of the schema. */
  SeriesConfigInput: SeriesConfigSchema,
} as const;
const INPUT_SCHEMAS: ReadonlySet<string> = new Set(['SeriesConfigInput']);

const ref = (name: keyof typeof schemas) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: keyof typeof schemas) => ({ 'application/json': { schema: ref(name) } });
const error = (description: string) => ({ description, content: json('Error') });
const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' },
};

const seriesParam = {
  name: 'series',
  in: 'path',
  required: true,
  description: 'URL-encoded (a / is %2F)',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._/-]{1,100}$' },
};

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
].map(([name, type]) => ({ name, in: 'query', required: false, schema: { type } }));

/** The OpenAPI 3.0 document, generated from the same Zod schemas the server validates with. */
export function openApiDocument(): object {
  const components = Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [
      name,
      z.toJSONSchema(schema, {
        target: 'openapi-3.0',
        unrepresentable: 'any',
        io: INPUT_SCHEMAS.has(name) ? 'input' : 'output',
      }),
    ]),
  );
  return {
    openapi: '3.0.3',
    info: {
      title: 'Blockwise API',
      version: process.env.BLOCKWISE_VERSION ?? '0.1.0',
      description:
        "Archive fio results, analyze them against AWS EBS and instance limits, and share immutable comparisons. Errors are {error:{code,message,path?}} with stable codes; every route that reads the archive answers 503 store_unavailable with Retry-After while its database is unreachable, read-only or full, and each query parameter may be given once (a repeated one is 400 query_invalid). Writes and listings need Authorization: Bearer <token> once the archive has held a CI token (or always, with `serve --auth required`; never, with `--auth open`). Writes without a token from a page on another site (Sec-Fetch-Site cross-site/same-site, or a foreign Origin) are 403 cross_origin. Links in responses (url, rawUrl, runUrl, comparisonUrl) are paths such as /runs/ID, or absolute from the server's BLOCKWISE_PUBLIC_URL.",
    },
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    paths: withStoreErrors({
      '/api/runs': {
        post: {
          summary:
            'Upload fio output (raw JSON/text, gzip accepted) or multipart files; labels as query parameters or X-Blockwise-* headers',
          security: [{}, { bearer: [] }],
          parameters: [
            ...labelParams,
            { name: 'filename', in: 'query', required: false, schema: { type: 'string' } },
          ],
          requestBody: {
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
          responses: {
            201: {
              description: 'Stored (raw body: CreatedRun; multipart: UploadResponse)',
              content: json('CreatedRun'),
            },
            200: {
              description: 'Identical bytes and labels were stored before: that run',
              content: json('CreatedRun'),
            },
            400: error(
              'Malformed body, corrupt or truncated compression (gzip_invalid, deflate_invalid), nesting too deep, bad labels (labels_invalid: also a label given twice, a number not in decimal), a query parameter given twice (query_invalid)',
            ),
            401: error('Token required or invalid'),
            403: error('cross_origin: sent without a token by a page on another site'),
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
        },
        get: {
          summary: 'List runs, newest first, cursor pagination',
          security: [{}, { bearer: [] }],
          parameters: ['series', 'instance', 'kind', 'branch', 'cursor']
            .map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } }))
            .concat([{ name: 'limit', in: 'query', required: false, schema: { type: 'integer' } } as never]),
          responses: {
            200: { description: 'A page of runs', content: json('RunList') },
            400: error('Bad query or cursor'),
            401: error('Token required'),
          },
        },
      },
      '/api/runs/{id}': {
        get: {
          summary: 'A run: labels, normalized report and analysis',
          parameters: [idParam],
          responses: { 200: { description: 'The run', content: json('Run') }, 404: error('No such run') },
        },
      },
      '/api/runs/{id}/raw': {
        get: {
          summary: 'The exact bytes uploaded',
          parameters: [idParam],
          responses: { 200: { description: 'The uploaded bytes' }, 404: error('No such run') },
        },
      },
      '/api/comparisons': {
        post: {
          summary: 'Freeze a comparison of runs and/or a planning session; returns a share link',
          security: [{}, { bearer: [] }],
          requestBody: { required: true, content: json('CreateComparison') },
          responses: {
            201: { description: 'Created', content: json('CreatedComparison') },
            401: error('Token required or invalid'),
            403: error('cross_origin: sent without a token by a page on another site'),
            422: error('Invalid body or unknown run'),
          },
        },
      },
      '/api/comparisons/{id}': {
        get: {
          summary: 'A frozen comparison (immutable)',
          parameters: [idParam],
          responses: {
            200: { description: 'The comparison', content: json('Comparison') },
            404: error('No such comparison'),
          },
        },
      },
      '/api/series': {
        get: {
          summary:
            'The CI series with their run and branch counts and latest run, most recently active first (cursor pagination)',
          security: [{}, { bearer: [] }],
          parameters: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
            },
            {
              name: 'cursor',
              in: 'query',
              required: false,
              description: 'nextCursor of the previous page',
              schema: { type: 'string' },
            },
          ],
          responses: {
            200: { description: 'A page of series', content: json('SeriesList') },
            400: error('Bad query or cursor'),
            401: error('Token required'),
            429: error('Rate limited (Retry-After)'),
          },
        },
      },
      '/api/series/{series}/settings': {
        get: {
          summary:
            'How a CI series is judged by the regression gate (public; an unknown series has the defaults)',
          parameters: [seriesParam],
          responses: {
            200: { description: 'The effective settings', content: json('SeriesSettings') },
            400: error('Not a series name'),
          },
        },
        put: {
          summary: 'Replace the settings of a series (omitted fields follow the defaults)',
          security: [{}, { bearer: [] }],
          parameters: [seriesParam],
          requestBody: { required: true, content: json('SeriesConfigInput') },
          responses: {
            200: { description: 'Stored', content: json('SeriesSettings') },
            400: error('Not a series name, or malformed JSON'),
            401: error('Token required or invalid'),
            403: error('cross_origin: sent without a token by a page on another site'),
            415: error('Not application/json'),
            422: error('Invalid settings (path given)'),
          },
        },
      },
      '/api/series/{series}/runs': {
        get: {
          summary: 'The history of a CI series, newest first (an unknown series is an empty list)',
          security: [{}, { bearer: [] }],
          parameters: [
            seriesParam,
            { name: 'branch', in: 'query', required: false, schema: { type: 'string' } },
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: 200 },
            },
            {
              name: 'before',
              in: 'query',
              required: false,
              description: 'nextCursor of the previous page',
              schema: { type: 'string' },
            },
          ],
          responses: {
            200: { description: 'A page of runs', content: json('RunList') },
            400: error('Bad query or cursor'),
            401: error('Token required'),
          },
        },
      },
      '/api/runs/{id}/regression': {
        get: {
          summary:
            "The storage regression gate: the run against the latest runs of its base branch (labels.baseBranch, else the series' baseBranch), with a link to the comparison frozen at upload. Read-only: it never writes",
          security: [{}, { bearer: [] }],
          parameters: [idParam],
          responses: {
            200: { description: 'The report', content: json('RunRegression') },
            401: error('Token required'),
            404: error('No such run'),
            422: error('The run has no series label (no_series)'),
          },
        },
      },
      '/api/catalog': {
        get: {
          summary: 'Which AWS catalog (prices, instance types) the server plans with',
          description:
            'The built-in catalog, or the file given to `serve --catalog` / BLOCKWISE_CATALOG (written by `blockwise catalog update`): origin (its file name), builtIn, generatedAt, pricesFrom / pricesTo (the oldest and newest EBS price dates, YYYY-MM-DD), ebsRegions, ec2Regions, instanceTypes, and the etag of /api/catalog/data. Reads no archive.',
          responses: { 200: { description: 'The catalog in use', content: { 'application/json': {} } } },
        },
      },
      '/api/catalog/data': {
        get: {
          summary: 'The catalog file the server plans with',
          description:
            'The whole catalog (format blockwise-catalog/v1: sources with URL or file, publication and fetch dates; EBS prices per region; EC2 on-demand prices; instance types), gzip-compressed when accepted, with an ETag (If-None-Match answers 304). The web app loads it when it is not the built-in one.',
          responses: {
            200: { description: 'The catalog', content: { 'application/json': {} } },
            304: { description: 'Unchanged since the ETag given in If-None-Match' },
          },
        },
      },
      '/healthz': {
        get: {
          summary: 'Health, including the archive',
          description:
            '503 only when the archive cannot be read (store.ok false): a load balancer then takes the replica out. When only writes fail (read-only database, full disk), 200 with status "degraded" and store.writable false: reads still work on every replica.',
          responses: {
            200: {
              description:
                'Reads work: status "ok", or "degraded" with store.writable false when writes fail',
              content: json('Health'),
            },
            503: {
              description: 'Degraded: the archive cannot be read (store.ok false)',
              content: json('Health'),
            },
          },
        },
      },
    }),
  };
}

type Operation = { responses: Record<string, unknown>; parameters?: unknown[] };

/**
 * What every API operation can answer besides its own responses: 503 store_unavailable (with
 * Retry-After) while the database is unreachable, read-only or full — every route that reads or
 * writes the archive, mapped in one place (errors.ts) — and, when it takes query parameters,
 * 400 query_invalid for one given twice.
 */
function withStoreErrors<P extends Record<string, Record<string, Operation>>>(paths: P): P {
  for (const [path, operations] of Object.entries(paths)) {
    if (!path.startsWith('/api/') || path === '/api/openapi.json' || path.startsWith('/api/catalog'))
      continue;
    for (const operation of Object.values(operations)) {
      operation.responses[503] ??= error(
        'store_unavailable: the archive is unreachable, read-only or full (Retry-After); or busy',
      );
      if (operation.parameters?.some((p) => (p as { in?: string }).in === 'query'))
        operation.responses[400] ??= error('query_invalid: a query parameter given twice, or malformed');
    }
  }
  return paths;
}

export function openApiRouter(): Router {
  const router = Router();
  let cached: string | null = null;
  router.get('/api/openapi.json', (_req, res) => {
    cached ??= JSON.stringify(openApiDocument());
    res.type('application/json').send(cached);
  });
  return router;
}
