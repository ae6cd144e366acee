import { z } from 'zod';
import {
  JobSettingsSchema,
  type BlockSizeShare,
  type FioReport,
  type PerDirection,
} from '../fio/fio-report.schema.ts';
import { parseFioRange, parseFioSize, perDirection } from '../fio/job-settings.ts';
import type { Warning } from '../problem.ts';

/**
 * Did two runs run the same fio job? A comparison of a 4 KiB randwrite against a 4–64 KiB 33 %-read
 * mix measures the job, not the storage, so comparisons first compare the settings that shape the
 * I/O (block sizes, pattern, mix, queue depth, parallelism, O_DIRECT, engine, runtime), the ones
 * that hold it back (rate caps, think time), the ones that add work to it (fsync, fdatasync,
 * O_SYNC, verify) and how much data it covers (size, filesize), and name every one that differs,
 * with both values. A 4 KiB randwrite capped at `rate_iops=500` measures the cap, not the storage.
 */

/** The settings compared, by their fio option names (what people look for in a job file). */
export const COMPARED_SETTINGS = [
  'bs',
  'bsrange',
  'bssplit',
  'rw',
  'rwmixread',
  'iodepth',
  'numjobs',
  'direct',
  'ioengine',
  'runtime',
  'rate',
  'rate_iops',
  'rate_min',
  'thinktime',
  'fsync',
  'fdatasync',
  'sync',
  'verify',
  'size',
  'filesize',
] as const;
export const ComparedSettingSchema = z.enum(COMPARED_SETTINGS);
export type ComparedSetting = z.infer<typeof ComparedSettingSchema>;

/**
 * Settings read straight from a job's fio options, each as people read it ("500 IOPS", "every
 * write", "4 MiB/s") so equal values written differently (`4m`, `4096k`) read the same.
 */
const OPTION_SETTINGS = [
  'rate',
  'rate_iops',
  'rate_min',
  'thinktime',
  'fsync',
  'fdatasync',
  'sync',
  'verify',
  'size',
  'filesize',
] as const satisfies readonly ComparedSetting[];
type OptionSetting = (typeof OPTION_SETTINGS)[number];

/** A rate cap per direction: null, that direction is not capped (fio: 0 or absent). */
const DirectionCapSchema = z.object({
  read: z.number().positive().nullable(),
  write: z.number().positive().nullable(),
  trim: z.number().positive().nullable(),
});
type DirectionCap = z.infer<typeof DirectionCapSchema>;

/**
 * A job's fio rate caps as numbers (HOWTO `rate`: bytes/s per direction; `rate_iops`: I/O per
 * second per direction): null, no direction capped (absent, 0, or a value fio would not take).
 * What says whether a run replays a load (demand) or ran at saturation (capacity), issue 27.
 */
const RateCapsSchema = z.object({
  bytesPerSec: DirectionCapSchema.nullable(),
  iops: DirectionCapSchema.nullable(),
});
export type RateCaps = z.infer<typeof RateCapsSchema>;

/**
 * One job's settings as a comparison reads them: the typed facts of its fio options, the option
 * settings as text (`optionSettings`; absent in comparisons stored before they were compared,
 * whose runs then cannot be shown to differ in them) and its rate caps as numbers (`rateCaps`;
 * absent in comparisons stored before they were kept: withRateCaps derives them on reading).
 */
export const ComparedJobSettingsSchema = JobSettingsSchema.pick({
  rw: true,
  blockSizeBytes: true,
  blockSizeRangeBytes: true,
  blockSizeSplit: true,
  blockSizeDefaulted: true,
  rwmixreadPercent: true,
  iodepth: true,
  numjobs: true,
  direct: true,
  ioengine: true,
  runtimeSec: true,
}).extend({
  optionSettings: z.record(z.enum(OPTION_SETTINGS), z.string()).optional(),
  rateCaps: RateCapsSchema.optional(),
});
export type ComparedJobSettings = z.infer<typeof ComparedJobSettingsSchema>;

/**
 * The settings of a run's jobs, each distinct set once, in file order: a job file with two
 * sections has two entries; numjobs clones and per-job entries of one section collapse to one.
 */
export const RunJobSettingsSchema = z.array(ComparedJobSettingsSchema);
export type RunJobSettings = z.infer<typeof RunJobSettingsSchema>;

/** A setting the two runs ran with different values: both values as people read them. */
export const JobSettingDifferenceSchema = z.object({
  setting: ComparedSettingSchema,
  reference: z.string(),
  candidate: z.string(),
});
export type JobSettingDifference = z.infer<typeof JobSettingDifferenceSchema>;

