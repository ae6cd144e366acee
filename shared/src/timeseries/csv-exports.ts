import { settingHint } from '../audience.ts';
import type { Problem, Warning } from '../problem.ts';
import { buildSeries, type RawColumn, type RawRow } from './build-series.ts';
import { parseCell } from './cells.ts';
import { classifyCloudWatchLabel, classifyDashboardHeader } from './columns.ts';
import { readCsv, type CsvTable } from './csv.ts';
import { decodeMetricsInput } from './input.ts';
import { DEFAULT_MAX_POINTS, type SeriesImportOptions, type SeriesImportResult } from './series.schema.ts';
import { parseTimeZone, parseTimestamp, TIMESTAMP_EXPECTED, type TimeZoneSpec } from './timestamps.ts';
import { parseThroughput } from '../units.ts';

/**
 * CSV exports of metric graphs:
 *
 * - **CloudWatch console** ("Actions → Download as .csv" on a graph or dashboard widget): a time
 *   column, then one column per metric whose header is the graph's label for it — by default the
 *   metric name, often with the resource and, when the graph shows them, the statistic and period:
 *   `vol-0a1b… VolumeReadOps`, `VolumeReadOps (Sum, 5 Minutes)`, `i-0123… EBSWriteBytes Sum 300`.
 *   Values are the raw statistic (operations or bytes per period). Headers and time formats vary
 *   with the console version and locale, so columns are found by the CloudWatch metric names
 *   (Volume/EBS/Disk + Read/Write + Ops/Bytes) and the statistic and period by keywords.
 * - **Grafana** ("Inspect → Data → Download CSV", series joined by time) or any dashboard: a time
 *   column, then per-second rates whose headers are the legend: `nvme1n1 read IOPS`,
 *   `Write throughput (MiB/s)`, `read (B/s)`, `node_disk_written_bytes_total`, iostat's `r/s`,
 *   `wkB/s`. Units in headers or, with "formatted data", in the cells ("12.3 MiB/s").
 *
 * Errors name the line and column: `line 57, column 1: expected a timestamp such as …, got "x"`.
 */

const TIME_HEADER =
  /^\s*(time|timestamp|date|datetime|date\/time|date time|ts|time \(utc\)|label|period|start(?: time)?)\b/i;

function findTimeColumn(table: CsvTable): number {
  const header = table.header.cells;
  const named = header.findIndex(
    (h) => (TIME_HEADER.test(h) || /time|date/i.test(h)) && !/read|write|written|latency/i.test(h),
  );
  if (named >= 0) return named;
  const first = table.rows[0]?.cells ?? [];
  const parses = first.findIndex((c) => parseTimestamp(c) !== null);
  return parses >= 0 ? parses : 0;
}

/** "Timestamp (UTC)", "Time (UTC+01:00)", "Time (America/New_York)", "Timestamp UTC" → the zone named. */
function zoneInHeader(header: string): TimeZoneSpec | null {
  const paren = /\(([^)]+)\)/.exec(header);
  if (paren) return parseTimeZone(paren[1]!);
  const after = /^\s*\w+\s+(.+)$/.exec(header);
  return after ? parseTimeZone(after[1]!) : null;
}

const where = (line: number, column: number, header: string) =>
  `line ${line}, column ${column + 1}${header.trim() ? ` (${header.trim()})` : ''}`;

type Picked = { index: number; column: RawColumn };

function readRows(
  table: CsvTable,
  timeCol: number,
  picked: readonly Picked[],
  valueOf: (raw: string, column: RawColumn, at: string) => number | null | Problem,
): RawRow[] | Problem {
  const header = table.header.cells;
  const rows: RawRow[] = [];
  for (const row of table.rows) {
    const timeText = row.cells[timeCol] ?? '';
    const time = parseTimestamp(timeText);
    const at = where(row.line, timeCol, header[timeCol] ?? '');
    if (time === null) {
      return {
        code: 'bad_timestamp',
        message: `${at}: expected ${TIMESTAMP_EXPECTED}, got "${timeText.slice(0, 60)}"`,
        path: at,
      };
    }
    const values: (number | null)[] = [];
    for (const p of picked) {
      const cell = row.cells[p.index] ?? '';
      const v = valueOf(
        table.delimiter === ';' ? fromDecimalComma(cell) : cell,
        p.column,
        where(row.line, p.index, header[p.index] ?? ''),
      );
      if (v !== null && typeof v === 'object') return v;
      values.push(v);
    }
    rows.push({ where: `line ${row.line}`, time, values });
  }
  return rows;
}

/**
 * Semicolon-separated files come from locales that write decimal commas (Excel re-saving a CSV in
 * Germany, France…): "1.234,5" and "1234,5" are 1234.5 there, and "1,234" is 1.234. A cell with
 * two commas is left alone (and then refused as a number, not misread).
 */
