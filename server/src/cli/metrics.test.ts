import { describe, expect, it } from 'vitest';
import { IoProfileSchema } from '@blockwise/shared/profile';
import { SysbenchFileioSchema } from '@blockwise/shared/sysbench';
import { runCli } from '../testing/run-cli.ts';

const run = (args: string[]) => runCli(args);

describe('blockwise metrics', () => {
  it('prints the per-direction table, the three sizing profiles and the minutes above a limit', async () => {
    const r = await run([
      'metrics',
      'fixtures/cloudwatch/console_volume_sum_5min.csv',
      '--above-iops',
      '6000',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('vol-0a1b2c3d4e5f60718 — CloudWatch console CSV: 864 points of 5 min');
    // read IOPS: mean, p50, p95 2,000, p99 6,300, max 12,000 at 19 Nov 02:15
    expect(r.stdout).toMatch(/read IOPS\s+1,146\s+911\s+2,000\s+6,300\s+12,000\s+2026-11-19 02:15/);
    expect(r.stdout).toMatch(
      /▶ max: maximum of the points at their own step\s+12,000\s+750\.0\s+64\.0\s+5,000\s+156\.3\s+32\.0/,
    );
    expect(r.stdout).toMatch(/ {2}p99: p99 of the points \(recurring peaks kept\)\s+6,300/);
    expect(r.stdout).toMatch(/2026-11-18\s+35\.0 min {2}OVER BUDGET/);
    expect(r.stdout).toContain('[peaks_not_simultaneous]');
    expect(r.stdout).toContain('Demand (max of the 5-minute points, never averaged up):');
    // (12,000 + 5,000) × 1.25: each quantity at its own peak.
    expect(r.stdout).toContain('target 21,250 IOPS / 1,133 MiB/s (read + write × 1.25)');
  });

  it('the iostat checkpoint (10-s points, a 40-second burst of 10,500 IOPS every 15 min): target ≥ 10,500 × 1.25', async () => {
    const r = await run(['metrics', 'fixtures/demand/iostat_10s_checkpoint_burst.txt', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { target: { iops: number }; demand: { resolutionSec: number } };
    expect(out.demand.resolutionSec).toBe(10);
    expect(out.target.iops).toBe(13_125);
  });

  it('14 days with a nightly 8,200-IOPS batch: --statistic p99 keeps it (and says so); --ignore-recurring does not', async () => {
    const file = 'fixtures/demand/gmd_nightly_batch_14d.json';
    const kept = await run(['metrics', file, '--statistic', 'p99']);
    expect(kept.stdout).toContain('read 4,100 IOPS (recurring peak)');
    expect(kept.stdout).toContain('target 10,250 IOPS');
    expect(kept.stdout).toMatch(
      /\[recurring_peak\] Recurring peak: max 8,200 IOPS at 01:30–01:40 UTC on 14 of 14 days; p99 = 1,3\d\d IOPS ignores it/,
    );
    const ignored = await run(['metrics', file, '--statistic', 'p99', '--ignore-recurring']);
    expect(ignored.stdout).toContain('recurring peaks ignored, as asked');
    expect(ignored.stdout).toContain('[recurring_peak_ignored]');
  });

  it('--json: series facts without the points, summaries, the chosen profile and all three', async () => {
    const r = await run([
      'metrics',
      'fixtures/cloudwatch/console_instance_1min_gaps.csv',
      '--stat',
      'sum',
      '--statistic',
      'p95',
      '--above-bw',
      '1250Mbps',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.series).toMatchObject({
      format: 'cloudwatch-console-csv',
      periodSec: 60,
      points: 1422,
      quality: { gaps: 3, missingPoints: 18 },
    });
    expect(out.series.timeMs).toBeUndefined();
    expect(out.statistic).toBe('p95');
    expect(IoProfileSchema.parse(out.profile)).toEqual(out.profiles.p95);
    expect(out.profiles.max.write.bytesPerSec).toBe(300e6);
    expect(out.minutesAbove[0].days[0]).toMatchObject({
      day: '2026-11-20',
      minutesAbove: 45,
      overBudget: true,
    });
  });

  it('an ambiguous file exits 1 and names the flag that resolves it', async () => {
    const r = await run(['metrics', 'fixtures/cloudwatch/get_metric_data_volume_5min.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[choice_required]');
    expect(r.stderr).toContain('--stat Sum|Average');
    const j = await run(['metrics', 'fixtures/cloudwatch/get_metric_data_volume_5min.json', '--json']);
    expect(JSON.parse(j.stdout)).toMatchObject({
      error: { code: 'choice_required' },
      choices: [{ option: 'statistic' }],
    });
  });

  it('local times read in the zone given', async () => {
    const r = await run([
      'metrics',
      'fixtures/cloudwatch/console_volume_dst_new_york.csv',
      '--timezone',
      'America/New_York',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('2025-11-02 02:00 → 2025-11-02 11:00 UTC');
    expect(r.stdout).toContain('times without an offset read as America/New_York');
  });

  it.each([
    [['metrics'], 'give exactly one FILE'],
    [['metrics', 'a.csv', 'b.csv'], 'give exactly one FILE'],
    [
      ['metrics', 'fixtures/cloudwatch/console_volume_sum_5min.csv', '--statistic', 'p50'],
      '--statistic: expected one of max, p99, p95',
    ],
    [
      ['metrics', 'fixtures/cloudwatch/console_volume_sum_5min.csv', '--stat', 'median'],
      '--stat: expected one of Sum, Average, Maximum, Minimum',
    ],
    [['metrics', 'fixtures/cloudwatch/console_volume_sum_5min.csv', '--above-bw', '100'], '--above-bw'],
    [['metrics', 'fixtures/cloudwatch/nope.csv'], 'cannot read fixtures/cloudwatch/nope.csv: ENOENT'],
  ])('usage errors exit 2: %j', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});

describe('blockwise sysbench', () => {
  it('prints what the run measured and the profile', async () => {
    const r = await run(['sysbench', 'fixtures/sysbench/h_rndrw_16k_report_interval_p99.txt']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'sysbench 1.0.20 fileio rndrw, 16 KiB, 2 threads, sync I/O, O_DIRECT yes, 5.01 s (time-limited)',
    );
    expect(r.stdout).toMatch(/reads\s+6,949\.25 \/s\s+108\.58 MiB\/s/);
    expect(r.stdout).toContain('p99 0.19');
    expect(r.stdout).toContain('[sysbench_periodic_fsync]');
  });

  it('--json gives the parsed run and the profile', async () => {
    const r = await run([
      'sysbench',
      'fixtures/sysbench/v0.4/seed001_m1large_piops_rndrw_16k_reconstructed.txt',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(SysbenchFileioSchema.parse(out.run)).toMatchObject({ format: '0.4', reads: { count: 612043 } });
    expect(IoProfileSchema.parse(out.profile).source).toBe('sysbench');
  });

  it('the output of prepare exits 1 with the reason', async () => {
    const r = await run(['sysbench', 'fixtures/sysbench/prepare_256M.txt']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[not_a_run]');
  });
});

describe('blockwise metrics: nvme amzn stats', () => {
  // Two snapshots 60 s apart (fixtures/nvme-amzn/README.md; the arithmetic: shared nvme-amzn.test.ts).
  it.each(['fixtures/nvme-amzn/stats_v3.0-rc1_json.txt', 'fixtures/nvme-amzn/stats_v2.16_normal.txt'])(
    '%s: rates, latency percentiles and seconds over each limit',
    async (file) => {
      const r = await run(['metrics', file]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('EBS volume — nvme amzn stats: 1 points of 1 min');
      expect(r.stdout).toMatch(
        /2026-11-24 10:00\s+3,000\s+46\.9\s+650\/1,024\/2,048\/4,096\s+1,000\s+62\.5\s+1,200\/2,048\/4,096\/8,192\s+12\.50\s+0\.00\s+0\.00\s+3\.25\s+4/,
      );
      expect(r.stdout).toContain(
        'volume IOPS 12.50 s, volume throughput 0.00 s, instance EBS IOPS 0.00 s, instance EBS throughput 3.25 s',
      );
      expect(r.stdout).toContain('Read latency: mean 650 µs, worst p99 2,048 µs at 2026-11-24 10:00 UTC');
    },
  );

  it('--json carries the summary', async () => {
    const r = await run(['metrics', 'fixtures/nvme-amzn/stats_v3.0-rc1_json.txt', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { ebsNvme: { exceededSec: object; write: { worstP99: object } } };
    expect(out.ebsNvme.exceededSec).toEqual({
      volumeIops: 12.5,
      volumeThroughput: 0,
      instanceIops: 0,
      instanceThroughput: 3.25,
    });
    expect(out.ebsNvme.write.worstP99).toEqual({ us: 4096, timeMs: Date.UTC(2026, 10, 24, 10, 0) });
  });
});

describe('blockwise metrics: the EBS CSI driver in a Prometheus query_range answer', () => {
  // fixtures/ebs-csi mirrors fixtures/nvme-amzn's log page (README there): the same figures.
  it('reads the busiest volume_id with its latency and seconds over the limits, and the measured latency beside each type', async () => {
    const r = await run(['metrics', 'fixtures/ebs-csi/query_range_counters.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('vol-0a1b2c3d4e5f60718 — Prometheus query_range JSON: 1 points of 1 min');
    expect(r.stdout).toContain('the busiest of 2 (vol-0a1b2c3d4e5f60718, vol-0fedcba9876543210)');
    expect(r.stdout).toMatch(
      /2026-11-24 10:00\s+3,000\s+46\.9\s+650\/1,024\/2,048\/4,096\s+1,000\s+62\.5\s+1,200\/2,048\/4,096\/8,192\s+12\.50\s+0\.00\s+0\.00\s+3\.25\s+4/,
    );
    expect(r.stdout).toContain(
      'p99 4.1 ms (writes, the slower direction); worst interval p50 2.0 ms, p99 4.1 ms, p99.9 8.2 ms',
    );
    expect(r.stdout).toContain(
      'gp3 promises single-digit millisecond (1–10 ms average); measured p99 4.1 ms: within the promise',
    );
  });

  it('--device picks another volume_id', async () => {
    const r = await run([
      'metrics',
      'fixtures/ebs-csi/query_range_counters.json',
      '--device',
      'vol-0fedcba9876543210',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      series: { label: string };
      measuredLatency: { ms: number; promises: { type: string; verdict: string }[] };
    };
    expect(out.series.label).toBe('vol-0fedcba9876543210');
    // 60 reads and 600 writes in the minute, all in the 256–512 µs bin: p99 512 µs.
    expect(out.measuredLatency.ms).toBe(0.512);
    expect(out.measuredLatency.promises.find((p) => p.type === 'gp3')?.verdict).toBe('slower-than-today');
    expect(out.measuredLatency.promises.find((p) => p.type === 'io2')?.verdict).toBe('as-today');
  });
});

describe('blockwise metrics: iostat await as the measured latency', () => {
  it('the request-weighted mean await, against each type', async () => {
    const r = await run(['metrics', 'fixtures/metrics/iostat_12.6.1_x_t_C.txt']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Measured latency (iostat -x await (request-weighted mean)): average 0.20 ms');
    expect(r.stdout).toContain(
      '! gp3 promises single-digit millisecond (1–10 ms average); measured average 0.20 ms: slower than today',
    );
  });
});
