import { describe, expect, it } from 'vitest';
import { findInstanceType, upgradePool } from '../aws/instances.ts';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import {
  addMetricDataText,
  createFleetMetrics,
  mergeFleetMetrics,
  parseMetricData,
  summarizeMetricDataText,
} from './metrics.ts';
import { concurrencyGroupsOf } from './concurrent.ts';
import { fleetPlanToCsv, fleetPlanToMarkdown, fleetPlanToText } from './format.ts';
import { FleetPlanSchema, type FleetCatalog, type FleetMetrics, type FleetPlan } from './schema.ts';
import { parseFleetInstances, parseFleetVolumes } from './parse.ts';
import { planFleet } from './plan.ts';

/**
 * Scenarios of issue 25 (per-instance concurrency; never below what is delivered; every cheaper
 * type), as the AWS CLI would write them: describe-volumes, describe-instances, get-metric-data at
 * 5-minute Sums. Prices: the built-in us-east-1 rate card (dated 2024-07-18: gp3
 * $0.08/GiB-month, $0.005 per IOPS above 3,000; io1/io2 $0.125/GiB-month, $0.065 per IOPS).
 * Instance limits: the catalog (DescribeInstanceTypes EbsOptimizedInfo): r6i.large and m6i.large
 * 3,600 baseline IOPS, 650 Mbps; burst 40,000 IOPS, 10,000 Mbps.
 */

const PERIOD = 300;
const DAYS = 3;
const START = Date.UTC(2026, 10, 1);

type Vol = { id: string; type: string; size: number; iops?: number; throughput?: number; on: string[] };

function volumesJson(vols: Vol[]) {
  return {
    Volumes: vols.map((v) => ({
      VolumeId: v.id,
      VolumeType: v.type,
      Size: v.size,
      ...(v.iops !== undefined ? { Iops: v.iops } : {}),
      ...(v.throughput !== undefined ? { Throughput: v.throughput } : {}),
      State: 'in-use',
      Attachments: v.on.map((i) => ({ InstanceId: i, State: 'attached' })),
    })),
  };
}

const instancesJson = (list: [string, string][]) => ({
  Reservations: list.map(([id, type]) => ({
    Instances: [{ InstanceId: id, InstanceType: type, State: { Name: 'running' } }],
  })),
});

/** Minutes of the UTC day → IOPS; 8 KiB each (a database page), half reads, half writes. */
type Shape = (minuteOfDay: number, day: number) => number;

function results(
  id: string,
  shape: Shape,
  options: { newestFirst?: boolean; skip?: (i: number) => boolean; period?: number } = {},
) {
  const stamps: string[] = [];
  const ops: number[] = [];
  const period = options.period ?? PERIOD;
  const points = (DAYS * 86_400) / period;
  for (let i = 0; i < points; i++) {
    if (options.skip?.(i)) continue;
    const t = START + i * period * 1000;
    const minute = (((t / 60_000) % 1440) + 1440) % 1440;
    stamps.push(new Date(t).toISOString().replace('.000Z', 'Z'));
    ops.push(shape(minute, Math.floor(i / (points / DAYS))) * period);
  }
  if (options.newestFirst) {
    stamps.reverse();
    ops.reverse();
  }
  const half = (m: string, f: (x: number) => number) => ({
    Id: `x${id.replace(/\W/g, '')}_${m}`,
    Label: `${id} ${m}`,
    Timestamps: stamps,
    Values: ops.map(f),
    StatusCode: 'Complete',
  });
  return [
    half('VolumeReadOps', (x) => x / 2),
    half('VolumeWriteOps', (x) => x / 2),
    half('VolumeReadBytes', (x) => (x / 2) * 8192),
    half('VolumeWriteBytes', (x) => (x / 2) * 8192),
  ];
}

