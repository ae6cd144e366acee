import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IoProfileSchema } from '../profile/io-profile.schema.ts';
import { parseCloudWatchCsv, parseGrafanaCsv } from './csv-exports.ts';
import { parseGetMetricData } from './get-metric-data.ts';
import { importMetrics } from './import-metrics.ts';
import {
  IoSeriesSchema,
  type IoSeries,
  type SeriesImportOptions,
  type SeriesImportResult,
} from './series.schema.ts';
import { profileFromSeries } from './sizing.ts';
import { summarizeSeries } from './stats.ts';

const FIXTURES = new URL('../../../fixtures/cloudwatch/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');
const utc = (s: string) => Date.parse(s);
const MiB = 1024 * 1024;

function series(r: SeriesImportResult): IoSeries {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return IoSeriesSchema.parse(r.value);
}
const codes = (s: IoSeries) => s.warnings.map((w) => w.code);

describe('CloudWatch console CSV: Sum, 5 minutes, 3 days (console_volume_sum_5min.csv)', () => {
  const s = series(importMetrics(fixture('console_volume_sum_5min.csv')));

  it('reads statistic and period from the labels and converts Sum ÷ 300 s', () => {
    expect(s).toMatchObject({
      format: 'cloudwatch-console-csv',
      label: 'vol-0a1b2c3d4e5f60718',
      periodSec: 300,
      conversion: { statistic: 'Sum', divisorSec: 300 },
      quality: {
        inputPoints: 864,
        gaps: 0,
        missingPoints: 0,
        duplicates: 0,
        reordered: false,
        naiveTimesAs: null,
      },
    });
    expect(s.timeMs).toHaveLength(864);
    expect(s.timeMs[0]).toBe(utc('2026-11-17T00:00:00Z'));
    expect(codes(s)).toEqual([]);
    // Line 2: "2026-11-17T00:00:00Z,115226,93464,1911852600,2309580276"
    expect(s.readIops[0]).toBeCloseTo(115226 / 300, 9);
    expect(s.writeBytesPerSec[0]).toBeCloseTo(2309580276 / 300, 6);
  });

  it('peaks and percentiles by hand: the planted 12,000 read IOPS, the 9th-highest (p99) and 44th-highest (p95) points', () => {
    const sum = summarizeSeries(s);
    // 3,600,000 read operations in the 5 minutes from 19 Nov 02:15 = 12,000 IOPS, of 64 KiB.
    expect(sum.read.iops.max).toBe(12000);
    expect(sum.read.iops.maxAtMs).toBe(utc('2026-11-19T02:15:00Z'));
    expect(sum.read.bytesPerSec.max! / MiB).toBe(750);
    expect(sum.read.blockSize.atIopsPeakBytes).toBe(65536);
    // p99 of 864 points is the 856th smallest = the 9th largest. Above it: 12,000 and the eight
    // batch windows 6,540 6,520 6,500 6,440 6,420 6,400 6,320 (nights 3/2/1, windows 5/4/3): 6,300.
    expect(sum.read.iops.p99).toBe(6300);
    // p95 is the 44th largest: past the 18 batch windows, inside the 144 plateau points of exactly 2,000.
    expect(sum.read.iops.p95).toBe(2000);
    // 18 Nov 14:40: 1,500,000 writes of 32 KiB in 300 s.
    expect(sum.write.iops.max).toBe(5000);
    expect(sum.write.iops.maxAtMs).toBe(utc('2026-11-18T14:40:00Z'));
    expect(sum.write.bytesPerSec.max! / MiB).toBeCloseTo((5000 * 32) / 1024, 9);
    expect(sum.endMs - sum.startMs).toBe(3 * 86_400_000);
  });
});

