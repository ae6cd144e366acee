import { describe, expect, it } from 'vitest';
import { parseCell } from './cells.ts';
import { classifyCloudWatchLabel, classifyDashboardHeader, findPeriod, findStatistic } from './columns.ts';
import { fromDecimalComma, parseCloudWatchCsv } from './csv-exports.ts';
import { readCsv } from './csv.ts';
import { parseTimestamp, parseTimeZone, wallTimeInstants } from './timestamps.ts';

const utc = (s: string) => Date.parse(s);

describe('parseTimestamp', () => {
  it.each([
    ['2026-11-20T14:05:00Z', utc('2026-11-20T14:05:00Z'), 0],
    ['2026-11-20T14:05:00.000Z', utc('2026-11-20T14:05:00Z'), 0],
    ['2026-11-20T14:05:00+01:00', utc('2026-11-20T14:05:00Z'), 60],
    ['2026-11-20T14:05:00+0100', utc('2026-11-20T14:05:00Z'), 60],
    ['2026-11-20T14:05:00-05:00', utc('2026-11-20T14:05:00Z'), -300],
    ['2026-11-20 14:05:00', utc('2026-11-20T14:05:00Z'), null],
    ['2026-11-20 14:05', utc('2026-11-20T14:05:00Z'), null],
    ['2026/11/20 14:05', utc('2026-11-20T14:05:00Z'), null],
    ['2026/11/20 14:05 UTC', utc('2026-11-20T14:05:00Z'), 0],
    ['2026/11/20 14:05 GMT+1', utc('2026-11-20T14:05:00Z'), 60],
    ['  2026-11-20T14:05:30.250Z ', utc('2026-11-20T14:05:30.250Z'), 0],
    ['1795183500', utc('2026-11-20T14:05:00Z'), 0],
    ['1795183500000', utc('2026-11-20T14:05:00Z'), 0],
  ])('%j → wall %d, offset %s', (text, wallMs, offsetMin) => {
    expect(parseTimestamp(text)).toEqual({ wallMs, offsetMin });
  });

  it.each([
    '',
    'yesterday',
    '11/20/2026 14:05',
    '2026-13-01',
    '2026-02-30 10:00',
    '2026-11-20 24:00',
    '2026-11-20T14:05:00+25:00',
    '123',
  ])('refuses %j', (text) => expect(parseTimestamp(text)).toBeNull());
});

describe('time zones', () => {
  it.each([
    ['UTC', { kind: 'fixed', offsetMin: 0, name: 'UTC' }],
    ['+01:00', { kind: 'fixed', offsetMin: 60, name: 'UTC+01:00' }],
    ['UTC-5', { kind: 'fixed', offsetMin: -300, name: 'UTC-05:00' }],
    ['America/New_York', { kind: 'iana', name: 'America/New_York' }],
    ['Europe/Berlin', { kind: 'iana', name: 'Europe/Berlin' }],
    ['Mars/Olympus', null],
    ['local', null],
  ])('%j', (text, zone) => expect(parseTimeZone(text)).toEqual(zone));

  it('New York: 01:30 on 2 Nov 2025 happened twice (EDT then EST), 02:30 on 8 Mar 2026 never', () => {
    expect(wallTimeInstants('America/New_York', utc('2025-11-02T01:30:00Z'))).toEqual([
      utc('2025-11-02T05:30:00Z'),
      utc('2025-11-02T06:30:00Z'),
    ]);
    expect(wallTimeInstants('America/New_York', utc('2026-03-08T02:30:00Z'))).toEqual([]);
    expect(wallTimeInstants('America/New_York', utc('2026-11-20T14:05:00Z'))).toEqual([
      utc('2026-11-20T19:05:00Z'),
    ]);
  });
});

describe('CloudWatch labels', () => {
  it.each([
    [
      'VolumeReadOps',
      {
        metric: 'readOps',
        kind: 'count',
        family: 'volume',
        statistic: null,
        periodSec: null,
        resource: null,
      },
    ],
    [
      'VolumeReadOps vol-0a1b2c3d4e5f60718 (Sum, 5 Minutes)',
      { metric: 'readOps', statistic: 'Sum', periodSec: 300, resource: 'vol-0a1b2c3d4e5f60718' },
    ],
    [
      'i-0123456789abcdef0 EBSWriteBytes',
      { metric: 'writeBytes', family: 'instance-ebs', resource: 'i-0123456789abcdef0' },
    ],
    ['VolumeWriteOps [Sum 300s]', { metric: 'writeOps', statistic: 'Sum', periodSec: 300 }],
    ['VolumeReadBytes Average 1 minute', { metric: 'readBytes', statistic: 'Average', periodSec: 60 }],
    [
      'DiskReadOps (Maximum, PT5M)',
      { metric: 'readOps', family: 'instance-store', statistic: 'Maximum', periodSec: 300 },
    ],
    ['VolumeWriteOpsPerSecond', { metric: 'writeOps', kind: 'rate', unit: 'IOPS' }],
    // A volume id ending in "d" is not a period of days; "min" as a statistic only without a number.
    [
      'vol-0123456789abcde1d VolumeReadOps Minimum',
      { statistic: 'Minimum', periodSec: null, resource: 'vol-0123456789abcde1d' },
    ],
    ['VolumeReadOps 0123456789abcde1d', { periodSec: null }],
    ['VolumeReadOps p99 5 min', { statistic: null, unsupportedStatistic: 'p99', periodSec: 300 }],
  ])('%j', (label, expected) => expect(classifyCloudWatchLabel(label)).toMatchObject(expected));

  it('labels without a CloudWatch I/O metric are not classified', () => {
    expect(classifyCloudWatchLabel('VolumeQueueLength')).toBeNull();
    expect(classifyCloudWatchLabel('Timestamp')).toBeNull();
  });

  it('period and statistic keywords', () => {
    expect(findPeriod('(Sum, 1 Hour)')?.periodSec).toBe(3600);
    expect(findPeriod('Period: 60')?.periodSec).toBe(60);
    expect(findPeriod('no period here')).toBeNull();
    expect(findStatistic('avg').statistic).toBe('Average');
    expect(findStatistic('SampleCount').unsupported).toBe('SampleCount');
  });
});

