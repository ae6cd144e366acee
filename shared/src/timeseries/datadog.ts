import { z } from 'zod';
import type { Warning } from '../problem.ts';
import { KiB } from '../units.ts';
import { parseCell } from './cells.ts';
import { impossibleValue } from './values.ts';
import { readCsv } from './csv.ts';
import { seriesFromDeviceMetrics, type DeviceMetricSeries } from './device-series.ts';
import { decodeMetricsInput, decodeMetricsJson, importFailure } from './input.ts';
import {
  DEFAULT_MAX_POINTS,
  type IoMetric,
  type SeriesImportOptions,
  type SeriesImportResult,
} from './series.schema.ts';
import { parseTimestamp, TIMESTAMP_EXPECTED } from './timestamps.ts';
import { DATADOG_IO_METRIC } from './formats.ts';

/**
 * Datadog's disk metrics (the Agent's `disk`/`io` check, per `device` tag), which mirror
 * iostat -x: `system.io.r_s` and `system.io.w_s` (requests per second), `system.io.rkb_s` and
 * `system.io.wkb_s` (kibibytes per second). Two exports:
 *
 * - **CSV** of a timeseries widget or a notebook cell: a time column, then one column per series
 *   whose header is the query or legend naming the metric and its tags —
 *   `avg:system.io.r_s{device:nvme1n1,host:db-1}`. Columns are found by metric name and `device:`
 *   tag, not by position. A long layout (one row per series and time: time, metric or query,
 *   tags/scope, value) is read too.
 * - **JSON** of the metrics query API (`GET /api/v1/query?from=…&to=…&query=…`):
 *   `{"status":"ok","series":[{"metric":"system.io.r_s","scope":"device:nvme1n1,host:db-1",
 *   "tag_set":["device:nvme1n1"],"interval":20,"pointlist":[[1795527960000.0, 12.5],…]}]}`.
 *
 * Values are per-second averages over each rollup interval, placed at the interval's start
 * (Datadog's timestamps). `null` points are missing, never zero.
 */

const METRICS: Record<string, { metric: IoMetric; factor: number; unit: string }> = {
  r_s: { metric: 'readOps', factor: 1, unit: 'requests/s' },
  w_s: { metric: 'writeOps', factor: 1, unit: 'requests/s' },
  rkb_s: { metric: 'readBytes', factor: KiB, unit: 'KiB/s' },
  wkb_s: { metric: 'writeBytes', factor: KiB, unit: 'KiB/s' },
};

/** The device (and host) a label names: `{device:nvme1n1,host:db-1}`, `device:nvme1n1`. */
function tagsOf(text: string): { device: string | null; host: string | null } {
  const tag = (key: string) => {
    const m = new RegExp(`(?:^|[{,\\s])${key}:([^,}\\s"]+)`).exec(text);
    return m ? m[1]! : null;
  };
  return { device: tag('device'), host: tag('host') };
}

function deviceName(device: string | null, host: string | null, hosts: Set<string | null>): string {
  const d = device ?? 'all devices';
  return hosts.size > 1 ? `${host ?? '?'}:${d}` : d;
}

const TIME_HEADER = /^(time|timestamp|date|datetime)$/i;