describe('CloudWatch console CSV: instance EBS* metrics, 1 minute, gaps (console_instance_1min_gaps.csv)', () => {
  it('labels without a statistic: the import asks instead of guessing', () => {
    const r = parseCloudWatchCsv(fixture('console_instance_1min_gaps.csv'));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe('choice_required');
    expect(!r.ok && r.choices).toEqual([
      expect.objectContaining({ option: 'statistic', flag: '--stat', candidates: ['Sum', 'Average'] }),
    ]);
  });

  it('with --stat Sum: period from the 60 s spacing, header "Time (UTC)", 3 gaps of 18 points, one partial row', () => {
    const s = series(parseCloudWatchCsv(fixture('console_instance_1min_gaps.csv'), { statistic: 'Sum' }));
    expect(s).toMatchObject({
      label: 'i-0123456789abcdef0',
      periodSec: 60,
      conversion: { statistic: 'Sum', divisorSec: 60 },
      // 1,440 minutes − 15 (03:10–03:24) − 2 (11:00–11:01) rows = 1,423 rows; 17:30 has no value.
      quality: { inputPoints: 1423, gaps: 3, missingPoints: 18, partialPoints: 1, naiveTimesAs: 'UTC' },
    });
    expect(s.timeMs).toHaveLength(1422);
    expect(codes(s)).toEqual(['gaps']);
    // 18:00 has reads but no writes: kept, with the write values missing (not zero).
    const at1800 = s.timeMs.indexOf(utc('2026-11-20T18:00:00Z'));
    expect(s.writeIops[at1800]).toBeNull();
    expect(s.readIops[at1800]).toBeGreaterThan(0);
    // The 13:00–13:44 burst: 18,000,000,000 bytes per minute = 300 MB/s.
    expect(summarizeSeries(s).write.bytesPerSec).toMatchObject({
      max: 300e6,
      maxAtMs: utc('2026-11-20T13:00:00Z'),
    });
  });

  it('Average of EC2 instance metrics needs the data-point interval (basic 300 s or detailed 60 s)', () => {
    const r = parseCloudWatchCsv(fixture('console_instance_1min_gaps.csv'), { statistic: 'Average' });
    expect(!r.ok && r.choices?.map((c) => c.option)).toEqual(['sourceIntervalSec']);
    const s = series(
      parseCloudWatchCsv(fixture('console_instance_1min_gaps.csv'), {
        statistic: 'Average',
        sourceIntervalSec: 60,
      }),
    );
    expect(s.conversion).toMatchObject({ statistic: 'Average', divisorSec: 60 });
  });
});

