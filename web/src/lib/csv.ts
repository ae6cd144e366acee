/**
 * CSV for spreadsheets, safe against formula injection (OWASP "CSV Injection"; docs/performance.md
 * R10): a cell that starts with `=`, `+`, `-`, `@`, TAB or CR is prefixed with a single quote so
 * Excel/LibreOffice/Sheets show it as text instead of evaluating it. Job names and labels come from
 * uploads, so every string cell is defused. Numbers are written as numbers (a negative number is
 * data, not a formula). Quoting follows RFC 4180; lines end with CRLF.
 */

export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** A string cell as text a spreadsheet will not evaluate. */
export function defuseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

function quote(text: string): string {
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return quote(defuseCell(value));
}

/** Header and rows; short rows are padded so every line has the header's number of fields. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const width = header.length;
  const pad = (row: readonly CsvCell[]) =>
    row.length >= width ? row : [...row, ...Array.from({ length: width - row.length }, () => null)];
  return [header, ...rows].map((row) => pad(row).map(csvCell).join(',')).join('\r\n') + '\r\n';
}