export function fromDecimalComma(cell: string): string {
  const m = /^([+-]?)(\d{1,3}(?:\.\d{3})+|\d+),(\d+)([^,]*)$/.exec(cell.trim());
  return m ? `${m[1]}${m[2]!.replace(/\./g, '')}.${m[3]}${m[4]}` : cell;
}

function badValue(at: string, raw: string, expected: string, why?: string): Problem {
  return {
    code: 'bad_value',
    message: `${at}: expected ${expected}, got "${raw.trim().slice(0, 60)}"${why ? ` (${why})` : ''}`,
    path: at,
  };
}

function matches(label: string, options: SeriesImportOptions): boolean {
  return options.match === undefined || label.toLowerCase().includes(options.match.toLowerCase());
}

function ignoredWarning(ignored: string[]): Warning[] {
  if (ignored.length === 0) return [];
  const shown = ignored.slice(0, 6).join('; ');
  return [
    {
      code: 'columns_ignored',
      message: `Not used: ${shown}${ignored.length > 6 ? `; and ${ignored.length - 6} more` : ''}.`,
    },
  ];
}

function readTable(
  input: string | Uint8Array,
  options: SeriesImportOptions,
): { ok: true; table: CsvTable; warnings: Warning[] } | { ok: false; error: Problem } {
  const decoded = decodeMetricsInput(input);
  if (!decoded.ok) return decoded;
  const csv = readCsv(decoded.text, { maxRows: options.maxPoints ?? DEFAULT_MAX_POINTS });
  if (!csv.ok) return csv;
  if (csv.value.rows.length === 0) {
    return {
      ok: false,
      error: { code: 'no_data_points', message: 'the file has a header but no data rows', path: 'line 2' },
    };
  }
  return { ok: true, table: csv.value, warnings: decoded.warnings };
}

function parseCloudWatchTable(
  table: CsvTable,
  warnings: Warning[],
  options: SeriesImportOptions,
): SeriesImportResult {
  const timeCol = findTimeColumn(table);
  const picked: Picked[] = [];
  const ignored: string[] = [];
  table.header.cells.forEach((label, index) => {
    if (index === timeCol) return;
    const role = classifyCloudWatchLabel(label);
    if (!role) {
      if (label.trim() !== '') ignored.push(`"${label.trim()}" (not an I/O metric)`);
      return;
    }
    if (!matches(label, options)) {
      ignored.push(`"${label.trim()}" (does not match "${options.match}")`);
      return;
    }
    picked.push({ index, column: { ...role, label: label.trim(), source: `column ${index + 1}` } });
  });
  if (picked.length === 0) {
    return {
      ok: false,
      error: {
        code: options.match !== undefined ? 'no_match' : 'no_io_columns',
        message:
          options.match !== undefined
            ? `no I/O metric column matches "${options.match}" (columns: ${table.header.cells.join(', ')})`
            : 'no CloudWatch I/O metric columns: expected VolumeReadOps/VolumeWriteOps/VolumeReadBytes/VolumeWriteBytes (EBS) or EBSReadOps/EBSWriteOps/EBSReadBytes/EBSWriteBytes (EC2) in the header',
        path: 'line 1',
      },
    };
  }
  const rows = readRows(table, timeCol, picked, (raw, column, at) => {
    const cell = parseCell(raw);
    if (cell.kind === 'missing') return null;
    const expected = `a non-negative number of ${column.unit} (CloudWatch ${column.statistic ?? 'statistic'} values), or an empty cell`;
    if (cell.kind === 'bad' || cell.throughputFactor !== null || cell.value < 0)
      return badValue(at, raw, expected, cell.kind === 'bad' ? cell.why : undefined);
    return cell.value;
  });
  if (!Array.isArray(rows)) return { ok: false, error: rows };
  return buildSeries(
    {
      format: 'cloudwatch-console-csv',
      columns: picked.map((p) => p.column),
      rows,
      headerZone: zoneInHeader(table.header.cells[timeCol] ?? ''),
      warnings: [...warnings, ...ignoredWarning(ignored)],
    },
    options,
  );
}

