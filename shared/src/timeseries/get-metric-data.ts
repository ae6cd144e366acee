import { z } from 'zod';
import type { Warning } from '../problem.ts';
import { buildSeries, type RawColumn, type RawRow } from './build-series.ts';
import { classifyCloudWatchLabel, classifyDashboardHeader } from './columns.ts';
import { decodeMetricsJson } from './input.ts';
import { DEFAULT_MAX_POINTS, type SeriesImportOptions, type SeriesImportResult } from './series.schema.ts';
import { parseTimestamp, TIMESTAMP_EXPECTED, type ParsedTime } from './timestamps.ts';
import { formatInt } from '../units.ts';

/**
 * The JSON `aws cloudwatch get-metric-data` prints (the GetMetricData API response):
 *
 *     { "MetricDataResults": [ { "Id": "r_ops", "Label": "VolumeReadOps",
 *         "Timestamps": ["2026-11-20T14:05:00+00:00", …], "Values": [1234.0, …],
 *         "StatusCode": "Complete" }, … ],
 *       "Messages": [], "NextToken": "…" }
 *
 * - Timestamps are newest-first by default (`ScanBy: TimestampDescending`); both orders work.
 * - The query (period, statistic) is not echoed: the Label is the metric name unless the query set
 *   one. Period comes from the spacing or `periodSec`; the statistic from the Label/Id (e.g.
 *   `Id: "read_ops_sum"`) or `statistic`, else the import asks (`choice_required`).
 * - Metric-math results already in per-second units (Label "Read IOPS", `m1/PERIOD(m1)`) are
 *   recognized by the dashboard keywords and used as rates.
 * - The CLI merges pages; an array of several responses (pages saved one by one) is merged too.
 * - `StatusCode` `PartialData` (more pages: NextToken) is a warning; `InternalError`/`Forbidden`
 *   mean the values cannot be trusted: an error.
 */

/** The Ids `blockwise fleet query` gives its Stat Sum queries (fleet/queries.ts). */
const FLEET_QUERY_ID = /^v\d+_[rw]_(ops|bytes)$/;

const TimestampSchema = z.union([z.string(), z.number()]);
const MessageSchema = z.object({ Code: z.string().optional(), Value: z.string().optional() });
const ResultSchema = z.object({
  Id: z.string(),
  Label: z.string().optional(),
  Timestamps: z.array(TimestampSchema),
  Values: z.array(z.number()),
  StatusCode: z.string().optional(),
  Messages: z.array(MessageSchema).optional(),
});
const ResponseSchema = z.object({
  MetricDataResults: z.array(ResultSchema),
  Messages: z.array(MessageSchema).optional(),
  NextToken: z.string().nullable().optional(),
});

