import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { escapeText } from '@blockwise/shared/escape-text';
import {
  DEFAULT_MAX_INPUT_BYTES,
  DIRECTIONS,
  parseFio,
  type DirectionStats,
  type DirectionTotals,
  type FioReport,
} from '@blockwise/shared/fio';
import { type Problem } from '@blockwise/shared/problem';
import { KiB, MiB, formatBytes } from '@blockwise/shared/units';
import { EXIT, UsageError, parseFlags, type CliIo, type Command } from './io.ts';
import { formatMs, formatTable } from './text.ts';

/**
 * `blockwise analyze FILE... [--json]`: what fio measured, per job and in total, in units that
 * cannot be misread (bytes/s as MiB/s, sizes in KiB, latency in ms). Every file gets a result;
 * one bad file does not stop the others. Exit 0 when all parsed, 1 when any did not.
 */

const usage = `Usage: blockwise analyze FILE... [--json]

  Reads fio result files (--output-format=json or json+, also with text around the JSON,
  status-interval output, client/server output, UTF-16 from PowerShell) and prints per job and in
  total, per direction: IOPS, throughput in MiB/s, average block size in KiB, completion latency
  p50/p99/p99.9 in ms (total latency, marked "(total)", when fio ran with lat_percentiles=1 and
  wrote no clat percentiles), and warnings.

  --json   print {"runs":[...]}: one entry per FILE, the full normalized report or the error`;

export type AnalyzeRun = { file: string; ok: true } & FioReport;
export type AnalyzeFailure = { file: string; ok: false; error: Problem };

