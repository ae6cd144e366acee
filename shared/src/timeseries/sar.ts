import { settingHint } from '../audience.ts';
import type { Problem, Warning } from '../problem.ts';
import { KiB, formatInt } from '../units.ts';
import { buildSeries, type RawColumn, type RawRow } from './build-series.ts';
import { rateRole } from './columns.ts';
import { decodeMetricsInput } from './input.ts';
import type { SeriesFormat, SeriesImportOptions, SeriesImportResult } from './series.schema.ts';
import {
  RequestSizeCheck,
  SysstatNumbers,
  chooseDevice,
  dayMonthOrder,
  decimalCommaWarning,
  isProblem,
  leadingClock,
  parseBanner,
  parseClock,
  parseSysstatDate,
  present,
  requestSizeTolerance,
} from './sysstat.ts';
import { parseTimestamp, type ParsedTime } from './timestamps.ts';

/**
 * `sar -d` text and `sadf -d` (semicolon-separated) output of sysstat's disk activity, read from
 * a sadc data file (`sar -d -f /var/log/sysstat/sa24`). The fields of each generation, by name:
 *
 * - ≥ 12.1.2: `tps rkB/s wkB/s dkB/s areq-sz aqu-sz await %util`;
 * - 11.5.7 – 12.1.1: `tps rkB/s wkB/s areq-sz aqu-sz await svctm %util`;
 * - ≤ 11.5.6: `tps rd_sec/s wr_sec/s avgrq-sz avgqu-sz await svctm %util` (512-byte sectors).
 *
 * sar counts operations for both directions together (`tps`, which since 12.1.2 includes
 * discards): the data file holds no per-direction counts. They are split here in proportion to
 * the bytes each direction moved — i.e. reads and writes are assumed to have the same average
 * size (areq-sz) — with a warning: total IOPS and every throughput are exact, the read/write
 * split of operations is an estimate. iostat -x has the real r/s and w/s.
 *
 * sar text carries the date in each banner line and only a clock per row (in the locale:
 * `13:44:16`, `01:44:16 PM`); a clock that goes back is the next day, and each banner (several
 * files' outputs concatenated) starts its own day. sadf -d has full timestamps, UTC unless
 * sadf ran with -T/-t (local times without an offset), or epoch seconds with -U. Both print the
 * time at the END of each interval: points are placed at the start (time − interval).
 */

type DiskRow = {
  line: number;
  device: string;
  /** The interval's end as written. */
  time: ParsedTime;
  intervalSec: number | null;
  fields: Map<string, number>;
};

type Read = { rows: DiskRow[]; host: string | null; warnings: Warning[]; numbers: SysstatNumbers };

const problem = (code: string, message: string, line?: number): Problem =>
  line === undefined ? { code, message } : { code, message, path: `line ${line}` };

const isNumberCell = (t: string) => /^-?\d+(?:[.,]\d+)?$/.test(t);

