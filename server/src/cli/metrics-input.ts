import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { escapeText } from '@blockwise/shared/escape-text';
import { parseFio } from '@blockwise/shared/fio';
import { type Problem } from '@blockwise/shared/problem';
import { profileFromFio, type IoProfile } from '@blockwise/shared/profile';
import { parseSysbench, profileFromSysbench, type SysbenchFileio } from '@blockwise/shared/sysbench';
import {
  CLOUDWATCH_STATISTICS,
  METRICS_FORMATS,
  SERIES_FORMATS,
  SIZING_STATISTICS,
  VALUE_KINDS,
  importMetrics,
  type IoSeries,
  type ImportFlag,
  type SeriesChoice,
  type SeriesImportOptions,
  type SizingStatistic,
} from '@blockwise/shared/timeseries';
import { formatBytes } from '@blockwise/shared/units';
import { parseCount, parseDurationFlag } from './flags.ts';
import { UsageError, type CliIo } from './io.ts';

/**
 * Reading metric exports, sysbench and fio files for `blockwise metrics`, `sysbench` and
 * `fio-job`: the flags that resolve an ambiguous export, and one way to report what went wrong.
 */

/** The same bound the importers apply (a million 1-minute points is ~80 MB of CSV). */
const MAX_FILE_BYTES = 200 * 1024 * 1024;

/** An input that could not be used: printed as `blockwise CMD: FILE: message [code]`, exit 1. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly problem: Problem,
    readonly choices: SeriesChoice[] = [],
  ) {
    super(problem.message);
  }
}

export async function readInputFile(
  file: string,
  flag: string,
  io: CliIo,
  maxBytes = MAX_FILE_BYTES,
): Promise<Uint8Array> {
  const path = resolve(io.cwd, file);
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`${flag}: ${file} is not a file`, flag);
    if (info.size > maxBytes) {
      throw new UsageError(
        `${flag}: ${file} is ${formatBytes(info.size)}; the limit is ${formatBytes(maxBytes)}`,
        flag,
      );
    }
    return await readFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `${flag}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      flag,
    );
  }
}

/** parseArgs options shared by every command that imports a metrics export. */
export const IMPORT_FLAGS = {
  stat: { type: 'string' },
  period: { type: 'string' },
  timezone: { type: 'string' },
  'source-interval': { type: 'string' },
  'throughput-unit': { type: 'string' },
  match: { type: 'string' },
  device: { type: 'string' },
  values: { type: 'string' },
} as const satisfies Record<ImportFlag, { type: 'string' }>;

/** The formats a flag applies to, by name (the registry's `flags`): "iostat -x, sar -d, …". */
const formatsWith = (flag: ImportFlag) =>
  SERIES_FORMATS.filter((id) => METRICS_FORMATS[id].flags.includes(flag))
    .map((id) => METRICS_FORMATS[id].name)
    .join(', ');

export const IMPORT_USAGE = `  --stat            the CloudWatch statistic of the values when the labels don't say: Sum (recommended) or Average
  --period          seconds per point when neither the labels nor the spacing tell: 60, 300, 5m;
                    for iostat run without -t (no times): the INTERVAL it ran with
  --timezone        zone of timestamps written without an offset: UTC (default), +01:00, America/New_York
  --source-interval for Average of EC2 instance metrics: 300 (basic monitoring) or 60 (detailed)
  --throughput-unit for dashboard throughput columns without a unit: B/s, KiB/s, MiB/s, MB/s, Mbps
  --match           keep only columns whose label contains this text (one volume of several)
  --device          the device to read (nvme1n1, dev259-0), default the busiest, named in a warning:
                    ${formatsWith('device')}
  --values          counter (cumulative *_total, rated here) or rate (rate() applied), read from the
                    series names unless they contradict the values: ${formatsWith('values')}`;

type ImportFlagValues = { [K in keyof typeof IMPORT_FLAGS]?: string | undefined };

