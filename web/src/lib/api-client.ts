import {
  CatalogBodySchema,
  CatalogInfoSchema,
  ComparisonSchema,
  CreatedComparisonSchema,
  ErrorResponseSchema,
  LABEL_WIRE_NAMES,
  RunListSchema,
  RunRegressionSchema,
  RunSchema,
  SeriesListSchema,
  SeriesSettingsSchema,
  UploadResponseSchema,
  type CatalogInfoResponse,
  type Comparison,
  type CreateComparison,
  type CreatedRun,
  type RunList,
  type Run,
  type RunRegression,
  type SeriesList,
  type SeriesSettingsResponse,
} from '@blockwise/shared/api';
import { IdSchema, type RunLabels } from '@blockwise/shared/records';
import type { z } from 'zod';

/**
 * The only place the web app talks HTTP. Every response is validated with the schema the server
 * validates with (shared/src/api/contract.ts): a server that drifts from the contract produces a
 * readable ApiError here, not a crash three components later. Paths are built here, once.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly path: string | undefined;
  constructor(status: number, code: string, message: string, path?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.path = path;
  }
}

export const apiPaths = {
  runs: '/api/runs',
  run: (id: string) => `/api/runs/${encodeURIComponent(id)}`,
  comparisons: '/api/comparisons',
  comparison: (id: string) => `/api/comparisons/${encodeURIComponent(id)}`,
  series: '/api/series',
  /** CI history: series names may hold `/` (sent encoded: `team%2Fpg`). */
  seriesRuns: (series: string) => `/api/series/${encodeURIComponent(series)}/runs`,
  seriesSettings: (series: string) => `/api/series/${encodeURIComponent(series)}/settings`,
  runRegression: (id: string) => `/api/runs/${encodeURIComponent(id)}/regression`,
  catalog: '/api/catalog',
  catalogData: '/api/catalog/data',
};

/** Which AWS catalog (prices, instance types) the server plans with. */
export function getCatalogInfo(): Promise<CatalogInfoResponse> {
  return request(CatalogInfoSchema, apiPaths.catalog);
}

/** The server's catalog file, when it is not the built-in one (checked where it is installed). */
export function getCatalogData(): Promise<Record<string, unknown>> {
  return request(CatalogBodySchema, apiPaths.catalogData);
}

/** Copy for error codes a person can act on; other codes show the server's message. */
const FRIENDLY: Record<string, string> = {
  network: 'The server could not be reached. Check your connection and try again.',
  rate_limited: 'Too many requests in a short time. Wait a moment and try again.',
  payload_too_large: 'The file is larger than the server accepts.',
  store_unavailable: 'The archive is temporarily unavailable. Try again in a minute.',
  busy: 'The server is busy processing other uploads. Try again in a few seconds.',
};

export function describeApiError(error: unknown): string {
  if (error instanceof ApiError) {
    const friendly = FRIENDLY[error.code];
    return friendly ? `${friendly} (${error.message})` : error.message;
  }
  if (error instanceof Error && error.name === 'AbortError') return 'Cancelled.';
  return error instanceof Error ? error.message : String(error);
}

/** A JSON request whose answer is validated with `schema`; failures are ApiErrors with the server's code. */
export async function request<S extends z.ZodType>(
  schema: S,
  url: string,
  init: RequestInit = {},
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { Accept: 'application/json', ...(init.headers ?? {}) },
    });
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', FRIENDLY.network!);
  }
  let body: unknown = null;
  const text = await response.text();
  if (text.length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) {
    const parsed = ErrorResponseSchema.safeParse(body);
    if (parsed.success) {
      const e = parsed.data.error;
      throw new ApiError(response.status, e.code, e.message, e.path);
    }
    throw new ApiError(
      response.status,
      'http_error',
      `The server answered ${response.status} ${response.statusText}`.trim(),
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || 'response'}: ${issue.message}` : 'unexpected shape';
    throw new ApiError(
      response.status,
      'bad_response',
      `The server's response did not match the API contract (${where}).`,
    );
  }
  return parsed.data;
}

function checkId(id: string, what: string): void {
  if (!IdSchema.safeParse(id).success)
    throw new ApiError(404, `${what}_not_found`, `"${id}" is not a valid ${what} id.`);
}

