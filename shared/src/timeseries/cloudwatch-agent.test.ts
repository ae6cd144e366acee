import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyCloudWatchLabel } from './columns.ts';
import { importMetrics } from './import-metrics.ts';

const RAW = readFileSync(
  new URL('../../../fixtures/cloudwatch-agent/get_metric_data_diskio_ebs_1min.json', import.meta.url),
  'utf8',
);
type Result = { Id: string; Timestamps: string[]; Values: number[] };
const RESULTS: Result[] = JSON.parse(RAW).MetricDataResults;

/** The raw Sum of one query at one time, divided by the 60-second period: the rate, recomputed. */
function perSecond(id: string, time: string): number {
  const r = RESULTS.find((x) => x.Id === id)!;
  return r.Values[r.Timestamps.indexOf(time)]! / 60;
}

describe('the CloudWatch agent’s diskio_ebs_* metrics through get-metric-data', () => {
  it.each([
    ['diskio_ebs_total_read_ops', 'readOps', 'operations'],
    ['diskio_ebs_total_write_bytes', 'writeBytes', 'bytes'],
    ['vol-0a1b2c3d4e5f60718 diskio_ebs_total_read_bytes (Sum, 1 Minute)', 'readBytes', 'bytes'],
  ])('%s is a count of %s', (label, metric, unit) => {
    expect(classifyCloudWatchLabel(label)).toMatchObject({
      metric,
      unit,
      kind: 'count',
      family: 'cloudwatch-agent',
    });
  });

  it('the time and exceeded counters (ns) are not read as operations', () => {
    expect(classifyCloudWatchLabel('diskio_ebs_total_read_time')).toBeNull();
    expect(classifyCloudWatchLabel('diskio_ebs_volume_performance_exceeded_iops')).toBeNull();
  });

  it('Sum per 60-second period ÷ 60 s = the per-second rate, each point recomputed from the raw JSON', () => {
    const result = importMetrics(RAW, { statistic: 'Sum' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const s = result.value;
    expect(s.format).toBe('cloudwatch-get-metric-data');
    expect(s.periodSec).toBe(60);
    expect(s.conversion.divisorSec).toBe(60);
    const times = s.timeMs.map((t) => new Date(t).toISOString().replace('.000Z', '+00:00'));
    expect(s.readIops).toEqual(times.map((t) => perSecond('r_ops', t)));
    expect(s.writeBytesPerSec).toEqual(times.map((t) => perSecond('w_bytes', t)));
    // 10:02, the minute of fixtures/nvme-amzn: 3,000 read IOPS, 46.875 MiB/s.
    expect(s.readIops[2]).toBe(3000);
    expect(s.readBytesPerSec[2]! / 1_048_576).toBe(46.875);
  });

  it('Average asks for the agent’s collection interval', () => {
    const result = importMetrics(RAW, { statistic: 'Average' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('choice_required');
    expect(result.error.message).toContain('metrics_collection_interval');
    const given = importMetrics(RAW, { statistic: 'Average', sourceIntervalSec: 60 });
    expect(given.ok && given.value.readIops[2]).toBe(3000);
  });
});
