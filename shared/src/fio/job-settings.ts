import type { Warning } from '../problem.ts';
import type { BlockSizeShare, JobSettings, PerDirection } from './fio-report.schema.ts';

/**
 * Typed facts from fio's option strings (docs/fio-format.md §8.10), for the planning engine: block
 * sizes per direction, the read/write mix, queue depth, engine, direct I/O, timing.
 *
 * Units follow fio's own parser (parse.c, `__get_mult_bytes`, `get_mult_time`), not people's
 * conventions:
 * - Sizes: the suffix is case-insensitive and matched by its first letters. With the default `kb_base=1024`
 *   ("compatibility mode"), `k`/`kb`/`m`/`mb`/`g`… are powers of 1024 — and the IEC forms
 *   `kib`/`mib`/`gib`… are powers of **1000**, the opposite of what they say (fio HOWTO,
 *   `kb_base`: "1024: Compatibility mode … power-of-10 values with IEC prefixes"). With
 *   `kb_base=1000` both flip back: `k` = 1000, `KiB` = 1024. We apply exactly that, so `4k` is
 *   4096 and `4KiB` is 4000 unless the job set `kb_base=1000`.
 * - `%` (a share of the file) is not a size: null.
 * - fio reads the number with `strtoll`, so `1.5k` silently becomes 1 byte there; we return null
 *   (not understood) rather than repeat that, and warn.
 * - Times: a bare number is seconds for `runtime`/`ramp_time`; suffixes `us`/`usec`, `ms`/`msec`,
 *   `s`, `m` (minutes), `h`, `d`. fio reads any other suffix as microseconds (`5min` = 5 µs!);
 *   we return null and warn.
 * - Options printed without a value never appear in fio's JSON (`--time_based`,
 *   `--group_reporting` are absent from "job options" even when set: fixtures a, h1), so an
 *   absent flag is null ("not recorded"), never false.
 */

/** Merged option strings; looked up as own properties only (the names come from the file). */
type Options = Readonly<Record<string, string>>;

const optionValue = (options: Options, name: string): string | undefined =>
  Object.hasOwn(options, name) ? options[name] : undefined;

/** `bs`-style lists: one value per direction, read,write,trim (HOWTO `blocksize`). */
const DIRECTION_COUNT = 3;

/** Engines that complete each I/O before issuing the next (iodepth is capped at 1, backend.c note). */
const SYNC_ENGINES = new Set(['sync', 'psync', 'vsync', 'pvsync', 'pvsync2', 'mmap', 'splice']);
const ASYNC_ENGINES = new Set([
  'libaio',
  'io_uring',
  'io_uring_cmd',
  'posixaio',
  'windowsaio',
  'solarisaio',
  'rdma',
  'spdk',
  'xnvme',
]);

const SEQUENTIAL_RW = new Set(['read', 'write', 'trim', 'rw', 'readwrite', 'trimwrite']);
const RANDOM_RW = new Set(['randread', 'randwrite', 'randtrim', 'randrw', 'randtrimwrite']);

/** What the option readers below share: the options, the size base, and where warnings go. */
type Reader = { options: Options; kbBase: 1000 | 1024; path: string; warnings: Warning[] };

function notUnderstood(r: Reader, name: string, value: string, expected: string): void {
  r.warnings.push({
    code: 'option_not_understood',
    message: `option ${name}=${JSON.stringify(value)} was not understood (expected ${expected}); it is ignored`,
    subject: `${r.path}.options.${name}`,
  });
}

function readSize(r: Reader, name: string): number | null {
  const text = optionValue(r.options, name);
  if (text === undefined) return null;
  const value = parseFioSize(text, r.kbBase);
  if (value === null && !/%\s*$/.test(text))
    notUnderstood(r, name, text, 'a size such as 1g or a percentage');
  return value;
}

function readCount(r: Reader, name: string): number | null {
  const text = optionValue(r.options, name);
  if (text === undefined) return null;
  const value = parseFioSize(text, r.kbBase);
  if (value === null) notUnderstood(r, name, text, 'a whole number');
  return value;
}

function readSeconds(r: Reader, name: string): number | null {
  const text = optionValue(r.options, name);
  if (text === undefined) return null;
  const value = parseFioSeconds(text);
  if (value === null) notUnderstood(r, name, text, 'a duration such as 60, 5m, 1h or 500ms');
  return value;
}

function readFlag(r: Reader, name: string): boolean | null {
  const text = optionValue(r.options, name);
  if (text === undefined) return null;
  const value = parseFioBool(text);
  if (value === null) notUnderstood(r, name, text, '0 or 1');
  return value;
}