describe('dashboard headers', () => {
  it.each([
    ['nvme1n1 reads/s', { metric: 'readOps', kind: 'rate', factor: 1 }],
    ['Write IOPS', { metric: 'writeOps' }],
    ['read (B/s)', { metric: 'readBytes', factor: 1 }],
    ['Write throughput (MiB/s)', { metric: 'writeBytes', factor: 1024 * 1024 }],
    ['read MB/s', { metric: 'readBytes', factor: 1e6 }],
    ['written Mbps', { metric: 'writeBytes', factor: 125_000 }],
    ['node_disk_written_bytes_total', { metric: 'writeBytes', factor: 1 }],
    ['node_disk_reads_completed_total', { metric: 'readOps' }],
    ['r/s', { metric: 'readOps' }],
    ['wkB/s', { metric: 'writeBytes', factor: 1024 }],
    ['Read throughput', { metric: 'readBytes', factor: null }],
  ])('%j', (header, expected) => expect(classifyDashboardHeader(header)).toMatchObject(expected));

  it.each(['Time', 'read latency (ms)', 'read/write IOPS', 'IO utilization (%)', 'read rate'])(
    'ignores %j',
    (header) => {
      expect(classifyDashboardHeader(header)).toHaveProperty('ignored');
    },
  );
});

describe('cells', () => {
  it.each([
    ['1234', { kind: 'value', value: 1234, throughputFactor: null }],
    ['1,234.5', { kind: 'value', value: 1234.5, throughputFactor: null }],
    ['2.359296E11', { kind: 'value', value: 2.359296e11, throughputFactor: null }],
    ['', { kind: 'missing' }],
    ['null', { kind: 'missing' }],
    ['NaN', { kind: 'missing' }],
    [' - ', { kind: 'missing' }],
    ['12.5 MiB/s', { kind: 'value', value: 12.5, throughputFactor: 1024 * 1024 }],
    ['100 Mb/s', { kind: 'value', value: 100, throughputFactor: 125_000 }],
    ['850 io/s', { kind: 'value', value: 850, throughputFactor: null }],
    ['2.5 K', { kind: 'value', value: 2500, throughputFactor: null }],
  ])('%j', (text, cell) => expect(parseCell(text)).toEqual(cell));

  it.each(['abc', '12 furlongs', '1.2.3'])('refuses %j', (text) => expect(parseCell(text).kind).toBe('bad'));
});

describe('readCsv', () => {
  it('quoted fields with delimiters, escaped quotes and newlines; CRLF; line numbers of each row', () => {
    const r = readCsv('"a","b, c"\r\n1,"say ""hi"""\r\n2,"two\nlines"\r\n\r\n3,x\r\n', { maxRows: 10 });
    expect(r.ok && r.value).toEqual({
      delimiter: ',',
      header: { line: 1, cells: ['a', 'b, c'] },
      rows: [
        { line: 2, cells: ['1', 'say "hi"'] },
        { line: 3, cells: ['2', 'two\nlines'] },
        { line: 6, cells: ['3', 'x'] },
      ],
    });
  });

  it('Excel "sep=;" and sniffed semicolons/tabs', () => {
    expect(readCsv('sep=;\na;b\n1;2\n', { maxRows: 10 })).toMatchObject({
      ok: true,
      value: {
        delimiter: ';',
        header: { line: 2, cells: ['a', 'b'] },
        rows: [{ line: 3, cells: ['1', '2'] }],
      },
    });
    expect(readCsv('a\tb\n1\t2', { maxRows: 10 })).toMatchObject({ ok: true, value: { delimiter: '\t' } });
  });

  it('an unclosed quote and too many rows are errors with a line', () => {
    expect(readCsv('a,b\n1,"open\n2,3\n', { maxRows: 10 })).toMatchObject({
      ok: false,
      error: { code: 'bad_csv', path: 'line 2' },
    });
    expect(readCsv('a\n1\n2\n3\n', { maxRows: 2 })).toMatchObject({
      ok: false,
      error: { code: 'too_many_points' },
    });
    expect(readCsv('', { maxRows: 2 })).toMatchObject({ ok: false, error: { code: 'empty_input' } });
  });
});

describe('decimal commas in semicolon files', () => {
  it.each([
    ['1234,5', '1234.5'],
    ['1.234,5', '1234.5'],
    ['1,234', '1.234'],
    ['-0,25 MiB/s', '-0.25 MiB/s'],
    ['1,234,567', '1,234,567'],
    ['42', '42'],
    ['', ''],
  ])('%j → %j', (cell, out) => expect(fromDecimalComma(cell)).toBe(out));

  it('a semicolon CloudWatch export with decimal commas reads as numbers', () => {
    const r = parseCloudWatchCsv(
      'Timestamp;VolumeReadOps (Sum 1 min)\n2026-11-20T00:00:00Z;60,0\n2026-11-20T00:01:00Z;1.200,0\n',
    );
    expect(r.ok && r.value.readIops).toEqual([1, 20]);
  });
});