/** Reads and parses one file; every failure is a value (missing, unreadable, too large, not fio). */
export async function analyzeFile(file: string, cwd: string): Promise<AnalyzeRun | AnalyzeFailure> {
  const fail = (code: string, message: string): AnalyzeFailure => ({
    file,
    ok: false,
    error: { code, message },
  });
  const path = resolve(cwd, file);
  let bytes: Uint8Array;
  try {
    const info = await stat(path);
    // A FIFO or device could block or never end: only regular files are read.
    if (!info.isFile()) return fail('read_failed', `${file} is not a regular file`);
    // Refused from its size alone, before a byte is read (the limit parseFio applies as well).
    if (info.size > DEFAULT_MAX_INPUT_BYTES) {
      return fail(
        'too_large',
        `${file} is ${formatBytes(info.size)}; the limit is ${formatBytes(DEFAULT_MAX_INPUT_BYTES)}`,
      );
    }
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? String(error));
    return fail('read_failed', `cannot read ${file}: ${reason}`);
  }
  try {
    const parsed = parseFio(bytes);
    return parsed.ok ? { file, ok: true, ...parsed.report } : { file, ok: false, error: parsed.error };
  } catch (error) {
    // parseFio returns its failures; a throw is a bug. Report it for this file and carry on.
    return fail(
      'internal_error',
      `bug while parsing ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export const analyzeCommand: Command = {
  summary: 'What a fio run measured: IOPS, MiB/s, block size and latency per job and in total.',
  usage,
  run: async (argv: string[], io: CliIo) => {
    const { values, positionals } = parseFlags(argv, { json: { type: 'boolean' } });
    if (positionals.length === 0) throw new UsageError('give at least one fio result file', 'FILE');
    const runs: (AnalyzeRun | AnalyzeFailure)[] = [];
    for (const file of positionals) runs.push(await analyzeFile(file, io.cwd));
    io.stdout(values.json ? `${JSON.stringify({ runs }, null, 2)}\n` : runs.map(formatRun).join('\n'));
    return runs.every((r) => r.ok) ? EXIT.ok : EXIT.failed;
  },
};

// ---- the human-readable table -----------------------------------------------------------------

const HEADER = ['', 'IOPS', 'throughput', 'avg block (KiB)', 'clat p50 (ms)', 'p99 (ms)', 'p99.9 (ms)'];

/** File names, fio's strings (job names, host names, version) and messages quoting them are escaped. */
function formatRun(run: AnalyzeRun | AnalyzeFailure): string {
  if (!run.ok)
    return `${escapeText(run.file)}: not analyzed — ${escapeText(run.error.message)} [${run.error.code}]\n`;
  const lines = [
    `${escapeText(run.file)}: ${escapeText(run.fioVersion ?? 'fio version unknown')}, ${plural(run.jobs.length, 'job entry', 'job entries')}` +
      `${run.groups.length > 1 ? ` in ${run.groups.length} groups` : ''}${run.jsonPlus ? ', json+' : ''}` +
      `${run.clientMode ? ', client/server' : ''}`,
  ];
  const rows: string[][] = [HEADER];
  run.jobs.forEach((job, i) => {
    const label = `${escapeText(job.name)}${run.jobs.length > 1 ? ` #${i}` : ''}${job.hostname ? ` @${escapeText(job.hostname)}` : ''}`;
    rows.push(...directionRows(label, job));
  });
  if (run.groups.length > 1) {
    for (const group of run.groups) rows.push(...directionRows(`group ${group.groupId} total`, group));
  }
  if (run.jobs.length > 1) rows.push(...directionRows('total', run.total));
  if (run.fioAllClients) rows.push(...directionRows('fio "All clients"', run.fioAllClients));
  lines.push(...formatTable(rows).map((l) => `  ${l}`));
  const approximate = [run.total, ...run.groups].some((t) =>
    directionsOf(t).some(([, d]) => d.clatMs.approximate),
  );
  if (approximate) {
    lines.push(
      '  ≈ min–max over the jobs: percentiles of several jobs cannot be added (no json+ bins to merge)',
    );
  }
  const total = [...run.jobs, run.total, ...run.groups].some((t) =>
    directionsOf(t).some(([, d]) => d.clatMs.isTotalLatency),
  );
  if (total) {
    // fio 3.13–3.17 write these under lat_ns (3.4–3.12 under clat_ns); the warning names the key.
    lines.push(
      '  (total) = total latency (lat: submission + completion, fio lat_percentiles=1), not completion latency: compare it only with total latency',
    );
  }
  for (const w of run.warnings) lines.push(`  warning [${w.code}]: ${escapeText(w.message)}`);
  return `${lines.join('\n')}\n`;
}

function directionsOf(
  t: Pick<DirectionTotals, 'read' | 'write' | 'trim' | 'mixed'>,
): [string, DirectionStats][] {
  const list: [string, DirectionStats][] = DIRECTIONS.map((d) => [d, t[d]]);
  if (t.mixed) list.push(['mixed', t.mixed]);
  return list;
}

/** One row per direction that moved data; a job that did nothing still gets one row saying so. */
function directionRows(
  label: string,
  t: Pick<DirectionTotals, 'read' | 'write' | 'trim' | 'mixed'>,
): string[][] {
  const active = directionsOf(t).filter(([, d]) => d.ioBytes > 0);
  if (active.length === 0) return [[label, 'no I/O', '', '', '', '', '']];
  return active.map(([name, d]) => [
    `${label} ${name}`,
    d.iops.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    `${(d.bytesPerSec / MiB).toFixed(2)} MiB/s`,
    d.blockSizeBytes === null ? '–' : (d.blockSizeBytes / KiB).toFixed(1),
    ...['50', '99', '99.9'].map((p) => latencyCell(d, p)),
  ]);
}

function latencyCell(d: DirectionStats, p: string): string {
  const { percentiles, range } = d.clatMs;
  const value = percentiles?.[p];
  if (value !== undefined) return `${formatMs(value)}${d.clatMs.isTotalLatency ? ' (total)' : ''}`;
  const r = range?.[p];
  if (d.clatMs.approximate && r)
    return r.min === r.max ? `≈ ${formatMs(r.min)}` : `≈ ${formatMs(r.min)}–${formatMs(r.max)}`;
  return '–';
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
