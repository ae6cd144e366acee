import { decodeInput } from '../fio/decode-input.ts';
import { fail, ok, type Result, type Warning } from '../problem.ts';
import { KiB, MiB } from '../units.ts';
import {
  SYSBENCH_TEST_MODES,
  type SysbenchDirection,
  type SysbenchFileio,
  type SysbenchIoMode,
  type SysbenchOpenFlags,
  type SysbenchTestMode,
} from './sysbench-result.schema.ts';

/**
 * Parses the text `sysbench fileio … run` prints, in the 1.0 format (sysbench 1.0.x) or the 0.4
 * format (0.4.x, and 0.5 which prints the same lines with small wording changes). See
 * `sysbench-result.schema.ts` for what each field means and `fixtures/sysbench/README.md` for the
 * real outputs this is tested against.
 *
 * Lines are matched after trimming, so output pasted with indentation (Markdown, e-mail quotes with
 * "> ") still parses. Errors name the line: `line 24: expected a number after "reads/s:", got "x"`.
 */

/** Larger inputs are not a sysbench run (a run's text is ~1.5 KB; with --histogram ~15 KB). */
export const SYSBENCH_MAX_INPUT_CHARS = 4 * MiB;

/** Linux x86-64 open(2) flag bits, as sysbench 0.4 prints `--file-extra-flags` (a decimal number). */
const O_DIRECT = 0o40000; // 16384
const O_DSYNC = 0o10000; // 4096
const O_SYNC = 0o4010000; // 1052672 (includes the O_DSYNC bit)

type Line = { text: string; number: number };

const MODE_BY_DESCRIPTION: Record<string, SysbenchTestMode> = {
  'sequential write (creation)': 'seqwr',
  'sequential rewrite': 'seqrewr',
  'sequential read': 'seqrd',
  'random read': 'rndrd',
  'random write': 'rndwr',
  'random r/w': 'rndrw',
};

/** "16KiB", "2MiB", "256MiB", "1.5Gb", "16Kb", "2048Kb", "0b": sysbench sizes are binary in every version. */
export function parseSysbenchSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(b|B|Kb|Mb|Gb|Tb|KiB|MiB|GiB|TiB|K|M|G|T)?$/.exec(text.trim());
  if (!m) return null;
  const unit = (m[2] ?? 'b').charAt(0).toUpperCase();
  const factor = { B: 1, K: KiB, M: MiB, G: 1024 * MiB, T: 1024 * 1024 * MiB }[unit];
  return factor === undefined ? null : Number(m[1]) * factor;
}

/** "0.41ms", "4.70", "5.0097s", "434.9929" → a number in the unit asked for. */
function parseDuration(text: string, unit: 'ms' | 's'): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s)?$/.exec(text.trim());
  if (!m) return null;
  const value = Number(m[1]);
  const given = m[2] ?? unit;
  if (given === unit) return value;
  return given === 's' ? value * 1000 : value / 1000;
}

const NUMBER = /^\d+(?:\.\d+)?$/;

class ParseError {
  constructor(
    readonly code: string,
    readonly message: string,
    readonly line?: number,
  ) {}
}

/** Finds `label: value` (after trimming) and returns the value; errors name the line when malformed. */
function valueAfter(lines: readonly Line[], label: RegExp): { value: string; line: number } | null {
  for (const l of lines) {
    const m = label.exec(l.text);
    if (m) return { value: l.text.slice(m[0].length).trim(), line: l.number };
  }
  return null;
}

function numberAfter(lines: readonly Line[], label: RegExp, name: string, required: boolean): number | null {
  const found = valueAfter(lines, label);
  if (!found) {
    if (required) throw new ParseError('missing_field', `no "${name}" line: is the output complete?`);
    return null;
  }
  if (!NUMBER.test(found.value)) {
    throw new ParseError(
      'bad_number',
      `line ${found.line}: expected a number after "${name}", got "${found.value}"`,
      found.line,
    );
  }
  return Number(found.value);
}

