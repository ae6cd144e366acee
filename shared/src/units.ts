/**
 * Units: the classic source of wrong storage answers. Every quantity that crosses a module
 * boundary carries its unit in its type, so a KiB/bytes or Mbps/MiB/s mix-up does not compile.
 *
 * | type          | unit                          | where it comes from                                  |
 * |---------------|-------------------------------|------------------------------------------------------|
 * | `Bytes`       | bytes                         | fio `io_bytes` (≥ 2.21), block sizes                 |
 * | `BytesPerSec` | bytes per second              | fio `bw_bytes`; the canonical rate inside Blockwise  |
 * | `Iops`        | I/O operations per second     | fio `iops`, EBS/instance IOPS limits                 |
 * | `MiBps`       | 2^20 bytes per second         | EBS volume throughput (EC2 API `Throughput`, prices) |
 * | `MBps`        | 10^6 bytes per second         | instance EBS throughput as AWS reports it            |
 * | `Mbps`        | 10^6 bits per second          | instance EBS bandwidth (MB/s = Mbps / 8)             |
 * | `GiB`         | 2^30 bytes                    | EBS volume size (AWS bills "GB-month" meaning GiB)   |
 * | `Usd`         | US dollars                    | prices and costs                                     |
 * | `Ms`          | milliseconds                  | latencies after normalization                        |
 *
 * fio's `bw` is KiB/s (1024-byte units) in every version; only the fio normalizer sees it.
 */

import type { z } from 'zod';

declare const unitBrand: unique symbol;
/** A number tagged with its unit at compile time (no runtime cost). */
export type Unit<U extends string> = number & { readonly [unitBrand]: U };

/**
 * A number that may carry unit U: what a schema's field parses to (see unitSchema). The tag is
 * optional, so a plain number (a literal in a test, a form's value) is accepted where the schema's
 * type is expected, but a number of another unit is not: `Unit<'IOPS'>` or `UnitOf<'IOPS'>` into
 * a `UnitOf<'MiB/s'>` field does not compile. A `Unit<U>` is a `UnitOf<U>`; the converse needs
 * the constructor (`mibps(x)`), as a plain number does.
 */
type UnitOf<U extends string> = number & { readonly [unitBrand]?: U };

/** `schema`, whose parsed value is typed as unit U: a type only, the schema object is unchanged. */
const withUnit =
  <U extends string>() =>
  <S extends z.ZodNumber>(schema: S) =>
    schema as z.core.$ZodNarrow<S, UnitOf<U>>;

/**
 * Unit helpers for Zod schemas: `iops: unitSchema.iops(z.number().nonnegative())` parses to
 * `UnitOf<'IOPS'>`, so the profile, volume and recommendation schemas say their units in their
 * types and a field of one unit cannot be given a value of another (units-in-schemas.test.ts).
 *
 * Why not Zod's `.brand()`: its brand is a required tag of Zod's own symbol, not Unit's. Every
 * object literal of those schemas (hundreds: tests, the web forms, CLI flags) would need a
 * constructor per number, and a parsed `number & $brand<'IOPS'>` would still not be an `Iops` for
 * the unit functions below. The optional tag catches the mix-up that matters — one unit where
 * another is expected — and changes no runtime value, no error and no OpenAPI document.
 */
export const unitSchema = {
  bytes: withUnit<'bytes'>(),
  bytesPerSec: withUnit<'bytes/s'>(),
  iops: withUnit<'IOPS'>(),
  mibps: withUnit<'MiB/s'>(),
  gib: withUnit<'GiB'>(),
  usd: withUnit<'USD'>(),
};

export type Bytes = Unit<'bytes'>;
export type BytesPerSec = Unit<'bytes/s'>;
export type Iops = Unit<'IOPS'>;
export type MiBps = Unit<'MiB/s'>;
export type MBps = Unit<'MB/s'>;
export type Mbps = Unit<'Mbps'>;
export type GiB = Unit<'GiB'>;
export type Usd = Unit<'USD'>;
export type Ms = Unit<'ms'>;
export type Seconds = Unit<'s'>;

export const KiB = 1024;
export const MiB = 1024 * 1024;
export const GiB_BYTES = 1024 * 1024 * 1024;
export const TiB_GiB = 1024;
/** AWS's monthly convention for hourly prices (EC2 and EBS "per month" figures). */
export const HOURS_PER_MONTH = 730;

export const bytes = (n: number) => n as Bytes;
export const bytesPerSec = (n: number) => n as BytesPerSec;
export const iops = (n: number) => n as Iops;
export const mibps = (n: number) => n as MiBps;
export const mbps = (n: number) => n as Mbps;
export const mBps = (n: number) => n as MBps;
export const gib = (n: number) => n as GiB;
export const usd = (n: number) => n as Usd;
export const ms = (n: number) => n as Ms;
export const seconds = (n: number) => n as Seconds;