/** VolumeAvgIOPS / VolumeAvgThroughput at 60 s (Stat Maximum): per-second rates of each minute, 8 KiB each. */
function minutes(id: string, shape: Shape = nightly) {
  const stamps: string[] = [];
  const iops: number[] = [];
  for (let i = 0; i < DAYS * 1440; i++) {
    stamps.push(new Date(START + i * 60_000).toISOString().replace('.000Z', 'Z'));
    iops.push(shape(i % 1440, Math.floor(i / 1440)));
  }
  return [
    { Id: `m${id.slice(4)}_iops`, Label: `${id} VolumeAvgIOPS`, Timestamps: stamps, Values: iops },
    {
      Id: `m${id.slice(4)}_tput`,
      Label: `${id} VolumeAvgThroughput`,
      Timestamps: stamps,
      Values: iops.map((x) => x * 8192),
    },
  ];
}

const catalog: FleetCatalog = {
  rateCard: regionRateCardFor('us-east-1')!,
  findInstance: findInstanceType,
  instancePool: upgradePool,
  snapshotUsdPerGibMonth: null,
};

function planOf(vols: Vol[], instances: [string, string][], metrics: FleetMetrics): FleetPlan {
  const volumes = parseFleetVolumes(volumesJson(vols));
  const inst = parseFleetInstances(instancesJson(instances));
  if (!volumes.ok || !inst.ok) throw new Error('fixture');
  return FleetPlanSchema.parse(
    planFleet({
      volumes: volumes.value,
      instances: inst.value,
      metrics,
      catalog,
      headroom: 0.25,
      statistic: 'max',
    }),
  );
}

function metricsOf(
  vols: Vol[],
  json: unknown[],
  how: 'parsed' | 'text' | 'workers' = 'parsed',
): FleetMetrics {
  const volumes = parseFleetVolumes(volumesJson(vols));
  if (!volumes.ok) throw new Error('fixture');
  const concurrency = concurrencyGroupsOf(volumes.value);
  if (how === 'parsed') {
    const m = parseMetricData(json, { concurrency });
    if (!m.ok) throw new Error(m.error.message);
    return m.value;
  }
  const into = createFleetMetrics();
  for (const file of json) {
    const text = JSON.stringify(file);
    if (how === 'text') {
      const added = addMetricDataText(into, text, { concurrency });
      if (!added.ok) throw new Error(added.error.message);
    } else {
      const part = summarizeMetricDataText(text, { concurrency });
      if (!part.ok) throw new Error(part.error.message);
      mergeFleetMetrics(into, part.value);
    }
  }
  return into;
}

// 500 IOPS all day; 2,500 IOPS 02:00–02:15 UTC (three 5-minute points) every day.
const nightly: Shape = (minute) => (minute >= 120 && minute < 135 ? 2500 : 500);
// The same burst at 14:00: each volume peaks at 2,500 but never with the other.
const afternoon: Shape = (minute) => (minute >= 840 && minute < 855 ? 2500 : 500);