export function importOptionsFrom(values: ImportFlagValues): SeriesImportOptions {
  const options: SeriesImportOptions = {};
  if (values.stat !== undefined) {
    const stat = CLOUDWATCH_STATISTICS.find((s) => s.toLowerCase() === values.stat!.trim().toLowerCase());
    if (!stat)
      throw new UsageError(
        `--stat: expected one of ${CLOUDWATCH_STATISTICS.join(', ')}, got "${values.stat}"`,
        '--stat',
      );
    options.statistic = stat;
  }
  if (values.period !== undefined) {
    const s = parseDurationFlag(values.period, '--period');
    if (!(s > 0))
      throw new UsageError(`--period: expected a duration above 0, got "${values.period}"`, '--period');
    options.periodSec = s;
  }
  if (values['source-interval'] !== undefined) {
    const s = parseDurationFlag(values['source-interval'], '--source-interval');
    if (!(s > 0))
      throw new UsageError(
        `--source-interval: expected 60 or 300, got "${values['source-interval']}"`,
        '--source-interval',
      );
    options.sourceIntervalSec = s;
  }
  if (values.timezone !== undefined) options.timeZone = values.timezone;
  if (values['throughput-unit'] !== undefined) options.throughputUnit = values['throughput-unit'];
  if (values.match !== undefined) options.match = values.match;
  if (values.device !== undefined) {
    if (values.device.trim() === '')
      throw new UsageError('--device: expected a device name such as nvme1n1', '--device');
    options.device = values.device.trim();
  }
  if (values.values !== undefined) {
    const kind = VALUE_KINDS.find((k) => k === values.values!.trim().toLowerCase().replace(/s$/, ''));
    if (!kind) throw new UsageError(`--values: expected counter or rate, got "${values.values}"`, '--values');
    options.valueKind = kind;
  }
  return options;
}

export function parseSizingStatistic(text: string | undefined): SizingStatistic {
  if (text === undefined) return 'max';
  const s = SIZING_STATISTICS.find((x) => x === text.trim().toLowerCase());
  if (!s)
    throw new UsageError(
      `--statistic: expected one of ${SIZING_STATISTICS.join(', ')}, got "${text}"`,
      '--statistic',
    );
  return s;
}

export async function loadSeries(
  file: string,
  flag: string,
  options: SeriesImportOptions,
  io: CliIo,
): Promise<IoSeries> {
  const bytes = await readInputFile(file, flag, io);
  const r = importMetrics(bytes, options);
  if (!r.ok) throw new InputError(file, r.error, r.choices ?? []);
  return r.value;
}

export async function loadSysbench(
  file: string,
  flag: string,
  io: CliIo,
): Promise<{ run: SysbenchFileio; profile: IoProfile }> {
  const bytes = await readInputFile(file, flag, io, 4 * 1024 * 1024);
  const run = parseSysbench(bytes);
  if (!run.ok) throw new InputError(file, run.error);
  const profile = profileFromSysbench(run.value);
  if (!profile.ok) throw new InputError(file, profile.error);
  return { run: run.value, profile: profile.value };
}

export async function loadFioProfile(file: string, group: number | undefined, io: CliIo): Promise<IoProfile> {
  const bytes = await readInputFile(file, '--fio', io, 100 * 1024 * 1024);
  const parsed = parseFio(bytes);
  if (!parsed.ok) throw new InputError(file, parsed.error);
  const profile = profileFromFio(parsed.report, group === undefined ? {} : { group });
  if (!profile.ok) throw new InputError(file, profile.error);
  return profile.value;
}

export const parseGroupFlag = (text: string | undefined) =>
  text === undefined ? undefined : parseCount(text, '--group');

/** Prints an InputError the way every command does; returns the exit status (1). */
export function reportInputError(command: string, error: InputError, io: CliIo, json: boolean): number {
  if (json) {
    io.stdout(
      `${JSON.stringify({ error: error.problem, ...(error.choices.length > 0 ? { choices: error.choices } : {}) })}\n`,
    );
    return 1;
  }
  const lines =
    error.choices.length > 0
      ? [
          `blockwise ${command}: ${escapeText(error.file)}: the file leaves a choice to you [${error.problem.code}]:`,
          ...error.choices.map(
            (c) => `  ${c.flag} ${c.candidates.map(escapeText).join('|')}: ${escapeText(c.why)}`,
          ),
        ]
      : [
          `blockwise ${command}: ${escapeText(error.file)}: ${escapeText(error.problem.message)} [${error.problem.code}]`,
        ];
  io.stderr(`${lines.join('\n')}\n`);
  return 1;
}
