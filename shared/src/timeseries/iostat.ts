import { settingHint } from '../audience.ts';
import type { Problem, Warning } from '../problem.ts';
import { KiB, MiB, formatInt } from '../units.ts';
import { buildSeries, choiceRequired, type RawColumn, type RawRow } from './build-series.ts';
import { rateRole } from './columns.ts';
import { decodeMetricsInput } from './input.ts';
import { type IoMetric, type SeriesImportOptions, type SeriesImportResult } from './series.schema.ts';
import {
  RequestSizeCheck,
  SysstatNumbers,
  chooseDevice,
  dayMonthOrder,
  decimalCommaWarning,
  isProblem,
  parseBanner,
  parseClock,
  parseSysstatDate,
  present,
  requestSizeTolerance,
  splitDateTimeLine,
  type Banner,
} from './sysstat.ts';
import type { ParsedTime } from './timestamps.ts';

/**
 * `iostat -x` text (sysstat): reports one after another, each with an optional `-t` time line,
 * an optional `avg-cpu` block, and a `Device` header with one row per device. Columns are found
 * by NAME, so every header generation reads the same way:
 *
 * - sysstat ≤ 11.5.6: `Device: rrqm/s wrqm/s r/s w/s rkB/s wkB/s avgrq-sz avgqu-sz await r_await
 *   w_await svctm %util` — `avgrq-sz` in 512-byte sectors; `rsec/s wsec/s` instead of the kB
 *   columns without -k/-m when POSIXLY_CORRECT is set;
 * - ≥ 11.5.7: `Device r/s w/s rkB/s wkB/s rrqm/s wrqm/s %rrqm %wrqm r_await w_await aqu-sz
 *   rareq-sz wareq-sz svctm %util` — request sizes in kB;
 * - ≥ 12.1.2: grouped by direction, discards added (`d/s dkB/s drqm/s %drqm d_await dareq-sz`),
 *   `svctm` gone; ≥ 12.3.1: flushes (`f/s f_await`).
 * - `-k` kB/s (KiB: sysstat's kB are 1,024 bytes), `-m` MB/s (MiB), sectors/s (512 bytes).
 *
 * The first report of a run covers the time since boot (unless iostat ran with -y): it is left
 * out, with a warning. iostat prints each report at the END of its interval: every point is
 * placed at the interval's start (time − interval), as the other series formats are. Without
 * -t there are no times at all: the interval must be given (`periodSec`) and the points are
 * placed from 00:00 UTC of the banner's date — stated in a warning, as the times are not real.
 */

type Report = {
  /** Line of the Device header. */
  headerLine: number;
  header: string[];
  time: ParsedTime | null;
  dateText: string | null;
  clockText: string | null;
  timeLine: number | null;
  /** The first report after a banner (or of the file): averages since boot. */
  sinceBoot: boolean;
  rows: Map<string, { line: number; cells: string[] }>;
};

const fail = (code: string, message: string, path?: string): SeriesImportResult => ({
  ok: false,
  error: path === undefined ? { code, message } : { code, message, path },
});

const BYTE_COLUMNS: Record<string, { metric: IoMetric; factor: number; unit: string }> = {
  'rkB/s': { metric: 'readBytes', factor: KiB, unit: 'kB/s (iostat: KiB/s)' },
  'wkB/s': { metric: 'writeBytes', factor: KiB, unit: 'kB/s (iostat: KiB/s)' },
  'rMB/s': { metric: 'readBytes', factor: MiB, unit: 'MB/s (iostat: MiB/s)' },
  'wMB/s': { metric: 'writeBytes', factor: MiB, unit: 'MB/s (iostat: MiB/s)' },
  'rsec/s': { metric: 'readBytes', factor: 512, unit: 'sectors/s (512 B)' },
  'wsec/s': { metric: 'writeBytes', factor: 512, unit: 'sectors/s (512 B)' },
};

/** The most common positive step (ms) between consecutive times. */
function commonStepMs(times: readonly number[]): number | null {
  const counts = new Map<number, number>();
  for (let i = 1; i < times.length; i++) {
    const d = times[i]! - times[i - 1]!;
    if (d > 0) counts.set(d, (counts.get(d) ?? 0) + 1);
  }
  let best: number | null = null;
  let bestCount = 0;
  for (const [d, c] of counts)
    if (c > bestCount || (c === bestCount && d < best!)) [best, bestCount] = [d, c];
  return best;
}