describe('per-instance concurrency: two gp3 on one r6i.large (3,600 baseline IOPS)', () => {
  const vols: Vol[] = [
    { id: 'vol-0a', type: 'gp3', size: 100, iops: 3000, throughput: 125, on: ['i-0r6'] },
    { id: 'vol-0b', type: 'gp3', size: 100, iops: 3000, throughput: 125, on: ['i-0r6'] },
  ];
  const instances: [string, string][] = [['i-0r6', 'r6i.large']];
  const together = { MetricDataResults: [...results('vol-0a', nightly), ...results('vol-0b', nightly)] };

  it.each(['parsed', 'text', 'workers'] as const)(
    '2,500 IOPS each, together 15 minutes a day → 5,000 > 3,600 for 15 min/day, carried by burst, no headroom, r6in.large sustains it (%s)',
    (how) => {
      const p = planOf(vols, instances, metricsOf(vols, [together], how));
      const row = p.instances!.find((r) => r.instanceId === 'i-0r6')!;
      expect(row).toMatchObject({
        method: 'time-aligned',
        peakIops: 5000,
        baselineIops: 3600,
        minutesAboveBaselinePerDay: 15,
        daysAboveBaseline: 3,
        days: 3,
        burst: 'carried',
        // (3,600 − 5,000) ÷ 3,600
        headroomPct: { iops: -38.9 },
        // 5,000 × 1.25; MiB/s: 5,000 × 8 KiB = 39.06 MiB/s × 1.25 = 48.8 → 49
        target: { iops: 6250, throughputMibps: 49 },
        // the cheapest memory-optimized type with ≥ 2 vCPUs, 16 GiB whose baseline carries 6,250 IOPS:
        // r6in.large, 6,250 IOPS, 1,562 Mbps, $0.17433/h × 730 = $127.26
        sustainedBy: { instanceType: 'r6in.large', baselineIops: 6250, usdPerMonthUsEast1: 127.26 },
        peakAt: '2026-11-01T02:00:00.000Z',
      });
      expect(row.verdict).toContain(
        'together 5,000 > 3,600 baseline IOPS for 15 min/day at worst (3 of 3 days)',
      );
      expect(row.verdict).toContain('carried by its burst');
      expect(row.verdict).toContain('no headroom');
      // Judged alone each volume is within its 3,000 IOPS; the instance row is on both.
      for (const v of p.volumes) expect(v.notes.join(' ')).toContain('shares i-0r6 with');
    },
  );

  it('peaks at different times are not added: 3,000 IOPS together at most, within the baseline (peak + peak would say 5,000)', () => {
    const apart = { MetricDataResults: [...results('vol-0a', nightly), ...results('vol-0b', afternoon)] };
    const row = planOf(vols, instances, metricsOf(vols, [apart])).instances![0]!;
    expect(row).toMatchObject({
      method: 'time-aligned',
      peakIops: 3000,
      burst: 'not-needed',
      minutesAboveBaselinePerDay: 0,
    });
    // (3,600 − 3,000) ÷ 3,600 left; the 3,750 target (× 1.25) is above the baseline: the instance for it is named
    expect(row.headroomPct!.iops).toBe(16.7);
    expect(row.sustainedBy?.instanceType).toBe('r6in.large');
    expect(row.verdict).toContain("within r6i.large's 3,600 IOPS / 77 MiB/s baseline, 16.7% headroom left");
  });

  it('newest-first results (get-metric-data default) and results split across files sum to the same', () => {
    const files = [
      { MetricDataResults: results('vol-0a', nightly, { newestFirst: true }) },
      { MetricDataResults: results('vol-0b', nightly) },
    ];
    const row = planOf(vols, instances, metricsOf(vols, files, 'workers')).instances![0]!;
    expect(row).toMatchObject({ peakIops: 5000, minutesAboveBaselinePerDay: 15, burst: 'carried' });
  });

  it('more than 30 minutes a day above the baseline: the burst does not carry it', () => {
    const long: Shape = (minute) => (minute >= 120 && minute < 160 ? 2500 : 500);
    const files = [{ MetricDataResults: [...results('vol-0a', long), ...results('vol-0b', long)] }];
    const row = planOf(vols, instances, metricsOf(vols, files)).instances![0]!;
    expect(row).toMatchObject({ minutesAboveBaselinePerDay: 40, burst: 'exceeds' });
    expect(row.verdict).toContain('longer than the 30 minutes a day its burst lasts');
  });

  it('a scanned result with gaps cannot be placed in time: peaks added, an upper bound, and said so', () => {
    // vol-0b reports no point for some periods (CloudWatch leaves out periods without data).
    const gappy = {
      MetricDataResults: [
        ...results('vol-0a', nightly),
        ...results('vol-0b', afternoon, { skip: (i) => i % 7 === 3 }),
      ],
    };
    const row = planOf(vols, instances, metricsOf(vols, [gappy], 'text')).instances![0]!;
    expect(row).toMatchObject({
      method: 'summed-peaks',
      peakIops: 5000,
      minutesAboveBaselinePerDay: null,
      burst: 'unknown',
    });
    expect(row.verdict).toContain('an upper bound');
    // Parsed whole (every timestamp read), the same file is aligned exactly.
    const exact = planOf(vols, instances, metricsOf(vols, [gappy], 'parsed')).instances![0]!;
    expect(exact).toMatchObject({ method: 'time-aligned', peakIops: 3000 });
  });

  it('the per-minute metrics (per-second maxima) stay out of the summed Sums: same 5,000 IOPS, 15 min/day', () => {
    // VolumeAvgIOPS / VolumeAvgThroughput at 60 s (Stat Maximum): per-second rates, another unit.
    const withMinutes = {
      MetricDataResults: [...together.MetricDataResults, ...minutes('vol-0a'), ...minutes('vol-0b')],
    };
    const row = planOf(vols, instances, metricsOf(vols, [withMinutes])).instances![0]!;
    expect(row).toMatchObject({
      method: 'time-aligned',
      peakIops: 5000,
      // 5,000 × 8 KiB = 39.06 MiB/s (before: the minute metrics' bytes/s and IOPS landed in the bytes Sums, 39.2)
      peakMibps: 39.1,
      minutesAboveBaselinePerDay: 15,
      burst: 'carried',
    });
    expect(row.verdict).toContain('VolumeRead/WriteOps and Bytes Sums added point by point at 300 s');
  });

  it('one volume at 60 s, two at 300 s: Sums over different periods are not added point by point (peaks added, 7,500)', () => {
    // The reference period is the most common (300 s); vol-0a's own 60 s is not a multiple of it.
    // Before: all Sums ÷ 300 s — vol-0a's 2,500 IOPS × 60 s counted as 500 IOPS, 5,500 together.
    const three: Vol[] = [...vols, { id: 'vol-0c', type: 'gp3', size: 100, on: ['i-0r6'] }];
    const mixed = {
      MetricDataResults: [
        ...results('vol-0a', nightly, { period: 60 }),
        ...results('vol-0b', nightly),
        ...results('vol-0c', nightly),
      ],
    };
    const p = planOf(three, instances, metricsOf(three, [mixed]));
    expect(p.volumes.map((v) => v.observed?.periodSeconds)).toEqual([60, 300, 300]);
    const row = p.instances![0]!;
    expect(row).toMatchObject({ method: 'summed-peaks', peakIops: 7500, minutesAboveBaselinePerDay: null });
    expect(row.verdict).toContain(
      "peaks added: its volumes' Sums are over different periods (60 s, 300 s), not comparable point by point, an upper bound",
    );
  });

  it('every output carries the instance row: text, markdown, CSV, JSON', () => {
    const p = planOf(vols, instances, metricsOf(vols, [together]));
    expect(fleetPlanToText(p)).toContain('i-0r6 r6i.large');
    expect(fleetPlanToText(p)).toMatch(/5,000 IOPS.*15 min\/day.*carried/s);
    expect(fleetPlanToMarkdown(p)).toContain('### Instances');
    expect(fleetPlanToMarkdown(p)).toMatch(/\| i-0r6 \(r6i\.large\) \| vol-0a, vol-0b \| 5,000 IOPS/);
    const csv = fleetPlanToCsv(p).split('\n');
    const header = csv[0]!.split(',');
    const row = cellsOf(csv[1]!);
    expect(row[header.indexOf('instance_peak_iops')]).toBe('5000');
    expect(row[header.indexOf('instance_minutes_above_baseline_per_day')]).toBe('15');
    expect(row[header.indexOf('instance_burst')]).toBe('carried');
    expect(row[header.indexOf('instance_sustained_by')]).toBe('r6in.large');
    expect(JSON.parse(JSON.stringify(p)).instances[0].peakIops).toBe(5000);
  });
});

