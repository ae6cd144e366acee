import { settingHint } from '../audience.ts';
import type { Problem, Warning } from '../problem.ts';
import { KiB, formatInt } from '../units.ts';
import { parseTimestamp, type ParsedTime } from './timestamps.ts';

/**
 * What iostat and sar (sysstat) text output share: the banner line, dates and times written in
 * the machine's locale, numbers with the locale's decimal separator, and reading one device of
 * several. Pure text handling; iostat.ts and sar.ts know their reports.
 *
 * Dates: sysstat writes `strftime("%x")` — `11/24/26` (C), `11/24/2026` (en_US), `24.11.2026`
 * (de_DE), `24/11/2026` (en_GB, fr_FR) — or ISO 8601 with `S_TIME_FORMAT=ISO`. Times: `%X` —
 * `13:44:08` or `01:44:08 PM`. Slash dates are month-first (C, en_US) unless a day above 12
 * says otherwise or the dates in the file only make sense day-first; when nothing tells, a
 * warning says they were read month-first.
 */

export { parseBanner, type Banner } from './formats.ts';

export type DayMonthOrder = 'month-first' | 'day-first';

type DateParts = { year: number; a: number; b: number; sep: string };

/** The parts of a %x date: `11/24/26`, `11/24/2026`, `24.11.2026`, `2026-11-24`. */
function dateParts(text: string): DateParts | { iso: true; year: number; month: number; day: number } | null {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (iso) return { iso: true, year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
  const m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2}|\d{4})$/.exec(text);
  if (!m) return null;
  const y = Number(m[4]);
  return { a: Number(m[1]), b: Number(m[3]), sep: m[2]!, year: m[4]!.length === 2 ? 2000 + y : y };
}

export function isSysstatDate(text: string): boolean {
  return dateParts(text) !== null;
}

/**
 * The order of day and month in the slash dates of a file: what the values allow (a part above
 * 12 is a day), else month-first. `known` is false when both readings were possible.
 */
export function dayMonthOrder(dates: readonly string[]): { order: DayMonthOrder; known: boolean } {
  let monthFirst = true;
  let dayFirst = true;
  let dotted = false;
  for (const d of dates) {
    const p = dateParts(d);
    if (p === null || 'iso' in p) continue;
    if (p.sep === '.') dotted = true;
    if (p.a > 12 || p.b > 31) monthFirst = false;
    if (p.b > 12 || p.a > 31) dayFirst = false;
  }
  // Dotted dates are day-first in every locale that writes them (de_DE, ru_RU, pl_PL…).
  if (dotted) return { order: 'day-first', known: true };
  if (monthFirst && !dayFirst) return { order: 'month-first', known: true };
  if (dayFirst && !monthFirst) return { order: 'day-first', known: true };
  return { order: 'month-first', known: dates.length === 0 || !(monthFirst && dayFirst) };
}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** A %x date as UTC midnight of that calendar day (ms); null if not a date. */
export function parseSysstatDate(text: string, order: DayMonthOrder): number | null {
  const p = dateParts(text.trim());
  if (p === null) return null;
  const [year, month, day] =
    'iso' in p
      ? [p.year, p.month, p.day]
      : p.sep === '.' || order === 'day-first'
        ? [p.year, p.b, p.a]
        : [p.year, p.a, p.b];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  return Date.UTC(year, month - 1, day);
}

