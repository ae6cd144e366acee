import type { Problem, Warning } from '../problem.ts';
import { averageBlockSize, bytesPerSec as asBytesPerSec, iops as asIops, KiB } from '../units.ts';
import type { DirectionStats, FioJob, JobSettings, LatencyMs } from './fio-report.schema.ts';
import {
  checkFioNumber,
  readBins,
  type Bins,
  type FioRawDirection,
  type FioRawJob,
  type FioRawLatency,
} from './fio-raw.schema.ts';
import { readJobSettings } from './job-settings.ts';
import { readPercentiles } from './percentiles.ts';

/**
 * One entry of `jobs` / `client_stats` → a unit-safe FioJob (docs/fio-format.md §2, §3, §5, §9 step 4),
 * plus what aggregation needs and the report does not show (json+ bins, sample weights).
 */

/** Parsed `"fio version"`: "fio-3.14-6-g97134" → 3.14.0 (docs/fio-format.md §1: take the first \d+.\d+(.\d+)?). */
export type FioVersion = { major: number; minor: number; patch: number };

export function parseFioVersion(text: string | undefined): FioVersion | null {
  const m = text === undefined ? null : /(\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

export const isVersionBefore = (v: FioVersion, major: number, minor: number) =>
  v.major < major || (v.major === major && v.minor < minor);

/** A direction with what aggregation needs beside the report's numbers. */
export type NormalizedDirection = {
  stats: DirectionStats;
  /** json+ histogram in the latency object's unit, or null. */
  bins: Bins | null;
  /** The percentiles fio printed (ascending), to recompute from merged bins. */
  percentileList: number[];
  /** ms per unit of the latency object: 1e6 for ns, 1e3 for µs. */
  divisor: number;
  /** The fio key the percentiles were read from (`clat_ns`, `lat_ns`, `clat`), null without any. */
  percentilesFrom: LatencyKey | null;
};

/** fio's latency objects that can hold a direction's percentiles. */
export type LatencyKey = 'clat_ns' | 'lat_ns' | 'clat' | 'lat';

export type NormalizedJob = {
  job: FioJob;
  read: NormalizedDirection;
  write: NormalizedDirection;
  trim: NormalizedDirection;
  mixed: NormalizedDirection | null;
  warnings: Warning[];
};

export type JobContext = {
  /** JSON path of the entry, e.g. `jobs.3` or `client_stats.0`: used in messages. */
  path: string;
  /** `global options` (already reduced to one object in client mode). */
  globalOptions: Readonly<Record<string, string>> | null;
  version: FioVersion | null;
  /**
   * Settings already read in this parse, by option contents: numjobs clones without
   * group_reporting repeat the same options in every entry (16 in public/samyaple_*nj16*).
   */
  settingsCache?: SettingsCache;
};

type ReadSettings = ReturnType<typeof readJobSettings>;

/**
 * Settings read in one parse, by option contents. The entries of a file with numjobs clones
 * follow one another, so the options of the previous lookup are compared first, name by name,
 * before a key of all of them is built and hashed.
 */
type SettingsCache = {
  byKey: Map<string, ReadSettings>;
  last: { names: string[]; values: string[]; read: ReadSettings } | null;
};

type Normalized<T> = { ok: true; value: T } | { ok: false; error: Problem };

/** A few errnos fio jobs commonly fail with (Linux numbering, asm-generic/errno-base.h). */
const ERRNO_NAMES: Record<number, string> = {
  1: 'EPERM',
  2: 'ENOENT',
  5: 'EIO',
  6: 'ENXIO',
  9: 'EBADF',
  11: 'EAGAIN',
  12: 'ENOMEM',
  13: 'EACCES',
  16: 'EBUSY',
  19: 'ENODEV',
  21: 'EISDIR',
  22: 'EINVAL',
  24: 'EMFILE',
  25: 'ENOTTY',
  27: 'EFBIG',
  28: 'ENOSPC',
  30: 'EROFS',
  95: 'EOPNOTSUPP',
  110: 'ETIMEDOUT',
  121: 'EREMOTEIO',
};

export function normalizeJob(raw: FioRawJob, context: JobContext): Normalized<NormalizedJob> {
  const { path } = context;
  const warnings: Warning[] = [];

  // docs/fio-format.md §9 step 5: global options, overridden by job options.
  const options: Record<string, string> = {};
  if (context.globalOptions) copyOptions(context.globalOptions, options);
  if (raw['job options']) copyOptions(raw['job options'], options);
  const { settings, warnings: settingWarnings } = settingsFor(options, path, context.settingsCache);
  for (const w of settingWarnings) warnings.push(w);

  const totalLatency = reportsTotalLatency(options, context.version, raw);
  // In this order, so that their warnings come in it.
  const readResult = directionOf(raw, 'read', path, totalLatency, warnings);
  if (!readResult.ok) return readResult;
  const writeResult = directionOf(raw, 'write', path, totalLatency, warnings);
  if (!writeResult.ok) return writeResult;
  const trimResult = directionOf(raw, 'trim', path, totalLatency, warnings);
  if (!trimResult.ok) return trimResult;
  const [read, write, trim] = [readResult.value, writeResult.value, trimResult.value];
  let mixed: NormalizedDirection | null = null;
  if (raw.mixed !== undefined) {
    const d = normalizeDirection(raw.mixed, `${path}.mixed`, totalLatency, warnings);
    if (!d.ok) return d;
    mixed = d.value;
  }
  const totalWarning = totalLatencyWarning(raw.jobname, path, [
    ['read', read],
    ['write', write],
    ['trim', trim],
    ['mixed', mixed],
  ]);
  if (totalWarning) warnings.push(totalWarning);
  const hasSplit = raw.read !== undefined || raw.write !== undefined || raw.trim !== undefined;
  if (!hasSplit && mixed === null) {
    return {
      ok: false,
      error: {
        code: 'unsupported_fio_output',
        message: `${path} ("${raw.jobname}") has no read, write, trim or mixed section, so there are no results to read`,
        path,
      },
    };
  }
  if (!hasSplit) {
    // docs/fio-format.md §5: unified_rw_reporting=mixed (or 1) writes only "mixed".
    warnings.push({
      code: 'mixed_only',
      message: `job "${raw.jobname}" ran with unified_rw_reporting=mixed: fio reported reads, writes and trims together as "mixed", so read/write/trim show zero and the results are under mixed`,
      subject: `${path}.mixed`,
    });
  }

  let sync: FioJob['sync'] = null;
  const rawSync = raw.sync;
  const syncProblem = checkFioNumber(rawSync?.total_ios, path, 'sync.total_ios');
  if (syncProblem) return { ok: false, error: syncProblem };
  if (rawSync !== undefined && (rawSync.total_ios ?? 0) > 0) {
    const syncPath = `${path}.sync.lat_ns`;
    const latency = normalizeLatency(
      {
        main: rawSync.lat_ns,
        mainPath: syncPath,
        percentiles: rawSync.lat_ns,
        percentilesPath: syncPath,
        key: 'lat_ns',
      },
      1e6,
      true,
      false,
      null,
    );
    if (!latency.ok) return latency;
    sync = { totalIos: rawSync.total_ios ?? 0, latMs: latency.value.latency };
  }

  const error = raw.error ?? 0;
  if (error !== 0) {
    const name = ERRNO_NAMES[error];
    warnings.push({
      code: 'job_error',
      message: `job "${raw.jobname}" (${path}) failed with error ${error}${name ? ` (${name})` : ''}: fio still wrote its numbers, but they are not a measurement of the storage`,
      subject: `${path}.error`,
    });
  }

  const job: FioJob = {
    name: raw.jobname,
    groupId: raw.groupid ?? 0,
    error,
    hostname: raw.hostname ?? null,
    options,
    settings,
    read: read.stats,
    write: write.stats,
    trim: trim.stats,
    mixed: mixed?.stats ?? null,
    sync,
  };
  return { ok: true, value: { job, read, write, trim, mixed, warnings } };
}

/** A direction the job has, normalized; one it does not have, empty. */
function directionOf(
  raw: FioRawJob,
  name: 'read' | 'write' | 'trim',
  path: string,
  totalLatency: boolean,
  warnings: Warning[],
): Normalized<NormalizedDirection> {
  const rawDirection = raw[name];
  if (rawDirection === undefined) return { ok: true, value: emptyDirection() };
  return normalizeDirection(rawDirection, `${path}.${name}`, totalLatency, warnings);
}

function settingsFor(
  options: Readonly<Record<string, string>>,
  path: string,
  cache: JobContext['settingsCache'],
): ReadSettings {
  if (cache === undefined) return readJobSettings(options, path);
  const names = Object.keys(options);
  const last = cache.last;
  let read = last !== null && sameOptions(options, names, last) ? last.read : undefined;
  if (read === undefined) {
    let key = '';
    // Length-prefixed, so no choice of names and values can make two different option sets collide.
    for (const name of names) {
      const value = options[name]!;
      key += `${name.length}:${name}${value.length}:${value}`;
    }
    read = cache.byKey.get(key);
    if (read === undefined) {
      read = readJobSettings(options, path);
      cache.byKey.set(key, read);
    }
    cache.last = { names, values: names.map((name) => options[name]!), read };
  }
  return { settings: copySettings(read.settings), warnings: read.warnings };
}

/** The same names in the same order with the same values: the same key in `byKey`. */
function sameOptions(
  options: Readonly<Record<string, string>>,
  names: readonly string[],
  last: NonNullable<SettingsCache['last']>,
): boolean {
  if (names.length !== last.names.length) return false;
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (name !== last.names[i] || options[name] !== last.values[i]) return false;
  }
  return true;
}

/** Each job gets its own settings object (no aliasing between jobs of one report). */
function copySettings(s: JobSettings): JobSettings {
  const split = s.blockSizeSplit;
  return {
    ...s,
    blockSizeBytes: { ...s.blockSizeBytes },
    blockSizeRangeBytes: {
      read: s.blockSizeRangeBytes.read && { ...s.blockSizeRangeBytes.read },
      write: s.blockSizeRangeBytes.write && { ...s.blockSizeRangeBytes.write },
      trim: s.blockSizeRangeBytes.trim && { ...s.blockSizeRangeBytes.trim },
    },
    blockSizeSplit: {
      read: split.read && split.read.map((e) => ({ ...e })),
      write: split.write && split.write.map((e) => ({ ...e })),
      trim: split.trim && split.trim.map((e) => ({ ...e })),
    },
  };
}

/**
 * Copies option strings from untrusted JSON. Plain assignment would turn a job option named
 * `__proto__` into a prototype change of `to`, so that one name is defined as an own property:
 * every option survives as data and no prototype is touched.
 */
function copyOptions(from: Readonly<Record<string, string>>, to: Record<string, string>): void {
  for (const name of Object.keys(from)) {
    const value = from[name]!;
    if (name === '__proto__') {
      Object.defineProperty(to, name, { value, enumerable: true, writable: true, configurable: true });
    } else {
      to[name] = value;
    }
  }
}

/**
 * Whether percentiles found under `clat_ns` are TOTAL latency. Before fio 3.18, `lat_percentiles=1`
 * made fio collect total latency (submission + completion) into the one histogram it has per
 * direction (the two options were mutually exclusive, HOWTO of fio-3.1). fio 3.4–3.12 print that
 * histogram under `clat_ns.percentile` whatever it holds; 3.13–3.17 print it under `lat_ns`
 * instead (see `percentileSource`), so a file of theirs only reaches here when edited. From 3.18
 * on, clat_ns and lat_ns each have their own. Without a version, the tell-tale is percentiles
 * under clat but none under lat.
 */
function reportsTotalLatency(
  options: Readonly<Record<string, string>>,
  version: FioVersion | null,
  raw: FioRawJob,
) {
  const flag = Object.hasOwn(options, 'lat_percentiles') ? options.lat_percentiles : undefined;
  if (flag === undefined || !/^\s*[1-9]/.test(flag)) return false;
  if (version !== null) return isVersionBefore(version, 3, 18);
  const d = raw.read ?? raw.write ?? raw.mixed;
  return d?.lat_ns?.percentile === undefined;
}

function emptyDirection(): NormalizedDirection {
  return {
    stats: {
      iops: 0,
      bytesPerSec: 0,
      blockSizeBytes: null,
      ioBytes: 0,
      runtimeMs: 0,
      totalIos: 0,
      clatMs: noLatency(0),
    },
    bins: null,
    percentileList: [],
    divisor: 1e6,
    percentilesFrom: null,
  };
}

/** The latency of a direction without I/O (or whose percentiles fio did not report). */
export function noLatency(samples: number | null): LatencyMs {
  return {
    mean: null,
    percentiles: null,
    method: 'none',
    range: null,
    approximate: false,
    isTotalLatency: false,
    samples,
  };
}

const DIRECTION_NUMBERS = [
  'io_bytes',
  'io_kbytes',
  'bw_bytes',
  'bw',
  'iops',
  'runtime',
  'total_ios',
] as const;

function normalizeDirection(
  raw: FioRawDirection,
  path: string,
  totalLatency: boolean,
  warnings: Warning[],
): Normalized<NormalizedDirection> {
  for (const key of DIRECTION_NUMBERS) {
    const problem = checkFioNumber(raw[key], path, key);
    if (problem) return { ok: false, error: problem };
  }
  // docs/fio-format.md §3.1: io_bytes was KiB before fio 2.21; `io_kbytes` appeared with the fix.
  const ioBytes = raw.io_kbytes === undefined ? raw.io_bytes * KiB : raw.io_bytes;
  // bw_bytes exists from fio 3.2; before, `bw` is KiB/s (floored, so up to 1023 B/s low). The
  // independent oracle uses bw × 1024 there too, and we agree with it.
  const bytesPerSec = raw.bw_bytes ?? raw.bw * KiB;
  const totalIos = raw.total_ios ?? null;
  let iops = raw.iops;
  if (iops === null) {
    // A bare `nan` read as null (docs/fio-format.md §8.5): fio's own formula from the counters.
    iops = totalIos !== null && raw.runtime > 0 ? (totalIos * 1000) / raw.runtime : 0;
    warnings.push({
      code: 'iops_recomputed',
      message: `${path}.iops was not a number; computed it as total_ios × 1000 / runtime = ${iops}`,
      subject: `${path}.iops`,
    });
  }
  // Bytes moved, not I/Os counted: a job that failed on its first I/O counts total_ios = 1 with
  // 0 bytes (fixture m: randtrim on a file, error 25).
  const hasIo = ioBytes > 0;
  // Average block size = bytes/s ÷ IOPS, the product's definition (docs/domain.md §2), so the three
  // numbers shown together always agree. With bw_bytes (fio ≥ 3.2) it equals io bytes ÷ I/Os up to
  // fio's flooring; without it, `bw` is floored to whole KiB/s and so is this (a 12 KiB/s floppy
  // reads 3,896 B instead of 4,096) — the same value the independent oracle gives.
  const blockSizeBytes = hasIo ? averageBlockSize(asBytesPerSec(bytesPerSec), asIops(iops)) : null;

  // fio ≥ 3.0 writes `clat_ns` (ns); fio 2.x writes `clat` (µs) (docs/fio-format.md §3.2).
  const ns = raw.clat_ns !== undefined;
  const source = percentileSource(raw, ns, path);
  const divisor = ns ? 1e6 : 1e3;
  const fromLat = source.key === 'lat_ns' || source.key === 'lat';
  const latency = normalizeLatency(source, divisor, hasIo, fromLat || totalLatency, totalIos);
  if (!latency.ok) return latency;

  return {
    ok: true,
    value: {
      stats: {
        iops,
        bytesPerSec,
        blockSizeBytes,
        ioBytes,
        runtimeMs: raw.runtime,
        totalIos,
        clatMs: latency.value.latency,
      },
      bins: latency.value.bins,
      percentileList: latency.value.list,
      divisor,
      percentilesFrom: latency.value.latency.percentiles === null ? null : source.key,
    },
  };
}

/**
 * A direction's latency objects: `main` gives the mean and sample count, `percentiles` the
 * percentiles and json+ bins (the same object, except in the lat_ns case below). Paths are for
 * messages.
 */
type LatencySource = {
  main: FioRawLatency | undefined;
  mainPath: string;
  percentiles: FioRawLatency | undefined;
  percentilesPath: string;
  key: LatencyKey;
};

/**
 * Where a direction's percentiles are. Normally under `clat_ns` (`clat` in fio 2.x). fio 3.13–3.17
 * with `lat_percentiles=1` put them under `lat_ns` and give `clat_ns` none (axboe/fio commit
 * e5eb6fbf, "put 'percentiles' object in appropriate 'clat_ns' or 'lat_ns' parent", first in
 * fio-3.13: stat.c `add_ddir_status_json` adds the object to clat_ns only with clat_percentiles
 * and to lat_ns only with lat_percentiles); fio ≥ 3.18 does the same with `clat_percentiles=0` and
 * `lat_percentiles=1`. Percentiles under lat_ns are total latency (submission + completion) in
 * every version. The mean stays clat's, so it still is completion latency.
 */
function percentileSource(raw: FioRawDirection, ns: boolean, path: string): LatencySource {
  const [clatKey, latKey] = ns ? (['clat_ns', 'lat_ns'] as const) : (['clat', 'lat'] as const);
  const clat = raw[clatKey];
  const lat = raw[latKey];
  const clatPath = `${path}.${clatKey}`;
  if (clat?.percentile === undefined && lat?.percentile !== undefined) {
    return {
      main: clat,
      mainPath: clatPath,
      percentiles: lat,
      percentilesPath: `${path}.${latKey}`,
      key: latKey,
    };
  }
  return { main: clat, mainPath: clatPath, percentiles: clat, percentilesPath: clatPath, key: clatKey };
}

/**
 * One warning per job whose percentiles are total latency: they must not be compared with the
 * completion latency (clat) of other runs, or of the same run's mean. Names the fio key they
 * came from, so the user can find them in the file.
 */
function totalLatencyWarning(
  jobname: string,
  path: string,
  directions: [string, NormalizedDirection | null][],
): Warning | null {
  for (const [name, d] of directions) {
    const key = d?.percentilesFrom;
    if (!d?.stats.clatMs.isTotalLatency || !key) continue;
    const where =
      key === 'lat_ns' || key === 'lat'
        ? `fio wrote job "${jobname}"'s latency percentiles under ${key} (lat_percentiles=1)`
        : `job "${jobname}" ran with lat_percentiles=1 on a fio before 3.18, which writes total latency under ${key}.percentile`;
    return {
      code: 'total_latency_percentiles',
      message: `${where}: they are total latency (submission + completion), not completion latency (clat), so compare them only with total latency; the mean latency is still completion latency`,
      subject: `${path}.${name}.clatMs`,
    };
  }
  return null;
}

function normalizeLatency(
  source: LatencySource,
  divisor: number,
  hasIo: boolean,
  totalLatency: boolean,
  totalIos: number | null,
): Normalized<{ latency: LatencyMs; bins: Bins | null; list: number[] }> {
  const raw = source.main;
  const pct = source.percentiles;
  const samples = raw?.N ?? pct?.N ?? totalIos;
  // A direction that did nothing has no latency. fio < 3.18 still prints zero means and
  // all-zero percentiles (docs/fio-format.md §3.2, §8.7); a 0 ms p99 would pass every latency check.
  if ((raw === undefined && pct === undefined) || !hasIo)
    return { ok: true, value: { latency: noLatency(samples ?? null), bins: null, list: [] } };
  const { mainPath, percentilesPath } = source;
  const problem =
    checkFioNumber(raw?.mean, mainPath, 'mean') ??
    checkFioNumber(raw?.N, mainPath, 'N') ??
    checkFioNumber(pct?.N, percentilesPath, 'N');
  if (problem) return { ok: false, error: problem };
  const read = readPercentiles(pct?.percentile, divisor, `${percentilesPath}.percentile`);
  if (!read.ok) return read;
  let bins: Bins | null = null;
  if (pct?.bins !== undefined) {
    const b = readBins(pct.bins, `${percentilesPath}.bins`);
    if (!b.ok) return b;
    bins = b.value;
  }
  const { percentiles, list } = read.value;
  return {
    ok: true,
    value: {
      latency: {
        mean: raw?.mean === undefined || raw.mean === null ? null : raw.mean / divisor,
        percentiles,
        method: percentiles === null ? 'none' : 'reported',
        range: null,
        approximate: false,
        isTotalLatency: percentiles !== null && totalLatency,
        samples: samples ?? null,
      },
      bins,
      list,
    },
  };
}