/** One CSV line's cells (quoted cells may hold commas; "" is a quote). */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (const m of line.matchAll(re)) {
    cells.push(m[1]!.startsWith('"') ? m[1]!.slice(1, -1).replace(/""/g, '"') : m[1]!);
    if (m[2] === '') break;
  }
  return cells;
}

describe('Multi-Attach: the volume counts in full toward each instance', () => {
  it('an io2 on two m6i.large: each row holds its 4,000 IOPS and says CloudWatch reports the total', () => {
    const vols: Vol[] = [{ id: 'vol-0shared', type: 'io2', size: 200, iops: 8000, on: ['i-0n1', 'i-0n2'] }];
    const flat: Shape = () => 4000;
    const p = planOf(
      vols,
      [
        ['i-0n1', 'm6i.large'],
        ['i-0n2', 'm6i.large'],
      ],
      metricsOf(vols, [{ MetricDataResults: results('vol-0shared', flat) }]),
    );
    expect(p.instances!.map((r) => [r.instanceId, r.peakIops, r.multiAttachVolumeIds])).toEqual([
      ['i-0n1', 4000, ['vol-0shared']],
      ['i-0n2', 4000, ['vol-0shared']],
    ]);
    expect(p.instances![0]!.verdict).toContain("report the volume's total over all attachments");
  });
});