export const kibpsToBytesPerSec = (kibps: number) => bytesPerSec(kibps * KiB);
export const mibpsToBytesPerSec = (v: MiBps) => bytesPerSec(v * MiB);
export const bytesPerSecToMiBps = (v: BytesPerSec) => mibps(v / MiB);
/** Instance bandwidth is in megabits: 4,750 Mbps = 593.75 MB/s = 566.2 MiB/s. */
export const mbpsToBytesPerSec = (v: Mbps) => bytesPerSec((v * 1e6) / 8);
export const mBpsToBytesPerSec = (v: MBps) => bytesPerSec(v * 1e6);
export const bytesPerSecToMbps = (v: BytesPerSec) => mbps((v * 8) / 1e6);
export const mbpsToMiBps = (v: Mbps) => bytesPerSecToMiBps(mbpsToBytesPerSec(v));

/**
 * Average I/O size = bytes/s ÷ IOPS (docs/domain.md §2); null when no I/O was counted or no bytes
 * moved: a damaged or floored report can say IOPS > 0 at 0 bytes/s, and 0 bytes is not a block
 * size (it would classify as "small"). Every average block size is computed here.
 */
export function averageBlockSize(bytesPerSec: BytesPerSec, iops: Iops): Bytes | null {
  if (!(iops > 0) || !(bytesPerSec > 0)) return null;
  return bytes(bytesPerSec / iops);
}

/** Result of parsing untrusted text: expected failures are values, not exceptions. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; expected: string };

const SIZE_FACTORS: Record<string, number> = {
  '': 1,
  b: 1,
  k: KiB,
  kb: 1000,
  kib: KiB,
  m: MiB,
  mb: 1e6,
  mib: MiB,
  g: GiB_BYTES,
  gb: 1e9,
  gib: GiB_BYTES,
  t: GiB_BYTES * 1024,
  tb: 1e12,
  tib: GiB_BYTES * 1024,
};

/**
 * A size typed by a person: `4096`, `4k`, `4KiB`, `64 KB`, `1TiB`. A bare `k`/`m`/`g` is binary;
 * `kB`/`MB`/`GB` are decimal, `KiB`/`MiB`/`GiB` binary. (fio's own option strings follow fio's
 * `kb_base` rules instead: the fio normalizer parses those.)
 */
export function parseBytes(text: string): Parsed<Bytes> {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const factor = m ? SIZE_FACTORS[m[2]!.toLowerCase()] : undefined;
  if (!m || factor === undefined) {
    return { ok: false, expected: 'a size such as 4096, 4k, 16KiB, 1MiB or 1TiB' };
  }
  return { ok: true, value: bytes(Number(m[1]) * factor) };
}

/** Why a typed count was refused: not a number at all, or a number below zero. */
export type ParsedCount =
  { ok: true; value: number } | { ok: false; reason: 'not_a_number' | 'negative'; expected: string };

/** Powers of ten by suffix (applied as an exponent: "1.1k" is exactly 1100, not 1100.0000000000002). */
const COUNT_EXPONENT: Record<string, number> = { '': 0, k: 3, m: 6 };

/**
 * A count typed by a person, as dashboards print them: `12000`, `12,000`, `12 000`, `1_000`,
 * `3.5`, `10k`, `1.5M` (k = 1,000 and M = 1,000,000: IOPS and dollars are decimal, unlike the
 * binary `k` of a block size in parseBytes). A leading minus is refused as `negative`, so the form
 * can say the value must be positive instead of "not a number".
 */
export function parseCountText(text: string): ParsedCount {
  const cleaned = text.trim().replace(/[,_\s\u00a0\u202f]/g, '');
  const m = /^(-|\u2212)?(\d+(?:\.\d+)?|\.\d+)([kKmM]?)$/.exec(cleaned);
  if (!m) return { ok: false, reason: 'not_a_number', expected: 'a number such as 12000, 12,000 or 12k' };
  if (m[1])
    return { ok: false, reason: 'negative', expected: 'a number of 0 or more (without a minus sign)' };
  const value = Number(`${m[2]}e${COUNT_EXPONENT[m[3]!.toLowerCase()]!}`);
  if (!Number.isFinite(value))
    return { ok: false, reason: 'not_a_number', expected: 'a number such as 12000' };
  return { ok: true, value };
}

/** A volume size: a bare number is GiB (`1000`), or with a unit (`1TiB`, `500GiB`, `2T`). */
export function parseGiB(text: string): Parsed<GiB> {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return { ok: true, value: gib(Number(trimmed)) };
  const parsed = parseBytes(trimmed);
  if (!parsed.ok) return { ok: false, expected: 'a size in GiB such as 1000, 500GiB or 1TiB' };
  return { ok: true, value: gib(parsed.value / GiB_BYTES) };
}

