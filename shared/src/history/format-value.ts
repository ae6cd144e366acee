import type { MetricUnit } from './metrics.ts';

/** Numbers as reports print them: IOPS whole, bytes/s as MiB/s, latency to about 3 significant digits. */

const MiB = 1024 * 1024;
const formatters = new Map<number, Intl.NumberFormat>();
function fixed(value: number, decimals: number): string {
  let f = formatters.get(decimals);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
    formatters.set(decimals, f);
  }
  return f.format(value);
}

/** Decimals that keep about three significant digits (1,234 · 98.4 · 1.50 · 0.173 · 0.0528). */
function decimalsFor(value: number): number {
  const v = Math.abs(value);
  if (v >= 100 || v === 0) return 0;
  if (v >= 10) return 1;
  if (v >= 1) return 2;
  if (v >= 0.1) return 3;
  if (v >= 0.01) return 4;
  return 5;
}

/** The unit tables show a metric in (throughput is stored in B/s, shown in MiB/s). */
export function displayUnit(unit: MetricUnit): string {
  return unit === 'B/s' ? 'MiB/s' : unit;
}

/** A value in its display unit, without the unit: "10,267", "98.4", "1.50". */
export function formatMetricNumber(value: number, unit: MetricUnit): string {
  if (unit === 'IOPS') return fixed(value, Math.abs(value) >= 100 ? 0 : decimalsFor(value));
  const shown = unit === 'B/s' ? value / MiB : value;
  if (unit === 'B/s') return fixed(shown, Math.abs(shown) >= 1000 ? 0 : 1);
  return fixed(shown, decimalsFor(shown));
}

/** A value with its display unit: "10,267 IOPS", "98.4 MiB/s", "1.50 ms". */
export function formatMetricValue(value: number, unit: MetricUnit): string {
  return `${formatMetricNumber(value, unit)} ${displayUnit(unit)}`;
}

/** A signed percentage with one decimal: "+60.0%", "-30.1%", "0.0%". */
export function formatDeltaPct(deltaPct: number): string {
  const rounded = Math.round(deltaPct * 10) / 10;
  if (rounded === 0) return '0.0%';
  return `${rounded > 0 ? '+' : '-'}${Math.abs(rounded).toFixed(1)}%`;
}