describe('never below what is delivered today, silently', () => {
  // A gp3 at 6,000 IOPS on an m6i.large (3,600 baseline) serving a 3,850-IOPS peak 10 minutes a day.
  const vols: Vol[] = [{ id: 'vol-0m6', type: 'gp3', size: 200, iops: 6000, throughput: 125, on: ['i-0m6'] }];
  const peaky: Shape = (minute) => (minute >= 600 && minute < 610 ? 3850 : 1000);
  const p = planOf(
    vols,
    [['i-0m6', 'm6i.large']],
    metricsOf(vols, [{ MetricDataResults: results('vol-0m6', peaky) }]),
  );
  const v = p.volumes[0]!;

  it('keeps the volume at the 4,813-IOPS target (3,850 × 1.25), not the 3,600 baseline', () => {
    expect(v.recommended).toMatchObject({ type: 'gp3', iops: 4813 });
    expect(v.commands.modify[0]).toContain('--iops 4813');
    expect(v.commands.modify[0]).not.toContain('--iops 3600');
  });

  it('flags the instance: the cheapest whose baseline carries it, and what capping would give up', () => {
    expect(v.instanceFlag).toMatchObject({
      instanceType: 'm6i.large',
      // m6in.large: 6,250 IOPS, 1,562 Mbps baseline; $0.13923/h × 730 = $101.64
      sustainedBy: 'm6in.large',
      cappingGivesUp:
        'capping at the instance baseline gives up the burst: peaks of 3,850 IOPS will be throttled to 3,600',
    });
    expect(v.notes.join(' ')).toContain('peaks of 3,850 IOPS will be throttled to 3,600');
    expect(fleetPlanToText(p)).toContain('peaks of 3,850 IOPS will be throttled to 3,600');
  });

  it('a peak within the baseline, only the headroom above it: capped, and the headroom left is stated', () => {
    const calm: Shape = (minute) => (minute >= 600 && minute < 610 ? 3400 : 1000);
    const q = planOf(
      vols,
      [['i-0m6', 'm6i.large']],
      metricsOf(vols, [{ MetricDataResults: results('vol-0m6', calm) }]),
    );
    const c = q.volumes[0]!;
    expect(c.recommended).toMatchObject({ iops: 3600 });
    expect(c.instanceFlag).toBeNull();
    // 3,600 ÷ 3,400 − 1 = 5.9 %
    expect(c.notes.join(' ')).toContain(
      'covers the observed peak (3,400 IOPS, 27 MiB/s) but leaves 5.9% headroom instead of the 25% asked for',
    );
  });
});