describe('daylight saving time (console_volume_dst_new_york.csv: local New York times, 2 Nov 2025)', () => {
  const text = fixture('console_volume_dst_new_york.csv');

  it('with --timezone America/New_York: exact UTC, the two 01:xx hours in order, nothing lost', () => {
    const s = series(parseCloudWatchCsv(text, { timeZone: 'America/New_York' }));
    expect(s.quality).toMatchObject({
      inputPoints: 108,
      gaps: 0,
      duplicates: 0,
      dstRepairs: 0,
      naiveTimesAs: 'America/New_York',
    });
    expect(s.timeMs[0]).toBe(utc('2025-11-02T02:00:00Z')); // 22:00 EDT
    expect(s.timeMs.at(-1)).toBe(utc('2025-11-02T10:55:00Z')); // 05:55 EST
    // 01:30 EDT (05:30Z) carried 1,000 read IOPS, 01:30 EST (06:30Z) 2,000.
    expect(s.readIops[s.timeMs.indexOf(utc('2025-11-02T05:30:00Z'))]).toBe(1000);
    expect(s.readIops[s.timeMs.indexOf(utc('2025-11-02T06:30:00Z'))]).toBe(2000);
    expect(codes(s)).toEqual([]);
  });

  it('without a zone: read as UTC, the repeated hour placed after the first, with a warning naming the line', () => {
    const s = series(parseCloudWatchCsv(text));
    expect(s.quality).toMatchObject({ gaps: 0, duplicates: 0, dstRepairs: 1, naiveTimesAs: 'UTC' });
    expect(s.timeMs).toHaveLength(108);
    expect(codes(s)).toEqual(['dst_fall_back_repaired']);
    expect(s.warnings[0]!.message).toContain('line 50');
    // Same values in the same order as the exact import: only the absolute clock is off (by the 4 h offset).
    const exact = series(parseCloudWatchCsv(text, { timeZone: 'America/New_York' }));
    expect(s.readIops).toEqual(exact.readIops);
    expect(s.timeMs.map((t, i) => exact.timeMs[i]! - t)).toEqual(s.timeMs.map(() => 4 * 3_600_000));
  });

  it('the same file newest-first is repaired the same way', () => {
    const [header, ...rows] = text.trimEnd().split('\n');
    const reversed = [header, ...rows.reverse()].join('\n');
    const s = series(parseCloudWatchCsv(reversed));
    expect(s.quality).toMatchObject({ dstRepairs: 1, duplicates: 0, reordered: true });
    expect(s.readIops).toEqual(series(parseCloudWatchCsv(text)).readIops);
  });

  it('explicit offsets need no zone and no repair', () => {
    const csv = [
      'Timestamp,VolumeReadOps (Sum 5 min)',
      '2025-11-02T01:55:00-04:00,300',
      '2025-11-02T01:00:00-05:00,600',
      '2025-11-02T01:05:00-05:00,900',
    ].join('\n');
    const s = series(parseCloudWatchCsv(csv));
    expect(s.timeMs).toEqual([
      utc('2025-11-02T05:55:00Z'),
      utc('2025-11-02T06:00:00Z'),
      utc('2025-11-02T06:05:00Z'),
    ]);
    expect(s.readIops).toEqual([1, 2, 3]);
    expect(s.quality.dstRepairs).toBe(0);
  });

  it('a spring-forward hour missing from naive times is reported as a gap and a possible DST skip', () => {
    const csv = [
      'Timestamp,VolumeReadOps (Sum 5 min)',
      '2026-03-08 01:50,300',
      '2026-03-08 01:55,300',
      '2026-03-08 03:00,300',
      '2026-03-08 03:05,300',
    ].join('\n');
    const s = series(parseCloudWatchCsv(csv));
    expect(s.quality).toMatchObject({ gaps: 1, missingPoints: 12 });
    expect(codes(s)).toEqual(expect.arrayContaining(['gaps', 'possible_dst_gap']));
  });
});