function durationAfter(lines: readonly Line[], label: RegExp, name: string, unit: 'ms' | 's'): number | null {
  const found = valueAfter(lines, label);
  if (!found) return null;
  const value = parseDuration(found.value, unit);
  if (value === null) {
    throw new ParseError(
      'bad_number',
      `line ${found.line}: expected a duration after "${name}" such as 4.70${unit}, got "${found.value}"`,
      found.line,
    );
  }
  return value;
}

function decodeOpenFlags(raw: string, warnings: Warning[]): SysbenchOpenFlags {
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    // 0.4 prints the open(2) flags as a decimal number (Linux x86-64 values).
    const bits = Number(text);
    const known = O_DIRECT | O_SYNC | O_DSYNC;
    if ((bits & ~known) !== 0) {
      warnings.push({
        code: 'unknown_open_flags',
        message: `"Extra file open flags: ${text}" holds bits other than O_DIRECT/O_SYNC/O_DSYNC (as Linux x86-64 numbers them); whether the page cache was bypassed is unknown.`,
        subject: 'direct',
      });
      return { raw: text, direct: null, syncWrites: null };
    }
    return { raw: text, direct: (bits & O_DIRECT) !== 0, syncWrites: (bits & O_DSYNC) !== 0 };
  }
  const words = text.toLowerCase().split(/[\s,]+/);
  if (text === '(none)' || text === '') return { raw: text, direct: false, syncWrites: false };
  return {
    raw: text,
    direct: words.some((w) => w === 'directio' || w === 'direct' || w === 'o_direct'),
    syncWrites: words.some((w) => w === 'sync' || w === 'dsync' || w === 'o_sync' || w === 'o_dsync'),
  };
}

/** Reads the run header (options echo) shared by every version. */
function parseHeader(lines: readonly Line[], warnings: Warning[]) {
  const find = (re: RegExp) => {
    for (const l of lines) {
      const m = re.exec(l.text);
      if (m) return m;
    }
    return null;
  };
  const threads = find(/^Number of threads:\s*(\d+)$/);
  const flags = find(/^Extra file open flags:\s*(.*)$/);
  const files = find(/^(\d+) files, (\S+) each$/);
  const total = find(/^(\S+) total file size$/);
  const block = find(/^Block size (\S+)$/);
  const requests = find(/^Number of (?:IO requests|random requests for random IO):\s*(\d+)$/);
  const ratio = find(/^Read\/Write ratio for combined random IO test:\s*(\d+(?:\.\d+)?)$/);
  const periodic = find(/^Periodic FSYNC enabled, calling fsync\(\) each (\d+) requests\.?$/);
  const eachWrite = find(/^Calling fsync\(\) after each write operation\.?$/);
  const atEnd = find(/^Calling fsync\(\) at the end of test, (Enabled|Disabled)\.?$/);
  const ioMode = find(/^Using (synchronous|asynchronous|mmap\S*) I\/O mode$/);
  const doing = find(/^Doing (.+) test$/);
  const interval = find(/^Report intermediate results every (\d+) second/);
  const timeLimit = find(/^Time limit exceeded/);

  const blockSizeBytes = block ? parseSysbenchSize(block[1]!) : null;
  let testMode: SysbenchTestMode | null = doing ? (MODE_BY_DESCRIPTION[doing[1]!] ?? null) : null;
  if (doing && testMode === null) {
    const raw = doing[1]!;
    testMode = (SYSBENCH_TEST_MODES as readonly string[]).includes(raw) ? (raw as SysbenchTestMode) : null;
  }
  let mode: SysbenchIoMode | null = null;
  if (ioMode) mode = ioMode[1] === 'synchronous' ? 'sync' : ioMode[1] === 'asynchronous' ? 'async' : 'mmap';
  const requestLimit = requests ? Number(requests[1]) : null;
  return {
    threads: threads ? Number(threads[1]) || null : null,
    openFlags: flags ? decodeOpenFlags(flags[1]!, warnings) : null,
    fileCount: files ? Number(files[1]) || null : null,
    totalFileSizeBytes: total ? parseSysbenchSize(total[1]!) || null : null,
    blockSizeBytes: blockSizeBytes && blockSizeBytes > 0 ? blockSizeBytes : null,
    requestLimit,
    readWriteRatio: ratio ? Number(ratio[1]) : null,
    fsync: {
      everyRequests: periodic ? Number(periodic[1]) || null : null,
      afterEachWrite: eachWrite !== null,
      atEnd: atEnd ? atEnd[1] === 'Enabled' : null,
    },
    ioMode: mode,
    testMode,
    reportIntervalSec: interval ? Number(interval[1]) || null : null,
    timeLimitReached: timeLimit !== null,
  };
}

