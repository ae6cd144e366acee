import { findThroughputUnit } from './columns.ts';
import { impossibleValue } from './values.ts';

/**
 * One value cell of a metric export. Missing values are spelled many ways ("", "null", "NaN",
 * "-", "N/A", "undefined"): all mean "no data point" and are never read as 0. Dashboards'
 * "formatted data" exports put units in the cells ("12.3 MiB/s", "1.5 K"): the unit is read.
 */
export type Cell =
  | { kind: 'missing' }
  | {
      kind: 'value';
      value: number;
      /** bytes/s per unit when the cell names a throughput unit */ throughputFactor: number | null;
    }
  | {
      kind: 'bad';
      expected: string;
      /** Why a number was refused (values.ts), when it was one. */ why?: string;
    };

const MISSING = new Set(['', 'null', 'nan', '-', '--', 'n/a', 'na', 'undefined', 'none', 'no data']);
const NUMBER = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Dashboard short-number suffixes (Grafana's "short" unit: K, Mil, Bil). */
const SI: Record<string, number> = { k: 1e3, K: 1e3, M: 1e6, Mil: 1e6, Bil: 1e9 };
const OPS_UNITS = /^(io\/s|iops|ops\/s|ops|req\/s|rps|\/s)$/i;

function toNumber(text: string): number | null {
  if (!NUMBER.test(text) || !/\d/.test(text)) return null;
  const n = Number(text.replace(/,/g, ''));
  return Number.isFinite(n) ? n : null;
}

export function parseCell(raw: string): Cell {
  const cell = readCell(raw);
  // Negative values are left to the importers (some name the column's unit); the rest of the
  // value check is the one of values.ts.
  if (cell.kind !== 'value' || cell.value < 0) return cell;
  const why = impossibleValue(cell.value * (cell.throughputFactor ?? 1));
  return why ? { kind: 'bad', expected: 'a measurement', why } : cell;
}

function readCell(raw: string): Cell {
  const text = raw.trim();
  if (MISSING.has(text.toLowerCase())) return { kind: 'missing' };
  const plain = toNumber(text);
  if (plain !== null) return { kind: 'value', value: plain, throughputFactor: null };
  const m = /^([+-]?[\d.,]+(?:[eE][+-]?\d+)?)\s*(.+)$/.exec(text);
  const expected = 'a number (optionally with a unit such as MiB/s), or an empty cell for no data';
  if (!m) return { kind: 'bad', expected };
  const value = toNumber(m[1]!);
  if (value === null) return { kind: 'bad', expected };
  const unitText = m[2]!.trim();
  const throughput = findThroughputUnit(unitText);
  if (throughput && throughput.unit.length >= unitText.replace(/[()]/g, '').length - 1) {
    return { kind: 'value', value, throughputFactor: throughput.factor };
  }
  if (OPS_UNITS.test(unitText)) return { kind: 'value', value, throughputFactor: null };
  const si = /^(k|K|M|Mil|Bil)(?:\s*(?:io\/s|iops|ops\/s|ops|req\/s))?$/.exec(unitText);
  if (si) return { kind: 'value', value: value * SI[si[1]!]!, throughputFactor: null };
  return { kind: 'bad', expected };
}