/**
 * Job settings already read, by report. Reports are never changed once parsed, so the settings
 * of one are the same every time: the regression gate compares each upload with the run before
 * it, whose report (kept by the server's RecentRuns) was the previous upload's, and its settings
 * are read once, not once per comparison (bench P2). Weak: a report no one holds is not kept.
 */
const settingsByReport = new WeakMap<FioReport, RunJobSettings>();

/** The settings of every job of a parsed fio report (fio's "All clients" entry is not a job). */
export function jobSettingsOf(report: FioReport): RunJobSettings {
  let settings = settingsByReport.get(report);
  if (!settings) {
    settings = readJobSettings(report);
    settingsByReport.set(report, settings);
  }
  return settings;
}

function readJobSettings(report: FioReport): RunJobSettings {
  const seen = new Set<string>();
  const settings: RunJobSettings = [];
  for (const { settings: j, options } of report.jobs) {
    const s: ComparedJobSettings = {
      rw: j.rw,
      blockSizeBytes: j.blockSizeBytes,
      blockSizeRangeBytes: j.blockSizeRangeBytes,
      blockSizeSplit: j.blockSizeSplit,
      blockSizeDefaulted: j.blockSizeDefaulted,
      rwmixreadPercent: j.rwmixreadPercent,
      iodepth: j.iodepth,
      numjobs: j.numjobs,
      direct: j.direct,
      ioengine: j.ioengine,
      runtimeSec: j.runtimeSec,
      optionSettings: readOptionSettings(options, j.kbBase),
      rateCaps: rateCapsOfOptions(options, j.kbBase),
    };
    const key = JSON.stringify(s);
    if (seen.has(key)) continue;
    seen.add(key);
    settings.push(s);
  }
  return settings;
}

/** Shown for a job whose file carries no options at all (fio 2.x files, some client outputs). */
const NOT_RECORDED = 'not recorded';

/** Patterns that mix reads and writes, where `rwmixread` means something. */
const MIXED_PATTERNS = new Set(['rw', 'readwrite', 'randrw']);

/** fio's own default block size (HOWTO `blocksize`: 4096) for a direction nothing sets. */
const FIO_DEFAULT_BLOCK_SIZE_BYTES = 4096;

const SIZE_UNITS = [
  ['GiB', 1024 ** 3],
  ['MiB', 1024 ** 2],
  ['KiB', 1024],
] as const;

/**
 * A size in the largest binary unit that holds it exactly ("4 KiB", "4000 B"): exact, so two
 * texts are equal exactly when the sizes are (fio's `kb_base` has already been applied).
 */
export function formatExactSize(bytes: number): string {
  for (const [unit, size] of SIZE_UNITS)
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  return `${bytes} B`;
}

/** A per-direction value: one text when read, write and trim agree, else each (trim when it differs from write). */
function perDirectionText<T>(values: PerDirection<T>, text: (value: T | null) => string): string {
  const [read, write, trim] = [text(values.read), text(values.write), text(values.trim)];
  if (read === write && write === trim) return read;
  return `read ${read}, write ${write}${trim === write ? '' : `, trim ${trim}`}`;
}

const anyDirection = <T>(values: PerDirection<T>) =>
  values.read !== null || values.write !== null || values.trim !== null;

const rangeText = (r: { minBytes: number; maxBytes: number }) =>
  r.minBytes === r.maxBytes
    ? formatExactSize(r.minBytes)
    : `${formatExactSize(r.minBytes)}–${formatExactSize(r.maxBytes)}`;

const splitText = (entries: BlockSizeShare[]) =>
  entries
    .map((e) => `${formatExactSize(e.blockSizeBytes)}/${e.percent === null ? 'rest' : `${e.percent}%`}`)
    .join(' : ');

const optionValue = (options: Readonly<Record<string, string>>, name: string): string | undefined =>
  Object.hasOwn(options, name) ? options[name] : undefined;

/** A value fio would take but this reading does not: shown as written, so a difference still shows. */
const notUnderstood = (text: string) => `${JSON.stringify(text)} (as written)`;

const countText = (n: number) => new Intl.NumberFormat('en-US').format(n);

/**
 * `rate`, `rate_min` (bytes/s) and `rate_iops` (I/O per second): one value per direction, like
 * `bs` (HOWTO `rate`: "rate=1m,500k" caps reads at 1 MiB/s and writes at 500 KiB/s); 0 or absent:
 * no cap. Sizes follow `kb_base` (`1m` = 1 MiB with the default 1024).
 */
