/**
 * Plain-text layout shared by the CLI's human output (analyze, compare): latency in ms with the
 * digits that matter at its scale, and aligned columns. Numbers themselves come from shared/.
 */

/** 123.4 ms, 12.34 ms, 0.123 ms: three significant digits or so at every scale. */
export const formatMs = (value: number) =>
  value >= 100 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toFixed(3);

/** Rows as aligned columns (two spaces apart); the first column left-aligned, the others left or right. */
export function formatTable(rows: string[][], align: 'left' | 'right' = 'right'): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c === 0 || align === 'left' ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}