function readSarText(text: string): Read | Problem {
  const lines = text.split(/\r\n|\r|\n/);
  const banners = lines.map((l) => parseBanner(l)).filter((b) => b !== null);
  const order = dayMonthOrder(banners.map((b) => b.date));
  const warnings: Warning[] = [];
  if (!order.known && banners.some((b) => b.date.includes('/'))) {
    warnings.push({
      code: 'date_order_assumed',
      message:
        'The banner dates (e.g. 05/11/26) read month-first, as the C and en_US locales write them; S_TIME_FORMAT=ISO makes sar write unambiguous dates.',
      subject: 'time',
    });
  }
  const numbers = new SysstatNumbers();
  const rows: DiskRow[] = [];
  let host: string | null = null;
  let day: number | null = null;
  let dayOffset = 0;
  let lastClock: number | null = null;
  let header: string[] | null = null; // DEV and the fields, for the section in force
  let inDisk = false;
  let restarts = 0;
  let sawDiskHeader = false;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const text = lines[i]!.trim();
    if (text === '') continue;
    const banner = parseBanner(text);
    if (banner) {
      host ??= banner.host;
      day = parseSysstatDate(banner.date, order.order);
      if (day === null)
        return problem(
          'bad_timestamp',
          `line ${lineNo}: expected a date in the banner, got "${banner.date}"`,
          lineNo,
        );
      dayOffset = 0;
      lastClock = null;
      header = null;
      inDisk = false;
      continue;
    }
    if (
      /^(Average|Summary|Moyenne|Durchschn\.?|Media|Média)\b/i.test(text) ||
      (/^\S+:\s/.test(text) && leadingClock(text) === null)
    ) {
      // The averages at the end (localized in some sysstat builds): not data points.
      continue;
    }
    const lead = leadingClock(text);
    if (!lead) {
      return problem(
        'bad_sar',
        `line ${lineNo}: expected a sar line starting with a time such as 13:44:16 (or a banner "Linux … (host) date"), got "${text.slice(0, 60)}"`,
        lineNo,
      );
    }
    const clock = parseClock(lead.clock)!;
    if (day === null) {
      return problem(
        'bad_sar',
        `line ${lineNo}: a time before any banner line ("Linux … (host) 11/24/26 …"): the date is unknown`,
        lineNo,
      );
    }
    if (lastClock !== null && clock < lastClock) dayOffset += 1; // past midnight
    lastClock = clock;
    const wallMs = day + dayOffset * 86_400_000 + clock;
    const tokens = lead.rest.split(/\s+/);
    if (/RESTART/i.test(lead.rest)) {
      restarts += 1;
      header = null;
      inDisk = false;
      continue;
    }
    if (!tokens.slice(1).some(isNumberCell)) {
      // A header: this section is the disk activity when its first field is DEV.
      inDisk = tokens[0] === 'DEV';
      if (inDisk) {
        if (header !== null && header.join(' ') !== tokens.join(' ')) {
          return problem(
            'mixed_sar_columns',
            `line ${lineNo}: the header differs from the one before (${tokens.join(' ')} vs ${header.join(' ')}): the file mixes sar versions or options; keep one per file`,
            lineNo,
          );
        }
        header = tokens;
        sawDiskHeader = true;
      }
      continue;
    }
    if (!inDisk || header === null) continue;
    if (tokens.length !== header.length) {
      return problem(
        'truncated_report',
        `line ${lineNo}: expected ${header.length - 1} values for ${tokens[0]} (${header.slice(1).join(' ')}), got ${tokens.length - 1}: a truncated or edited report?`,
        lineNo,
      );
    }
    const fields = new Map<string, number>();
    for (let k = 1; k < tokens.length; k++) {
      const v = numbers.read(tokens[k]!, `line ${lineNo}, column ${k + 2} (${header[k]})`, header[k]!);
      if (isProblem(v)) return v;
      fields.set(header[k]!, v);
    }
    rows.push({
      line: lineNo,
      device: tokens[0]!,
      time: { wallMs, offsetMin: null },
      intervalSec: null,
      fields,
    });
  }
  if (!sawDiskHeader) {
    return problem(
      'not_sar_d',
      'no disk activity section ("… DEV tps …" header): expected the output of sar -d',
    );
  }
  if (restarts > 0) {
    warnings.push({
      code: 'restarts',
      message: `${restarts} LINUX RESTART line${restarts === 1 ? '' : 's'}: the machine rebooted; sar reports no interval across a restart.`,
      subject: 'time',
    });
  }
  // The interval: the most common step of one device's times (sar text does not print it).
  const steps = new Map<number, number>();
  const lastByDevice = new Map<string, number>();
  for (const r of rows) {
    const prev = lastByDevice.get(r.device);
    if (prev !== undefined && r.time.wallMs > prev) {
      const d = Math.round((r.time.wallMs - prev) / 1000);
      steps.set(d, (steps.get(d) ?? 0) + 1);
    }
    lastByDevice.set(r.device, r.time.wallMs);
  }
  let interval: number | null = null;
  let best = 0;
  for (const [d, c] of steps) if (c > best) [interval, best] = [d, c];
  for (const r of rows) r.intervalSec = interval;
  return { rows, host, warnings, numbers };
}

