import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from './import-metrics.ts';
import { diffHistogram, parseNvmeAmznStats } from './nvme-amzn.ts';
import { IoSeriesSchema } from './series.schema.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/nvme-amzn/${name}`, import.meta.url), 'utf8');
const JSON_V3 = fixture('stats_v3.0-rc1_json.txt');
const TEXT_V216 = fixture('stats_v2.16_normal.txt');
/** The same snapshots with v2.16's JSON names for the instance counters. */
const JSON_V216 = JSON_V3.replaceAll(
  '"ec2_instance_performance_exceeded_',
  '"ec2_instance_ebs_performance_exceeded_',
);

/**
 * Expected values recomputed by hand from the fixtures' raw numbers (snapshot 1 at
 * 2026-11-24T10:00:00Z, snapshot 2 at 10:01:00Z, 60 s apart):
 *   read ops   52,520,117 − 52,340,117 = 180,000 → ÷ 60 = 3,000 IOPS
 *   write ops  18,836,402 − 18,776,402 = 60,000 → ÷ 60 = 1,000 IOPS
 *   read bytes 860,489,154,560 − 857,540,034,560 = 2,949,120,000 → ÷ 60 = 49,152,000 B/s
 *              = 49,152,000 ÷ 1,048,576 = 46.875 MiB/s
 *   write bytes 1,234,464,768,000 − 1,230,532,608,000 = 3,932,160,000 → 65,536,000 B/s = 62.5 MiB/s
 *   read time  34,138,076,050 − 34,021,076,050 = 117,000,000 µs ÷ 180,000 ops = 650 µs average
 *   write time 22,603,682,400 − 22,531,682,400 = 72,000,000 µs ÷ 60,000 ops = 1,200 µs average
 *   read histogram differences per bin (upper µs: count): 256: 9,000, 512: 63,000, 1024: 90,000,
 *     2048: 16,200, 4096: 1,620, 8192: 162, 16384: 18 (sum 180,000); cumulative 9,000, 72,000,
 *     162,000, 178,200, 179,820, 179,982, 180,000
 *     p50 rank ⌈180,000 × 0.5⌉ = 90,000 → first reached in the 512–1024 bin → 1,024 µs
 *     p99 rank 178,200 → reached exactly at the 1024–2048 bin → 2,048 µs
 *     p99.9 rank 179,820 → reached exactly at the 2048–4096 bin → 4,096 µs
 *   write histogram differences: 1024: 12,000, 2048: 42,000, 4096: 5,400, 8192: 540, 16384: 54,
 *     32768: 6 (sum 60,000); cumulative 12,000, 54,000, 59,400, 59,940, 59,994, 60,000
 *     p50 rank 30,000 → 2,048 µs; p99 rank 59,400 → 4,096 µs; p99.9 rank 59,940 → 8,192 µs
 *   volume IOPS exceeded 743,900,000 − 731,400,000 = 12,500,000 µs = 12.5 s
 *   volume throughput exceeded 95,750,000 − 95,750,000 = 0 s
 *   instance IOPS exceeded 4,200,000 − 4,200,000 = 0 s
 *   instance throughput exceeded 21,900,000 − 18,650,000 = 3,250,000 µs = 3.25 s
 *   queue length: snapshot 2's, 4
 */
const EXPECTED = {
  timeMs: Date.UTC(2026, 10, 24, 10, 0, 0),
  readIops: 3000,
  writeIops: 1000,
  readMibps: 46.875,
  writeMibps: 62.5,
  readAvgUs: 650,
  writeAvgUs: 1200,
  read: { p50: 1024, p99: 2048, p999: 4096 },
  write: { p50: 2048, p99: 4096, p999: 8192 },
  exceededSec: { volumeIops: 12.5, volumeThroughput: 0, instanceIops: 0, instanceThroughput: 3.25 },
  queueLength: 4,
};