describe('aws cloudwatch get-metric-data JSON (get_metric_data_volume_5min.json)', () => {
  const json = fixture('get_metric_data_volume_5min.json');

  it('the statistic is not in the output: asked for', () => {
    const r = parseGetMetricData(json);
    expect(!r.ok && r.error.code).toBe('choice_required');
    expect(!r.ok && r.choices?.[0]?.option).toBe('statistic');
  });

  it('with Sum: newest-first timestamps sorted, period from the spacing, results joined by time', () => {
    const s = series(parseGetMetricData(json, { statistic: 'Sum' }));
    expect(s).toMatchObject({
      format: 'cloudwatch-get-metric-data',
      periodSec: 300,
      quality: { inputPoints: 288, reordered: true, gaps: 0, partialPoints: 1, naiveTimesAs: null },
    });
    expect(s.timeMs[0]).toBe(utc('2026-11-20T00:00:00Z'));
    expect(s.timeMs.at(-1)).toBe(utc('2026-11-20T23:55:00Z'));
    // VolumeWriteBytes has no point at 12:00 (CloudWatch leaves out empty periods): missing, not zero.
    const noon = s.timeMs.indexOf(utc('2026-11-20T12:00:00Z'));
    expect(s.writeBytesPerSec[noon]).toBeNull();
    expect(s.writeIops[noon]).not.toBeNull();
    // The peak 09:35 point: 900,000 reads of 8 KiB in 300 s.
    const sum = summarizeSeries(s);
    expect(sum.read.iops).toMatchObject({ max: 3000, maxAtMs: utc('2026-11-20T09:35:00Z') });
    expect(sum.read.blockSize.atIopsPeakBytes).toBe(8192);
    // The first value in the file is the newest point (23:55).
    const raw = JSON.parse(json) as { MetricDataResults: { Values: number[] }[] };
    expect(s.readIops.at(-1)).toBeCloseTo(raw.MetricDataResults[0]!.Values[0]! / 300, 9);
  });

  it('an Id naming the statistic is enough; Average of volume metrics is per 1-minute data point', () => {
    const withSumIds = json.replace(/"Id": "(\w+)"/g, '"Id": "$1_sum"');
    expect(series(parseGetMetricData(withSumIds)).conversion.statistic).toBe('Sum');
    const s = series(parseGetMetricData(json, { statistic: 'Average' }));
    expect(s.conversion).toMatchObject({ statistic: 'Average', divisorSec: 60 });
    expect(codes(s)).toContain('average_per_minute_assumed');
  });

  it.each([
    [
      {
        MetricDataResults: [
          { Id: 'a', Label: 'VolumeReadOps', Timestamps: ['2026-11-20T00:00:00Z'], Values: [] },
        ],
      },
      'bad_get_metric_data',
      'MetricDataResults.0.Values',
    ],
    [
      { MetricDataResults: [{ Id: 'a', Label: 'VolumeReadOps', Timestamps: ['x'], Values: [1] }] },
      'bad_timestamp',
      'MetricDataResults.0.Timestamps.0',
    ],
    [
      {
        MetricDataResults: [
          { Id: 'a', Label: 'VolumeReadOps', Timestamps: ['2026-11-20T00:00:00Z'], Values: [-1] },
        ],
      },
      'bad_value',
      'MetricDataResults.0.Values.0',
    ],
    [
      {
        MetricDataResults: [
          { Id: 'a', Label: 'VolumeReadOps', Timestamps: [], Values: [], StatusCode: 'Forbidden' },
        ],
      },
      'metric_query_failed',
      'MetricDataResults.0.StatusCode',
    ],
    [
      { MetricDataResults: [{ Id: 'a', Label: 'CPUUtilization', Timestamps: [], Values: [] }] },
      'no_io_columns',
      'MetricDataResults',
    ],
    [
      { MetricDataResults: [{ Id: 'a', Timestamps: [1], Values: ['1'] }] },
      'bad_get_metric_data',
      'MetricDataResults.0.Values.0',
    ],
    [{ Label: 'VolumeReadOps', Datapoints: [] }, 'unsupported_format', undefined],
  ])('%j → %s', (doc, code, path) => {
    const r = parseGetMetricData(JSON.stringify(doc), { statistic: 'Sum' });
    expect(!r.ok && r.error).toMatchObject({ code, ...(path ? { path } : {}) });
  });

  it('broken JSON is an error, not an exception', () => {
    expect(parseGetMetricData('{"MetricDataResults": [')).toMatchObject({
      ok: false,
      error: { code: 'bad_json' },
    });
  });
});

