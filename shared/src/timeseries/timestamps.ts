/**
 * Timestamps in metric exports, and the time zone they are in.
 *
 * Accepted forms (case-insensitive):
 * - ISO 8601 and its common variants: `2026-11-20T14:05:00Z`, `2026-11-20T14:05:00.000+01:00`,
 *   `2026-11-20 14:05:00`, `2026-11-20 14:05`, `2026-11-20T14:05:00+0100`;
 * - the slash form consoles and spreadsheets write: `2026/11/20 14:05`, `2026/11/20 14:05:00 UTC`,
 *   `2026/11/20 14:05 GMT+1`;
 * - Unix epoch seconds (10 digits, optionally with decimals) or milliseconds (13 digits).
 * Day-first/month-first forms (`11/20/2026`) are refused: they cannot be told apart reliably.
 *
 * A timestamp without an offset is "wall-clock time" somewhere; `resolveTimes` (build-series.ts)
 * decides where: an offset in the column header, the caller's time zone, or UTC (documented there).
 */
export type ParsedTime = {
  /** The written date and time read as if they were UTC, ms since the epoch. */
  wallMs: number;
  /** The UTC offset written in the value, minutes east of UTC (Z/UTC/GMT = 0); null when none was written. */
  offsetMin: number | null;
};

const DATE_TIME =
  /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|(?:UTC|GMT)?\s*[+-]\d{1,2}(?::?\d{2})?|UTC|GMT)?$/i;

/** "+01:00", "-0500", "+1", "UTC+05:30", "GMT-3", "Z", "UTC" → minutes east of UTC; null if not an offset. */
export function parseOffset(text: string): number | null {
  const t = text.trim();
  if (/^(Z|UTC|GMT)$/i.test(t)) return 0;
  const m = /^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$/i.exec(t);
  if (!m) return null;
  const hours = Number(m[2]);
  const minutes = m[3] === undefined ? 0 : Number(m[3]);
  if (hours > 14 || minutes > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export function parseTimestamp(text: string): ParsedTime | null {
  const t = text.trim();
  if (/^\d{9,10}(\.\d+)?$/.test(t)) return { wallMs: Math.round(Number(t) * 1000), offsetMin: 0 };
  if (/^\d{12,13}$/.test(t)) return { wallMs: Number(t), offsetMin: 0 };
  const m = DATE_TIME.exec(t);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [hour, minute, second] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const fraction = m[7] === undefined ? 0 : Number(`0.${m[7]}`);
  if (year < 1970 || year > 2200 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const wallMs = Date.UTC(year, month - 1, day, hour, minute, second) + Math.round(fraction * 1000);
  if (m[8] === undefined) return { wallMs, offsetMin: null };
  const offsetMin = parseOffset(m[8]);
  if (offsetMin === null) return null;
  return { wallMs, offsetMin };
}

export const TIMESTAMP_EXPECTED =
  'a timestamp such as 2026-11-20T14:05:00Z, 2026-11-20 14:05:00+01:00, 2026/11/20 14:05 or epoch seconds';

/** Where wall-clock times without an offset are. */
export type TimeZoneSpec =
  { kind: 'fixed'; offsetMin: number; name: string } | { kind: 'iana'; name: string };

// Intl is part of ECMAScript (ECMA-402) and exists in browsers and Node alike.
function validIanaZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** "UTC", "Z", "+01:00", "UTC-5", "America/New_York", "Europe/Berlin" → a zone; null if unknown. */
export function parseTimeZone(text: string): TimeZoneSpec | null {
  const t = text.trim();
  if (t === '') return null;
  const offset = parseOffset(t);
  if (offset !== null) return { kind: 'fixed', offsetMin: offset, name: formatOffset(offset) };
  if (/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/.test(t) && validIanaZone(t)) return { kind: 'iana', name: t };
  return null;
}

export function formatOffset(offsetMin: number): string {
  if (offsetMin === 0) return 'UTC';
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetCache = new Map<string, number>();
const QUARTER_HOUR_MS = 15 * 60 * 1000;

/**
 * The zone's UTC offset (minutes east) at an instant. Zones change offset only on quarter-hour
 * boundaries, so the answer is cached per quarter hour: a million-point import calls Intl a few
 * thousand times, not a million.
 */
export function zoneOffsetMin(zone: string, utcMs: number): number {
  const bucket = Math.floor(utcMs / QUARTER_HOUR_MS);
  const key = `${zone}|${bucket}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  const at = bucket * QUARTER_HOUR_MS;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(at))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  const offset = Math.round((wall - at) / 60000);
  if (offsetCache.size > 100_000) offsetCache.clear();
  offsetCache.set(key, offset);
  return offset;
}

/**
 * The instants at which a zone's clocks showed this wall time: one normally, two in the hour
 * repeated when daylight saving time ends, none in the hour skipped when it starts.
 */
export function wallTimeInstants(zone: string, wallMs: number): number[] {
  const out: number[] = [];
  // The offsets in force within a day either side cover any transition near this wall time.
  for (const probe of [wallMs - 86_400_000, wallMs, wallMs + 86_400_000]) {
    const candidate = wallMs - zoneOffsetMin(zone, probe) * 60000;
    if (!out.includes(candidate) && candidate + zoneOffsetMin(zone, candidate) * 60000 === wallMs)
      out.push(candidate);
  }
  return out.sort((a, b) => a - b);
}