describe('parseNvmeAmznStats: two snapshots 60 s apart make one point', () => {
  it.each([
    ['-o json, nvme-cli v3.0-rc1 names', JSON_V3],
    ['-o json, nvme-cli v2.16 names', JSON_V216],
    ['normal text, nvme-cli v2.16', TEXT_V216],
  ])('%s', (_, text) => {
    const result = parseNvmeAmznStats(text, {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const s = result.value;
    expect(s.format).toBe('nvme-amzn-stats');
    expect(s.periodSec).toBe(60);
    expect(s.timeMs).toEqual([EXPECTED.timeMs]);
    expect(s.readIops).toEqual([EXPECTED.readIops]);
    expect(s.writeIops).toEqual([EXPECTED.writeIops]);
    expect(s.readBytesPerSec[0]! / 1_048_576).toBe(EXPECTED.readMibps);
    expect(s.writeBytesPerSec[0]! / 1_048_576).toBe(EXPECTED.writeMibps);
    expect(s.ebsNvme!.readLatencyUs).toEqual({
      avg: [EXPECTED.readAvgUs],
      p50: [EXPECTED.read.p50],
      p99: [EXPECTED.read.p99],
      p999: [EXPECTED.read.p999],
    });
    expect(s.ebsNvme!.writeLatencyUs).toEqual({
      avg: [EXPECTED.writeAvgUs],
      p50: [EXPECTED.write.p50],
      p99: [EXPECTED.write.p99],
      p999: [EXPECTED.write.p999],
    });
    expect(s.ebsNvme!.exceededSec).toEqual({
      volumeIops: [EXPECTED.exceededSec.volumeIops],
      volumeThroughput: [EXPECTED.exceededSec.volumeThroughput],
      instanceIops: [EXPECTED.exceededSec.instanceIops],
      instanceThroughput: [EXPECTED.exceededSec.instanceThroughput],
    });
    expect(s.ebsNvme!.queueLength).toEqual([EXPECTED.queueLength]);
    // What is stored is parsed back with the schema (and a series without ebsNvme still parses).
    expect(IoSeriesSchema.parse(JSON.parse(JSON.stringify(s)))).toEqual(s);
    const { ebsNvme: _dropped, ...older } = s;
    expect(IoSeriesSchema.safeParse(older).success).toBe(true);
  });

  it('importMetrics sniffs both outputs as nvme amzn stats', () => {
    for (const text of [JSON_V3, TEXT_V216]) {
      const imported = importMetrics(text);
      expect(imported.ok && imported.value.format).toBe('nvme-amzn-stats');
    }
  });

  it('three snapshots make two points, placed at the start of each interval', () => {
    // A third snapshot 60 s later, identical to the second: an idle minute.
    const second = JSON_V3.slice(JSON_V3.indexOf('2026-11-24T10:01:00Z'));
    const text = `${JSON_V3}${second.replace('2026-11-24T10:01:00Z', '2026-11-24T10:02:00Z')}`;
    const result = parseNvmeAmznStats(text, {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.timeMs).toEqual([EXPECTED.timeMs, EXPECTED.timeMs + 60_000]);
    expect(result.value.readIops).toEqual([3000, 0]);
    expect(result.value.ebsNvme!.readLatencyUs.avg).toEqual([650, null]);
    expect(result.value.ebsNvme!.readLatencyUs.p99).toEqual([2048, null]);
    expect(result.value.ebsNvme!.exceededSec.volumeIops).toEqual([12.5, 0]);
  });
});

describe('histogram differences', () => {
  it('a 32-bit bin count that wrapped is subtracted modulo 2^32, as nvme-cli 3.0 does', () => {
    const prev = [{ lowerUs: 0, upperUs: 128, count: 4_294_967_290 }];
    const curr = [{ lowerUs: 0, upperUs: 128, count: 4 }];
    expect(diffHistogram(prev, curr)).toEqual([{ lowerUs: 0, upperUs: 128, count: 10 }]);
    expect(diffHistogram(prev, [{ lowerUs: 0, upperUs: 256, count: 4 }])).toBeNull();
  });
});

describe('bad input is refused with what to do', () => {
  const withoutTimes = JSON_V3.split('\n')
    .filter((l) => !l.startsWith('2026-'))
    .join('\n');
  it.each([
    ['no timestamp lines', withoutTimes, 'missing_timestamp'],
    ['one snapshot', JSON_V3.slice(0, JSON_V3.indexOf('2026-11-24T10:01:00Z')), 'too_few_snapshots'],
    [
      'the --interval polling mode',
      `Polling NVMe stats every 5 sec(s); press Ctrl+C to stop\n\n${withoutTimes}`,
      'unsupported_interval_mode',
    ],
    [
      'snapshots out of order',
      JSON_V3.replace('2026-11-24T10:01:00Z', '2026-11-24T09:59:00Z'),
      'snapshots_out_of_order',
    ],
    ['a missing field', JSON_V3.replace('"total_write_ops":18776402,', ''), 'bad_snapshot'],
    ['a missing text line', TEXT_V216.replace('  Write: 18776402\n', ''), 'bad_snapshot'],
    [
      'an instance store volume',
      TEXT_V216.replaceAll('EC2 Instance EBS Performance', 'EC2 Instance Local Storage Performance'),
      'not_an_ebs_volume',
    ],
  ])('%s', (_, text, code) => {
    expect(parseNvmeAmznStats(text, {})).toMatchObject({ ok: false, error: { code } });
  });

  it('a missing field is named', () => {
    const result = parseNvmeAmznStats(JSON_V3.replace('"total_write_ops":18776402,', ''), {});
    expect(!result.ok && result.error.message).toMatch(/snapshot 1 \(line 1\): total_write_ops/);
  });

  it('counters that went down drop that interval with a warning', () => {
    const reset = JSON_V3.replace('"total_read_ops":52520117', '"total_read_ops":5');
    const text = `${reset}2026-11-24T10:02:00Z\n${reset.slice(reset.indexOf('{', reset.indexOf('10:01:00Z')))}`;
    const result = parseNvmeAmznStats(text, {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.timeMs).toEqual([EXPECTED.timeMs + 60_000]);
    expect(result.value.warnings.map((w) => w.code)).toContain('counter_reset');
  });
});