type Scan = { banner: Banner | null; reports: Report[] } | Problem;

function scan(lines: readonly string[]): Scan {
  let banner: Banner | null = null;
  const reports: Report[] = [];
  let pending: { time: ParsedTime | null; date: string | null; clock: string | null; line: number } | null =
    null;
  let current: Report | null = null;
  let nextSinceBoot = true;
  let cpuValuesNext = false;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i]!;
    const text = raw.trim();
    if (text === '') {
      current = null;
      cpuValuesNext = false;
      continue;
    }
    const b = parseBanner(text);
    if (b) {
      banner ??= b;
      nextSinceBoot = true;
      current = null;
      continue;
    }
    const tokens = text.split(/\s+/);
    if (/^Device:?$/.test(tokens[0]!) || tokens[tokens.length - 1] === 'Device') {
      if (tokens[0] !== 'Device' && tokens[0] !== 'Device:') {
        return {
          code: 'unsupported_iostat',
          message: `line ${lineNo}: iostat -h (human-readable) output rounds values and puts units in them; run iostat -x without -h`,
          path: `line ${lineNo}`,
        };
      }
      current = {
        headerLine: lineNo,
        header: tokens,
        time: pending?.time ?? null,
        dateText: pending?.date ?? null,
        clockText: pending?.clock ?? null,
        timeLine: pending?.line ?? null,
        sinceBoot: nextSinceBoot,
        rows: new Map(),
      };
      nextSinceBoot = false;
      pending = null;
      reports.push(current);
      continue;
    }
    if (current) {
      if (current.rows.has(tokens[0]!)) {
        return {
          code: 'bad_iostat',
          message: `line ${lineNo}: device ${tokens[0]} appears twice in the report under line ${current.headerLine}`,
          path: `line ${lineNo}`,
        };
      }
      current.rows.set(tokens[0]!, { line: lineNo, cells: tokens });
      continue;
    }
    if (/^avg-cpu:/.test(text)) {
      cpuValuesNext = true;
      continue;
    }
    if (cpuValuesNext && tokens.every((t) => /^-?\d+(?:[.,]\d+)?$/.test(t))) {
      cpuValuesNext = false;
      continue;
    }
    const dt = splitDateTimeLine(text);
    if (dt) {
      pending =
        'iso' in dt
          ? { time: dt.iso, date: null, clock: null, line: lineNo }
          : { time: null, date: dt.date, clock: dt.clock, line: lineNo };
      continue;
    }
    return {
      code: 'bad_iostat',
      message: `line ${lineNo}: expected an iostat -x line (a -t time such as "11/24/26 13:44:08", "avg-cpu:", a "Device" header or a device row), got "${text.slice(0, 60)}"`,
      path: `line ${lineNo}`,
    };
  }
  return { banner, reports };
}