describe('every cheaper type, with its trade: io1/io2 → gp3 beside io2', () => {
  const on: [string, string][] = [['i-0db', 'r6i.4xlarge']];

  it('io1 800 GiB / 16,000 IOPS peaking at 3,100 → gp3 listed with its cost ($68.38)', () => {
    const vols: Vol[] = [{ id: 'vol-0io1a', type: 'io1', size: 800, iops: 16000, on: ['i-0db'] }];
    const shape: Shape = (minute) => (minute === 600 ? 3100 : 800);
    const p = planOf(vols, on, metricsOf(vols, [{ MetricDataResults: results('vol-0io1a', shape) }]));
    const v = p.volumes[0]!;
    // target 3,100 × 1.25 = 3,875: 800 × $0.08 = $64 + 875 × $0.005 = $4.38 → $68.38
    expect(v.alternatives![0]!.config).toMatchObject({
      type: 'gp3',
      sizeGib: 800,
      iops: 3875,
      usdPerMonth: 68.38,
    });
    // now 800 × $0.125 + 16,000 × $0.065 = $1,140
    expect(v.alternatives![0]!.savingUsdPerMonth).toBe(1071.62);
    expect(v.alternatives![0]!.trade).toContain('io1 → gp3');
    expect(v.alternatives![0]!.trade).toContain('benchmark p99');
    expect(v.alternatives![0]!.modify).toBe(
      'aws ec2 modify-volume --volume-id vol-0io1a --volume-type gp3 --size 800 --iops 3875 --throughput 125',
    );
  });

  it('io1 500 GiB / 20,000 IOPS peaking at 4,400 → io2 at $420 and, beside it, gp3 at $52.50 with the trade', () => {
    const vols: Vol[] = [{ id: 'vol-0io1b', type: 'io1', size: 500, iops: 20000, on: ['i-0db'] }];
    const shape: Shape = (minute) => (minute === 600 ? 4400 : 900);
    const p = planOf(vols, on, metricsOf(vols, [{ MetricDataResults: results('vol-0io1b', shape) }]));
    const v = p.volumes[0]!;
    // 500 × $0.125 + 5,500 × $0.065 = $62.50 + $357.50
    expect(v.recommended).toMatchObject({ type: 'io2', iops: 5500, usdPerMonth: 420 });
    // 500 × $0.08 + 2,500 × $0.005 = $40 + $12.50
    expect(v.alternatives![0]!.config).toMatchObject({ type: 'gp3', iops: 5500, usdPerMonth: 52.5 });
    expect(v.alternatives![0]!.trade).toContain(
      'io2 ($420.00/month) keeps sub-millisecond latency and 99.999 % durability',
    );
    expect(fleetPlanToText(p)).toContain('gp3 500 GiB 5,500 IOPS 125 MiB/s $52.50');
    expect(fleetPlanToMarkdown(p)).toContain('$52.50');
    const csv = fleetPlanToCsv(p).split('\n');
    expect(csv[1]).toContain('gp3 500 GiB 5,500 IOPS 125 MiB/s');
  });

  it('gp3 that cannot meet the target is not offered (io2 at 100,000 IOPS)', () => {
    const vols: Vol[] = [{ id: 'vol-0big', type: 'io2', size: 2000, iops: 100000, on: ['i-0big'] }];
    const shape: Shape = () => 85000;
    const p = planOf(
      vols,
      [['i-0big', 'r6i.32xlarge']],
      metricsOf(vols, [{ MetricDataResults: results('vol-0big', shape) }]),
    );
    expect(p.volumes[0]!.alternatives).toEqual([]);
  });
});

describe('a lone gp3 on an r6i.large whose busiest minute (4,000 IOPS) is above the 3,600 baseline, its 5-minute Sums (2,500) below', () => {
  const vols: Vol[] = [{ id: 'vol-1a', type: 'gp3', size: 100, iops: 3000, throughput: 125, on: ['i-1r6'] }];
  const spike: Shape = (minute) => (minute === 125 ? 4000 : nightly(minute, 0));
  const file = { MetricDataResults: [...results('vol-1a', nightly), ...minutes('vol-1a', spike)] };
  const p = planOf(vols, [['i-1r6', 'r6i.large']], metricsOf(vols, [file]));

  it("the instance row shows the volume's busiest minute, not its Sums' peak (before: 2,500)", () => {
    expect(p.volumes[0]!.observed).toMatchObject({ peakIops: 4000, readIops: 1250, writeIops: 1250 });
    expect(p.instances![0]).toMatchObject({ method: 'single-volume', peakIops: 4000, burst: 'unknown' });
  });

  it('the delivered check judges that same minute: the burst carried it, capping would throttle it (before: "still covers the observed peak (2,500 IOPS")', () => {
    const v = p.volumes[0]!;
    expect(v.notes.join(' ')).not.toContain('still covers the observed peak');
    expect(JSON.stringify(p)).toContain('peaks of 4,000 IOPS will be throttled to 3,600');
  });
});