type Header = ReturnType<typeof parseHeader>;

/**
 * bytes/s of one direction: operations × block size is exact and beats a printed MiB/s rounded to
 * 0.01 (5.98 reads/s × 16 KiB = 0.093 MiB/s, printed "0.09": 3.6% off). When the two disagree by
 * more than the rounding (merged requests, `--file-merged-requests`), the printed figure wins.
 */
function directionOf(
  perSec: number,
  count: number | null,
  printedMiBps: number | null,
  blockSize: number | null,
  name: 'read' | 'write',
  warnings: Warning[],
): SysbenchDirection {
  const fromOps = blockSize === null ? null : perSec * blockSize;
  if (fromOps !== null && printedMiBps !== null) {
    const tolerance = 0.006 * MiB + 0.01 * fromOps;
    if (Math.abs(fromOps - printedMiBps * MiB) > tolerance) {
      warnings.push({
        code: 'block_size_mismatch',
        message: `${name}: ${perSec} ops/s × ${blockSize! / KiB} KiB = ${(fromOps / MiB).toFixed(2)} MiB/s, but sysbench printed ${printedMiBps} MiB/s (merged requests?). Using the printed throughput.`,
        subject: `${name}.bytesPerSec`,
      });
      return { perSec, count, bytesPerSec: printedMiBps * MiB, bytesFrom: 'printed-throughput' };
    }
  }
  if (fromOps !== null) return { perSec, count, bytesPerSec: fromOps, bytesFrom: 'ops-times-block-size' };
  if (printedMiBps !== null) {
    return { perSec, count, bytesPerSec: printedMiBps * MiB, bytesFrom: 'printed-throughput' };
  }
  throw new ParseError(
    'missing_field',
    `${name}: neither a block size nor a throughput line to compute bytes/s from`,
  );
}

function parseV1(lines: readonly Line[], header: Header, warnings: Warning[]) {
  const readsPerSec = numberAfter(lines, /^reads\/s:/, 'reads/s:', true)!;
  const writesPerSec = numberAfter(lines, /^writes\/s:/, 'writes/s:', true)!;
  const fsyncsPerSec = numberAfter(lines, /^fsyncs\/s:/, 'fsyncs/s:', false) ?? 0;
  const readMiBps = numberAfter(lines, /^read, MiB\/s:/, 'read, MiB/s:', false);
  const writtenMiBps = numberAfter(lines, /^written, MiB\/s:/, 'written, MiB/s:', false);
  const totalTimeSec = durationAfter(lines, /^total time:/, 'total time:', 's');
  if (totalTimeSec === null)
    throw new ParseError('missing_field', 'no "total time:" line: is the output complete?');
  const totalEvents = numberAfter(lines, /^total number of events:/, 'total number of events:', false);
  // Latency block: "Latency (ms):" then min/avg/max/"95th percentile"/sum, values in ms.
  const latencyStart = lines.findIndex((l) => /^Latency \(ms\):?$/.test(l.text));
  const latencyLines = latencyStart >= 0 ? lines.slice(latencyStart + 1, latencyStart + 7) : [];
  const pct = latencyLines
    .map((l) => ({ m: /^(\d+(?:\.\d+)?)(?:st|nd|rd|th) percentile:\s*(\S+)$/.exec(l.text), l }))
    .find((x) => x.m !== null);
  let percentile: { rank: number; valueMs: number } | null = null;
  if (pct?.m) {
    const v = parseDuration(pct.m[2]!, 'ms');
    if (v === null) {
      throw new ParseError(
        'bad_number',
        `line ${pct.l.number}: expected a number of ms after "percentile:", got "${pct.m[2]}"`,
        pct.l.number,
      );
    }
    const rank = Number(pct.m[1]);
    if (rank > 0 && rank <= 100) percentile = { rank, valueMs: v };
  }
  const inLatency = (label: RegExp, name: string) => durationAfter(latencyLines, label, name, 'ms');
  const intervals = parseIntervals(lines);
  const histogram = parseHistogram(lines);
  return {
    reads: directionOf(readsPerSec, null, readMiBps, header.blockSizeBytes, 'read', warnings),
    writes: directionOf(writesPerSec, null, writtenMiBps, header.blockSizeBytes, 'write', warnings),
    fsyncs: { perSec: fsyncsPerSec, count: null },
    totalTimeSec,
    totalEvents: totalEvents === null ? null : Math.round(totalEvents),
    latency: {
      minMs: inLatency(/^min:/, 'min:'),
      avgMs: inLatency(/^avg:/, 'avg:'),
      maxMs: inLatency(/^max:/, 'max:'),
      percentile,
      sumMs: inLatency(/^sum:/, 'sum:'),
    },
    histogram,
    intervals,
    // 1.0 runs are time-based unless --events set a limit; then they stop at whichever comes first,
    // and reaching exactly that many events says the limit, not the clock, ended the run.
    timeLimited:
      header.requestLimit === 0
        ? true
        : header.requestLimit !== null && totalEvents !== null && totalEvents >= header.requestLimit
          ? false
          : null,
  };
}