function readSadf(text: string): Read | Problem {
  const lines = text.split(/\r\n|\r|\n/);
  const numbers = new SysstatNumbers();
  const rows: DiskRow[] = [];
  const warnings: Warning[] = [];
  let header: string[] | null = null;
  let inDisk = false;
  let sawDiskHeader = false;
  let host: string | null = null;
  let restarts = 0;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const text = lines[i]!.trim();
    if (text === '') continue;
    if (text.startsWith('#')) {
      const fields = text.replace(/^#\s*/, '').split(';');
      inDisk = fields[3] === 'DEV' && fields[0] === 'hostname' && fields[2] === 'timestamp';
      if (inDisk) {
        if (header !== null && header.join(';') !== fields.join(';')) {
          return problem(
            'mixed_sar_columns',
            `line ${lineNo}: the header differs from the one before (${fields.slice(4).join(' ')} vs ${header.slice(4).join(' ')}): the file mixes sysstat versions; keep one per file`,
            lineNo,
          );
        }
        header = fields;
        sawDiskHeader = true;
      }
      continue;
    }
    const cells = text.split(';');
    if (/RESTART/i.test(text)) {
      restarts += 1;
      continue;
    }
    if (!inDisk || header === null) continue;
    if (cells.length !== header.length) {
      return problem(
        'truncated_report',
        `line ${lineNo}: expected ${header.length} fields separated by ";" (${header.join(';')}), got ${cells.length}: a truncated or edited file?`,
        lineNo,
      );
    }
    host ??= cells[0]!;
    const time = parseTimestamp(cells[2]!);
    if (time === null) {
      return problem(
        'bad_timestamp',
        `line ${lineNo}, field 3 (timestamp): expected a time such as 2026-11-24 13:44:16 UTC or epoch seconds (sadf -U), got "${cells[2]!.slice(0, 40)}"`,
        lineNo,
      );
    }
    const interval = Number(cells[1]);
    if (!Number.isFinite(interval) || interval <= 0) {
      return problem(
        'bad_value',
        `line ${lineNo}, field 2 (interval): expected seconds above 0, got "${cells[1]}"`,
        lineNo,
      );
    }
    const fields = new Map<string, number>();
    for (let k = 4; k < cells.length; k++) {
      const v = numbers.read(cells[k]!, `line ${lineNo}, field ${k + 1} (${header[k]})`, header[k]!);
      if (isProblem(v)) return v;
      fields.set(header[k]!, v);
    }
    rows.push({ line: lineNo, device: cells[3]!, time, intervalSec: interval, fields });
  }
  if (!sawDiskHeader) {
    return problem(
      'not_sar_d',
      'no disk activity header ("# hostname;interval;timestamp;DEV;tps;…"): expected the output of sadf -d FILE -- -d',
    );
  }
  if (restarts > 0) {
    warnings.push({
      code: 'restarts',
      message: `${restarts} LINUX-RESTART record${restarts === 1 ? '' : 's'}: the machine rebooted; no interval spans a restart.`,
      subject: 'time',
    });
  }
  return { rows, host, warnings, numbers };
}

const BYTES: Record<string, { factor: number; dir: 'read' | 'write' | 'discard' }> = {
  'rkB/s': { factor: KiB, dir: 'read' },
  'wkB/s': { factor: KiB, dir: 'write' },
  'dkB/s': { factor: KiB, dir: 'discard' },
  'rd_sec/s': { factor: 512, dir: 'read' },
  'wr_sec/s': { factor: 512, dir: 'write' },
};

