import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoProfileSchema } from '../profile/io-profile.schema.ts';
import { profileFromSysbench, histogramPercentile } from './from-sysbench.ts';
import { parseSysbench } from './parse-sysbench.ts';
import { SysbenchFileioSchema, type SysbenchFileio } from './sysbench-result.schema.ts';

const FIXTURES = new URL('../../../fixtures/sysbench/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const MiB = 1024 * 1024;

function parsed(name: string): SysbenchFileio {
  const r = parseSysbench(fixture(name));
  if (!r.ok) throw new Error(`${name}: ${r.error.code} ${r.error.message}`);
  return r.value;
}

/**
 * The numbers each real sysbench 1.0.20 output prints (copied from the files by hand). The tests
 * check the parser reads them and that they agree with each other: reads/s × block size = the
 * printed MiB/s within its 0.01 rounding, and events ≈ (reads + writes + fsyncs)/s × total time
 * (sysbench 1.0 counts each fsync call as an event).
 */
type V1Row = [
  file: string,
  mode: string,
  threads: number,
  blockKiB: number,
  direct: boolean,
  readsPerSec: number,
  writesPerSec: number,
  fsyncsPerSec: number,
  readMiBps: number,
  writtenMiBps: number,
  totalSec: number,
  events: number,
  percentileRank: number,
  percentileMs: number,
];
const V1_TABLE: V1Row[] = [
  // file, mode, threads, block KiB, direct, reads/s, writes/s, fsyncs/s, read MiB/s, written MiB/s, total s, events, pct rank, pct ms
  [
    'a_rndrw_16k_fsync100.txt',
    'rndrw',
    1,
    16,
    false,
    6390.7,
    4260.47,
    13640.64,
    99.85,
    66.57,
    5.0388,
    122344,
    95,
    0.1,
  ],
  [
    'b_seqwr_16k_default.txt',
    'seqwr',
    1,
    16,
    false,
    0,
    9040.91,
    11589.12,
    0,
    141.26,
    5.0081,
    103240,
    95,
    0.07,
  ],
  [
    'c_rndrd_16k_direct_2threads.txt',
    'rndrd',
    2,
    16,
    true,
    19056.1,
    0,
    0,
    297.75,
    0,
    5.0025,
    95370,
    95,
    0.15,
  ],
  [
    'd_rndwr_4k_direct_nofsync.txt',
    'rndwr',
    1,
    4,
    true,
    0,
    17655.15,
    25.2,
    0,
    68.97,
    5.0775,
    89683,
    95,
    0.08,
  ],
  ['e_seqrd_1m.txt', 'seqrd', 1, 1024, false, 4740.51, 0, 0, 4740.51, 0, 5.0002, 23714, 95, 0.23],
  [
    'f_rndrw_8k_async_direct_ratio2.txt',
    'rndrw',
    1,
    8,
    true,
    28839.37,
    14408.71,
    25.53,
    225.31,
    112.57,
    5.0106,
    216800,
    95,
    0.01,
  ],
  [
    'g_rndrw_16k_fsync_all_fdatasync.txt',
    'rndrw',
    1,
    16,
    false,
    6746.61,
    4497.87,
    4497.87,
    105.42,
    70.28,
    5.0001,
    56249,
    95,
    0.22,
  ],
  [
    'h_rndrw_16k_report_interval_p99.txt',
    'rndrw',
    2,
    16,
    true,
    6949.25,
    4632.83,
    14869.52,
    108.58,
    72.39,
    5.0143,
    132435,
    99,
    0.19,
  ],
  [
    'i_rndrw_16k_legacy_options.txt',
    'rndrw',
    2,
    16,
    true,
    11612.45,
    7741.83,
    51.06,
    181.44,
    120.97,
    5.0111,
    97031,
    95,
    0.16,
  ],
  [
    'j_rndwr_16k_events20000.txt',
    'rndwr',
    1,
    16,
    true,
    0,
    6166.4,
    7937.84,
    0,
    96.35,
    1.4248,
    20000,
    95,
    0.12,
  ],
  [
    'k_rndrd_64k_direct_histogram.txt',
    'rndrd',
    1,
    64,
    true,
    6929.77,
    0,
    0,
    433.11,
    0,
    5.0029,
    34684,
    95,
    0.22,
  ],
];

describe('parseSysbench: real sysbench 1.0.20 outputs (fixtures/sysbench)', () => {
  it.each(V1_TABLE)(
    '%s',
    (file, mode, threads, blockKiB, direct, r, w, f, readMiBps, writtenMiBps, time, events, rank, pctMs) => {
      const run = parsed(file);
      expect(run).toMatchObject({
        version: '1.0.20',
        format: '1.0',
        testMode: mode,
        threads,
        blockSizeBytes: blockKiB * 1024,
        totalTimeSec: time,
        totalEvents: events,
        fileCount: 128,
        totalFileSizeBytes: 256 * MiB,
        latency: { percentile: { rank, valueMs: pctMs } },
      });
      expect(run.openFlags?.direct).toBe(direct);
      expect(run.reads.perSec).toBe(r);
      expect(run.writes.perSec).toBe(w);
      expect(run.fsyncs.perSec).toBe(f);
      // ops/s × block size agrees with the printed MiB/s to its last printed digit…
      expect(Math.abs(run.reads.bytesPerSec / MiB - readMiBps)).toBeLessThanOrEqual(0.005 + 1e-9);
      expect(Math.abs(run.writes.bytesPerSec / MiB - writtenMiBps)).toBeLessThanOrEqual(0.005 + 1e-9);
      // …and is the exact product, not the rounded print.
      expect(run.reads.bytesFrom).toBe('ops-times-block-size');
      expect(run.reads.bytesPerSec).toBeCloseTo(r * blockKiB * 1024, 3);
      // Events are reads + writes + fsyncs over the run (within 1%: sysbench's clock starts per
      // thread) — except with --file-fsync-all (g), where the fsync is part of each write's event:
      // (6,746.61 + 4,497.87) × 5.0001 s = 56,224 ≈ 56,249 events.
      const eventsPerSec = r + w + (run.fsync.afterEachWrite ? 0 : f);
      expect((eventsPerSec * time) / events).toBeGreaterThan(0.99);
      expect((eventsPerSec * time) / events).toBeLessThan(1.01);
      expect(run.warnings).toEqual([]);
      expect(SysbenchFileioSchema.parse(run)).toEqual(run);
    },
  );

  it('a: header facts — periodic fsync every 100 requests, time-based, 1.5 reads per write', () => {
    const run = parsed('a_rndrw_16k_fsync100.txt');
    expect(run).toMatchObject({
      ioMode: 'sync',
      requestLimit: 0,
      readWriteRatio: 1.5,
      timeLimited: true,
      fsync: { everyRequests: 100, afterEachWrite: false, atEnd: true },
      openFlags: { raw: '(none)', direct: false, syncWrites: false },
      latency: { minMs: 0, avgMs: 0.04, maxMs: 6.51, sumMs: 4925.1 },
    });
    // 6390.70 / 4260.47 = 1.50: the mix --file-rw-ratio asked for.
    expect(run.reads.perSec / run.writes.perSec).toBeCloseTo(1.5, 2);
  });

  it('j: --events=20000 ended the run (events = the limit), so it is not time-limited', () => {
    expect(parsed('j_rndwr_16k_events20000.txt')).toMatchObject({ requestLimit: 20000, timeLimited: false });
  });

  it('b/e: sequential modes print no request count and no r/w ratio', () => {
    expect(parsed('b_seqwr_16k_default.txt')).toMatchObject({
      requestLimit: null,
      readWriteRatio: null,
      timeLimited: null,
    });
  });

  it('h: --report-interval lines are kept per second; --percentile=99 is read as the 99th', () => {
    const run = parsed('h_rndrw_16k_report_interval_p99.txt');
    expect(run.reportIntervalSec).toBe(1);
    expect(run.intervals).toHaveLength(5);
    expect(run.intervals[0]).toEqual({
      atSec: 1,
      readMiBps: 118,
      writeMiBps: 78.66,
      fsyncsPerSec: 16089.66,
      latencyMs: 0.176,
    });
    expect(run.intervals[4]!.atSec).toBe(5);
  });

  it('i: deprecation warnings before the banner (0.4-era --test/--max-time spelling) do not matter', () => {
    expect(parsed('i_rndrw_16k_legacy_options.txt')).toMatchObject({ version: '1.0.20', threads: 2 });
  });

  it('k: --histogram bins are read completely (they add up to the event count)', () => {
    const run = parsed('k_rndrd_64k_direct_histogram.txt');
    expect(run.histogram).not.toBeNull();
    expect(run.histogram!.reduce((s, b) => s + b.count, 0)).toBe(34684);
    expect(run.histogram![0]).toEqual({ valueMs: 0.081, count: 2 });
    expect(run.histogram!.at(-1)).toEqual({ valueMs: 6.205, count: 1 });
  });
});

describe('parseSysbench: the 0.4 format (reconstructed, fixtures/sysbench/v0.4)', () => {
  const run = parsed('v0.4/seed001_m1large_piops_rndrw_16k_reconstructed.txt');

  it('reads the counts and derives rates over "total time"', () => {
    expect(run).toMatchObject({
      version: '0.4.12',
      format: '0.4',
      testMode: 'rndrw',
      threads: 16,
      fileCount: 16,
      totalFileSizeBytes: 32 * 1024 * MiB,
      blockSizeBytes: 16 * 1024,
      requestLimit: 10_000_000,
      timeLimited: true,
      openFlags: { raw: '16384', direct: true, syncWrites: false },
      fsync: { everyRequests: null, afterEachWrite: false, atEnd: true },
      totalTimeSec: 300.0213,
      totalEvents: 1_020_072,
      warnings: [],
    });
    expect(run.reads.count).toBe(612_043);
    expect(run.writes.count).toBe(408_029);
    expect(run.fsyncs.count).toBe(16);
    // By hand: 612,043 / 300.0213 s = 2,039.998 reads/s; 408,029 / 300.0213 = 1,360.000 writes/s.
    expect(run.reads.perSec).toBeCloseTo(2039.998, 3);
    expect(run.writes.perSec).toBeCloseTo(1360.0, 3);
    // "3400.00 Requests/sec executed" is reads + writes (not "Other") per second.
    expect(run.reads.perSec + run.writes.perSec).toBeCloseTo(3400.0, 2);
    // Events are reads + writes in 0.4 (fsyncs are "Other" and not events).
    expect(run.totalEvents).toBe(612_043 + 408_029);
  });

  it('"Mb" means MiB: 612,043 × 16 KiB = 9,563.17 MiB = "9.339Gb"; the total 53.125 "Mb/sec" is MiB/s', () => {
    expect((612_043 * 16) / 1024 / 1024).toBeCloseTo(9.339, 3);
    expect(run.reads.bytesPerSec).toBeCloseTo((612_043 * 16384) / 300.0213, 3);
    expect((run.reads.bytesPerSec + run.writes.bytesPerSec) / MiB).toBeCloseTo(53.125, 3);
    // 53.125 MiB/s = 55.7 MB/s: the m1.large's 500 Mbps (62.5 MB/s) cap at 89%, as [piops-2012] (docs/domain.md sources) reports.
    expect((run.reads.bytesPerSec + run.writes.bytesPerSec) / 1e6).toBeCloseTo(55.7, 1);
  });

  it('per-request statistics are ms; "total time taken by event execution" is seconds', () => {
    expect(run.latency).toMatchObject({
      minMs: 0.41,
      avgMs: 4.7,
      maxMs: 212.37,
      percentile: { rank: 95, valueMs: 9.86 },
    });
    expect(run.latency.sumMs).toBeCloseTo(4_794_338.4, 3);
    // Little's law check: 16 threads ÷ 3,400 req/s = 4.7 ms per request, the printed avg.
    expect(16 / 3400).toBeCloseTo(run.latency.avgMs! / 1000, 4);
  });

  it('reads the 0.5 variant of the same lines ("reads", "response time:", seconds with "s")', () => {
    const text = fixture('v0.4/seed001_m1large_piops_rndrw_16k_reconstructed.txt')
      .replace('612043 Read, 408029 Write, 16 Other', '612043 reads, 408029 writes, 16 Other')
      .replace('per-request statistics:', 'response time:')
      .replace('4794.3384', '4794.3384s')
      .replace('sysbench 0.4.12', 'sysbench 0.5');
    const r = parseSysbench(text);
    expect(r.ok && r.value).toMatchObject({ version: '0.5', reads: { count: 612_043 } });
    expect(r.ok && r.value.latency.sumMs).toBeCloseTo(4_794_338.4, 3);
  });
});

describe('parseSysbench: robustness and errors', () => {
  const a = fixture('a_rndrw_16k_fsync100.txt');

  it('output pasted indented or quoted ("> ") parses to the same numbers', () => {
    const quoted = a
      .split('\n')
      .map((l) => `>     ${l}`)
      .join('\r\n');
    const r = parseSysbench(quoted);
    expect(r.ok && r.value.reads).toEqual(parsed('a_rndrw_16k_fsync100.txt').reads);
  });

  it('UTF-16LE bytes with a BOM (PowerShell `>`) parse like the UTF-8 text', () => {
    const bytes = new Uint8Array(2 + a.length * 2);
    bytes[0] = 0xff;
    bytes[1] = 0xfe;
    for (let i = 0; i < a.length; i++) bytes[2 + i * 2] = a.charCodeAt(i);
    const r = parseSysbench(bytes);
    expect(r.ok && r.value.writes.perSec).toBe(4260.47);
  });

  it.each([
    ['', 'empty_input'],
    ['   \n\n', 'empty_input'],
    ['hello world\n', 'not_sysbench'],
    ['sysbench 1.0.20\n\nCPU speed:\n    events per second:  1234.56\n', 'not_fileio'],
    [
      'Throughput:\n         read:  IOPS=0.00 0.00 MiB/s (0.00 MB/s)\n         write: IOPS=31961.19 499.39 MiB/s\n',
      'unsupported_format',
    ],
  ])('%j → %s', (text, code) => {
    const r = parseSysbench(text);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe(code);
  });

  it('the output of `prepare` is recognized and rejected with a hint', () => {
    const r = parseSysbench(fixture('prepare_256M.txt'));
    expect(!r.ok && r.error).toMatchObject({ code: 'not_a_run' });
    expect(!r.ok && r.error.message).toMatch(/run/);
  });

  it('a damaged number names its line', () => {
    const r = parseSysbench(
      a.replace('writes/s:                     4260.47', 'writes/s:                     4,260.47'),
    );
    expect(!r.ok && r.error).toEqual({
      code: 'bad_number',
      message: 'line 25: expected a number after "writes/s:", got "4,260.47"',
      path: 'line 25',
    });
  });

  it('output cut before "total time" is incomplete, not zero', () => {
    const r = parseSysbench(a.slice(0, a.indexOf('General statistics')));
    expect(!r.ok && r.error.code).toBe('missing_field');
  });

  it('0.4: a malformed "Operations performed" line names its line', () => {
    const text = fixture('v0.4/seed001_m1large_piops_rndrw_16k_reconstructed.txt').replace(
      '612043 Read, 408029 Write',
      '612043 Read; 408029 Write',
    );
    const r = parseSysbench(text);
    expect(!r.ok && r.error).toMatchObject({ code: 'bad_line', path: 'line 22' });
  });

  it('0.4: numeric open flags other than O_DIRECT/O_SYNC are reported as unknown, not guessed', () => {
    const text = fixture('v0.4/seed001_m1large_piops_rndrw_16k_reconstructed.txt').replace(
      'Extra file open flags: 16384',
      'Extra file open flags: 3',
    );
    const r = parseSysbench(text);
    expect(r.ok && r.value.openFlags).toEqual({ raw: '3', direct: null, syncWrites: null });
    expect(r.ok && r.value.warnings.map((w) => w.code)).toEqual(['unknown_open_flags']);
  });

  it('a throughput that disagrees with ops × block size (merged requests) is taken as printed, with a warning', () => {
    const r = parseSysbench(
      a.replace('read, MiB/s:                  99.85', 'read, MiB/s:                  120.00'),
    );
    expect(r.ok && r.value.reads).toMatchObject({ bytesPerSec: 120 * MiB, bytesFrom: 'printed-throughput' });
    expect(r.ok && r.value.warnings.map((w) => w.code)).toEqual(['block_size_mismatch']);
  });

  const FILES = [...V1_TABLE.map((row) => row[0]), 'v0.4/seed001_m1large_piops_rndrw_16k_reconstructed.txt'];
  const mutation = fc.oneof(
    // delete a slice
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.nat({ max: 200 }) }),
    // overwrite a slice with arbitrary text
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.string({ maxLength: 30 }) }),
    // swap two lines
    fc.record({ kind: fc.constant('swap' as const), i: fc.nat(), j: fc.nat() }),
  );
  function mutate(
    text: string,
    ms: { kind: string; at?: number; len?: number; text?: string; i?: number; j?: number }[],
  ) {
    let t = text;
    for (const m of ms) {
      if (m.kind === 'delete') {
        const at = m.at! % (t.length + 1);
        t = t.slice(0, at) + t.slice(at + m.len!);
      } else if (m.kind === 'insert') {
        const at = m.at! % (t.length + 1);
        t = t.slice(0, at) + m.text! + t.slice(at);
      } else {
        const lines = t.split('\n');
        const i = m.i! % lines.length;
        const j = m.j! % lines.length;
        [lines[i], lines[j]] = [lines[j]!, lines[i]!];
        t = lines.join('\n');
      }
    }
    return t;
  }

  it('never throws on mutated fixtures; whatever it accepts is a valid result with a valid profile', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FILES),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        (file, ms) => {
          const r = parseSysbench(mutate(fixture(file), ms));
          if (!r.ok) {
            expect(typeof r.error.code).toBe('string');
            expect(r.error.message.length).toBeGreaterThan(0);
            return;
          }
          SysbenchFileioSchema.parse(r.value);
          const p = profileFromSysbench(r.value);
          if (p.ok) IoProfileSchema.parse(p.value);
        },
      ),
      { numRuns: 400 },
    );
  }, 60_000);
});

describe('histogramPercentile (nearest rank over bins)', () => {
  it('picks the first bin whose cumulative count reaches ceil(p × total)', () => {
    const bins = [
      { valueMs: 1, count: 50 },
      { valueMs: 2, count: 40 },
      { valueMs: 10, count: 9 },
      { valueMs: 100, count: 1 },
    ];
    expect(histogramPercentile(bins, 50)).toBe(1); // rank 50 → still in the first bin
    expect(histogramPercentile(bins, 50.5)).toBe(2); // rank 51
    expect(histogramPercentile(bins, 99)).toBe(10); // rank 99
    expect(histogramPercentile(bins, 99.9)).toBe(100); // rank 100
    expect(histogramPercentile([], 50)).toBeNull();
  });
});