/** `[ 1s ] reads: 118.00 MiB/s writes: 78.66 MiB/s fsyncs: 16089.66/s latency (ms,99%): 0.176` */
function parseIntervals(lines: readonly Line[]) {
  const out: SysbenchFileio['intervals'] = [];
  const re =
    /^\[\s*(\d+(?:\.\d+)?)s\s*\]\s*reads:\s*(\d+(?:\.\d+)?)\s*MiB\/s\s*writes:\s*(\d+(?:\.\d+)?)\s*MiB\/s\s*fsyncs:\s*(\d+(?:\.\d+)?)\/s(?:\s*latency\s*\(ms,\s*\d+(?:\.\d+)?%\):\s*(\d+(?:\.\d+)?))?/;
  for (const l of lines) {
    const m = re.exec(l.text);
    if (!m) continue;
    out.push({
      atSec: Number(m[1]),
      readMiBps: Number(m[2]),
      writeMiBps: Number(m[3]),
      fsyncsPerSec: Number(m[4]),
      latencyMs: m[5] === undefined ? null : Number(m[5]),
    });
  }
  return out;
}

/** `--histogram=on`: "       0.081 |***                 2" lines after "Latency histogram (values are in milliseconds)". */
function parseHistogram(lines: readonly Line[]): SysbenchFileio['histogram'] {
  const start = lines.findIndex((l) => /^Latency histogram/.test(l.text));
  if (start < 0) return null;
  const bins: { valueMs: number; count: number }[] = [];
  for (const l of lines.slice(start + 1)) {
    if (/^value\s+-+\s*distribution\s*-+\s*count$/.test(l.text)) continue;
    const m = /^(\d+(?:\.\d+)?)\s*\|[*\s]*?(\d+)$/.exec(l.text);
    if (!m) break;
    bins.push({ valueMs: Number(m[1]), count: Number(m[2]) });
  }
  return bins.length > 0 ? bins : null;
}