export function parseGetMetricData(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const decoded = decodeMetricsJson(input);
  if (!decoded.ok) return decoded;
  const { json } = decoded;
  const pages = Array.isArray(json) ? json : [json];
  if (pages.length === 0)
    return { ok: false, error: { code: 'no_data_points', message: 'an empty JSON array' } };
  const first = pages[0];
  if (first && typeof first === 'object' && 'Datapoints' in first) {
    return {
      ok: false,
      error: {
        code: 'unsupported_format',
        message:
          'this is `aws cloudwatch get-metric-statistics` output (one metric per file); use `aws cloudwatch get-metric-data` with VolumeReadOps, VolumeWriteOps, VolumeReadBytes and VolumeWriteBytes in one query',
      },
    };
  }
  const warnings: Warning[] = [...decoded.warnings];
  const results: z.infer<typeof ResultSchema>[] = [];
  for (const [p, page] of pages.entries()) {
    const parsed = ResponseSchema.safeParse(page);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = [...(pages.length > 1 ? [p] : []), ...issue.path].join('.');
      return {
        ok: false,
        error: {
          code: 'bad_get_metric_data',
          message: `${path || 'input'}: ${issue.message} (expected the output of aws cloudwatch get-metric-data: {"MetricDataResults": [{"Id", "Label", "Timestamps", "Values"}]})`,
          path: path || undefined,
        },
      };
    }
    for (const m of parsed.data.Messages ?? []) {
      warnings.push({
        code: 'cloudwatch_message',
        message: `CloudWatch: ${m.Code ?? ''} ${m.Value ?? ''}`.trim(),
      });
    }
    if (parsed.data.NextToken && p === pages.length - 1) {
      warnings.push({
        code: 'partial_data',
        message:
          'The response has a NextToken: more data points exist than this page holds. The AWS CLI fetches all pages unless --max-items or --no-paginate was used.',
      });
    }
    results.push(...parsed.data.MetricDataResults);
  }

  // Results of the same Id (pages) are one column; each distinct Id/Label is another.
  const columnByKey = new Map<string, number>();
  const columns: RawColumn[] = [];
  const ignored: string[] = [];
  const rowByTime = new Map<number, RawRow>();
  const maxPoints = options.maxPoints ?? DEFAULT_MAX_POINTS;
  for (const [i, r] of results.entries()) {
    const at = `MetricDataResults.${i}`;
    if (r.StatusCode === 'InternalError' || r.StatusCode === 'Forbidden') {
      return {
        ok: false,
        error: {
          code: 'metric_query_failed',
          message: `${at} (${r.Label ?? r.Id}): CloudWatch returned StatusCode ${r.StatusCode}; its values cannot be trusted`,
          path: `${at}.StatusCode`,
        },
      };
    }
    if (r.StatusCode === 'PartialData') {
      warnings.push({
        code: 'partial_data',
        message: `${at} (${r.Label ?? r.Id}): StatusCode PartialData — more pages exist.`,
      });
    }
    for (const m of r.Messages ?? []) {
      warnings.push({
        code: 'cloudwatch_message',
        message: `CloudWatch (${r.Id}): ${m.Code ?? ''} ${m.Value ?? ''}`.trim(),
      });
    }
    if (r.Timestamps.length !== r.Values.length) {
      return {
        ok: false,
        error: {
          code: 'bad_get_metric_data',
          message: `${at}: ${r.Timestamps.length} Timestamps but ${r.Values.length} Values (they pair up one to one)`,
          path: `${at}.Values`,
        },
      };
    }
    const label = r.Label ?? r.Id;
    const text = `${label} ${r.Id}`;
    if (!(options.match === undefined || text.toLowerCase().includes(options.match.toLowerCase()))) {
      ignored.push(`${r.Id} (does not match "${options.match}")`);
      continue;
    }
    const cw = classifyCloudWatchLabel(text);
    // `blockwise fleet query` writes Ids v<n>_r_ops … and always asks for Sum (fleet/queries.ts).
    let role =
      cw && cw.statistic === null && FLEET_QUERY_ID.test(r.Id) ? { ...cw, statistic: 'Sum' as const } : cw;
    if (!role) {
      const d = classifyDashboardHeader(label);
      if ('ignored' in d || d.factor === null) {
        ignored.push(`${r.Id} "${label}" (${'ignored' in d ? d.ignored : 'no unit'})`);
        continue;
      }
      role = d;
    }
    const key = `${r.Id}\u0000${label}`;
    let k = columnByKey.get(key);
    if (k === undefined) {
      k = columns.length;
      columnByKey.set(key, k);
      columns.push({ ...role, label, source: at });
    }
    for (let j = 0; j < r.Timestamps.length; j++) {
      const raw = r.Timestamps[j]!;
      const time: ParsedTime | null =
        typeof raw === 'number'
          ? { wallMs: Math.round(raw > 1e11 ? raw : raw * 1000), offsetMin: 0 }
          : parseTimestamp(raw);
      if (time === null || (typeof raw === 'number' && !Number.isFinite(raw))) {
        return {
          ok: false,
          error: {
            code: 'bad_timestamp',
            message: `${at}.Timestamps.${j}: expected ${TIMESTAMP_EXPECTED}, got ${JSON.stringify(raw).slice(0, 60)}`,
            path: `${at}.Timestamps.${j}`,
          },
        };
      }
      const value = r.Values[j]!;
      if (value < 0) {
        return {
          ok: false,
          error: {
            code: 'bad_value',
            message: `${at}.Values.${j}: expected a non-negative number, got ${value}`,
            path: `${at}.Values.${j}`,
          },
        };
      }
      // Without an offset a string is UTC here: the API and the CLI always write UTC.
      const utc = time.wallMs - (time.offsetMin ?? 0) * 60000;
      let row = rowByTime.get(utc);
      if (!row) {
        if (rowByTime.size >= maxPoints) {
          return {
            ok: false,
            error: {
              code: 'too_many_points',
              message: `more than ${formatInt(maxPoints)} points: query a shorter range or a longer period`,
              path: `${at}.Timestamps.${j}`,
            },
          };
        }
        row = { where: `${at}.Timestamps.${j}`, time: { wallMs: utc, offsetMin: 0 }, values: [] };
        rowByTime.set(utc, row);
      }
      row.values[k] = value;
    }
  }
  if (columns.length === 0) {
    return {
      ok: false,
      error: {
        code: options.match !== undefined ? 'no_match' : 'no_io_columns',
        message: `no result is an I/O metric (${ignored.join('; ') || 'no results'}): query VolumeReadOps, VolumeWriteOps, VolumeReadBytes and VolumeWriteBytes`,
        path: 'MetricDataResults',
      },
    };
  }
  const rows = [...rowByTime.values()];
  for (const row of rows) for (let k = 0; k < columns.length; k++) row.values[k] ??= null;
  if (ignored.length > 0)
    warnings.push({ code: 'columns_ignored', message: `Not used: ${ignored.slice(0, 6).join('; ')}.` });
  return buildSeries(
    { format: 'cloudwatch-get-metric-data', columns, rows, headerZone: null, warnings },
    options,
  );
}