/** Labels as the query parameters the upload route reads (`?instanceType=…&tag.env=prod`). */
export function labelsToQuery(labels: RunLabels): URLSearchParams {
  const q = new URLSearchParams();
  for (const [key, wire] of Object.entries(LABEL_WIRE_NAMES) as [
    keyof typeof LABEL_WIRE_NAMES,
    { query: string[] },
  ][]) {
    const value = labels[key];
    if (value !== undefined && value !== null && value !== '') q.set(wire.query[0]!, String(value));
  }
  for (const [tag, value] of Object.entries(labels.tags ?? {})) q.set(`tag.${tag}`, value);
  return q;
}

/** Uploads one result file (multipart, the raw bytes kept verbatim by the server) with its labels. */
export async function uploadRun(
  file: Blob,
  fileName: string,
  labels: RunLabels,
  signal?: AbortSignal,
): Promise<CreatedRun> {
  const form = new FormData();
  form.append('file', file, fileName);
  const query = labelsToQuery(labels).toString();
  const result = await request(UploadResponseSchema, `${apiPaths.runs}${query ? `?${query}` : ''}`, {
    method: 'POST',
    body: form,
    signal: signal ?? null,
  });
  const run = result.runs[0];
  if (!run) throw new ApiError(200, 'bad_response', 'The server accepted the upload but returned no run.');
  return run;
}

export async function getRun(id: string, signal?: AbortSignal): Promise<Run> {
  checkId(id, 'run');
  return request(RunSchema, apiPaths.run(id), { signal: signal ?? null });
}

export type RunListFilters = {
  series?: string;
  instance?: string;
  kind?: 'nvme' | 'ebs';
  branch?: string;
  limit?: number;
  cursor?: string;
};

export async function listRuns(filters: RunListFilters, signal?: AbortSignal): Promise<RunList> {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') q.set(key, String(value));
  }
  const query = q.toString();
  return request(RunListSchema, `${apiPaths.runs}${query ? `?${query}` : ''}`, { signal: signal ?? null });
}

export async function createComparison(
  body: CreateComparison,
  signal?: AbortSignal,
): Promise<{ id: string; url: string }> {
  return request(CreatedComparisonSchema, apiPaths.comparisons, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: signal ?? null,
  });
}

export async function getComparison(id: string, signal?: AbortSignal): Promise<Comparison> {
  checkId(id, 'comparison');
  return request(ComparisonSchema, apiPaths.comparison(id), { signal: signal ?? null });
}

/** The CI series with their counts, most recently active first (`cursor`: the previous page's `nextCursor`). */
export async function listSeries(
  query: { limit?: number; cursor?: string },
  signal?: AbortSignal,
): Promise<SeriesList> {
  const q = new URLSearchParams();
  if (query.limit !== undefined) q.set('limit', String(query.limit));
  if (query.cursor) q.set('cursor', query.cursor);
  const qs = q.toString();
  return request(SeriesListSchema, `${apiPaths.series}${qs ? `?${qs}` : ''}`, { signal: signal ?? null });
}

export type SeriesRunsQuery = { branch?: string; limit?: number; before?: string };

/** A CI series' runs, newest first (`before`: the previous page's `nextCursor`). */
export async function listSeriesRuns(
  series: string,
  query: SeriesRunsQuery,
  signal?: AbortSignal,
): Promise<RunList> {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') q.set(key, String(value));
  }
  const qs = q.toString();
  return request(RunListSchema, `${apiPaths.seriesRuns(series)}${qs ? `?${qs}` : ''}`, {
    signal: signal ?? null,
  });
}

/** How a series is judged (the defaults when nobody configured it). */
export async function getSeriesSettings(
  series: string,
  signal?: AbortSignal,
): Promise<SeriesSettingsResponse> {
  return request(SeriesSettingsSchema, apiPaths.seriesSettings(series), { signal: signal ?? null });
}

/** The regression gate's report for one run, with its run and baseline-comparison links. */
export async function getRunRegression(id: string, signal?: AbortSignal): Promise<RunRegression> {
  checkId(id, 'run');
  return request(RunRegressionSchema, apiPaths.runRegression(id), { signal: signal ?? null });
}