export function parseDatadogCsv(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const decoded = decodeMetricsInput(input);
  if (!decoded.ok) return decoded;
  const csv = readCsv(decoded.text, { maxRows: options.maxPoints ?? DEFAULT_MAX_POINTS });
  if (!csv.ok) return csv;
  const { header, rows } = csv.value;
  const cells = header.cells.map((h) => h.trim());
  const warnings: Warning[] = [...decoded.warnings];
  const matches = (label: string) =>
    options.match === undefined || label.toLowerCase().includes(options.match.toLowerCase());
  const timeCol = cells.findIndex((h) => TIME_HEADER.test(h));
  if (timeCol < 0) {
    return importFailure(
      'bad_datadog_csv',
      `line ${header.line}: expected a time column (timestamp, time or date), got ${cells.join(', ')}`,
      `line ${header.line}`,
    );
  }
  const readTime = (raw: string) => {
    const t = parseTimestamp(raw);
    if (t === null) return null;
    return t.wallMs - (t.offsetMin ?? 0) * 60_000; // Datadog writes UTC (epoch or ISO with Z)
  };
  const list: DeviceMetricSeries[] = [];
  const valueCol = cells.findIndex((h) => /^value$/i.test(h));
  const ignored: string[] = [];
  if (valueCol >= 0) {
    // Long layout: a row per series and time.
    const labelCols = cells.map((_, k) => k).filter((k) => k !== timeCol && k !== valueCol);
    const byKey = new Map<string, DeviceMetricSeries & { host: string | null; rawDevice: string | null }>();
    for (const row of rows) {
      const label = labelCols.map((k) => row.cells[k] ?? '').join(' ');
      const m = DATADOG_IO_METRIC.exec(label);
      if (!m || !matches(label)) {
        if (label.trim()) ignored.push(label.trim().slice(0, 60));
        continue;
      }
      const t = readTime(row.cells[timeCol] ?? '');
      if (t === null) {
        return importFailure(
          'bad_timestamp',
          `line ${row.line}, column ${timeCol + 1}: expected ${TIMESTAMP_EXPECTED}, got "${(row.cells[timeCol] ?? '').slice(0, 40)}"`,
          `line ${row.line}`,
        );
      }
      const spec = METRICS[m[1]!]!;
      const { device, host } = tagsOf(label);
      const key = `${m[1]}|${device}|${host}`;
      let s = byKey.get(key);
      if (!s) {
        s = {
          device: '',
          rawDevice: device,
          host,
          metric: spec.metric,
          source: `line ${row.line}`,
          label: label.trim(),
          unit: spec.unit,
          points: new Map(),
        };
        byKey.set(key, s);
      }
      const cell = parseCell(row.cells[valueCol] ?? '');
      if (cell.kind === 'bad' || (cell.kind === 'value' && cell.value < 0)) {
        return importFailure(
          'bad_value',
          `line ${row.line}, column ${valueCol + 1} (value): expected a non-negative number or an empty cell, got "${(row.cells[valueCol] ?? '').slice(0, 40)}"${cell.kind === 'bad' && cell.why ? ` (${cell.why})` : ''}`,
          `line ${row.line}`,
        );
      }
      s.points.set(t, cell.kind === 'missing' ? null : cell.value * spec.factor);
    }
    const hosts = new Set([...byKey.values()].map((s) => s.host));
    for (const s of byKey.values()) list.push({ ...s, device: deviceName(s.rawDevice, s.host, hosts) });
  } else {
    // Wide layout: a column per series.
    const picked = cells
      .map((h, k) => ({ h, k, m: DATADOG_IO_METRIC.exec(h) }))
      .filter((c) => {
        if (c.k === timeCol) return false;
        if (!c.m || !matches(c.h)) {
          if (c.h) ignored.push(c.h.slice(0, 60));
          return false;
        }
        return true;
      });
    const hosts = new Set(picked.map((c) => tagsOf(c.h).host));
    const series = picked.map((c) => {
      const spec = METRICS[c.m![1]!]!;
      const { device, host } = tagsOf(c.h);
      return {
        k: c.k,
        factor: spec.factor,
        s: {
          device: deviceName(device, host, hosts),
          metric: spec.metric,
          source: `column ${c.k + 1}`,
          label: c.h,
          unit: spec.unit,
          points: new Map<number, number | null>(),
        },
      };
    });
    for (const row of rows) {
      const t = readTime(row.cells[timeCol] ?? '');
      if (t === null) {
        return importFailure(
          'bad_timestamp',
          `line ${row.line}, column ${timeCol + 1}: expected ${TIMESTAMP_EXPECTED}, got "${(row.cells[timeCol] ?? '').slice(0, 40)}"`,
          `line ${row.line}`,
        );
      }
      for (const c of series) {
        const raw = row.cells[c.k] ?? '';
        const cell = parseCell(raw);
        if (cell.kind === 'bad' || (cell.kind === 'value' && cell.value < 0)) {
          return importFailure(
            'bad_value',
            `line ${row.line}, column ${c.k + 1} (${c.s.label.slice(0, 40)}): expected a non-negative number or an empty cell, got "${raw.slice(0, 40)}"${cell.kind === 'bad' && cell.why ? ` (${cell.why})` : ''}`,
            `line ${row.line}`,
          );
        }
        c.s.points.set(t, cell.kind === 'missing' ? null : cell.value * c.factor);
      }
    }
    list.push(...series.map((c) => c.s));
  }
  if (list.length === 0) {
    return importFailure(
      options.match !== undefined ? 'no_match' : 'no_io_columns',
      `no system.io.r_s, system.io.w_s, system.io.rkb_s or system.io.wkb_s series in the file (${cells.join(', ')})`,
      `line ${header.line}`,
    );
  }
  if (ignored.length > 0)
    warnings.push({
      code: 'columns_ignored',
      message: `Not used: ${[...new Set(ignored)].slice(0, 6).join('; ')}.`,
    });
  return seriesFromDeviceMetrics('datadog-csv', list, warnings, options);
}