export function parseIostat(
  input: string | Uint8Array,
  options: SeriesImportOptions = {},
): SeriesImportResult {
  const decoded = decodeMetricsInput(input);
  if (!decoded.ok) return decoded;
  const warnings: Warning[] = [...decoded.warnings];
  const scanned = scan(decoded.text.split(/\r\n|\r|\n/));
  if (isProblem(scanned)) return { ok: false, error: scanned };
  const { banner, reports } = scanned;
  if (reports.length === 0) return fail('bad_iostat', 'no "Device" header: expected the output of iostat -x');

  // One set of columns for the whole file: a header that changes is another iostat run mixed in.
  const first = reports[0]!;
  for (const r of reports) {
    if (r.header.join(' ') !== first.header.join(' ')) {
      const added = r.header.filter((h) => !first.header.includes(h));
      const gone = first.header.filter((h) => !r.header.includes(h));
      return fail(
        'mixed_iostat_columns',
        `line ${r.headerLine}: the header differs from line ${first.headerLine}'s (${added.join(' ') || '—'} instead of ${gone.join(' ') || '—'}): the file mixes iostat runs with different options or units; keep one run per file`,
        `line ${r.headerLine}`,
      );
    }
  }
  const header = first.header;
  const col = (name: string) => {
    const k = header.indexOf(name);
    return k < 0 ? null : k;
  };
  const rCol = col('r/s');
  const wCol = col('w/s');
  if (rCol === null || wCol === null) {
    const basic = col('tps') !== null;
    return fail(
      'not_iostat_x',
      `line ${first.headerLine}: expected the columns r/s and w/s of iostat -x (extended statistics), got ${header.slice(1).join(' ')}${basic ? ': this is iostat without -x (or with -s), which has no per-direction operation counts; run iostat -x' : ''}`,
      `line ${first.headerLine}`,
    );
  }
  const byteCols = header
    .map((h, k) => ({ k, spec: BYTE_COLUMNS[h] }))
    .filter((c): c is { k: number; spec: (typeof BYTE_COLUMNS)[string] } => c.spec !== undefined);
  const readBytesCol = byteCols.find((c) => c.spec.metric === 'readBytes') ?? null;
  const writeBytesCol = byteCols.find((c) => c.spec.metric === 'writeBytes') ?? null;
  const queueCol = col('aqu-sz') ?? col('avgqu-sz');
  const awaitCol = col('await');
  const dirAwait = (['r', 'w', 'd', 'f'] as const).map((d) => ({
    rate: col(`${d}/s`),
    wait: col(`${d}_await`),
  }));
  const dCol = col('d/s');
  const fCol = col('f/s');
  const sizeCols = {
    read: col('rareq-sz'),
    write: col('wareq-sz'),
    sectors: col('avgrq-sz'),
  };

  // Values, by name; every row as wide as its header.
  const numbers = new SysstatNumbers();
  type Values = { cells: number[]; line: number };
  const parsed: Map<string, Values>[] = [];
  for (const r of reports) {
    const devices = new Map<string, Values>();
    for (const [device, row] of r.rows) {
      if (row.cells.length !== header.length) {
        return fail(
          'truncated_report',
          `line ${row.line}: expected ${header.length - 1} values for ${device} under the header of line ${r.headerLine} (${header.slice(1).join(' ')}), got ${row.cells.length - 1}: a truncated or edited report?`,
          `line ${row.line}`,
        );
      }
      const cells: number[] = [];
      for (let k = 1; k < row.cells.length; k++) {
        const v = numbers.read(row.cells[k]!, `line ${row.line}, column ${k + 1} (${header[k]})`, header[k]!);
        if (isProblem(v)) return { ok: false, error: v };
        cells.push(v);
      }
      devices.set(device, { cells: [Number.NaN, ...cells], line: row.line });
    }
    parsed.push(devices);
  }
  if (parsed.every((d) => d.size === 0)) {
    return fail(
      'no_devices',
      `line ${first.headerLine}: the reports list no devices (expected rows such as "nvme0n1 12.00 …" under the Device header)`,
      `line ${first.headerLine}`,
    );
  }

  // Times: all reports have a -t line, or none has.
  const timed = reports.filter((r) => r.time !== null || r.dateText !== null);
  if (timed.length > 0 && timed.length < reports.length) {
    const missing = reports.find((r) => r.time === null && r.dateText === null)!;
    return fail(
      'bad_iostat',
      `line ${missing.headerLine}: this report has no -t time line but others do: the file mixes iostat runs`,
      `line ${missing.headerLine}`,
    );
  }
  const order = dayMonthOrder([
    ...(banner ? [banner.date] : []),
    ...reports.map((r) => r.dateText).filter((d): d is string => d !== null),
  ]);
  if (timed.length > 0 && !order.known && reports.some((r) => r.dateText?.includes('/'))) {
    warnings.push({
      code: 'date_order_assumed',
      message:
        'The dates (e.g. 05/11/26) read month-first, as the C and en_US locales write them; for a day-first locale every date is wrong. S_TIME_FORMAT=ISO makes iostat write unambiguous dates.',
      subject: 'time',
    });
  }
  const wall: (ParsedTime | null)[] = [];
  for (const r of reports) {
    if (r.time) {
      wall.push(r.time);
      continue;
    }
    if (r.dateText === null) {
      wall.push(null);
      continue;
    }
    const day = parseSysstatDate(r.dateText, order.order);
    const clock = parseClock(r.clockText!);
    if (day === null || clock === null) {
      return fail(
        'bad_timestamp',
        `line ${r.timeLine}: expected a date and time such as 11/24/26 13:44:08, got "${r.dateText} ${r.clockText}"`,
        `line ${r.timeLine}`,
      );
    }
    wall.push({ wallMs: day + clock, offsetMin: null });
  }

  const kept = reports.map((r, i) => ({ r, i })).filter(({ r }) => !r.sinceBoot);
  const runs = reports.length - kept.length;
  if (kept.length === 0) {
    return fail(
      'only_since_boot',
      'the file holds only the first report, which averages everything since boot: run iostat with an interval and a count, e.g. iostat -x -t 60 1440',
    );
  }
  warnings.push({
    code: 'since_boot_excluded',
    message: `The first report${runs > 1 ? ` of each of the ${runs} runs` : ''} (line ${reports.find((r) => r.sinceBoot)!.headerLine}) averages everything since boot: left out. ${formatInt(kept.length)} report${kept.length === 1 ? '' : 's'} read. (Had iostat run with -y, the first report was a real interval and is lost.)`,
    subject: 'time',
  });

  // The interval: the step between -t times (the since-boot report's time starts the second
  // report's interval), or what the caller says.
  let intervalMs: number | null = null;
  if (timed.length > 0) {
    const steps = wall.map((t) => t!.wallMs - (t!.offsetMin ?? 0) * 60_000);
    intervalMs = options.periodSec !== undefined ? options.periodSec * 1000 : commonStepMs(steps);
  } else if (options.periodSec !== undefined) {
    intervalMs = options.periodSec * 1000;
  } else {
    return choiceRequired([
      {
        option: 'periodSec',
        flag: '--period',
        why: 'the reports carry no times (iostat ran without -t): give the INTERVAL it ran with, in seconds',
        candidates: ['1', '5', '10', '60'],
      },
    ]);
  }
  if (intervalMs === null) {
    return fail(
      'bad_period',
      `the -t times do not advance: give the interval iostat ran with (${settingHint('period', options.audience)})`,
      settingHint('period', options.audience),
    );
  }

  // Times of the kept reports, at the start of each interval.
  let times: ParsedTime[];
  if (timed.length > 0) {
    times = kept.map(({ i }) => ({ wallMs: wall[i]!.wallMs - intervalMs, offsetMin: wall[i]!.offsetMin }));
  } else {
    const bannerDay = banner ? parseSysstatDate(banner.date, order.order) : null;
    const base = bannerDay ?? 0;
    times = kept.map((_, n) => ({ wallMs: base + n * intervalMs, offsetMin: 0 }));
    warnings.push({
      code: 'times_assumed',
      message: `iostat printed no times (it ran without -t): the ${formatInt(kept.length)} reports are placed ${intervalMs / 1000} s apart from 00:00 UTC on ${bannerDay === null ? '1 January 1970 (no banner line with a date)' : `the banner's date (${banner!.date})`}. Peak times and minutes per day are relative, not clock times; run iostat with -t for real ones.`,
      subject: 'time',
    });
  }

  // The device: asked for, the only one, or the busiest over the kept reports.
  const totals = new Map<string, { operations: number; bytes: number }>();
  for (const { i } of kept) {
    for (const [device, v] of parsed[i]!) {
      const t = totals.get(device) ?? { operations: 0, bytes: 0 };
      t.operations += v.cells[rCol]! + v.cells[wCol]!;
      t.bytes +=
        (readBytesCol ? v.cells[readBytesCol.k]! * readBytesCol.spec.factor : 0) +
        (writeBytesCol ? v.cells[writeBytesCol.k]! * writeBytesCol.spec.factor : 0);
      totals.set(device, t);
    }
  }
  const choice = chooseDevice(
    [...totals].map(([name, t]) => ({ name, ...t })),
    options.device,
    settingHint('device', options.audience),
  );
  if (!choice.ok) return { ok: false, error: choice.error };
  warnings.push(...choice.warnings);
  const device = choice.name;
  const resource = banner ? `${device} (${banner.host})` : device;

  const columns: RawColumn[] = [
    { ...rateRole('readOps', 'r/s', resource), label: 'r/s', source: `column ${rCol + 1} (r/s)` },
    { ...rateRole('writeOps', 'w/s', resource), label: 'w/s', source: `column ${wCol + 1} (w/s)` },
  ];
  for (const c of [readBytesCol, writeBytesCol]) {
    if (c)
      columns.push({
        ...rateRole(c.spec.metric, c.spec.unit, resource),
        label: header[c.k]!,
        source: `column ${c.k + 1} (${header[c.k]})`,
      });
  }
  const sizeCheck = new RequestSizeCheck();

  const rows: RawRow[] = [];
  let absent = 0;
  let firstAbsent = '';
  let maxDiscards = 0;
  kept.forEach(({ r, i }, n) => {
    const v = parsed[i]!.get(device);
    const where = v ? `line ${v.line}` : `line ${r.headerLine}`;
    if (!v) {
      absent += 1;
      if (firstAbsent === '') firstAbsent = `line ${r.headerLine}`;
      rows.push({ where, time: times[n]!, values: columns.map(() => null), queue: [null, null, null] });
      return;
    }
    const c = v.cells;
    const reads = c[rCol]!;
    const writes = c[wCol]!;
    const readBytes = readBytesCol ? c[readBytesCol.k]! * readBytesCol.spec.factor : null;
    const writeBytes = writeBytesCol ? c[writeBytesCol.k]! * writeBytesCol.spec.factor : null;
    const values = [
      reads,
      writes,
      ...(readBytesCol ? [readBytes] : []),
      ...(writeBytesCol ? [writeBytes] : []),
    ];
    // The queue: requests of every kind the device saw (discards and flushes wait in it too).
    const discards = dCol === null ? 0 : c[dCol]!;
    const flushes = fCol === null ? 0 : c[fCol]!;
    maxDiscards = Math.max(maxDiscards, discards);
    const requests = reads + writes + discards + flushes;
    let awaitMs: number | null = null;
    if (awaitCol !== null) awaitMs = requests > 0 ? c[awaitCol]! : null;
    else if (dirAwait.some((d) => d.wait !== null) && requests > 0) {
      let weighted = 0;
      for (const d of dirAwait) if (d.rate !== null && d.wait !== null) weighted += c[d.rate]! * c[d.wait]!;
      awaitMs = weighted / requests;
    }
    rows.push({
      where,
      time: times[n]!,
      values,
      queue: [queueCol === null ? null : c[queueCol]!, awaitMs, requests],
    });
    // iostat's own request sizes against bytes ÷ operations.
    const rateUnit = (readBytesCol ?? writeBytesCol)?.spec.factor ?? KiB;
    if (sizeCols.read !== null && readBytes !== null && reads >= 1)
      sizeCheck.add(
        `${where} (rareq-sz)`,
        c[sizeCols.read]! * KiB,
        readBytes / reads,
        requestSizeTolerance(KiB, readBytes / reads, reads, rateUnit),
      );
    if (sizeCols.write !== null && writeBytes !== null && writes >= 1)
      sizeCheck.add(
        `${where} (wareq-sz)`,
        c[sizeCols.write]! * KiB,
        writeBytes / writes,
        requestSizeTolerance(KiB, writeBytes / writes, writes, rateUnit),
      );
    if (sizeCols.sectors !== null && readBytes !== null && writeBytes !== null && reads + writes >= 1) {
      const computed = (readBytes + writeBytes) / (reads + writes);
      sizeCheck.add(
        `${where} (avgrq-sz)`,
        c[sizeCols.sectors]! * 512,
        computed,
        requestSizeTolerance(512, computed, reads + writes, rateUnit),
      );
    }
  });
  if (absent > 0) {
    warnings.push({
      code: 'device_absent',
      message: `${device} is missing from ${formatInt(absent)} of the ${formatInt(kept.length)} reports (first under ${firstAbsent}): counted as missing points, not zeros. iostat -z leaves idle devices out; run without -z to see them as zeros.`,
      subject: 'device',
    });
  }
  if (maxDiscards > 0) {
    warnings.push({
      code: 'discards_not_counted',
      message: `${device} also had discard (TRIM) requests, up to ${maxDiscards.toFixed(2)}/s: they are not reads or writes and are left out of the IOPS (they still count in the queue and its requests).`,
      subject: 'device',
    });
  }
  warnings.push(...present(sizeCheck.warning('iostat', 'operations'), decimalCommaWarning(numbers)));
  return buildSeries(
    {
      format: 'iostat',
      columns,
      rows,
      headerZone: null,
      warnings,
      device: {
        name: device,
        chosenBy: choice.chosenBy,
        devices: [...totals].map(([name, t]) => ({ name, operations: t.operations * (intervalMs / 1000) })),
        hasQueue: queueCol !== null,
        requestSizeCheck: sizeCols.read === null && sizeCols.sectors === null ? null : sizeCheck.summary(),
      },
    },
    { ...options, label: options.label ?? resource },
  );
}