/** Throughput units accepted from people and dashboards, as bytes per second per unit. */
export const THROUGHPUT_UNITS = {
  'B/s': 1,
  'KiB/s': KiB,
  'KB/s': 1e3,
  'MiB/s': MiB,
  'MB/s': 1e6,
  'GiB/s': GiB_BYTES,
  'GB/s': 1e9,
  Mbps: 1e6 / 8,
  Gbps: 1e9 / 8,
} as const;
export type ThroughputUnit = keyof typeof THROUGHPUT_UNITS;
export const THROUGHPUT_UNIT_NAMES = Object.keys(THROUGHPUT_UNITS) as ThroughputUnit[];

/** Converts a number in a named throughput unit to bytes per second. */
export function toBytesPerSec(value: number, unit: ThroughputUnit): BytesPerSec {
  return bytesPerSec(value * THROUGHPUT_UNITS[unit]);
}

const THROUGHPUT_ALIASES: Record<string, ThroughputUnit> = {
  'b/s': 'B/s',
  bps: 'B/s',
  'kib/s': 'KiB/s',
  'kb/s': 'KB/s',
  'mib/s': 'MiB/s',
  mibps: 'MiB/s',
  'mb/s': 'MB/s',
  mbyte: 'MB/s',
  'gib/s': 'GiB/s',
  'gb/s': 'GB/s',
};

/**
 * A throughput such as `500MiB/s`, `188 MB/s`, `4750Mbps`, `10 Gbps`. Case matters exactly where
 * it changes the meaning: `Mbps`/`Mb/s` are megabits, `MB/s`/`MBps` megabytes. A bare number needs
 * `defaultUnit` (the CLI passes MiB/s, the EBS unit).
 */
export function parseThroughput(text: string, defaultUnit?: ThroughputUnit): Parsed<BytesPerSec> {
  const r = parseThroughputAndUnit(text, defaultUnit);
  return r.ok ? { ok: true, value: r.value.bytesPerSec } : r;
}

/** A throughput as the number and unit it was written in (see `parseThroughput`), and in bytes/s. */
type ThroughputText = { amount: number; unit: ThroughputUnit; bytesPerSec: BytesPerSec };

/** `parseThroughput`, keeping the unit: `125MB/s` → { amount: 125, unit: 'MB/s', bytesPerSec: 125e6 }. */
export function parseThroughputAndUnit(text: string, defaultUnit?: ThroughputUnit): Parsed<ThroughputText> {
  const expected = `a throughput such as 500MiB/s, 188MB/s or 4750Mbps (units: ${THROUGHPUT_UNIT_NAMES.join(', ')})`;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z/]*)\s*$/.exec(text);
  if (!m) return { ok: false, expected };
  const amount = Number(m[1]);
  const raw = m[2]!;
  let unit: ThroughputUnit | undefined;
  if (raw === '') unit = defaultUnit;
  else if (raw === 'Mbps' || raw === 'Mb/s' || raw === 'Mbit/s') unit = 'Mbps';
  else if (raw === 'Gbps' || raw === 'Gb/s' || raw === 'Gbit/s') unit = 'Gbps';
  else if (raw === 'MBps') unit = 'MB/s';
  else if (raw === 'GBps') unit = 'GB/s';
  else if (raw === 'KBps' || raw === 'kBps') unit = 'KB/s';
  else if (raw in THROUGHPUT_UNITS) unit = raw as ThroughputUnit;
  else unit = THROUGHPUT_ALIASES[raw.toLowerCase()];
  if (unit === undefined) return { ok: false, expected };
  return { ok: true, value: { amount, unit, bytesPerSec: toBytesPerSec(amount, unit) } };
}

/**
 * Units that are a power of 1024 bytes per second (B/s, KiB/s, MiB/s, GiB/s): a whole number of
 * them is an exact number of MiB/s or a fraction of one. The others (kB/s, MB/s, GB/s, Mbps, Gbps)
 * are powers of 1000 and land between whole MiB/s.
 */
export function isBinaryThroughputUnit(unit: ThroughputUnit): boolean {
  return unit === 'B/s' || unit.endsWith('iB/s');
}

const DURATION_FACTORS: Record<string, number> = {
  '': 1,
  s: 1,
  sec: 1,
  ms: 1e-3,
  us: 1e-6,
  m: 60,
  min: 60,
  h: 3600,
  d: 86400,
};

/** A duration: `900`, `900s`, `15m`, `1h` (fio's convention: a bare number is seconds). */
export function parseSeconds(text: string): Parsed<Seconds> {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const factor = m ? DURATION_FACTORS[m[2]!.toLowerCase()] : undefined;
  if (!m || factor === undefined) return { ok: false, expected: 'a duration such as 900, 900s, 15m or 1h' };
  return { ok: true, value: seconds(Number(m[1]) * factor) };
}