function rateText(
  text: string | undefined,
  kbBase: 1000 | 1024,
  unit: 'bytes' | 'iops',
  none: string,
): string {
  if (text === undefined) return none;
  const values = perDirection(text, (v) => parseFioSize(v, kbBase));
  if (values === null) return notUnderstood(text);
  return perDirectionText(values, (v) => rateValueText(v, unit, none));
}

const rateValueText = (v: number | null, unit: 'bytes' | 'iops', none: string) =>
  v === null || v === 0 ? none : unit === 'iops' ? `${countText(v)} IOPS` : `${formatExactSize(v)}/s`;

/** A cap as the job settings show it: "500 IOPS", "read 2 MiB/s, write no cap". */
export function rateCapText(cap: DirectionCap, unit: 'bytes' | 'iops'): string {
  return perDirectionText(cap, (v) => rateValueText(v, unit, 'no cap'));
}

/** One option's cap per direction, or null when it caps nothing (absent, 0, not a value fio takes). */
function capOf(text: string | undefined, kbBase: 1000 | 1024): DirectionCap | null {
  const values = perDirection(text, (v) => parseFioSize(v, kbBase));
  if (!values) return null;
  const cap = (v: number | null) => (v !== null && v > 0 ? v : null);
  const c = { read: cap(values.read), write: cap(values.write), trim: cap(values.trim) };
  return c.read === null && c.write === null && c.trim === null ? null : c;
}

/** The `rate` and `rate_iops` caps of one job's merged fio options (`rate_min` is a floor, not a cap). */
export function rateCapsOfOptions(options: Readonly<Record<string, string>>, kbBase: 1000 | 1024): RateCaps {
  return {
    bytesPerSec: capOf(optionValue(options, 'rate'), kbBase),
    iops: capOf(optionValue(options, 'rate_iops'), kbBase),
  };
}

const TEXT_UNITS: Record<string, number> = { B: 1, ...Object.fromEntries(SIZE_UNITS) };

/**
 * The caps a comparison frozen before `rateCaps` were kept ran with, read back from the text
 * rateText wrote for them ("500 IOPS", "2 MiB/s", "read 1 MiB/s, write no cap"): that text is all
 * such a comparison holds of its fio options. A value written "as written" (fio would not take
 * it) caps nothing, as when it is read from the options.
 */
function capFromText(text: string | undefined, unit: 'bytes' | 'iops'): DirectionCap | null {
  if (text === undefined) return null;
  const value = (t: string): number | null => {
    const m =
      unit === 'iops' ? /^([\d,]+) IOPS$/.exec(t.trim()) : /^(\d+) (B|KiB|MiB|GiB)\/s$/.exec(t.trim());
    if (!m) return null;
    const n = Number(m[1]!.replaceAll(',', ''));
    return unit === 'iops' ? n : n * TEXT_UNITS[m[2]!]!;
  };
  const parts = /^read (.+), write (.+?)(?:, trim (.+))?$/.exec(text);
  const c = parts
    ? { read: value(parts[1]!), write: value(parts[2]!), trim: value(parts[3] ?? parts[2]!) }
    : { read: value(text), write: value(text), trim: value(text) };
  return c.read === null && c.write === null && c.trim === null ? null : c;
}

/**
 * Job settings with their rate caps as numbers: a comparison frozen before they were kept
 * derives them from its option settings' text (none kept: none derived, the caps stay unknown).
 */
export function withRateCaps(job: ComparedJobSettings): ComparedJobSettings {
  if (job.rateCaps !== undefined || job.optionSettings === undefined) return job;
  const o = job.optionSettings;
  return {
    ...job,
    rateCaps: { bytesPerSec: capFromText(o.rate, 'bytes'), iops: capFromText(o.rate_iops, 'iops') },
  };
}

/** `fsync=N` / `fdatasync=N`: a sync call after every N writes; 0 (fio's default): never. */
function everyText(text: string | undefined, kbBase: 1000 | 1024): string {
  if (text === undefined) return 'never';
  const n = parseFioSize(text, kbBase);
  if (n === null) return notUnderstood(text);
  return n === 0 ? 'never' : n === 1 ? 'every write' : `every ${countText(n)} writes`;
}

/** `sync`: `none`/0 (default), `sync`/1 (O_SYNC), `dsync` (O_DSYNC); fio before 3.x took a boolean, a bare flag is 1. */
function syncText(text: string | undefined): string {
  if (text === undefined) return 'none';
  const t = text.trim().toLowerCase();
  if (t === '0' || t === 'none') return 'none';
  if (t === '' || t === '1' || t === 'sync') return 'sync (O_SYNC)';
  if (t === 'dsync') return 'dsync (O_DSYNC)';
  return notUnderstood(text);
}