const PointSchema = z.tuple([z.number(), z.number().nullable()]);
const QuerySchema = z.object({
  status: z.string(),
  error: z.string().optional(),
  series: z.array(
    z.object({
      metric: z.string(),
      scope: z.string().optional(),
      tag_set: z.array(z.string()).optional(),
      expression: z.string().optional(),
      display_name: z.string().optional(),
      pointlist: z.array(PointSchema),
    }),
  ),
});

/** The JSON of Datadog's metrics query API (`/api/v1/query`), `series[].pointlist`. */
export function parseDatadogJson(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const decoded = decodeMetricsJson(input);
  if (!decoded.ok) return decoded;
  const parsed = QuerySchema.safeParse(decoded.json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.') || 'input';
    return importFailure(
      'bad_datadog_json',
      `${path}: ${issue.message} (expected the answer of Datadog's /api/v1/query: {"status":"ok","series":[{"metric","scope","pointlist":[[ms, value],…]}]})`,
      path,
    );
  }
  if (parsed.data.status !== 'ok') {
    return importFailure(
      'datadog_error',
      `Datadog answered status "${parsed.data.status}": ${parsed.data.error ?? 'no error text'}`,
      'status',
    );
  }
  const warnings: Warning[] = [...decoded.warnings];
  const ignored: string[] = [];
  const found = parsed.data.series.flatMap((s, i) => {
    const m = DATADOG_IO_METRIC.exec(s.metric);
    const label = `${s.metric}{${s.scope ?? (s.tag_set ?? []).join(',')}}`;
    if (!m || !(options.match === undefined || label.toLowerCase().includes(options.match.toLowerCase()))) {
      ignored.push(label);
      return [];
    }
    return [{ i, s, m: m[1]!, label, tags: tagsOf(`{${s.scope ?? ''},${(s.tag_set ?? []).join(',')}}`) }];
  });
  const hosts = new Set(found.map((f) => f.tags.host));
  const list: DeviceMetricSeries[] = [];
  for (const f of found) {
    const spec = METRICS[f.m]!;
    const points = new Map<number, number | null>();
    for (const [j, [t, v]] of f.s.pointlist.entries()) {
      const why = v === null ? null : impossibleValue(v);
      if (why) {
        return importFailure(
          'bad_value',
          `series.${f.i}.pointlist.${j}: expected a non-negative value, got ${v} (${why})`,
          `series.${f.i}.pointlist.${j}`,
        );
      }
      points.set(Math.round(t > 1e11 ? t : t * 1000), v === null ? null : v * spec.factor);
    }
    list.push({
      device: deviceName(f.tags.device, f.tags.host, hosts),
      metric: spec.metric,
      source: `series.${f.i}`,
      label: f.label,
      unit: spec.unit,
      points,
    });
  }
  if (list.length === 0) {
    return importFailure(
      options.match !== undefined ? 'no_match' : 'no_io_columns',
      `no system.io.r_s, system.io.w_s, system.io.rkb_s or system.io.wkb_s series${ignored.length ? ` (${ignored.slice(0, 4).join('; ')})` : ''}: query e.g. avg:system.io.r_s{host:db-1} by {device}`,
      'series',
    );
  }
  if (ignored.length > 0)
    warnings.push({ code: 'columns_ignored', message: `Not used: ${ignored.slice(0, 6).join('; ')}.` });
  return seriesFromDeviceMetrics('datadog-query-json', list, warnings, options);
}