/** Shortest human form of a byte size: 4096 → "4 KiB", 10049.4 → "9.8 KiB". */
export function formatBytes(value: Bytes | number, digits = 1): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = value;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  const rounded = Number.isInteger(v) ? String(v) : v.toFixed(digits);
  return `${rounded} ${units[i]}`;
}

/** A rate in MiB/s with the unit spelled out: "566.2 MiB/s". */
export function formatMiBps(rate: BytesPerSec, digits = 1): string {
  return `${(rate / MiB).toFixed(digits)} MiB/s`;
}

/*
 * en-US number formatting for the explanations the engine writes. `toLocaleString` builds a new
 * Intl.NumberFormat on every call (≈ 10 µs): the right-sizing sweep writes tens of thousands of
 * such numbers, so formatters are built once per option set and integers are grouped by hand
 * (the sweep, `pnpm bench -- --only P12`: 5.0 ms median, 12.0 ms with a cached Intl formatter).
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(minFractionDigits: number, maxFractionDigits: number): Intl.NumberFormat {
  const key = `${minFractionDigits}:${maxFractionDigits}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: minFractionDigits,
      maximumFractionDigits: maxFractionDigits,
    });
    numberFormats.set(key, f);
  }
  return f;
}

/** Rounded to a whole number with thousands separators: 16000.4 → "16,000", -1234.5 → "-1,234". */
export function formatInt(value: number): string {
  const rounded = Math.round(value);
  if (!Number.isSafeInteger(rounded)) return numberFormat(0, 0).format(value);
  const digits = String(Math.abs(rounded));
  let out = digits.length > 3 ? '' : digits;
  if (digits.length > 3) {
    const head = digits.length % 3 || 3;
    out = digits.slice(0, head);
    for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  }
  return rounded < 0 ? `-${out}` : out;
}

/**
 * Up to `maxFractionDigits` decimals, trailing zeros dropped, thousands grouped: 1234.56 → "1,234.6".
 * Done by hand, not with Intl: building the first Intl.NumberFormat costs ~30 ms on a slow phone,
 * in the task that draws a page (bench P11). The same text as Intl's en-US: rounded half away
 * from zero on the number's shortest decimal form (1.005 → "1.01", where toFixed gives "1.00"),
 * "-0" for a negative number that rounds to zero. Exponent forms (≥ 1e21, < 1e-6) go to Intl.
 */
export function formatDecimal(value: number, maxFractionDigits: number, minFractionDigits = 0): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(String(Math.abs(value)));
  if (!m || m[1]!.length > 15 || maxFractionDigits > 20 || minFractionDigits > maxFractionDigits)
    return numberFormat(minFractionDigits, maxFractionDigits).format(value);
  let [whole, frac] = [m[1]!, m[2] ?? ''];
  if (frac.length > maxFractionDigits) {
    const up = frac.charCodeAt(maxFractionDigits) >= 53; // '5'
    frac = frac.slice(0, maxFractionDigits);
    if (up) {
      const digits = String(BigInt(whole + frac) + 1n).padStart(frac.length + 1, '0');
      [whole, frac] = [
        digits.slice(0, digits.length - frac.length),
        digits.slice(digits.length - frac.length),
      ];
    }
  }
  frac = frac.replace(/0+$/, '').padEnd(minFractionDigits, '0');
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}${formatInt(Number(whole))}${frac ? `.${frac}` : ''}`;
}

/** A ratio (1 = 100%) as a percentage: 0.9876 → "98.8%"; an infinite one "∞". */
export const formatPercent = (ratio: number, digits = 1) =>
  Number.isFinite(ratio) ? `${(ratio * 100).toFixed(digits)}%` : '∞';

/**
 * "$1,385.00": always cents. Grouped by hand like formatInt (a plan formats dozens of prices, and
 * Intl is the slow part of a right-sizing sweep); the same text as Intl's en-US, sign before the digits.
 */
export function formatUsd(value: Usd | number): string {
  // Rounded on the number's shortest decimal form, half away from zero, as Intl en-US does (1.005 → 1.01).
  const text = String(Math.abs(value));
  const m = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m || m[1]!.length > 13) return `$${formatDecimal(value, 2, 2)}`;
  const frac = m[2] ?? '';
  const cents =
    Number(m[1]) * 100 + Number(frac.slice(0, 2).padEnd(2, '0')) + (frac.charCodeAt(2) >= 53 ? 1 : 0);
  const sign = value < 0 ? '-' : '';
  return `$${sign}${formatInt(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, '0')}`;
}

/** Rounds to cents the way an invoice does (half away from zero), avoiding 0.1+0.2 noise. */
export function roundCents(value: number): Usd {
  return usd(Math.round((value + Number.EPSILON * Math.sign(value)) * 100) / 100);
}