describe('Grafana CSV', () => {
  it('node_exporter rates: headers by keyword, latency/utilization ignored, local times read in the given zone', () => {
    const text = fixture('grafana_node_exporter_1min.csv');
    const s = series(parseGrafanaCsv(text, { timeZone: 'Europe/Berlin' }));
    expect(s).toMatchObject({
      format: 'grafana-csv',
      periodSec: 60,
      conversion: { statistic: null, divisorSec: null },
    });
    expect(s.columns.map((c) => [c.metric, c.unit])).toEqual([
      ['readOps', 'IOPS'],
      ['writeOps', 'IOPS'],
      ['readBytes', 'B/s'],
      ['writeBytes', 'B/s'],
    ]);
    expect(codes(s)).toEqual(['columns_ignored']);
    expect(s.timeMs[0]).toBe(utc('2026-11-20T07:00:00Z')); // 08:00 in Berlin
    // The 10:30 Berlin peak: 4,200.5 reads/s of 32 KiB.
    const sum = summarizeSeries(s);
    expect(sum.read.iops).toMatchObject({ max: 4200.5, maxAtMs: utc('2026-11-20T09:30:00Z') });
    expect(sum.read.bytesPerSec.max).toBeCloseTo(4200.5 * 32768, 3);
    // Without a zone the same wall times are read as UTC.
    expect(series(parseGrafanaCsv(text)).timeMs[0]).toBe(utc('2026-11-20T08:00:00Z'));
  });

  it('formatted data: semicolons, "sep=;", epoch ms, units in the cells (io/s, K, MiB/s, Mb/s)', () => {
    const s = series(importMetrics(fixture('grafana_formatted_semicolon.csv')));
    expect(s.format).toBe('grafana-csv');
    expect(s.timeMs[0]).toBe(utc('2026-11-20T12:00:00Z'));
    // Line 3: "900 io/s;400;7.03 MiB/s;52.4 Mb/s".
    expect(s.readIops[0]).toBe(900);
    expect(s.readBytesPerSec[0]).toBeCloseTo(7.03 * MiB, 6);
    expect(s.writeBytesPerSec[0]).toBeCloseTo(52.4e6 / 8, 6);
    // Row 17: "2.5 K;485;40 MiB/s;100 Mb/s".
    expect(s.readIops[17]).toBe(2500);
    expect(s.readBytesPerSec[17]).toBe(40 * MiB);
    expect(s.writeBytesPerSec[17]).toBe(12.5e6);
  });

  it('a throughput column without a unit anywhere is a choice, not an assumption', () => {
    const csv = 'Time,Read IOPS,Read throughput\n2026-11-20T00:00:00Z,100,5\n2026-11-20T00:01:00Z,100,6\n';
    const r = parseGrafanaCsv(csv);
    expect(!r.ok && r.choices?.[0]).toMatchObject({ option: 'throughputUnit', flag: '--throughput-unit' });
    const s = series(parseGrafanaCsv(csv, { throughputUnit: 'MiB/s' }));
    expect(s.readBytesPerSec).toEqual([5 * MiB, 6 * MiB]);
  });

  it('Grafana 6 "Series;Time;Value" long format is refused with the fix', () => {
    const r = parseGrafanaCsv('Series;Time;Value\nread;2026-11-20T00:00:00Z;1\n');
    expect(!r.ok && r.error.code).toBe('long_format');
  });
});

