import {
  THROUGHPUT_UNITS,
  formatBytes,
  formatDecimal,
  formatInt,
  formatPercent,
  formatUsd,
  type ThroughputUnit,
} from '@blockwise/shared/units';

/**
 * Display formatting only: every number shown was computed in @blockwise/shared; these turn it
 * into text with its unit spelled out (a unit conversion for display divides by the constant
 * `THROUGHPUT_UNITS` defines, nothing else). en-US grouping, as the domain package writes its
 * explanations.
 */

// The domain package's formatters: built once per option set (`toLocaleString` with options
// builds a new Intl.NumberFormat on every call, and a what-if step formats thousands of numbers).
export const fmtInt = (v: number) => formatInt(v);

export const fmtNum = (v: number, digits = 1) => formatDecimal(v, digits);

/** A ratio (1 = 100%) as a percentage: 0.9876 → "98.8%". */
export const fmtPct = (ratio: number, digits = 1) => formatPercent(ratio, digits);

/** A signed ratio: +0.16 → "+16%", −0.04 → "−4%". */
export function fmtDelta(ratio: number | null, digits = 0): string {
  if (ratio === null || !Number.isFinite(ratio)) return '—';
  const pct = Math.abs(ratio * 100);
  const text = formatDecimal(pct, digits, digits);
  if (Number(pct.toFixed(digits)) === 0) return '±0%';
  return ratio > 0 ? `+${text}%` : `−${text}%`;
}

/** The number part of a rate in a named unit: 593_750_000 B/s in MiB/s → "566.2". */
export function fmtRateValue(bytesPerSec: number, unit: ThroughputUnit = 'MiB/s', digits = 1): string {
  return fmtNum(bytesPerSec / THROUGHPUT_UNITS[unit], digits);
}

/** A rate in bytes/s shown in a named unit: 593_750_000 → "566.2 MiB/s". */
export function fmtRate(bytesPerSec: number, unit: ThroughputUnit = 'MiB/s', digits = 1): string {
  return `${fmtRateValue(bytesPerSec, unit, digits)} ${unit}`;
}

export const fmtSize = (bytes: number | null) => (bytes === null ? '—' : formatBytes(bytes));

export const fmtUsd = (v: number) => formatUsd(v);

/** A signed amount with the sign before the dollar sign: "-$40.00" (formatUsd gives "$-40.00"). */
export const fmtUsdSigned = (v: number) => (v < 0 ? `-${formatUsd(-v)}` : formatUsd(v));

/** Small unit prices ($ per IOPS-month) need more than cents: 4 significant digits. */
export function fmtUsdPrecise(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '—';
  if (Math.abs(v) >= 1) return formatUsd(v);
  return `$${v.toPrecision(3)}`;
}

export function fmtMs(v: number): string {
  if (v < 1) return `${v.toFixed(3)} ms`;
  if (v < 100) return `${v.toFixed(2)} ms`;
  return `${fmtNum(v, 1)} ms`;
}

/** "99.9" → "p99.9". */
export const fmtPercentile = (key: string) => `p${key}`;

/** What each unit abbreviation means, for `<abbr title>` and tooltips. */
export const UNIT_NAMES: Record<string, string> = {
  IOPS: 'I/O operations per second',
  'MiB/s': 'mebibytes per second (2^20 bytes/s): the EBS volume unit',
  'MB/s': 'megabytes per second (10^6 bytes/s)',
  'KiB/s': 'kibibytes per second (1,024 bytes/s): fio’s bw unit',
  'KB/s': 'kilobytes per second (1,000 bytes/s)',
  'GiB/s': 'gibibytes per second (2^30 bytes/s)',
  'GB/s': 'gigabytes per second (10^9 bytes/s)',
  'B/s': 'bytes per second',
  Mbps: 'megabits per second (10^6 bits/s): the instance bandwidth unit; MB/s = Mbps ÷ 8',
  Gbps: 'gigabits per second (10^9 bits/s)',
  GiB: 'gibibytes (2^30 bytes); AWS bills these as “GB-month”',
  ms: 'milliseconds',
  USD: 'US dollars',
};

export function unitName(unit: string): string {
  return UNIT_NAMES[unit] ?? UNIT_NAMES[unit.split(' ')[0] ?? ''] ?? unit;
}

/** A file-name-safe slug: "NVMe vs EBS — read" → "nvme-vs-ebs-read". */
export function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'blockwise'
  );
}
