import { describe, expect, it } from 'vitest';
import {
  averageBlockSize,
  parseCountText,
  formatDecimal,
  formatInt,
  formatUsd,
  bytesPerSec,
  iops,
  mbps,
  mbpsToBytesPerSec,
  mbpsToMiBps,
  mibps,
  mibpsToBytesPerSec,
  parseBytes,
  parseGiB,
  parseSeconds,
  isBinaryThroughputUnit,
  parseThroughput,
  parseThroughputAndUnit,
  roundCents,
  THROUGHPUT_UNITS,
} from './units.ts';
import { provisionableGp3ThroughputMiBps } from './aws/volume-types.ts';

describe('instance bandwidth is megabits', () => {
  it.each([
    // Mbps, MB/s, MiB/s — docs/domain.md §1: 4,750 Mbps = 593.75 MB/s = 566.2 MiB/s
    [4750, 593.75, 566.2],
    [5000, 625, 596.0],
    [500, 62.5, 59.6],
  ])('%d Mbps = %d MB/s = %d MiB/s', (m, mb, mib) => {
    expect(mbpsToBytesPerSec(mbps(m)) / 1e6).toBeCloseTo(mb, 6);
    expect(mbpsToMiBps(mbps(m))).toBeCloseTo(mib, 1);
  });
});

describe('parseThroughput', () => {
  it.each([
    ['500MiB/s', 500 * 1048576],
    ['188 MB/s', 188e6],
    ['4750Mbps', 593.75e6],
    ['4750 Mb/s', 593.75e6],
    ['10Gbps', 1.25e9],
    ['1GiB/s', 1073741824],
    ['24000KB/s', 24e6],
    ['100KiB/s', 102400],
    ['125MBps', 125e6],
    ['2048B/s', 2048],
  ])('%s', (text, expected) => {
    expect(parseThroughput(text)).toEqual({ ok: true, value: expected });
  });

  it('needs a default unit for a bare number', () => {
    expect(parseThroughput('500').ok).toBe(false);
    expect(parseThroughput('500', 'MiB/s')).toEqual({ ok: true, value: 500 * 1048576 });
  });

  it.each(['', 'fast', '500 furlongs', '-5MiB/s', '5e3MB/s'])('rejects %j with the expected form', (text) => {
    const r = parseThroughput(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.expected).toMatch(/500MiB\/s/);
  });
});

describe('parseThroughputAndUnit: the unit as written, for rules that depend on it', () => {
  it.each([
    // text, amount, unit, binary (a whole number of them is exact in MiB/s)
    ['125', 125, 'MiB/s', true],
    ['125.5MiB/s', 125.5, 'MiB/s', true],
    ['131072KiB/s', 131072, 'KiB/s', true],
    ['1GiB/s', 1, 'GiB/s', true],
    ['2048B/s', 2048, 'B/s', true],
    ['125MB/s', 125, 'MB/s', false],
    ['125MBps', 125, 'MB/s', false],
    ['1000Mbps', 1000, 'Mbps', false],
    ['1 Gbps', 1, 'Gbps', false],
    ['24000KB/s', 24000, 'KB/s', false],
  ] as const)('%s → %d %s (binary: %s)', (text, amount, unit, binary) => {
    const r = parseThroughputAndUnit(text, 'MiB/s');
    expect(r).toEqual({ ok: true, value: { amount, unit, bytesPerSec: amount * THROUGHPUT_UNITS[unit] } });
    expect(isBinaryThroughputUnit(unit)).toBe(binary);
  });
});

describe('gp3 throughput is provisioned in whole MiB/s, rounded up', () => {
  it.each([
    [125, 125],
    [125.2, 126],
    [119.20928955078125, 120], // 125 MB/s
    [2000, 2000],
  ])('%d MiB/s → %d', (miBps, whole) => {
    expect(provisionableGp3ThroughputMiBps(miBps)).toBe(whole);
  });
});

describe('sizes and durations', () => {
  it.each([
    ['4k', 4096],
    ['4KiB', 4096],
    ['64 KB', 64000],
    ['1m', 1048576],
    ['4096', 4096],
  ])('parseBytes(%s)', (text, expected) => expect(parseBytes(text)).toEqual({ ok: true, value: expected }));

  it.each([
    ['1000', 1000],
    ['1TiB', 1024],
    ['500GiB', 500],
    ['2t', 2048],
  ])('parseGiB(%s)', (text, expected) => expect(parseGiB(text)).toEqual({ ok: true, value: expected }));

  it.each([
    ['900', 900],
    ['900s', 900],
    ['15m', 900],
    ['1h', 3600],
    ['1500ms', 1.5],
  ])('parseSeconds(%s)', (text, expected) =>
    expect(parseSeconds(text)).toEqual({ ok: true, value: expected }),
  );
});

