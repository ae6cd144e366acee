import { z } from 'zod';
import {
  JobSettingsSchema,
  type BlockSizeShare,
  type FioReport,
  type PerDirection,
} from '../fio/fio-report.schema.ts';
import type { Warning } from '../problem.ts';

/**
 * Did two runs run the same fio job? A comparison of a 4 KiB randwrite against a 4–64 KiB 33 %-read
 * mix measures the job, not the storage, so comparisons first compare the settings that shape the
 * I/O (block sizes, pattern, mix, queue depth, parallelism, O_DIRECT, engine, runtime) and name
 * every one that differs, with both values.
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
] as const;
export const ComparedSettingSchema = z.enum(COMPARED_SETTINGS);
export type ComparedSetting = z.infer<typeof ComparedSettingSchema>;

/** One job's settings as a comparison reads them: the typed facts of its fio options. */
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

/** The settings of every job of a parsed fio report (fio's "All clients" entry is not a job). */
export function jobSettingsOf(report: FioReport): RunJobSettings {
  const seen = new Set<string>();
  const settings: RunJobSettings = [];
  for (const { settings: j } of report.jobs) {
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

function sameSetting(a: RunJobSettings, b: RunJobSettings, setting: ComparedSetting): boolean {
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