const MICROSECONDS: Record<string, number> = {
  '': 1,
  us: 1,
  usec: 1,
  ms: 1e3,
  msec: 1e3,
  s: 1e6,
  m: 60e6,
  h: 3600e6,
  d: 86_400e6,
};

/** `thinktime`: a bare number is **microseconds** (HOWTO `thinktime`), unlike `runtime`; 0: none. */
function thinktimeText(text: string | undefined): string {
  if (text === undefined) return 'none';
  const m = /^\s*(\d+)\s*([a-z]*)\s*$/i.exec(text);
  const factor = m ? MICROSECONDS[m[2]!.toLowerCase()] : undefined;
  if (!m || factor === undefined) return notUnderstood(text);
  const us = Number(m[1]) * factor;
  if (us === 0) return 'none';
  if (us % 1e6 === 0) return `${countText(us / 1e6)} s`;
  if (us % 1e3 === 0) return `${countText(us / 1e3)} ms`;
  return `${countText(us)} µs`;
}

/** `verify`: a checksum or `pattern`, `meta`, `null`; 0 or absent (fio's default): no verification. */
function verifyText(text: string | undefined): string {
  if (text === undefined) return 'none';
  const t = text.trim().toLowerCase();
  return t === '0' || t === '' ? 'none' : t;
}

/** `size`: a size, or a share of the file or device (`100%`); absent: the whole file or device. */
function sizeText(text: string | undefined, kbBase: 1000 | 1024): string {
  if (text === undefined) return 'not set';
  const percent = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  if (percent) return `${percent[1]}% of the file`;
  const bytes = parseFioSize(text, kbBase);
  return bytes === null ? notUnderstood(text) : formatExactSize(bytes);
}

/** `filesize`: one size or a range (`1g-2g`: each file's size drawn from it); absent: `size` ÷ nrfiles. */
function filesizeText(text: string | undefined, kbBase: 1000 | 1024): string {
  if (text === undefined) return 'not set';
  const bytes = parseFioSize(text, kbBase);
  if (bytes !== null) return formatExactSize(bytes);
  const range = parseFioRange(text, kbBase);
  return range === null ? notUnderstood(text) : rangeText(range);
}

/** The option settings of one job's merged options (global overridden by job), as text. */
function readOptionSettings(
  options: Readonly<Record<string, string>>,
  kbBase: 1000 | 1024,
): Record<OptionSetting, string> {
  const o = (name: string) => optionValue(options, name);
  return {
    rate: rateText(o('rate'), kbBase, 'bytes', 'no cap'),
    rate_iops: rateText(o('rate_iops'), kbBase, 'iops', 'no cap'),
    rate_min: rateText(o('rate_min'), kbBase, 'bytes', 'none'),
    thinktime: thinktimeText(o('thinktime')),
    fsync: everyText(o('fsync'), kbBase),
    fdatasync: everyText(o('fdatasync'), kbBase),
    sync: syncText(o('sync')),
    verify: verifyText(o('verify')),
    size: sizeText(o('size'), kbBase),
    filesize: filesizeText(o('filesize'), kbBase),
  };
}

const isOptionSetting = (setting: ComparedSetting): setting is OptionSetting =>
  (OPTION_SETTINGS as readonly string[]).includes(setting);

/**
 * One job's value of a setting as people read it: what fio ran with, so an option left out reads
 * as fio's documented default (bs 4 KiB, rw read, rwmixread 50 %, iodepth 1, numjobs 1, direct 0)
 * and equals the same value written out; options without a fixed default read "not set".
 */
function settingText(job: ComparedJobSettings, setting: ComparedSetting): string {
  // blockSizeDefaulted is null exactly when the file recorded no options for the job.
  if (job.blockSizeDefaulted === null) return NOT_RECORDED;
  switch (setting) {
    case 'bs':
      if (anyDirection(job.blockSizeBytes))
        return perDirectionText(job.blockSizeBytes, (v) =>
          formatExactSize(v ?? FIO_DEFAULT_BLOCK_SIZE_BYTES),
        );
      return job.blockSizeDefaulted ? formatExactSize(FIO_DEFAULT_BLOCK_SIZE_BYTES) : 'not set';
    case 'bsrange':
      return anyDirection(job.blockSizeRangeBytes)
        ? perDirectionText(job.blockSizeRangeBytes, (v) => (v === null ? 'not set' : rangeText(v)))
        : 'not set';
    case 'bssplit':
      return anyDirection(job.blockSizeSplit)
        ? perDirectionText(job.blockSizeSplit, (v) => (v === null ? 'not set' : splitText(v)))
        : 'not set';
    case 'rw':
      // `readwrite` is fio's alias of `rw`.
      return job.rw === null ? 'read' : job.rw === 'readwrite' ? 'rw' : job.rw;
    case 'rwmixread':
      // fio prints rwmixread for every job; it only shapes the I/O of a mixed pattern.
      return MIXED_PATTERNS.has(job.rw ?? 'read') ? `${job.rwmixreadPercent ?? 50}%` : 'n/a';
    case 'iodepth':
      return String(job.iodepth ?? 1);
    case 'numjobs':
      return String(job.numjobs ?? 1);
    case 'direct':
      return job.direct ? '1 (O_DIRECT)' : '0 (buffered)';
    case 'ioengine':
      // The default engine depends on the platform and fio version (psync, sync, windowsaio).
      return job.ioengine ?? 'not set';
    case 'runtime':
      return job.runtimeSec === null ? 'not set' : `${job.runtimeSec} s`;
    default:
      return job.optionSettings?.[setting] ?? NOT_RECORDED;
  }
}