/** Turns merged job options into typed settings; warnings name options whose value was not understood. */
export function readJobSettings(
  options: Options,
  path: string,
): { settings: JobSettings; warnings: Warning[] } {
  const kbBaseText = optionValue(options, 'kb_base');
  const r: Reader = { options, kbBase: kbBaseText?.trim() === '1000' ? 1000 : 1024, path, warnings: [] };
  if (kbBaseText !== undefined && !/^\s*(1000|1024)\s*$/.test(kbBaseText)) {
    notUnderstood(r, 'kb_base', kbBaseText, '1000 or 1024');
  }
  const { kbBase } = r;

  const bsText = optionValue(options, 'bs') ?? optionValue(options, 'blocksize');
  const bsrangeText = optionValue(options, 'bsrange') ?? optionValue(options, 'blocksize_range');
  const bssplitText = optionValue(options, 'bssplit');
  const blockSizeBytes = perDirection(bsText, (v) => parseFioSize(v, kbBase));
  if (bsText !== undefined && blockSizeBytes === null)
    notUnderstood(r, 'bs', bsText, 'sizes such as 4k or 4k,64k');
  const blockSizeRangeBytes = perDirection(bsrangeText, (v) => parseFioRange(v, kbBase));
  if (bsrangeText !== undefined && blockSizeRangeBytes === null) {
    notUnderstood(r, 'bsrange', bsrangeText, 'ranges such as 4k-16k or 4k-16k,64k-64k');
  }
  const blockSizeSplit = perDirection(bssplitText, (v) => parseFioSplit(v, kbBase));
  if (bssplitText !== undefined && blockSizeSplit === null) {
    notUnderstood(r, 'bssplit', bssplitText, 'entries such as 4k/10:64k/90');
  }

  const rwText = optionValue(options, 'rw') ?? optionValue(options, 'readwrite');
  // `rw=randread:8` / `rw=read:4k`: the part after ':' is an offset modifier, not the pattern.
  const rw = rwText === undefined ? null : rwText.split(':')[0]!.trim().toLowerCase();
  const sequential = rw === null ? null : SEQUENTIAL_RW.has(rw) ? true : RANDOM_RW.has(rw) ? false : null;
  if (rwText !== undefined && sequential === null)
    notUnderstood(r, 'rw', rwText, 'an I/O pattern such as randread or rw');

  const rwmixread = readCount(r, 'rwmixread');
  const rwmixwrite = readCount(r, 'rwmixwrite');
  const rwmixreadPercent =
    rwmixread !== null
      ? Math.min(100, rwmixread)
      : rwmixwrite !== null
        ? 100 - Math.min(100, rwmixwrite)
        : null;

  const ioengine = optionValue(options, 'ioengine')?.trim() || null;
  const engineName = ioengine?.split(':')[0]?.toLowerCase() ?? null;

  const settings: JobSettings = {
    rw,
    sequential,
    blockSizeBytes: blockSizeBytes ?? NO_DIRECTIONS,
    blockSizeRangeBytes: blockSizeRangeBytes ?? NO_DIRECTIONS,
    blockSizeSplit: blockSizeSplit ?? NO_DIRECTIONS,
    blockSizeDefaulted:
      Object.keys(options).length > 0
        ? bsText === undefined && bsrangeText === undefined && bssplitText === undefined
        : null,
    rwmixreadPercent,
    iodepth: readCount(r, 'iodepth'),
    numjobs: readCount(r, 'numjobs'),
    direct: readFlag(r, 'direct'),
    ioengine,
    synchronousEngine:
      engineName === null
        ? null
        : SYNC_ENGINES.has(engineName)
          ? true
          : ASYNC_ENGINES.has(engineName)
            ? false
            : null,
    runtimeSec: readSeconds(r, 'runtime'),
    timeBased: readFlag(r, 'time_based'),
    rampTimeSec: readSeconds(r, 'ramp_time'),
    fsync: readCount(r, 'fsync'),
    sizeBytes: readSize(r, 'size'),
    kbBase,
  };
  return { settings, warnings: r.warnings };
}

const NO_DIRECTIONS = { read: null, write: null, trim: null } as const;

/**
 * fio's per-direction lists (HOWTO `blocksize`): `4k` applies to read, write and trim; `8k,32k`
 * gives 8k reads and 32k writes *and* trims (a value not followed by a comma carries over);
 * `8k,32k,` leaves trims at the default; `,8k` leaves reads at the default. A default is null.
 * Returns null when any given value is not understood.
 */