describe('averageBlockSize', () => {
  it('is bytes/s ÷ IOPS (8,000 IOPS at 500 MiB/s → 64 KiB)', () => {
    expect(averageBlockSize(bytesPerSec(500 * 1048576), iops(8000))).toBe(65536);
  });
  it('is null without I/O, never a division by zero', () => {
    expect(averageBlockSize(bytesPerSec(0), iops(0))).toBeNull();
  });
  it('takes bytes/s and IOPS only: MiB/s or a bare number does not compile', () => {
    // @ts-expect-error MiB/s is not bytes/s: convert with mibpsToBytesPerSec first.
    averageBlockSize(mibps(500), iops(8000));
    // @ts-expect-error a bare number carries no unit.
    averageBlockSize(500 * 1048576, 8000);
    expect(averageBlockSize(mibpsToBytesPerSec(mibps(500)), iops(8000))).toBe(65536);
  });
  it.each([
    // bytes/s, IOPS → average block size: IOPS without bytes (a damaged or floored report) has none
    [0, 1200, null],
    [4096 * 1000, 0, null],
    [4096 * 1000, 1000, 4096],
    [12 * 1024, 3.154, (12 * 1024) / 3.154],
  ])('%d B/s at %d IOPS → %s', (rate, ops, size) => {
    expect(averageBlockSize(bytesPerSec(rate), iops(ops))).toBe(size);
  });
});

describe('roundCents', () => {
  it.each([
    [137.5, 137.5],
    [0.1 + 0.2, 0.3],
    [1.005, 1.01],
    [577.4999999, 577.5],
  ])('%d → %d', (v, expected) => expect(roundCents(v)).toBe(expected));
});

describe('number formatting (en-US, as every explanation writes numbers)', () => {
  it.each([
    [0, '0'],
    [-0.4, '0'],
    [999, '999'],
    [1000, '1,000'],
    [16000.4, '16,000'],
    [80000, '80,000'],
    [1234567.5, '1,234,568'],
    [-1234.6, '-1,235'],
    [2 ** 60, '1,152,921,504,606,847,000'],
  ])('formatInt(%d) → %s, like Math.round(v).toLocaleString("en-US")', (v, expected) => {
    expect(formatInt(v)).toBe(expected);
    if (Math.round(v) !== 0) expect(formatInt(v)).toBe(Math.round(v).toLocaleString('en-US'));
  });
  it.each([
    [1234.56, 1, '1,234.6'],
    [0.25, 3, '0.25'],
    [593.75, 1, '593.8'],
    [4, 2, '4'],
  ])('formatDecimal(%d, %d) → %s', (v, digits, expected) => {
    expect(formatDecimal(v, digits)).toBe(expected);
  });
  it.each([
    // Halves on the shortest decimal form (toFixed would round 1.005 and 2.675 down), carries into
    // the integer part, negative zero, exponent forms and non-finite values.
    [1.005, 2, 0],
    [2.675, 2, 0],
    [999.995, 2, 0],
    [9_999.9999, 3, 1],
    [-2.5, 0, 0],
    [-0.001, 2, 0],
    [-0, 1, 0],
    [0.045, 1, 1],
    [1_234_567.891, 2, 2],
    [123_456_789_012_345.67, 1, 0],
    [1e21, 2, 0],
    [5e-7, 6, 0],
    [Number.NaN, 1, 0],
    [Number.POSITIVE_INFINITY, 1, 0],
  ])('formatDecimal(%d, %d, %d) is the text Intl en-US gives', (v, max, min) => {
    const intl = new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max });
    expect(formatDecimal(v, max, min)).toBe(intl.format(v));
  });
  it.each([
    0, 0.5, 1, 1.005, 12.345, 12_345.675, 0.995, 99.999, 80, 145.12, 1385, 2_310, 12_345.678, 1_234_567.891,
    -3.5, -0.004, 1e-7, 4.2e15,
  ])('formatUsd(%d) is the text Intl en-US gives with two decimals', (v) => {
    const intl = v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    expect(formatUsd(v)).toBe(`$${intl}`);
  });

  it('formatUsd always shows cents', () => {
    expect(formatUsd(1385)).toBe('$1,385.00');
    expect(formatUsd(0.5)).toBe('$0.50');
  });
});

describe('parseCountText: counts as dashboards print them', () => {
  it.each([
    ['12000', 12000],
    ['12,000', 12000],
    [' 12 000 ', 12000],
    ['1_000', 1000],
    ['3.5', 3.5],
    ['.5', 0.5],
    ['10k', 10000],
    ['10K', 10000],
    ['1.5M', 1500000],
    ['1.1k', 1100],
    ['16 k', 16000],
    ['0', 0],
  ])('%j → %d', (text, n) => expect(parseCountText(text)).toEqual({ ok: true, value: n }));

  it.each([['-5'], ['−5'], ['-10k']])('%j is refused as negative', (text) =>
    expect(parseCountText(text)).toMatchObject({ ok: false, reason: 'negative' }),
  );

  it.each(['', 'abc', '12x', '1e3', '1.2.3', 'NaN', 'Infinity', '10kk', 'k'])('%j is not a number', (text) =>
    expect(parseCountText(text)).toMatchObject({ ok: false, reason: 'not_a_number' }),
  );
});