/** A run's value of a setting: its jobs' distinct values in file order ("read | randwrite" for two sections). */
function runSettingText(run: RunJobSettings, setting: ComparedSetting): string {
  const texts = [...new Set(run.map((job) => settingText(job, setting)))];
  return texts.length === 0 ? NOT_RECORDED : texts.join(' | ');
}

/** Every compared setting of a run, as text (for side-by-side tables). */
export function describeJobSettings(run: RunJobSettings): { setting: ComparedSetting; value: string }[] {
  return COMPARED_SETTINGS.map((setting) => ({ setting, value: runSettingText(run, setting) }));
}

/**
 * Runtimes within this fraction of the longer one count as the same. `runtime=` bounds the
 * measuring window: 60 s and 65 s see the same steady state, while 10 s against 10 min is another
 * test on EBS (gp2/st1/sc1 credits and the instance's 30-minute EBS burst run out in the long one).
 */
const RUNTIME_TOLERANCE = 0.1;

const sameRuntime = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.abs(a - b) <= RUNTIME_TOLERANCE * Math.max(a, b);

/** Distinct runtimes of a run, ascending (null — not set — first). */
function runtimesOf(run: RunJobSettings): (number | null)[] {
  return [...new Set(run.map((job) => job.runtimeSec))].sort((a, b) => (a ?? -1) - (b ?? -1));
}

/** A run stored before a setting was compared has no value for it: it cannot be shown to differ there. */
const recordedIn = (run: RunJobSettings, setting: ComparedSetting) =>
  !isOptionSetting(setting) || run.every((job) => job.optionSettings !== undefined);

function sameSetting(a: RunJobSettings, b: RunJobSettings, setting: ComparedSetting): boolean {
  if (!recordedIn(a, setting) || !recordedIn(b, setting)) return true;
  if (setting === 'runtime') {
    const ra = runtimesOf(a);
    const rb = runtimesOf(b);
    return ra.length === rb.length && ra.every((r, i) => sameRuntime(r, rb[i]!));
  }
  const ta = new Set(a.map((job) => settingText(job, setting)));
  const tb = new Set(b.map((job) => settingText(job, setting)));
  return ta.size === tb.size && [...ta].every((t) => tb.has(t));
}

/** A run whose file recorded options for at least one job: its settings can be compared. */
export const hasRecordedSettings = (run: RunJobSettings) =>
  run.some((job) => job.blockSizeDefaulted !== null);

/**
 * The settings two runs ran with different values, in COMPARED_SETTINGS order; empty when they
 * ran the same job. A run without recorded options cannot be shown to differ: no differences.
 */
export function compareJobSettings(
  reference: RunJobSettings,
  candidate: RunJobSettings,
): JobSettingDifference[] {
  if (!hasRecordedSettings(reference) || !hasRecordedSettings(candidate)) return [];
  return COMPARED_SETTINGS.filter((setting) => !sameSetting(reference, candidate, setting)).map(
    (setting) => ({
      setting,
      reference: runSettingText(reference, setting),
      candidate: runSettingText(candidate, setting),
    }),
  );
}

/** `jobs_differ`: every differing setting with both values; null when there is none. */
export function jobsDifferWarning(
  differences: readonly JobSettingDifference[],
  names: { reference: string; candidate: string },
): Warning | null {
  if (differences.length === 0) return null;
  const list = differences.map((d) => `${d.setting} ${d.reference} vs ${d.candidate}`).join('; ');
  return {
    code: 'jobs_differ',
    message:
      `${names.reference} and ${names.candidate} ran different fio jobs (${list}). ` +
      'Their numbers are shown side by side, but no verdict is given: the difference may come from the job, not the storage.',
  };
}
