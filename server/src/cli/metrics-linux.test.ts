import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IoProfileSchema } from '@blockwise/shared/profile';
import { REPO_ROOT, runCli } from '../testing/run-cli.ts';

/**
 * `blockwise metrics` on the real iostat / sar / sadf / Prometheus captures and the hand-written
 * Datadog files (fixtures/metrics/README.md). The max profile printed is checked against the
 * maximum of the raw columns computed here (points at their own step, never averaged up).
 */

const run = (args: string[]) => runCli(args);
const fixture = (name: string) => readFileSync(`${REPO_ROOT}fixtures/metrics/${name}`, 'utf8');

/** Largest r/s and w/s of vda over an iostat capture, the first (since boot) report left out. */
function iostatPeaks(name: string): { reads: number; writes: number } {
  let header: string[] = [];
  let reports = 0;
  const r: number[] = [];
  const w: number[] = [];
  for (const line of fixture(name).split('\n')) {
    if (line.startsWith('Device')) {
      header = line.trim().split(/\s+/);
      reports += 1;
    } else if (line.startsWith('vda ') && reports > 1) {
      const cells = line.trim().split(/\s+/);
      r.push(Number(cells[header.indexOf('r/s')]!.replace(',', '.')));
      w.push(Number(cells[header.indexOf('w/s')]!.replace(',', '.')));
    }
  }
  return { reads: Math.max(...r), writes: Math.max(...w) };
}

const n0 = (v: number) => Math.round(v).toLocaleString('en-US');

describe('blockwise metrics: iostat, sar, sadf, Prometheus, Datadog', () => {
  it('iostat -x: the device, the request-size check, the queue with Little’s law, the profile', async () => {
    const r = await run(['metrics', 'fixtures/metrics/iostat_12.6.1_x_t_C.txt']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      'vda (vm) — iostat -x: 79 points of 1 s, 2026-11-24 13:46 → 2026-11-24 13:47 UTC',
    );
    expect(r.stdout).toContain('Device: vda, the busiest of 2 (vda, loop1); --device NAME picks another');
    expect(r.stdout).toMatch(
      /Request size: the tool's own average request size matches bytes ÷ operations at all \d+ points/,
    );
    expect(r.stdout).toMatch(
      /Device queue and Little's law \(IOPS = queue depth ÷ latency\):\n {2}mean +0\.\d\d requests in flight ÷ 0\.\d\d ms = [\d,]+ requests\/s \(measured [\d,]+\/s/,
    );
    const { reads, writes } = iostatPeaks('iostat_12.6.1_x_t_C.txt');
    expect(r.stdout).toMatch(
      new RegExp(
        `▶ max: maximum of the points at their own step\\s+${n0(reads)}\\s+[\\d.]+\\s+[\\d.]+\\s+${n0(writes)}`,
      ),
    );
    expect(r.stdout).toContain('[since_boot_excluded]');
  });

  it('--device loop1, and an unknown device exits 1 naming the devices', async () => {
    const loop = await run(['metrics', 'fixtures/metrics/iostat_12.6.1_x_t_de_DE.txt', '--device', 'loop1']);
    expect(loop.code, loop.stderr).toBe(0);
    expect(loop.stdout).toContain('Device: loop1, as asked');
    const none = await run(['metrics', 'fixtures/metrics/iostat_12.6.1_x_t_C.txt', '--device', 'sdz']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no device "sdz" in the file; it has vda, loop1 [device_not_found]');
  });

  it('iostat without -t asks for the interval (--period), then reads it', async () => {
    const ask = await run(['metrics', 'fixtures/metrics/iostat_12.6.1_xk_2s_no_t.txt']);
    expect(ask.code).toBe(1);
    expect(ask.stderr).toContain('--period 1|5|10|60: the reports carry no times (iostat ran without -t)');
    const r = await run([
      'metrics',
      'fixtures/metrics/iostat_12.6.1_xk_2s_no_t.txt',
      '--period',
      '2',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.series).toMatchObject({
      format: 'iostat',
      periodSec: 2,
      device: { name: 'vda', chosenBy: 'busiest' },
    });
    expect(out.series.device.queue).toBeUndefined();
    expect(out.queue.littleRequestsPerSec / out.queue.meanRequestsPerSec).toBeGreaterThan(0.95);
    const { reads } = iostatPeaks('iostat_12.6.1_xk_2s_no_t.txt');
    expect(IoProfileSchema.parse(out.profile).read.iops).toBeCloseTo(reads, 6);
  });

  it.each([
    ['sar_12.6.1_d_de_DE.txt', 'sar -d', 'vda (vm)'],
    ['sadf_11.4.11_d.csv', 'sadf -d', 'dev254-0 (vm)'],
    ['prometheus_query_range_counters.json', 'Prometheus query_range JSON', 'vda'],
    ['prometheus_query_range_rate.json', 'Prometheus query_range JSON', 'vda'],
    ['datadog/datadog_timeseries_10s.csv', 'Datadog CSV', 'vda'],
    ['datadog/datadog_query_10s.json', 'Datadog query JSON', 'vda'],
  ])('%s reads as %s', async (file, format, label) => {
    const r = await run(['metrics', `fixtures/metrics/${file}`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toContain(`${label} — ${format}:`);
    expect(r.stdout).toContain('Sizing profile');
  });

  it('--values: counter or rate; anything else is a usage error', async () => {
    const r = await run([
      'metrics',
      'fixtures/metrics/prometheus_query_range_rate.json',
      '--values',
      'rates',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const bad = await run([
      'metrics',
      'fixtures/metrics/prometheus_query_range_rate.json',
      '--values',
      'gauge',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--values: expected counter or rate, got "gauge"');
  });

  it('--help gives the commands and the PromQL to paste', async () => {
    const r = await run(['metrics', '--help']);
    expect(r.stdout).toContain('iostat -x -t 60 1440 > iostat.txt');
    expect(r.stdout).toContain('sadf -d /var/log/sysstat/sa24 -- -d > sar.csv');
    expect(r.stdout).toContain(
      '{__name__=~"node_disk_(reads_completed|writes_completed|read_bytes|written_bytes)_total", device="nvme1n1"}',
    );
    expect(r.stdout).toContain('system.io.rkb_s');
  });
});
