import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from './import-metrics.ts';
import { IoSeriesSchema, type IoSeries, type SeriesImportOptions } from './series.schema.ts';
import { profilesByStatistic } from './sizing.ts';
import { summarizeSeries } from './stats.ts';
import { iopsFromQueue, summarizeQueue } from './queue.ts';

/**
 * The real iostat / sar / sadf captures (fixtures/metrics/README.md), each checked against an
 * oracle written here from the raw columns — its own line splitting, its own column lookup, its
 * own percentiles — never through the importer's code.
 */

const DIR = new URL('../../../fixtures/metrics/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, DIR), 'utf8');

function load(name: string, options: SeriesImportOptions = {}): IoSeries {
  const r = importMetrics(readFileSync(new URL(name, DIR)), options);
  if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
  return IoSeriesSchema.parse(r.value);
}

// ── the oracle ────────────────────────────────────────────────────────────────────────────

type OraclePoint = { reads: number; writes: number; readBytes: number; writeBytes: number; end: string };
type Oracle = { device: string; points: OraclePoint[]; raw: Record<string, number>[] };

const num = (s: string) => Number(s.replace(',', '.'));
const UNIT: Record<string, number> = { kB: 1024, MB: 1048576, sec: 512 };

/** iostat: every "Device" header starts a report; rows until a blank line; skip the first report. */
function iostatOracle(body: string, device: string): Oracle {
  const lines = body.split('\n');
  const points: OraclePoint[] = [];
  const raw: Record<string, number>[] = [];
  let header: string[] | null = null;
  let reports = 0;
  let lastTime = '';
  for (const line of lines) {
    if (/^(\d|2026-)/.test(line) && !line.startsWith('Device')) lastTime = line.trim();
    if (line.startsWith('Device')) {
      header = line.trim().split(/\s+/);
      reports += 1;
      continue;
    }
    if (line.trim() === '') {
      header = null;
      continue;
    }
    if (!header || reports === 1) continue;
    const cells = line.trim().split(/\s+/);
    if (cells[0] !== device) continue;
    const row: Record<string, number> = {};
    header.forEach((h, k) => {
      if (k > 0) row[h] = num(cells[k]!);
    });
    raw.push(row);
    const unitOf = (dir: 'r' | 'w') => {
      const key = Object.keys(row).find((k) => new RegExp(`^${dir}(kB|MB|sec)/s$`).test(k))!;
      return row[key]! * UNIT[/^.(kB|MB|sec)/.exec(key)![1]!]!;
    };
    points.push({
      reads: row['r/s']!,
      writes: row['w/s']!,
      readBytes: unitOf('r'),
      writeBytes: unitOf('w'),
      end: lastTime,
    });
  }
  return { device, points, raw };
}

/** sar -d text: rows whose device field is the device, not the average lines; tps split by bytes. */
function sarOracle(body: string, device: string): Oracle {
  const points: OraclePoint[] = [];
  const raw: Record<string, number>[] = [];
  let header: string[] = [];
  for (const line of body.split('\n')) {
    const m = /^(\d\d:\d\d:\d\d(?: [AP]M)?)\s+(.*)$/.exec(line);
    if (!m) continue;
    const cells = m[2]!.trim().split(/\s+/);
    if (cells[0] === 'DEV') {
      header = cells;
      continue;
    }
    if (cells[0] !== device) continue;
    const row: Record<string, number> = {};
    header.forEach((h, k) => {
      if (k > 0) row[h] = num(cells[k]!);
    });
    raw.push(row);
    points.push(splitTps(row, m[1]!));
  }
  return { device, points, raw };
}

/** sadf -d: split on ";" under the "# hostname;…" header. */
function sadfOracle(body: string, device: string): Oracle {
  const points: OraclePoint[] = [];
  const raw: Record<string, number>[] = [];
  let header: string[] = [];
  for (const line of body.split('\n')) {
    if (line.startsWith('#')) {
      header = line.slice(2).split(';');
      continue;
    }
    const cells = line.split(';');
    if (cells[3] !== device) continue;
    const row: Record<string, number> = {};
    header.forEach((h, k) => {
      if (k > 3) row[h] = num(cells[k]!);
    });
    raw.push(row);
    points.push(splitTps(row, cells[2]!));
  }
  return { device, points, raw };
}

function splitTps(row: Record<string, number>, end: string): OraclePoint {
  const r = 'rkB/s' in row ? row['rkB/s']! * 1024 : row['rd_sec/s']! * 512;
  const w = 'wkB/s' in row ? row['wkB/s']! * 1024 : row['wr_sec/s']! * 512;
  const d = 'dkB/s' in row ? row['dkB/s']! * 1024 : 0;
  const tps = row.tps!;
  const all = r + w + d;
  return {
    reads: all > 0 ? (tps * r) / all : 0,
    writes: all > 0 ? (tps * w) / all : 0,
    readBytes: r,
    writeBytes: w,
    end,
  };
}

/** Nearest rank: the ⌈p·n⌉-th smallest. */
function rank(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / values.length;

type Case = {
  file: string;
  oracle: (body: string, device: string) => Oracle;
  device: string;
  options?: SeriesImportOptions;
  format: IoSeries['format'];
  midnight?: boolean;
  decimalComma?: boolean;
};

/** A case of one tool: its oracle and format, the device the busiest (vda unless told). */
const caseOf =
  (oracle: Case['oracle'], format: Case['format']) =>
  (file: string, more: Partial<Omit<Case, 'file' | 'oracle' | 'format'>> = {}): Case => ({
    file,
    oracle,
    format,
    device: 'vda',
    ...more,
  });
const iostat = caseOf(iostatOracle, 'iostat');
const sar = caseOf(sarOracle, 'sar');
const sadf = caseOf(sadfOracle, 'sadf');
/** These older sar/sadf files name the disk by its major-minor numbers, not as vda. */
const byNumbers = { device: 'dev254-0' };

const CASES: Case[] = [
  iostat('iostat_12.6.1_x_t_C.txt'),
  iostat('iostat_12.6.1_x_t_en_US.txt'),
  iostat('iostat_12.6.1_x_t_de_DE.txt', { decimalComma: true }),
  iostat('iostat_12.6.1_xd_t_iso.txt'),
  iostat('iostat_12.6.1_xdm_t.txt'),
  iostat('iostat_12.6.1_xk_2s_no_t.txt', { options: { periodSec: 2 } }),
  iostat('iostat_12.2.3_x_t.txt'),
  iostat('iostat_12.0.6_x_t.txt'),
  iostat('iostat_11.4.11_x_t.txt'),
  iostat('iostat_11.4.11_xd_posix_sectors.txt', { options: { periodSec: 1 } }),
  sar('sar_12.6.1_d_C.txt'),
  sar('sar_12.6.1_d_en_US.txt'),
  sar('sar_12.6.1_d_de_DE.txt', { decimalComma: true }),
  sar('sar_12.0.6_d.txt', byNumbers),
  sar('sar_11.4.11_d.txt', byNumbers),
  sar('sar_12.6.1_d_midnight.txt', { midnight: true }),
  sadf('sadf_12.6.1_d.csv'),
  sadf('sadf_12.6.1_d_de_DE.csv', { decimalComma: true }),
  sadf('sadf_12.0.6_d.csv', byNumbers),
  sadf('sadf_11.4.11_d.csv', byNumbers),
  sadf('sadf_12.6.1_d_midnight.csv', { midnight: true }),
];

describe.each(CASES)('$file', ({ file, oracle, device, options, format, decimalComma }) => {
  const series = load(file, options);
  const o = oracle(text(file), device);

  it(`reads ${device}, the busiest device, as ${format}`, () => {
    expect(series.format).toBe(format);
    expect(series.device?.name).toBe(device);
    expect(series.device?.chosenBy).toBe('busiest');
    expect(series.warnings.map((w) => w.code)).toContain('device_chosen');
    expect(series.timeMs).toHaveLength(o.points.length);
    expect(series.warnings.some((w) => w.code === 'decimal_comma')).toBe(decimalComma === true);
  });

  it('every point is the raw columns (reads, writes, bytes/s), the first report excluded', () => {
    o.points.forEach((p, i) => {
      expect(series.readIops[i]).toBeCloseTo(p.reads, 6);
      expect(series.writeIops[i]).toBeCloseTo(p.writes, 6);
      expect(series.readBytesPerSec[i]).toBeCloseTo(p.readBytes, 6);
      expect(series.writeBytesPerSec[i]).toBeCloseTo(p.writeBytes, 6);
    });
  });

  it('statistics of the points: mean, p95, p99, max per direction', () => {
    const s = summarizeSeries(series);
    const check = (
      got: { mean: number | null; p95: number | null; p99: number | null; max: number | null },
      values: number[],
    ) => {
      expect(got.mean).toBeCloseTo(mean(values), 6);
      expect(got.p95).toBeCloseTo(rank(values, 95), 6);
      expect(got.p99).toBeCloseTo(rank(values, 99), 6);
      expect(got.max).toBeCloseTo(Math.max(...values), 6);
    };
    check(
      s.read.iops,
      o.points.map((p) => p.reads),
    );
    check(
      s.write.iops,
      o.points.map((p) => p.writes),
    );
    check(
      s.read.bytesPerSec,
      o.points.map((p) => p.readBytes),
    );
    check(
      s.write.bytesPerSec,
      o.points.map((p) => p.writeBytes),
    );
  });

  it('the sizing profile: max / p99 / p95 of the points at their own step (never averaged up), and the block size', () => {
    const profiles = profilesByStatistic(series);
    if (!profiles.ok) throw new Error(profiles.error.message);
    const at = (f: (p: OraclePoint) => number) => o.points.map(f);
    for (const stat of ['max', 'p99', 'p95'] as const) {
      const pick = (values: number[]) =>
        stat === 'max' ? Math.max(...values) : rank(values, stat === 'p99' ? 99 : 95);
      const p = profiles.value[stat];
      const readIops = pick(at((x) => x.reads));
      const readBytes = pick(at((x) => x.readBytes));
      expect(p.read.iops).toBeCloseTo(readIops, 6);
      expect(p.write.iops).toBeCloseTo(pick(at((x) => x.writes)), 6);
      expect(p.read.bytesPerSec).toBeCloseTo(readBytes, 4);
      expect(p.write.bytesPerSec).toBeCloseTo(pick(at((x) => x.writeBytes)), 4);
      expect(p.read.blockSizeBytes).toBeCloseTo(readBytes / readIops, 6);
    }
  });

  it("the tool's average request size agrees with bytes ÷ operations", () => {
    expect(series.device?.requestSizeCheck).toMatchObject({ mismatched: 0 });
    expect(series.device!.requestSizeCheck!.checked).toBeGreaterThan(40);
    // Independently: where a direction did ≥ 50 operations/s, within 1 %.
    o.raw.forEach((row, i) => {
      const p = o.points[i]!;
      if ('rareq-sz' in row && row['r/s']! >= 50 && !('rMB/s' in row))
        expect(row['rareq-sz']! * 1024).toBeCloseTo(p.readBytes / p.reads, -2);
      if ('avgrq-sz' in row && p.reads + p.writes >= 50 && 'r/s' in row)
        expect(
          Math.abs(row['avgrq-sz']! * 512 - (p.readBytes + p.writeBytes) / (p.reads + p.writes)),
        ).toBeLessThan(0.01 * row['avgrq-sz']! * 512);
      if ('areq-sz' in row && row.tps! >= 50) {
        const moved = p.readBytes + p.writeBytes + ('dkB/s' in row ? row['dkB/s']! * 1024 : 0);
        expect(Math.abs(row['areq-sz']! * 1024 - moved / row.tps!)).toBeLessThan(
          0.01 * row['areq-sz']! * 1024 + 6,
        );
      }
    });
  });
});

describe("Little's law on iostat's queue (requests/s = aqu-sz ÷ await)", () => {
  it('holds point by point on sysstat 12.6.1, which counts every kind of request (reads, writes, discards, flushes)', () => {
    const file = 'iostat_12.6.1_x_t_C.txt';
    const o = iostatOracle(text(file), 'vda');
    let checked = 0;
    for (const row of o.raw) {
      // aqu-sz is Σ(requests/s × await) ÷ 1000, each printed to two decimals.
      const kinds = ['r', 'w', 'd', 'f'] as const;
      const busy = kinds.reduce((s, k) => s + (row[`${k}/s`]! * row[`${k}_await`]!) / 1000, 0);
      const slack =
        0.006 + kinds.reduce((s, k) => s + (0.005 * row[`${k}/s`]! + 0.005 * row[`${k}_await`]!) / 1000, 0);
      expect(Math.abs(row['aqu-sz']! - busy)).toBeLessThanOrEqual(slack);
      const requests = kinds.reduce((s, k) => s + row[`${k}/s`]!, 0);
      if (row['aqu-sz']! >= 0.5) {
        checked += 1;
        const awaitMs = busy / (requests / 1000);
        expect(iopsFromQueue(row['aqu-sz']!, awaitMs)! / requests).toBeCloseTo(1, 1);
      }
    }
    expect(checked).toBeGreaterThan(3);
    const q = summarizeQueue(load(file))!;
    expect(q.points).toBe(o.raw.length);
    expect(q.littleRequestsPerSec! / q.meanRequestsPerSec).toBeGreaterThan(0.97);
    expect(q.littleRequestsPerSec! / q.meanRequestsPerSec).toBeLessThan(1.03);
    expect(q.busiest!.littleRequestsPerSec! / q.busiest!.requestsPerSec).toBeCloseTo(1, 1);
  });

  it('older sysstat leaves flushes (and before 12.1.2 discards) out of the requests, though they sit in the queue: the law gives more', () => {
    for (const file of ['iostat_11.4.11_x_t.txt', 'iostat_12.0.6_x_t.txt', 'iostat_12.2.3_x_t.txt']) {
      const q = summarizeQueue(load(file))!;
      expect(q.littleRequestsPerSec!, file).toBeGreaterThan(q.meanRequestsPerSec);
    }
  });

  it('the queue arrays are the tool’s columns: aqu-sz/avgqu-sz, await (or the rate-weighted awaits), all requests', () => {
    const s = load('iostat_11.4.11_x_t.txt');
    const o = iostatOracle(text('iostat_11.4.11_x_t.txt'), 'vda');
    o.raw.forEach((row, i) => {
      expect(s.device!.queue!.queueDepth[i]).toBe(row['avgqu-sz']);
      expect(s.device!.queue!.requestsPerSec[i]).toBeCloseTo(row['r/s']! + row['w/s']!, 9);
      expect(s.device!.queue!.awaitMs[i]).toBe(row['r/s']! + row['w/s']! > 0 ? row.await : null);
    });
  });
});

describe('one capture, many spellings', () => {
  it('sar text and sadf -d of the same data file give the same series, in every version and locale', () => {
    const pairs = [
      ['sar_12.6.1_d_C.txt', 'sadf_12.6.1_d.csv'],
      ['sar_12.6.1_d_en_US.txt', 'sadf_12.6.1_d.csv'],
      ['sar_12.6.1_d_de_DE.txt', 'sadf_12.6.1_d_de_DE.csv'],
      ['sar_12.0.6_d.txt', 'sadf_12.0.6_d.csv'],
      ['sar_11.4.11_d.txt', 'sadf_11.4.11_d.csv'],
      ['sar_12.6.1_d_midnight.txt', 'sadf_12.6.1_d_midnight.csv'],
    ];
    for (const [sar, sadf] of pairs) {
      const a = load(sar!);
      const b = load(sadf!);
      // sar prints local times (this machine: UTC) without an offset, sadf UTC with one.
      expect(a.timeMs, sar).toEqual(b.timeMs);
      expect(a.readIops).toEqual(b.readIops);
      expect(a.writeBytesPerSec).toEqual(b.writeBytesPerSec);
      expect(a.quality.naiveTimesAs).toBe('UTC');
      expect(b.quality.naiveTimesAs).toBeNull();
    }
  });

  it('sar across midnight: the clock wraps to 00:00 and the day moves on, one point per second', () => {
    const s = load('sar_12.6.1_d_midnight.txt');
    expect(new Date(s.timeMs[0]!).toISOString()).toBe('2026-11-24T23:59:30.000Z');
    expect(new Date(s.timeMs.at(-1)!).toISOString()).toBe('2026-11-25T00:00:28.000Z');
    expect(s.quality.gaps).toBe(0);
    expect(new Set(s.timeMs.slice(1).map((t, i) => t - s.timeMs[i]!))).toEqual(new Set([1000]));
  });

  it('iostat -t in C, en_US (12-hour clock), de_DE and ISO: the same clock times', () => {
    const times = [
      'iostat_12.6.1_x_t_C.txt',
      'iostat_12.6.1_x_t_en_US.txt',
      'iostat_12.6.1_x_t_de_DE.txt',
    ].map((f) => load(f).timeMs);
    expect(times[1]).toEqual(times[0]);
    expect(times[2]).toEqual(times[0]);
    // Each point is the interval's START: the first report after the since-boot one ended 13:46:01.
    expect(new Date(times[0]![0]!).toISOString()).toBe('2026-11-24T13:46:00.000Z');
    const iso = load('iostat_12.6.1_xd_t_iso.txt');
    expect(iso.quality.naiveTimesAs).toBeNull(); // +0000 in every time
    expect(iso.timeMs[0]).toBe(times[0]![0]);
  });

  it('without -t the interval is asked for, then the points are placed from the banner date with a warning', () => {
    const r = importMetrics(text('iostat_12.6.1_xk_2s_no_t.txt'));
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'choice_required' },
      choices: [{ option: 'periodSec', flag: '--period' }],
    });
    const s = load('iostat_12.6.1_xk_2s_no_t.txt', { periodSec: 2 });
    expect(s.periodSec).toBe(2);
    expect(new Date(s.timeMs[0]!).toISOString()).toBe('2026-11-24T00:00:00.000Z');
    expect(s.warnings.find((w) => w.code === 'times_assumed')?.message).toContain('not clock times');
  });

  it('sar splits tps by bytes and says so; iostat has real r/s and w/s', () => {
    expect(load('sar_12.6.1_d_C.txt').warnings.map((w) => w.code)).toContain('iops_split_by_bytes');
    expect(load('iostat_12.6.1_x_t_C.txt').warnings.map((w) => w.code)).not.toContain('iops_split_by_bytes');
  });
});