describe('import errors name the line and column', () => {
  const header = 'Timestamp,VolumeReadOps (Sum 5 min),VolumeWriteOps (Sum 5 min)';
  it.each([
    ['', 'empty_input', undefined],
    ['\n\n', 'empty_input', undefined],
    [header, 'no_data_points', 'line 2'],
    [`${header}\nnot a time,1,2`, 'bad_timestamp', 'line 2, column 1 (Timestamp)'],
    [
      `${header}\n2026-11-20T00:00:00Z,1,2\n2026-11-20T00:05:00Z,1,abc`,
      'bad_value',
      'line 3, column 3 (VolumeWriteOps (Sum 5 min))',
    ],
    [`${header}\n2026-11-20T00:00:00Z,-5,2`, 'bad_value', 'line 2, column 2 (VolumeReadOps (Sum 5 min))'],
    ['Timestamp,CPUUtilization\n2026-11-20T00:00:00Z,5', 'no_io_columns', 'line 1'],
    ['Timestamp,VolumeReadOps (p99 5 min)\n2026-11-20T00:00:00Z,5', 'unsupported_statistic', 'column 2'],
    [
      'Timestamp,VolumeReadOps (Sum 5 min),VolumeWriteOps (Average 5 min)\n2026-11-20T00:00:00Z,5,5',
      'mixed_statistics',
      undefined,
    ],
  ])('%j → %s', (text, code, path) => {
    const r = importMetrics(text);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.code).toBe(code);
    if (path !== undefined) expect(!r.ok && r.error.path).toBe(path);
  });

  it('a period in the labels that contradicts the spacing is a choice', () => {
    const csv =
      'Timestamp,VolumeReadOps (Sum 5 min)\n2026-11-20T00:00:00Z,60\n2026-11-20T00:01:00Z,60\n2026-11-20T00:02:00Z,60\n';
    const r = importMetrics(csv);
    expect(!r.ok && r.choices?.[0]).toMatchObject({ option: 'periodSec', candidates: ['300', '60'] });
    expect(series(importMetrics(csv, { periodSec: 60 })).readIops).toEqual([1, 1, 1]);
  });

  it('one point cannot tell its period', () => {
    const r = importMetrics('Timestamp,VolumeReadOps Sum\n2026-11-20T00:00:00Z,600\n');
    expect(!r.ok && r.choices?.map((c) => c.option)).toEqual(['periodSec']);
    expect(
      series(importMetrics('Timestamp,VolumeReadOps Sum\n2026-11-20T00:00:00Z,600\n', { periodSec: 60 }))
        .readIops,
    ).toEqual([10]);
  });

  it('more points than the bound is a clear error (1,000,000 by default)', () => {
    const rows = Array.from(
      { length: 11 },
      (_, i) => `${new Date(utc('2026-11-20T00:00:00Z') + i * 60000).toISOString()},1`,
    );
    const r = importMetrics(`Timestamp,VolumeReadOps Sum\n${rows.join('\n')}`, { maxPoints: 10 });
    expect(!r.ok && r.error.code).toBe('too_many_points');
  });

  it('the default bound: the 1,000,001st row is refused where it stands, before the rest is read', () => {
    const base = utc('2026-01-01T00:00:00Z') / 1000;
    // The bound is on rows read, checked before any row is parsed: identical rows are enough.
    const rows = `${base},60\n`.repeat(1_000_001);
    // After the bound, a quote that is never closed: had the reader gone on, this would be bad_csv.
    const poison = `"never closed,60\n${`${base},60\n`.repeat(1000)}`;
    const r = importMetrics(`Timestamp,VolumeReadOps (Sum 1 min)\n${rows}${poison}`);
    // Line 1 is the header: the reader stopped on line 1,000,002, the first row past the bound.
    expect(!r.ok && r.error).toMatchObject({ code: 'too_many_points', path: 'line 1000002' });
    // The poison is poison: under a bound it does not reach, it is what the reader reports.
    const few = `Timestamp,VolumeReadOps (Sum 1 min)\n${`${base},60\n`.repeat(11)}${poison}`;
    expect(importMetrics(few, { maxPoints: 10 })).toMatchObject({
      error: { code: 'too_many_points', path: 'line 12' },
    });
    expect(importMetrics(few, { maxPoints: 100_000 })).toMatchObject({ error: { code: 'bad_csv' } });
  }, 120_000);
});

describe('duplicates, order, several volumes', () => {
  it('repeated rows: identical dropped quietly, conflicting ones reported; the first is kept', () => {
    const csv = [
      'Timestamp,VolumeReadOps (Sum 1 min)',
      '2026-11-20T00:02:00Z,180',
      '2026-11-20T00:00:00Z,60',
      '2026-11-20T00:01:00Z,120',
      '2026-11-20T00:01:00Z,120',
      '2026-11-20T00:02:00Z,999',
    ].join('\n');
    const s = series(importMetrics(csv));
    expect(s.readIops).toEqual([1, 2, 3]);
    expect(s.quality).toMatchObject({ duplicates: 2, conflictingDuplicates: 1, reordered: true });
    expect(codes(s)).toEqual(['unsorted_input', 'conflicting_duplicates', 'metric_missing']);
  });

  it('two volumes in one graph are added (the instance sees both), or one is kept with match', () => {
    const csv = [
      'Timestamp,vol-0aaaaaaaaaaaaaaaa VolumeReadOps (Sum 1 min),vol-0bbbbbbbbbbbbbbbb VolumeReadOps (Sum 1 min),vol-0aaaaaaaaaaaaaaaa VolumeWriteOps (Sum 1 min)',
      '2026-11-20T00:00:00Z,60,120,6',
      '2026-11-20T00:01:00Z,60,,6',
    ].join('\n');
    const both = series(importMetrics(csv));
    // A sum with one volume missing is unknown, not the other volume alone.
    expect(both.readIops).toEqual([3, null]);
    expect(both.quality.partialPoints).toBe(1);
    expect(codes(both)).toContain('columns_summed');
    const one = series(importMetrics(csv, { match: 'vol-0bbb' }));
    // The write column is vol-0aaa's: not kept, so the second row (no vol-0bbb reads) has no value left.
    expect(one.readIops).toEqual([2]);
    expect(one.label).toBe('vol-0bbbbbbbbbbbbbbbb');
    expect(importMetrics(csv, { match: 'vol-0ccc' })).toMatchObject({
      ok: false,
      error: { code: 'no_match' },
    });
  });

  it('an explicit statistic over the label is applied with a warning', () => {
    const s = series(
      importMetrics('Timestamp,VolumeReadOps (Sum 1 min)\n2026-11-20T00:00:00Z,60\n', {
        statistic: 'Average',
      }),
    );
    expect(s.conversion.statistic).toBe('Average');
    expect(codes(s)).toContain('statistic_overridden');
  });

  it('an unknown time zone is an error naming the flag', () => {
    expect(
      importMetrics(fixture('console_volume_dst_new_york.csv'), { timeZone: 'Mars/Base' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'bad_time_zone', path: '--timezone' },
    });
  });
});