function parseV04(lines: readonly Line[], header: Header, warnings: Warning[]) {
  const opsLine = lines.find((l) => /^Operations performed:/.test(l.text))!;
  const ops =
    /^Operations performed:\s*(\d+)\s+reads?,\s*(\d+)\s+writes?,\s*(\d+)\s+other\s*=\s*(\d+)\s+total$/i.exec(
      opsLine.text,
    );
  if (!ops) {
    throw new ParseError(
      'bad_line',
      `line ${opsLine.number}: expected "Operations performed: N Read, N Write, N Other = N Total", got "${opsLine.text}"`,
      opsLine.number,
    );
  }
  const [reads, writes, other] = [Number(ops[1]), Number(ops[2]), Number(ops[3])];
  const totalTimeSec = durationAfter(lines, /^total time:/, 'total time:', 's');
  if (totalTimeSec === null)
    throw new ParseError('missing_field', 'no "total time:" line: is the output complete?');
  if (!(totalTimeSec > 0)) throw new ParseError('bad_number', '"total time:" is 0: no rates can be computed');
  const totalEvents = numberAfter(lines, /^total number of events:/, 'total number of events:', false);

  // "Read 9.339Gb  Written 6.226Gb  Total transferred 15.565Gb  (53.125Mb/sec)": binary units, %.5g.
  const transferLine = lines.find((l) => /^Read \S+\s+Written \S+/.test(l.text));
  let printedRead: number | null = null;
  let printedWritten: number | null = null;
  if (transferLine) {
    const t = /^Read (\S+)\s+Written (\S+)/.exec(transferLine.text)!;
    printedRead = parseSysbenchSize(t[1]!);
    printedWritten = parseSysbenchSize(t[2]!);
    if (printedRead === null || printedWritten === null) {
      throw new ParseError(
        'bad_line',
        `line ${transferLine.number}: expected sizes such as "Read 93.75Mb  Written 62.5Mb", got "${transferLine.text}"`,
        transferLine.number,
      );
    }
  }
  const bs = header.blockSizeBytes;
  const direction = (
    count: number,
    printedBytes: number | null,
    name: 'read' | 'write',
  ): SysbenchDirection => {
    const perSec = count / totalTimeSec;
    if (bs !== null) {
      // Printed sizes have 5 significant digits: allow that rounding (and one block) before doubting.
      const exact = count * bs;
      if (printedBytes !== null && Math.abs(exact - printedBytes) > 5e-5 * exact + bs) {
        warnings.push({
          code: 'block_size_mismatch',
          message: `${name}: ${count} operations × ${bs / KiB} KiB = ${(exact / MiB).toFixed(3)} MiB, but sysbench printed ${(printedBytes / MiB).toFixed(3)} MiB. Using the printed amount.`,
          subject: `${name}.bytesPerSec`,
        });
        return { perSec, count, bytesPerSec: printedBytes / totalTimeSec, bytesFrom: 'printed-throughput' };
      }
      return { perSec, count, bytesPerSec: exact / totalTimeSec, bytesFrom: 'ops-times-block-size' };
    }
    if (printedBytes === null) {
      throw new ParseError('missing_field', `${name}: neither a block size nor a "Read … Written …" line`);
    }
    return { perSec, count, bytesPerSec: printedBytes / totalTimeSec, bytesFrom: 'printed-throughput' };
  };

  // 0.4: "per-request statistics:"; 0.5: "response time:". Values carry "ms".
  const start = lines.findIndex((l) => /^(per-request statistics|response time):?$/.test(l.text));
  const statLines = start >= 0 ? lines.slice(start + 1, start + 6) : [];
  const pctLine = statLines
    .map((l) => ({ m: /^approx\.\s+(\d+(?:\.\d+)?)\s+percentile:\s*(\S+)$/.exec(l.text), l }))
    .find((x) => x.m !== null);
  let percentile: { rank: number; valueMs: number } | null = null;
  if (pctLine?.m) {
    const v = parseDuration(pctLine.m[2]!, 'ms');
    if (v === null) {
      throw new ParseError(
        'bad_number',
        `line ${pctLine.l.number}: expected a latency such as 9.86ms, got "${pctLine.m[2]}"`,
        pctLine.l.number,
      );
    }
    percentile = { rank: Number(pctLine.m[1]), valueMs: v };
  }
  // "total time taken by event execution: 4794.3384" is seconds (0.5 appends "s").
  const sumSec = durationAfter(
    lines,
    /^total time taken by event execution:/,
    'total time taken by event execution:',
    's',
  );
  return {
    reads: direction(reads, printedRead, 'read'),
    writes: direction(writes, printedWritten, 'write'),
    fsyncs: { perSec: other / totalTimeSec, count: other },
    totalTimeSec,
    totalEvents: totalEvents === null ? null : Math.round(totalEvents),
    latency: {
      minMs: durationAfter(statLines, /^min:/, 'min:', 'ms'),
      avgMs: durationAfter(statLines, /^avg:/, 'avg:', 'ms'),
      maxMs: durationAfter(statLines, /^max:/, 'max:', 'ms'),
      percentile,
      sumMs: sumSec === null ? null : sumSec * 1000,
    },
    histogram: null,
    intervals: [],
    timeLimited: header.timeLimitReached ? true : null,
  };
}