function parseDashboardTable(
  table: CsvTable,
  warnings: Warning[],
  options: SeriesImportOptions,
): SeriesImportResult {
  const header = table.header.cells.map((h) => h.trim());
  if (
    header.length === 3 &&
    /^series$/i.test(header[0]!) &&
    /^time$/i.test(header[1]!) &&
    /^value$/i.test(header[2]!)
  ) {
    return {
      ok: false,
      error: {
        code: 'long_format',
        message:
          'this CSV has one row per series and time ("Series, Time, Value"); export series as columns instead (Grafana: Inspect → Data → "Series joined by time")',
        path: 'line 1',
      },
    };
  }
  const timeCol = findTimeColumn(table);
  const picked: Picked[] = [];
  const ignored: string[] = [];
  let throughputFactor: number | null = null;
  if (options.throughputUnit !== undefined) {
    const parsed = parseThroughput(`1${options.throughputUnit}`);
    if (!parsed.ok) {
      return {
        ok: false,
        error: {
          code: 'bad_unit',
          message: `${settingHint('throughputUnit', options.audience)}: expected ${parsed.expected}`,
          path: settingHint('throughputUnit', options.audience),
        },
      };
    }
    throughputFactor = parsed.value;
  }
  header.forEach((label, index) => {
    if (index === timeCol || label === '') return;
    const role = classifyDashboardHeader(label);
    if ('ignored' in role) {
      ignored.push(`"${label}" (${role.ignored})`);
      return;
    }
    if (!matches(label, options)) {
      ignored.push(`"${label}" (does not match "${options.match}")`);
      return;
    }
    const column: RawColumn = { ...role, label, source: `column ${index + 1}` };
    if (column.factor === null && throughputFactor !== null) {
      column.factor = throughputFactor;
      column.unit = options.throughputUnit!;
    }
    picked.push({ index, column });
  });
  if (picked.length === 0) {
    return {
      ok: false,
      error: {
        code: options.match !== undefined ? 'no_match' : 'no_io_columns',
        message: `no read/write IOPS or throughput columns found (columns: ${header.join(', ')}${ignored.length ? `; ${ignored.join('; ')}` : ''}). Expected headers such as "read IOPS", "write throughput (MiB/s)", "read (B/s)"`,
        path: 'line 1',
      },
    };
  }
  // A throughput column without a unit in its header needs one in every cell, or from the caller.
  const unitless = picked.filter((p) => p.column.factor === null);
  for (const p of unitless) {
    const lacking = table.rows.some((r) => {
      const c = parseCell(r.cells[p.index] ?? '');
      return c.kind === 'value' && c.throughputFactor === null;
    });
    if (lacking) {
      return {
        ok: false,
        error: {
          code: 'choice_required',
          message: `column ${p.index + 1} ("${p.column.label}") is a throughput without a unit: ${options.audience === 'web' ? 'answer' : 'pass'} ${settingHint('throughputUnit', options.audience)} (B/s, KiB/s, MiB/s, MB/s or Mbps)`,
          path: settingHint('throughputUnit', options.audience),
        },
        choices: [
          {
            option: 'throughputUnit',
            flag: '--throughput-unit',
            why: `"${p.column.label}" names no unit`,
            candidates: ['B/s', 'KiB/s', 'MiB/s', 'MB/s', 'Mbps'],
          },
        ],
      };
    }
  }
  const rows = readRows(table, timeCol, picked, (raw, column, at) => {
    const cell = parseCell(raw);
    if (cell.kind === 'missing') return null;
    const bytes = column.metric.endsWith('Bytes');
    const expected = bytes
      ? 'a non-negative throughput (a number, or with a unit such as 12.5 MiB/s), or an empty cell'
      : 'a non-negative number of operations per second, or an empty cell';
    if (cell.kind === 'bad' || cell.value < 0 || (!bytes && cell.throughputFactor !== null))
      return badValue(at, raw, expected, cell.kind === 'bad' ? cell.why : undefined);
    return bytes ? cell.value * (cell.throughputFactor ?? column.factor!) : cell.value;
  });
  if (!Array.isArray(rows)) return { ok: false, error: rows };
  return buildSeries(
    {
      format: 'grafana-csv',
      columns: picked.map((p) => p.column),
      rows,
      headerZone: zoneInHeader(header[timeCol] ?? ''),
      warnings: [...warnings, ...ignoredWarning(ignored)],
    },
    options,
  );
}

/** The CSV a CloudWatch console graph downloads ("Download as .csv"). */
export function parseCloudWatchCsv(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const t = readTable(input, options);
  if (!t.ok) return t;
  return parseCloudWatchTable(t.table, t.warnings, options);
}

/** A dashboard CSV of per-second rates (Grafana "Download CSV", iostat-style headers). */
export function parseGrafanaCsv(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const t = readTable(input, options);
  if (!t.ok) return t;
  return parseDashboardTable(t.table, t.warnings, options);
}

/** Does this header look like a CloudWatch console export (a CloudWatch metric name in some column)? */
function isCloudWatchHeader(cells: readonly string[]): boolean {
  return cells.some((c) => classifyCloudWatchLabel(c) !== null);
}

/** Either CSV, told apart by its header: CloudWatch metric names make it a console export. */
export function parseMetricsCsv(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const t = readTable(input, options);
  if (!t.ok) return t;
  return isCloudWatchHeader(t.table.header.cells)
    ? parseCloudWatchTable(t.table, t.warnings, options)
    : parseDashboardTable(t.table, t.warnings, options);
}