describe('importers never throw on mutated fixtures', () => {
  const FILES = [
    'console_volume_sum_5min.csv',
    'console_instance_1min_gaps.csv',
    'console_volume_dst_new_york.csv',
    'get_metric_data_volume_5min.json',
    'grafana_node_exporter_1min.csv',
    'grafana_formatted_semicolon.csv',
  ];
  // Short versions keep the property fast; mutations hit headers and rows alike.
  const texts = new Map(
    FILES.map((f) => [f, f.endsWith('.json') ? fixture(f) : fixture(f).split('\n').slice(0, 60).join('\n')]),
  );
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.nat({ max: 80 }) }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.nat(),
      text: fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.constantFrom(',', '"', '\n', ';', '-1', 'NaN', '{', ']', '2025-11-02 01:00'),
      ),
    }),
    fc.record({ kind: fc.constant('swap' as const), i: fc.nat(), j: fc.nat() }),
  );
  type M =
    | { kind: 'delete'; at: number; len: number }
    | { kind: 'insert'; at: number; text: string }
    | { kind: 'swap'; i: number; j: number };
  const mutate = (text: string, ms: M[]) =>
    ms.reduce((t, m) => {
      if (m.kind === 'delete') {
        const at = m.at % (t.length + 1);
        return t.slice(0, at) + t.slice(at + m.len);
      }
      if (m.kind === 'insert') {
        const at = m.at % (t.length + 1);
        return t.slice(0, at) + m.text + t.slice(at);
      }
      const lines = t.split('\n');
      const i = m.i % lines.length;
      const j = m.j % lines.length;
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
      return lines.join('\n');
    }, text);
  const options: SeriesImportOptions[] = [
    {},
    { statistic: 'Sum' },
    { statistic: 'Average', sourceIntervalSec: 60, timeZone: 'America/New_York' },
  ];

  it('ok results are valid, sorted, unique series whose profiles validate', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FILES),
        fc.array(mutation, { minLength: 1, maxLength: 5 }),
        fc.constantFrom(...options),
        (file, ms, opts) => {
          const r = importMetrics(mutate(texts.get(file)!, ms as M[]), opts);
          if (!r.ok) {
            expect(r.error.code).toMatch(/^[a-z_]+$/);
            expect(r.error.message.length).toBeGreaterThan(0);
            return;
          }
          const s = IoSeriesSchema.parse(r.value);
          for (let i = 1; i < s.timeMs.length; i++) expect(s.timeMs[i]!).toBeGreaterThan(s.timeMs[i - 1]!);
          const p = profileFromSeries(s);
          if (p.ok) IoProfileSchema.parse(p.value);
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});