/**
 * Parses one sysbench fileio run. Accepts a string or bytes (UTF-8/UTF-16, with or without BOM —
 * PowerShell's `>` writes UTF-16). Rejects the output of `prepare`/`cleanup`, other sysbench tests
 * and sysbench 1.1's different layout with a code saying so.
 */
export function parseSysbench(input: string | Uint8Array): Result<SysbenchFileio> {
  const decoded = decodeInput(input, { maxBytes: SYSBENCH_MAX_INPUT_CHARS });
  if (!decoded.ok) {
    if (decoded.error.code === 'too_large') {
      return fail(
        'too_large',
        `the input is larger than ${SYSBENCH_MAX_INPUT_CHARS / MiB} MiB: not one sysbench run`,
      );
    }
    return fail(decoded.error.code, decoded.error.message.replace(/fio (result|output)/g, 'sysbench output'));
  }
  const lines: Line[] = decoded.value.text
    .split(/\r\n|\r|\n/)
    .map((text, i) => ({ text: text.replace(/^[\s>]+/, '').trimEnd(), number: i + 1 }));
  const warnings: Warning[] = [...decoded.value.warnings];
  const banner = lines.map((l) => /^sysbench (\d+\.\d+(?:\.\d+)?)\S*/.exec(l.text)).find((m) => m !== null);
  const version = banner ? banner[1]! : null;
  const has = (re: RegExp) => lines.some((l) => re.test(l.text));

  const isV1 = has(/^File operations:$/) || has(/^reads\/s:/);
  const isV04 = has(/^Operations performed:/);
  if (!isV1 && !isV04) {
    if (has(/^(read|write):\s+IOPS=/)) {
      return fail(
        'unsupported_format',
        'this looks like sysbench 1.1 output ("read: IOPS=… MiB/s"); Blockwise reads the 1.0 and 0.4 formats',
      );
    }
    if (has(/^Creating files for the test/) || has(/bytes written in .* seconds/)) {
      return fail(
        'not_a_run',
        'this is the output of `sysbench fileio prepare`, which creates the files; upload the output of `run`',
      );
    }
    if (has(/^Removing test files/)) {
      return fail('not_a_run', 'this is the output of `sysbench fileio cleanup`; upload the output of `run`');
    }
    if (has(/^SQL statistics:/) || has(/^events per second:/) || has(/^CPU speed:/)) {
      return fail(
        'not_fileio',
        'this is a sysbench run of another test (oltp, cpu, memory); Blockwise reads `sysbench fileio` runs',
      );
    }
    return fail(
      'not_sysbench',
      'no sysbench fileio results found: expected a "File operations:" block (sysbench 1.0) or an "Operations performed:" line (0.4)',
    );
  }
  try {
    const header = parseHeader(lines, warnings);
    const body = isV1 ? parseV1(lines, header, warnings) : parseV04(lines, header, warnings);
    if (!(body.totalTimeSec > 0)) return fail('bad_number', '"total time:" is 0: no rates can be computed');
    const result: SysbenchFileio = {
      version,
      format: isV1 ? '1.0' : '0.4',
      testMode: header.testMode,
      ioMode: header.ioMode,
      threads: header.threads,
      openFlags: header.openFlags,
      fileCount: header.fileCount,
      totalFileSizeBytes: header.totalFileSizeBytes,
      blockSizeBytes: header.blockSizeBytes,
      requestLimit: header.requestLimit,
      readWriteRatio: header.readWriteRatio,
      fsync: header.fsync,
      timeLimited: body.timeLimited,
      reportIntervalSec: header.reportIntervalSec,
      reads: body.reads,
      writes: body.writes,
      fsyncs: body.fsyncs,
      totalTimeSec: body.totalTimeSec,
      totalEvents: body.totalEvents,
      latency: body.latency,
      histogram: body.histogram,
      intervals: body.intervals,
      warnings,
    };
    return ok(result);
  } catch (error) {
    if (error instanceof ParseError)
      return fail(error.code, error.message, error.line === undefined ? undefined : `line ${error.line}`);
    throw error;
  }
}
