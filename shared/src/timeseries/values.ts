/**
 * The one check every metrics value passes before it becomes part of a series (buildSeries runs
 * it over each importer's rows; parsers that know a point's exact path run it themselves).
 *
 * The ceiling is 2^64: the kernel's disk counters (/proc/diskstats, what iostat, sar and
 * node_exporter read) are unsigned 64-bit at most, so no count of operations or bytes, nor any
 * per-second rate or per-period total derived from one, can exceed it. A value past it
 * ("1e308") is corruption or a units error, and would make every sum and percentile built on it
 * meaningless (or Infinity).
 */
export const MAX_METRIC_VALUE = 2 ** 64;

/** Why `value` cannot be a disk measurement, or null when it can. */
export function impossibleValue(value: number): string | null {
  if (Number.isNaN(value)) return 'NaN is not a measurement (a division by zero in the query?)';
  if (!Number.isFinite(value)) return `${value} is not a measurement`;
  if (value < 0) return `${value}: operations, bytes and their rates are never negative`;
  if (value > MAX_METRIC_VALUE)
    return `${value} is over 2^64 (${MAX_METRIC_VALUE.toExponential(2)}), more than a 64-bit disk counter can hold`;
  return null;
}
