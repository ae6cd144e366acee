import { readFileSync } from 'node:fs';
import { fixturePath } from './fixtures.ts';

/**
 * The independent reference summaries beside each fio fixture (`<file>.oracle.json`, written
 * separately from Blockwise: fixtures/fio/README.md). Expected numbers in the journeys come from
 * here and from the documented rules, never from the app's own code.
 */

type Bound = { min: number; max: number };
type OracleDirection = {
  iops: number;
  bytes_per_sec: number;
  clat_percentiles_ms: Record<string, number> | null;
  clat_percentile_bounds_ms?: Record<string, Bound> | null;
};

export type Direction = {
  iops: number;
  bytesPerSec: number;
  /** Exact percentiles, or — for per-job files whose percentiles cannot be merged — the upper bounds. */
  clatMs: Record<string, number>;
};

export function oracle(fixture: string): { read: Direction; write: Direction } {
  const doc = JSON.parse(readFileSync(`${fixturePath(fixture)}.oracle.json`, 'utf8')) as {
    aggregate: { all_jobs: Record<'read' | 'write', OracleDirection> };
  };
  const dir = (d: OracleDirection): Direction => ({
    iops: d.iops,
    bytesPerSec: d.bytes_per_sec,
    clatMs:
      d.clat_percentiles_ms ??
      Object.fromEntries(Object.entries(d.clat_percentile_bounds_ms ?? {}).map(([k, b]) => [k, b.max])),
  });
  return { read: dir(doc.aggregate.all_jobs.read), write: dir(doc.aggregate.all_jobs.write) };
}

/** en-US integer grouping, as every number in the app is written: 6714.99 → "6,715". */
export const int = (v: number) => Math.round(v).toLocaleString('en-US');

/** A number with at most `digits` decimals, as the app writes rates: 188 → "188", 381.47 → "381.5". */
export const num = (v: number, digits = 1) =>
  v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

/** Milliseconds as the latency tables write them (two decimals from 1 ms to 100 ms). */
export const ms = (v: number) => (v < 1 ? `${v.toFixed(3)} ms` : v < 100 ? `${v.toFixed(2)} ms` : `${v} ms`);

/** US dollars with cents and grouping: 66.97 → "$66.97". */
export const usd = (v: number) =>
  `$${v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