export function perDirection<T>(
  text: string | undefined,
  parse: (value: string) => T | null,
): PerDirection<T> | null {
  if (text === undefined) return null;
  const parts = text.split(',');
  if (parts.length > DIRECTION_COUNT) return null;
  const values: (T | null)[] = [];
  for (let i = 0; i < DIRECTION_COUNT; i++) {
    const part = (i < parts.length ? parts[i] : parts[parts.length - 1])!.trim();
    if (part === '') {
      values.push(null);
      continue;
    }
    const value = parse(part);
    if (value === null) return null;
    values.push(value);
  }
  return { read: values[0] ?? null, write: values[1] ?? null, trim: values[2] ?? null };
}

/** A fio size string in bytes (`4k`, `64KiB`, `1m`, `0x1000`), following `kb_base`; null if not a size. */
export function parseFioSize(text: string, kbBase: 1000 | 1024 = 1024): number | null {
  const m = /^\s*(0x[0-9a-f]+|\d+)\s*([a-z%]*)\s*$/i.exec(text);
  if (!m) return null;
  const value = Number(m[1]);
  const suffix = m[2]!.toLowerCase();
  if (suffix.startsWith('%')) return null;
  const multiplier = sizeMultiplier(suffix, kbBase);
  if (multiplier === null) return null;
  const bytes = value * multiplier;
  return Number.isSafeInteger(bytes) ? bytes : null;
}

const POWERS: Record<string, number> = { k: 1, m: 2, g: 3, t: 4, p: 5 };

function sizeMultiplier(suffix: string, kbBase: 1000 | 1024): number | null {
  if (suffix === '' || suffix.startsWith('b')) return 1;
  // fio matches by prefix: `k`, `kb`, `kilo` and `Mi` (fioplot fixture: size=50000Mi) all take
  // the first letter's power of kb_base…
  const pow = POWERS[suffix[0]!];
  if (pow === undefined) return null;
  // …except `kib`, `mib`…, which take the "opposite" base (parse.c: "If kb_base is 1024, use
  // opposite units").
  const iec = suffix.startsWith('ib', 1);
  const base = iec ? (kbBase === 1024 ? 1000 : 1024) : kbBase;
  return base ** pow;
}

/** `4k-16k` or `4k:16k` → {minBytes, maxBytes} (fio swaps a reversed range). */
export function parseFioRange(
  text: string,
  kbBase: 1000 | 1024 = 1024,
): { minBytes: number; maxBytes: number } | null {
  const m = /^([^-:]+)[-:]([^-:]+)$/.exec(text.trim());
  if (!m) return null;
  const a = parseFioSize(m[1]!, kbBase);
  const b = parseFioSize(m[2]!, kbBase);
  if (a === null || b === null) return null;
  return { minBytes: Math.min(a, b), maxBytes: Math.max(a, b) };
}

/**
 * One direction of `bssplit` (`4k/10:64k/50:1m/`): sizes with their share in percent; a missing
 * share (null) means fio spreads what is left evenly over those entries.
 */
export function parseFioSplit(text: string, kbBase: 1000 | 1024 = 1024): BlockSizeShare[] | null {
  const entries: BlockSizeShare[] = [];
  for (const entry of text.split(':')) {
    const m = /^\s*([^/]+?)\s*(?:\/\s*(\d+(?:\.\d+)?)?\s*)?$/.exec(entry);
    if (!m) return null;
    const blockSizeBytes = parseFioSize(m[1]!, kbBase);
    if (blockSizeBytes === null) return null;
    const percent = m[2] === undefined ? null : Number(m[2]);
    if (percent !== null && percent > 100) return null;
    entries.push({ blockSizeBytes, percent });
  }
  return entries.length > 0 ? entries : null;
}

const TIME_FACTORS: Record<string, number> = {
  '': 1,
  s: 1,
  us: 1e-6,
  usec: 1e-6,
  ms: 1e-3,
  msec: 1e-3,
  m: 60,
  h: 3600,
  d: 86400,
};

/** A fio time option in seconds: `60`, `60s`, `5m` (minutes), `1h`, `500ms`, `100us`; null if not a time. */
export function parseFioSeconds(text: string): number | null {
  const m = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) return null;
  const factor = TIME_FACTORS[m[2]!.toLowerCase()];
  if (factor === undefined) return null;
  // Divide for sub-second units so 500ms is exactly 0.5, not 0.5000000000000001.
  return factor < 1 ? Number(m[1]) / Math.round(1 / factor) : Number(m[1]) * factor;
}

/** fio booleans are integers (`check_int`): 0 is false, anything else true; a flag given bare is true. */
export function parseFioBool(text: string): boolean | null {
  const t = text.trim();
  if (t === '') return true;
  const m = /^(0x[0-9a-f]+|\d+)/i.exec(t);
  if (!m) return null;
  return Number(m[1]) !== 0;
}
