import { fail, ok, type Result } from '../problem.ts';
import { formatInt } from '../units.ts';

/**
 * A small RFC 4180 reader for metric exports: quoted fields (with "" escapes and newlines inside
 * quotes), CRLF/LF/CR line ends, a delimiter sniffed from the header (comma, semicolon — Excel in
 * many European locales —, or tab), and Excel's optional first line `sep=;`. Every row keeps the
 * 1-based line number it starts on, so errors can say "line 57, column 3".
 */
export type CsvRow = { line: number; cells: string[] };
export type CsvTable = { delimiter: string; header: CsvRow; rows: CsvRow[] };

export type ReadCsvOptions = {
  /** Stop with `too_many_points` beyond this many data rows (the bound on memory and time). */
  maxRows: number;
};

const CANDIDATES = [',', ';', '\t'] as const;

/** The delimiter that splits the header line into the most fields (outside quotes). */
function sniffDelimiter(headerLine: string): string {
  let best: string = ',';
  let bestCount = -1;
  for (const d of CANDIDATES) {
    let count = 0;
    let quoted = false;
    for (const ch of headerLine) {
      if (ch === '"') quoted = !quoted;
      else if (ch === d && !quoted) count += 1;
    }
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

export function readCsv(text: string, options: ReadCsvOptions): Result<CsvTable> {
  let start = 0;
  let line = 1;
  let delimiter: string | null = null;
  // Excel's "sep=;" hint line.
  const sep = /^sep=(.)\r?\n/.exec(text.slice(0, 8));
  if (sep) {
    delimiter = sep[1]!;
    start = sep[0].length;
    line = 2;
  }
  if (delimiter === null) {
    const firstEnd = text.slice(start).search(/\r|\n/);
    delimiter = sniffDelimiter(firstEnd < 0 ? text.slice(start) : text.slice(start, start + firstEnd));
  }

  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let field = '';
  let rowLine = line;
  let quoted = false;
  let fieldWasQuoted = false;
  let i = start;
  const n = text.length;
  const endRow = () => {
    cells.push(field);
    // Blank lines carry no data: skip them (a trailing newline, an empty line between blocks).
    if (!(cells.length === 1 && cells[0]!.trim() === '' && !fieldWasQuoted))
      rows.push({ line: rowLine, cells });
    cells = [];
    field = '';
    fieldWasQuoted = false;
  };
  while (i < n) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      if (ch === '\n' || (ch === '\r' && text[i + 1] !== '\n')) line += 1;
      field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field.trim() === '') {
      quoted = true;
      fieldWasQuoted = true;
      field = '';
      i += 1;
      continue;
    }
    if (ch === delimiter) {
      cells.push(field);
      field = '';
      fieldWasQuoted = false;
      i += 1;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      endRow();
      if (rows.length > options.maxRows + 1) {
        return fail(
          'too_many_points',
          `more than ${formatInt(options.maxRows)} rows: export a shorter range or a longer period (e.g. 5 minutes over 14 days is 4,032 points)`,
          `line ${line}`,
        );
      }
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      rowLine = line;
      continue;
    }
    field += ch;
    i += 1;
  }
  if (quoted)
    return fail('bad_csv', `a quoted field opened on line ${rowLine} is never closed`, `line ${rowLine}`);
  if (field !== '' || cells.length > 0 || fieldWasQuoted) endRow();
  if (rows.length > options.maxRows + 1) {
    return fail('too_many_points', `more than ${formatInt(options.maxRows)} rows`, `line ${line}`);
  }
  const [header, ...data] = rows;
  if (!header) return fail('empty_input', 'the file is empty');
  return ok({ delimiter, header, rows: data });
}