function toSeries(
  read: Read,
  format: SeriesFormat,
  decodedWarnings: Warning[],
  options: SeriesImportOptions,
): SeriesImportResult {
  const { rows: all, host } = read;
  const warnings: Warning[] = [...decodedWarnings, ...read.warnings];
  if (all.length === 0) {
    return { ok: false, error: problem('no_devices', 'the disk activity section lists no devices') };
  }
  const first = all[0]!;
  const names = [...first.fields.keys()];
  if (!names.includes('tps')) {
    return {
      ok: false,
      error: problem(
        'not_sar_d',
        `line ${first.line}: expected a tps field, got ${names.join(' ')}`,
        first.line,
      ),
    };
  }
  const byteNames = names.filter((n) => BYTES[n] !== undefined);
  const readName = byteNames.find((n) => BYTES[n]!.dir === 'read');
  const writeName = byteNames.find((n) => BYTES[n]!.dir === 'write');
  if (readName === undefined || writeName === undefined) {
    return {
      ok: false,
      error: problem(
        'not_sar_d',
        `line ${first.line}: expected read and write throughput fields (rkB/s and wkB/s, or rd_sec/s and wr_sec/s), got ${names.join(' ')}`,
        first.line,
      ),
    };
  }
  const discardName = byteNames.find((n) => BYTES[n]!.dir === 'discard');
  const bytesOf = (r: DiskRow, name: string | undefined) =>
    name === undefined ? 0 : r.fields.get(name)! * BYTES[name]!.factor;

  const totals = new Map<string, { operations: number; bytes: number }>();
  for (const r of all) {
    const t = totals.get(r.device) ?? { operations: 0, bytes: 0 };
    t.operations += r.fields.get('tps')! * (r.intervalSec ?? 1);
    t.bytes += (bytesOf(r, readName) + bytesOf(r, writeName)) * (r.intervalSec ?? 1);
    totals.set(r.device, t);
  }
  const choice = chooseDevice(
    [...totals].map(([name, t]) => ({ name, ...t })),
    options.device,
    settingHint('device', options.audience),
  );
  if (!choice.ok) return { ok: false, error: choice.error };
  warnings.push(...choice.warnings);
  const device = choice.name;
  const resource = host ? `${device} (${host})` : device;
  const rows = all.filter((r) => r.device === device);

  const interval = options.periodSec ?? rows.find((r) => r.intervalSec !== null)?.intervalSec ?? null;
  if (interval === null && rows.length > 1) {
    return {
      ok: false,
      error: {
        code: 'bad_period',
        message: `the times do not advance: give the interval sar ran with (${settingHint('period', options.audience)})`,
        path: settingHint('period', options.audience),
      },
    };
  }
  const sizeName = names.includes('areq-sz') ? 'areq-sz' : names.includes('avgrq-sz') ? 'avgrq-sz' : null;
  const sizeUnit = sizeName === 'areq-sz' ? KiB : 512;
  const rateUnit = BYTES[readName]!.factor;
  const queueName = names.includes('aqu-sz') ? 'aqu-sz' : names.includes('avgqu-sz') ? 'avgqu-sz' : null;
  const sizeCheck = new RequestSizeCheck();
  let unsplit = 0;
  let firstUnsplit = '';
  let maxDiscard = 0;
  const raw: RawRow[] = rows.map((r) => {
    const tps = r.fields.get('tps')!;
    const rb = bytesOf(r, readName);
    const wb = bytesOf(r, writeName);
    const db = bytesOf(r, discardName);
    maxDiscard = Math.max(maxDiscard, db);
    const moved = rb + wb + db;
    let readOps: number | null;
    let writeOps: number | null;
    if (tps === 0) [readOps, writeOps] = [0, 0];
    else if (moved > 0) [readOps, writeOps] = [(tps * rb) / moved, (tps * wb) / moved];
    else {
      // Operations without bytes (flushes): no direction to give them.
      [readOps, writeOps] = [null, null];
      unsplit += 1;
      if (firstUnsplit === '') firstUnsplit = `line ${r.line}`;
    }
    if (sizeName !== null && tps >= 1) {
      const computed = moved / tps;
      const reported = r.fields.get(sizeName)! * sizeUnit;
      // The bytes are two or three rates summed (read, write, discard), each rounded.
      const tol = requestSizeTolerance(sizeUnit, computed, tps, rateUnit, discardName ? 3 : 2);
      sizeCheck.add(`line ${r.line} (${sizeName})`, reported, computed, tol);
    }
    const iv = r.intervalSec ?? interval ?? 0;
    return {
      where: `line ${r.line}`,
      time: { wallMs: r.time.wallMs - iv * 1000, offsetMin: r.time.offsetMin },
      values: [readOps, writeOps, rb, wb],
      queue: [
        queueName === null ? null : r.fields.get(queueName)!,
        tps > 0 && r.fields.has('await') ? r.fields.get('await')! : null,
        tps,
      ],
    };
  });
  warnings.push({
    code: 'iops_split_by_bytes',
    message: `sar counts reads and writes together (tps${discardName ? ', discards included' : ''}): operations were split between reads and writes in proportion to the bytes each moved, i.e. both directions are taken to have the same average size (${sizeName ?? 'areq-sz'}). Total IOPS and throughput are exact; the split is an estimate — iostat -x has real r/s and w/s.`,
    subject: 'iops',
  });
  if (unsplit > 0) {
    warnings.push({
      code: 'operations_without_bytes',
      message: `${formatInt(unsplit)} interval${unsplit === 1 ? '' : 's'} (first at ${firstUnsplit}) had operations but no bytes (flushes?): their read/write operations are missing points, not zeros.`,
      subject: 'iops',
    });
  }
  if (maxDiscard > 0) {
    warnings.push({
      code: 'discards_not_counted',
      message: `${device} also had discards (TRIM), up to ${(maxDiscard / KiB).toFixed(2)} kB/s: not reads or writes, so not in the throughput; their operations are in tps and were left out of the split by their bytes.`,
      subject: 'device',
    });
  }
  warnings.push(...present(sizeCheck.warning('sar', 'tps'), decimalCommaWarning(read.numbers)));
  const unit = rateUnit === 512 ? 'sectors/s (512 B)' : 'kB/s (sysstat: KiB/s)';
  const columns: RawColumn[] = [
    {
      ...rateRole('readOps', 'IOPS (tps × read share of bytes)', resource),
      label: 'tps × read bytes share',
      source: 'tps',
    },
    {
      ...rateRole('writeOps', 'IOPS (tps × write share of bytes)', resource),
      label: 'tps × write bytes share',
      source: 'tps',
    },
    { ...rateRole('readBytes', unit, resource), label: readName, source: readName },
    { ...rateRole('writeBytes', unit, resource), label: writeName, source: writeName },
  ];
  return buildSeries(
    {
      format,
      columns,
      rows: raw,
      headerZone: null,
      warnings,
      device: {
        name: device,
        chosenBy: choice.chosenBy,
        devices: [...totals].map(([name, t]) => ({ name, operations: t.operations })),
        hasQueue: queueName !== null,
        requestSizeCheck: sizeName === null ? null : sizeCheck.summary(),
      },
    },
    { ...options, label: options.label ?? resource },
  );
}

/** `sar -d` text output (any locale, one or several days). */
export function parseSar(input: string | Uint8Array, options: SeriesImportOptions = {}): SeriesImportResult {
  const decoded = decodeMetricsInput(input);
  if (!decoded.ok) return decoded;
  const read = readSarText(decoded.text);
  if (isProblem(read)) return { ok: false, error: read };
  return toSeries(read, 'sar', decoded.warnings, options);
}

/** `sadf -d FILE -- -d` output: semicolon-separated disk activity with full timestamps. */
export function parseSadf(input: string | Uint8Array, options: SeriesImportOptions = {}): SeriesImportResult {
  const decoded = decodeMetricsInput(input);
  if (!decoded.ok) return decoded;
  const read = readSadf(decoded.text);
  if (isProblem(read)) return { ok: false, error: read };
  return toSeries(read, 'sadf', decoded.warnings, options);
}