/** `13:44:08`, `01:44:08 PM`, `1:44:08 pm` → milliseconds after midnight; null if not a time. */
export function parseClock(text: string): number | null {
  const m = /^(\d{1,2}):(\d{2}):(\d{2})(?:\s*([AaPp])\.?[Mm]\.?)?$/.exec(text.trim());
  if (!m) return null;
  let hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = Number(m[3]);
  if (m[4] !== undefined) {
    if (hour < 1 || hour > 12) return null;
    const pm = m[4].toLowerCase() === 'p';
    hour = (hour % 12) + (pm ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || second > 59) return null;
  return ((hour * 60 + minute) * 60 + second) * 1000;
}

/** A clock at the start of a line (`13:44:08`, `01:44:08 PM`): its text and the rest of the line. */
export function leadingClock(line: string): { clock: string; rest: string } | null {
  const m = /^(\d{1,2}:\d{2}:\d{2}(?:\s+[AaPp]\.?[Mm]\.?)?)(?=\s|$)\s*(.*)$/.exec(line);
  return m && parseClock(m[1]!) !== null ? { clock: m[1]!, rest: m[2]! } : null;
}

/**
 * An iostat `-t` line: `11/24/26 13:44:08`, `11/24/2026 01:44:08 PM`, `24.11.2026 13:44:08`,
 * or ISO `2026-11-24T13:44:08+0100`. Returns the date text (for the day/month order) and the rest.
 */
export function splitDateTimeLine(
  line: string,
): { date: string; clock: string } | { iso: ParsedTime } | null {
  const t = line.trim();
  if (/^\d{4}-\d{2}-\d{2}T/.test(t)) {
    const parsed = parseTimestamp(t);
    return parsed ? { iso: parsed } : null;
  }
  const m = /^(\S+)\s+(\d{1,2}:\d{2}:\d{2}(?:\s+[AaPp]\.?[Mm]\.?)?)$/.exec(t);
  if (!m || !isSysstatDate(m[1]!) || parseClock(m[2]!) === null) return null;
  return { date: m[1]!, clock: m[2]! };
}

/**
 * Numbers as sysstat prints them: `%.2f` in the locale, so `1234.56` or `1234,56` (never with
 * thousands separators). One file has one decimal separator; a file mixing them (two locales
 * concatenated) is refused, as is anything that is not a number.
 */
export class SysstatNumbers {
  private separator: '.' | ',' | null = null;
  private firstAt = '';

  /** The number, or a Problem naming where and what was expected. */
  read(cell: string, where: string, what: string): number | Problem {
    const m = /^(-?\d+)(?:([.,])(\d+))?$/.exec(cell);
    if (!m) {
      return {
        code: 'bad_value',
        message: `${where}: expected a number for ${what}, got "${cell.slice(0, 40)}"`,
        path: where,
      };
    }
    const sep = m[2] as '.' | ',' | undefined;
    if (sep !== undefined) {
      if (this.separator === null) {
        this.separator = sep;
        this.firstAt = where;
      } else if (sep !== this.separator) {
        return {
          code: 'mixed_decimal_separators',
          message: `${where}: "${cell}" uses "${sep}" as the decimal separator but ${this.firstAt} used "${this.separator}": the file mixes outputs of different locales (LC_NUMERIC); keep one run per file`,
          path: where,
        };
      }
    }
    const value = Number(sep === undefined ? m[1] : `${m[1]}.${m[3]}`);
    if (value < 0) {
      return {
        code: 'bad_value',
        message: `${where}: expected a non-negative number for ${what}, got "${cell}"`,
        path: where,
      };
    }
    return value;
  }

  get decimalComma(): boolean {
    return this.separator === ',';
  }
}

export const isProblem = (v: unknown): v is Problem =>
  typeof v === 'object' && v !== null && 'code' in v && 'message' in v;

/** One device's operations over a file, for choosing one. */
export type DeviceTotal = { name: string; operations: number; bytes: number };

export type DeviceChoice =
  | { ok: true; name: string; chosenBy: 'asked' | 'only' | 'busiest'; warnings: Warning[] }
  | { ok: false; error: Problem };

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

/**
 * The device to read: the one asked for, the only one, or the busiest by operations (then by
 * bytes). Stated in a warning whenever there was a choice: a database's disk is rarely the only
 * one (the root disk, a device-mapper volume over the same disk…).
 */
export function chooseDevice(
  totals: readonly DeviceTotal[],
  asked: string | undefined,
  flagHint = settingHint('device'),
): DeviceChoice {
  const list = totals.map((t) => t.name).join(', ');
  if (totals.length === 0) {
    return { ok: false, error: { code: 'no_devices', message: 'the file has no device rows' } };
  }
  if (asked !== undefined) {
    const found =
      totals.find((t) => t.name === asked) ??
      totals.find((t) => t.name.toLowerCase() === asked.toLowerCase());
    if (!found) {
      return {
        ok: false,
        error: {
          code: 'device_not_found',
          message: `no device "${asked}" in the file; it has ${list}`,
          path: '--device',
        },
      };
    }
    return { ok: true, name: found.name, chosenBy: 'asked', warnings: [] };
  }
  if (totals.length === 1) return { ok: true, name: totals[0]!.name, chosenBy: 'only', warnings: [] };
  const sorted = [...totals].sort(
    (a, b) => b.operations - a.operations || b.bytes - a.bytes || a.name.localeCompare(b.name),
  );
  const all = totals.reduce((s, t) => s + t.operations, 0);
  const busiest = sorted[0]!;
  const shares = sorted
    .slice(0, 8)
    .map((t) => `${t.name} ${pct(t.operations, all)}%`)
    .join(', ');
  return {
    ok: true,
    name: busiest.name,
    chosenBy: 'busiest',
    warnings: [
      {
        code: 'device_chosen',
        message: `The file has ${totals.length} devices (share of operations: ${shares}${sorted.length > 8 ? ', …' : ''}): ${busiest.name} is read, the busiest. Pick another with ${flagHint}. Device-mapper (dm-*) and partition rows count the same I/O as the disk under them: never add them up.`,
        subject: 'device',
      },
    ],
  };
}

/** The warning that a file's numbers were read with decimal commas; null when they were not. */
export function decimalCommaWarning(numbers: SysstatNumbers): Warning | null {
  return numbers.decimalComma
    ? {
        code: 'decimal_comma',
        message: 'Numbers written with decimal commas (LC_NUMERIC) were read as such.',
      }
    : null;
}

/**
 * How far bytes ÷ operations may stray from a printed average request size by rounding alone.
 * Both sides are printed with two decimals: the size to ±0.005 of its unit, and bytes ÷ ops off
 * by at most (δbytes + size × δops) ÷ ops, with δ = 0.005 of each rate's unit and `rates` byte
 * rates summed into the bytes.
 */
export function requestSizeTolerance(
  sizeUnit: number,
  computed: number,
  ops: number,
  rateUnit: number,
  rates = 1,
): number {
  return 0.0051 * sizeUnit + (0.0051 * rateUnit * rates + computed * 0.0051) / ops + 1;
}

type SizeMismatch = { where: string; reportedBytes: number; computedBytes: number; excess: number };

/**
 * The printed average request sizes checked against bytes ÷ operations, point by point: how
 * many disagree beyond rounding, and the worst. A disagreement means edited units, not I/O.
 */
export class RequestSizeCheck {
  private checked = 0;
  private mismatched = 0;
  private worst: SizeMismatch | null = null;

  add(where: string, reportedBytes: number, computedBytes: number, tolerance: number): void {
    this.checked += 1;
    const excess = Math.abs(reportedBytes - computedBytes) - tolerance;
    if (excess > 0) this.mismatched += 1;
    if (this.worst === null || excess > this.worst.excess) {
      this.worst = { where, reportedBytes, computedBytes, excess };
    }
  }

  /** The `request_size_mismatch` warning (`tool`'s sizes against bytes ÷ `ops`); null if none. */
  warning(tool: string, ops: string): Warning | null {
    const w = this.worst;
    if (this.mismatched === 0 || w === null) return null;
    return {
      code: 'request_size_mismatch',
      message: `At ${formatInt(this.mismatched)} of ${formatInt(this.checked)} points ${tool}'s average request size disagrees with bytes ÷ ${ops} beyond rounding (worst ${w.where}: ${(w.reportedBytes / KiB).toFixed(2)} KiB printed, ${(w.computedBytes / KiB).toFixed(2)} KiB computed): were the units edited?`,
      subject: 'blockSize',
    };
  }

  /** The check as the series reports it (without the internal excess). */
  summary(): {
    checked: number;
    mismatched: number;
    worst: { where: string; reportedBytes: number; computedBytes: number } | null;
  } {
    const w = this.worst;
    return {
      checked: this.checked,
      mismatched: this.mismatched,
      worst: w && { where: w.where, reportedBytes: w.reportedBytes, computedBytes: w.computedBytes },
    };
  }
}

/** The warnings that apply, in order (the helpers above return null when theirs does not). */
export function present(...warnings: (Warning | null)[]): Warning[] {
  return warnings.filter((w): w is Warning => w !== null);
}
