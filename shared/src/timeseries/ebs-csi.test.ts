import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importMetrics } from './import-metrics.ts';
import { parseNvmeAmznStats } from './nvme-amzn.ts';
import { parsePrometheusQueryRange } from './prometheus.ts';
import { IoSeriesSchema } from './series.schema.ts';

const RAW = readFileSync(
  new URL('../../../fixtures/ebs-csi/query_range_counters.json', import.meta.url),
  'utf8',
);
type Result = { metric: Record<string, string>; values: [number, string][] };
const RESULTS: Result[] = JSON.parse(RAW).data.result;
const BUSY = 'vol-0a1b2c3d4e5f60718';
const QUIET = 'vol-0fedcba9876543210';

/** The fixture's raw increase of one series over its two samples (read straight from the JSON). */
function increase(volume: string, name: string, le?: string): number {
  const r = RESULTS.find(
    (x) => x.metric.volume_id === volume && x.metric.__name__ === `aws_ebs_csi_${name}` && x.metric.le === le,
  )!;
  return Number(r.values[1]![1]) - Number(r.values[0]![1]);
}
const SECONDS = RESULTS[0]!.values[1]![0] - RESULTS[0]!.values[0]![0];

/**
 * A percentile recomputed independently: walk the cumulative buckets' increases in `le` order and
 * take the first whose increase reaches ⌈count × q⌉, as µs.
 */
function percentileFromBuckets(volume: string, dir: 'read' | 'write', q: number): number {
  const buckets = RESULTS.filter(
    (x) =>
      x.metric.volume_id === volume &&
      x.metric.__name__ === `aws_ebs_csi_${dir}_io_latency_seconds_bucket` &&
      x.metric.le !== '+Inf',
  )
    .map((x) => ({
      le: Number(x.metric.le),
      inc: increase(volume, `${dir}_io_latency_seconds_bucket`, x.metric.le),
    }))
    .sort((a, b) => a.le - b.le);
  const total = increase(volume, `${dir}_io_latency_seconds_count`);
  const rank = Math.ceil(total * q - 1e-9);
  return Math.round(buckets.find((b) => b.inc >= rank)!.le * 1e6);
}

describe('the EBS CSI driver node plugin’s metrics in a Prometheus query_range answer', () => {
  it('reads the busiest volume: rates, latency percentiles and seconds over the limits', () => {
    const result = parsePrometheusQueryRange(RAW, {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const s = result.value;
    expect(s.format).toBe('prometheus-query-range');
    expect(s.label).toBe(BUSY);
    expect(s.device?.name).toBe(BUSY);
    expect(s.periodSec).toBe(SECONDS);
    expect(s.readIops).toEqual([increase(BUSY, 'read_ops_total') / SECONDS]);
    expect(s.writeIops).toEqual([increase(BUSY, 'write_ops_total') / SECONDS]);
    expect(s.readBytesPerSec).toEqual([increase(BUSY, 'read_bytes_total') / SECONDS]);
    expect(s.writeBytesPerSec).toEqual([increase(BUSY, 'write_bytes_total') / SECONDS]);
    const e = s.ebsNvme!;
    expect(e.readLatencyUs.avg[0]).toBeCloseTo(
      (increase(BUSY, 'read_seconds_total') * 1e6) / increase(BUSY, 'read_ops_total'),
      6,
    );
    for (const [dir, latency] of [
      ['read', e.readLatencyUs],
      ['write', e.writeLatencyUs],
    ] as const) {
      expect(latency.p50).toEqual([percentileFromBuckets(BUSY, dir, 0.5)]);
      expect(latency.p99).toEqual([percentileFromBuckets(BUSY, dir, 0.99)]);
      expect(latency.p999).toEqual([percentileFromBuckets(BUSY, dir, 0.999)]);
    }
    expect(e.exceededSec.volumeIops[0]).toBeCloseTo(increase(BUSY, 'exceeded_iops_seconds_total'), 9);
    expect(e.exceededSec.instanceThroughput[0]).toBeCloseTo(
      increase(BUSY, 'ec2_exceeded_tp_seconds_total'),
      9,
    );
    expect(e.queueLength).toEqual([4]);
    // The collector's own counter is listed as not used.
    expect(s.warnings.map((w) => w.message).join(' ')).toContain('aws_ebs_csi_nvme_collector_scrapes_total');
    expect(IoSeriesSchema.parse(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });

  it('gives the same figures as nvme amzn stats of the same log page (the fixture mirrors fixtures/nvme-amzn)', () => {
    const csi = parsePrometheusQueryRange(RAW, {});
    const nvme = parseNvmeAmznStats(
      readFileSync(new URL('../../../fixtures/nvme-amzn/stats_v3.0-rc1_json.txt', import.meta.url), 'utf8'),
      {},
    );
    if (!csi.ok || !nvme.ok) throw new Error('both fixtures import');
    expect(csi.value.timeMs).toEqual(nvme.value.timeMs);
    expect(csi.value.readIops).toEqual(nvme.value.readIops);
    expect(csi.value.ebsNvme!.readLatencyUs.p99).toEqual(nvme.value.ebsNvme!.readLatencyUs.p99);
    expect(csi.value.ebsNvme!.writeLatencyUs.p999).toEqual(nvme.value.ebsNvme!.writeLatencyUs.p999);
    expect(csi.value.ebsNvme!.readLatencyUs.p99).toEqual([2048]);
  });

  it('reads another volume by --device (its volume_id)', () => {
    const result = importMetrics(RAW, { device: QUIET });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.readIops).toEqual([increase(QUIET, 'read_ops_total') / SECONDS]);
    expect(result.value.ebsNvme!.readLatencyUs.avg[0]).toBeCloseTo(500, 6);
    expect(result.value.ebsNvme!.readLatencyUs.p99).toEqual([percentileFromBuckets(QUIET, 'read', 0.99)]);
    expect(result.value.ebsNvme!.exceededSec.volumeIops).toEqual([0]);
  });

  it('refuses a series without its volume_id label, naming it', () => {
    const json = JSON.parse(RAW);
    delete json.data.result[0].metric.volume_id;
    const result = parsePrometheusQueryRange(JSON.stringify(json), {});
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('missing_label');
    expect(result.error.path).toBe('data.result.0.metric');
  });

  it('leaves out an interval whose counter went down, with a warning', () => {
    const json = JSON.parse(RAW);
    for (const r of json.data.result as Result[])
      r.values.push([
        r.values[1]![0] + 60,
        r.metric.__name__ === 'aws_ebs_csi_read_ops_total' ? '5' : r.values[1]![1],
      ]);
    const result = parsePrometheusQueryRange(JSON.stringify(json), { device: BUSY });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.warnings.map((w) => w.code)).toContain('counter_reset');
    // The second interval has no read operations measured, and writes were idle.
    expect(result.value.readIops.at(-1)).toBeNull();
    expect(result.value.writeIops.at(-1)).toBe(0);
  });
});
