import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CreateFleetPlanBodySchema } from '../api/fleet.ts';
import { activeCatalog } from '../aws/active-catalog.ts';
import { DEFAULT_REGION, regionRateCardFor } from '../aws/ebs-prices.ts';
import { findInstanceType } from '../aws/instances.ts';
import {
  FLEET_DEFAULTS,
  FLEET_HEADROOM_BOUNDS,
  FleetPlanSchema,
  type FleetCatalog,
  type FleetPlan,
} from './schema.ts';
import { MODIFICATION_RULE, planFleet } from './plan.ts';
import { fleetPlanToCsv, fleetPlanToMarkdown, fleetPlanToText } from './format.ts';
import { parseFleetInstances, parseFleetVolumes } from './parse.ts';
import { parseMetricData } from './metrics.ts';

// fixtures/fleet/ is written by fixtures/fleet/generate.mjs: 10 volumes with known peaks, 2 days of 5-minute points.
const DIR = resolve(import.meta.dirname, '../../../fixtures/fleet');
const json = (name: string): unknown => JSON.parse(readFileSync(resolve(DIR, name), 'utf8'));
const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};

const catalog = (snapshotUsdPerGibMonth: number | null = null): FleetCatalog => ({
  rateCard: regionRateCardFor('us-east-1')!,
  findInstance: findInstanceType,
  snapshotUsdPerGibMonth,
});

function plan(overrides: Partial<Parameters<typeof planFleet>[0]> = {}): FleetPlan {
  return planFleet({
    volumes: unwrap(parseFleetVolumes(json('volumes.json'))),
    instances: unwrap(parseFleetInstances(json('instances.json'))),
    metrics: unwrap(parseMetricData([json('metrics-1.json'), json('metrics-2.json')])),
    catalog: catalog(),
    headroom: 0.25,
    statistic: 'max',
    ...overrides,
  });
}

describe('planFleet on the generated fleet (us-east-1 prices of 2024-07-18: gp3 $0.08/GiB, $0.005/IOPS > 3,000, $0.04/MiB/s > 125; gp2 $0.10/GiB; io2 $0.125/GiB, $0.065/IOPS ≤ 32,000)', () => {
  const p = plan();
  const byId = new Map(p.volumes.map((v) => [v.volumeId, v]));

  it.each([
    // over-provisioned gp3: 500 GiB 16,000 IOPS 250 MiB/s = 40 + 13,000×0.005 + 125×0.04 = $110.00;
    // peak 2,000 IOPS / 40 MiB/s × 1.25 = 2,500 / 50 → the included 3,000 IOPS / 125 MiB/s: $40.00; saving $70.00
    {
      id: 'vol-0over',
      status: 'over',
      rec: 'gp3 500 3000 125',
      current: 110,
      recUsd: 40,
      saving: 70,
      binding: 'instance-iops',
    },
    // under-provisioned gp3: peak 3,600 IOPS on 3,000; target 4,500 IOPS → 8 + 1,500×0.005 = $15.50; costs $7.50 more
    {
      id: 'vol-0under',
      status: 'under',
      rec: 'gp3 100 4500 125',
      current: 8,
      recUsd: 15.5,
      saving: -7.5,
      binding: 'volume-iops',
    },
    // m5.large sustains 3,600 EBS IOPS: target 4,250 binds on the instance; the volume is capped at 3,600:
    // 16 + 7,000×0.005 = $51.00 → 16 + 600×0.005 = $19.00; saving $32.00, and the risk stays (instance)
    {
      id: 'vol-0capped',
      status: 'under',
      rec: 'gp3 200 3600 125',
      current: 51,
      recUsd: 19,
      saving: 32,
      binding: 'instance-iops',
    },
    // gp2 1,000 GiB ($100.00) → gp3 1,000 GiB at the included 3,000 IOPS / 125 MiB/s ($80.00): saving $20.00
    {
      id: 'vol-0gp2',
      status: 'over',
      rec: 'gp3 1000 3000 125',
      current: 100,
      recUsd: 80,
      saving: 20,
      binding: 'instance-throughput',
    }, // 80 MiB/s of m5.xlarge's 137
    // io2 500 GiB 20,000 IOPS = 62.50 + 1,300 = $1,362.50; peak 8,000 × 1.25 = 10,000 IOPS → 62.50 + 650 = $712.50
    {
      id: 'vol-0io2',
      status: 'over',
      rec: 'io2 500 10000 null',
      current: 1362.5,
      recUsd: 712.5,
      saving: 650,
      binding: 'instance-iops',
    },
    // peak 1,000 IOPS / 20 MiB/s × 1.25 fits the included gp3 baseline: nothing cheaper
    { id: 'vol-0ok', status: 'ok', rec: null, current: 8, recUsd: null, saving: 0, binding: 'volume-iops' },
    { id: 'vol-0nodata', status: 'no_data', rec: null, current: 4, recUsd: null, saving: 0, binding: null },
    {
      id: 'vol-0short',
      status: 'too_little_history',
      rec: null,
      current: 8,
      recUsd: null,
      saving: 0,
      binding: null,
    },
    {
      id: 'vol-0unattached',
      status: 'unattached',
      rec: null,
      current: 20,
      recUsd: null,
      saving: 0,
      binding: null,
    },
    {
      id: 'vol-0stopped',
      status: 'stopped_instance',
      rec: null,
      current: 8,
      recUsd: null,
      saving: 0,
      binding: null,
    },
  ])(
    '$id: $status, recommended $rec, saving $saving',
    ({ id, status, rec, current, recUsd, saving, binding }) => {
      const v = byId.get(id)!;
      expect(v.status).toBe(status);
      expect(v.current.usdPerMonth).toBe(current);
      const r = v.recommended;
      expect(
        r
          ? `${r.type} ${r.sizeGib} ${r.type === 'gp3' || r.type.startsWith('io') ? r.iops : ''} ${r.type === 'gp3' ? r.throughputMibps : 'null'}`
          : null,
      ).toBe(rec);
      expect(r?.usdPerMonth ?? null).toBe(recUsd);
      expect(v.savingUsdPerMonth).toBe(saving);
      expect(v.binding?.id ?? null).toBe(binding);
    },
  );

  it('takes the instance type from describe-instances: the capped volume names m5.large and its 3,600 IOPS', () => {
    const v = byId.get('vol-0capped')!;
    expect(v.instanceType).toBe('m5.large');
    expect(v.risk).toContain("m5.large's 3,600 baseline EBS IOPS");
    expect(v.risk).toContain('the instance, not the volume, must change');
    expect(v.observed).toMatchObject({ readIops: 2000, writeIops: 1400, points: 576, days: 2, exact: true });
  });

  it('writes the modify command, its rollback after completion, and the Terraform diff', () => {
    const v = byId.get('vol-0gp2')!;
    expect(v.commands.modify).toEqual([
      'aws ec2 modify-volume --volume-id vol-0gp2 --volume-type gp3 --size 1000 --iops 3000 --throughput 125',
    ]);
    expect(v.commands.rollback.at(-1)).toBe('aws ec2 modify-volume --volume-id vol-0gp2 --volume-type gp2');
    expect(v.commands.rollback[0]).toContain('describe-volumes-modifications --volume-ids vol-0gp2');
    expect(v.commands.terraform).toContain('-  type       = "gp2"\n+  type       = "gp3"');
    expect(v.commands.terraform).toContain('+  iops       = 3000');
  });

  it('totals: per type, per instance and the fleet; unused volumes with what deleting them saves', () => {
    // current 110 + 8 + 51 + 4 + 20 + 100 + 1,362.50 + 8 + 8 + 8 = $1,679.50; saving 70 − 7.50 + 32 + 20 + 650 = $764.50
    expect(p.totals.fleet).toEqual({
      volumes: 10,
      currentUsdPerMonth: 1679.5,
      recommendedUsdPerMonth: 915,
      savingUsdPerMonth: 764.5,
      riskCount: 2,
      unpricedCount: 0,
      unusedSavingUsdPerMonth: 28, // unattached gp2 $20 + gp3 of the stopped instance $8, no snapshot price in the catalog
    });
    expect(p.totals.byVolumeType.find((t) => t.type === 'gp3')).toMatchObject({
      volumes: 7,
      savingUsdPerMonth: 94.5,
      riskCount: 2,
    });
    expect(p.totals.byInstance.find((t) => t.instanceId === 'i-0app1')).toMatchObject({
      volumes: 4,
      savingUsdPerMonth: 70,
    });
    expect(p.unused.map((u) => [u.volumeId, u.reason, u.savingUsdPerMonth])).toEqual([
      ['vol-0unattached', 'unattached', 20],
      ['vol-0stopped', 'stopped_instance', 8],
    ]);
    expect(p.noData.map((n) => n.volumeId)).toEqual(['vol-0nodata', 'vol-0short']);
    expect(p.notes.join(' ')).toContain('snapshot storage is not included');
    expect(p.modificationRule).toBe(MODIFICATION_RULE);
    expect(FleetPlanSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  });

  it('a snapshot price makes deletion save volume − snapshot: 200 GiB × $0.05 = $10.00 off the $20.00 gp2', () => {
    const withSnap = plan({ catalog: catalog(0.05) });
    expect(withSnap.unused[0]).toMatchObject({ snapshotUsdPerMonth: 10, savingUsdPerMonth: 10 });
  });

  it('without describe-instances, no instance cap: vol-0capped right-sizes to its 4,250 IOPS target and is over, not under', () => {
    const v = plan({ instances: undefined }).volumes.find((x) => x.volumeId === 'vol-0capped')!;
    // 16 + 1,250 × 0.005 = $22.25; saving 51 − 22.25 = $28.75
    expect(v).toMatchObject({ status: 'over', savingUsdPerMonth: 28.75, recommended: { iops: 4250 } });
  });

  it('a lower minimum history plans the 6-hour volume', () => {
    const v = plan({ minHistoryDays: 0.2 }).volumes.find((x) => x.volumeId === 'vol-0short')!;
    expect(v.status).toBe('ok');
  });

  it('CSV and markdown carry every volume and the rule', () => {
    const csv = fleetPlanToCsv(p).trim().split('\n');
    expect(csv).toHaveLength(12); // header, 10 volumes, TOTAL
    expect(csv.at(-1)).toBe(
      'TOTAL,,,,total,,,,,1679.5,,,,,,,,,,,,915,764.5,"10 volumes, 2 under-provisioned",,,,,,,,,,,,,,,,,,,,,',
    );
    expect(csv[0]).toMatch(/^volume_id,name,instance_id/);
    expect(csv.find((l) => l.startsWith('vol-0over'))).toContain(',over,gp3,500,16000,250,110,');
    const md = fleetPlanToMarkdown(p);
    expect(md).toContain('saving $764.50/month');
    expect(md).toContain('| vol-0under | i-0app2 (m5.xlarge) | under |');
    expect(md).toContain('modify-volume-requirements.html');
  });
});

describe('the Period of the points comes from their timestamps (the web page and the HTTP body cannot give it)', () => {
  type Generator = {
    knownFleet: () => unknown;
    metricPages: (fleet: unknown, options: { days: number; period: number }) => Iterable<unknown>;
  };
  const generator = import(pathToFileURL(resolve(DIR, 'generate.mjs')).href) as Promise<Generator>;
  const pagesAt = async (period: number) => {
    const g = await generator;
    return [...g.metricPages(g.knownFleet(), { days: 14, period })];
  };
  const peaks = (p: FleetPlan) =>
    p.volumes
      .filter((v) => v.observed)
      .map((v) => [
        v.volumeId,
        v.observed!.readIops,
        v.observed!.writeIops,
        v.observed!.readMibps,
        v.observed!.writeMibps,
      ]);

  it('14 days at 300 s and at 3,600 s (fleet query --days > 63 uses 3,600) give the same known peaks', async () => {
    const at = async (period: number) =>
      plan({ metrics: unwrap(parseMetricData(await pagesAt(period))), minHistoryDays: 0.2, minPoints: 2 });
    const [p300, p3600] = [await at(300), await at(3600)];
    expect(peaks(p3600)).toEqual(peaks(p300));
    const capped = p3600.volumes.find((v) => v.volumeId === 'vol-0capped')!;
    // generate.mjs: vol-0capped peaks at 2,000 / 1,400 IOPS, 12 / 8 MiB/s (not 12× that: Sum ÷ 300 of hourly Sums)
    expect(capped.observed).toMatchObject({
      readIops: 2000,
      writeIops: 1400,
      readMibps: 12,
      writeMibps: 8,
      periodSeconds: 3600,
    });
    expect(capped.observed!.days).toBe(14);
    expect(p3600.periodSeconds).toBe(3600);
    expect(p300.volumes.find((v) => v.volumeId === 'vol-0capped')!.observed!.periodSeconds).toBe(300);
    expect(p3600.volumes.find((v) => v.volumeId === 'vol-0over')!.status).toBe('over');
  });

  it('a --period that disagrees with the spacing is refused, naming the file and result', async () => {
    const pages = await pagesAt(3600);
    const r = parseMetricData(pages, { fileNames: ['metrics-90d.json'], periodSeconds: 300 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({
      code: 'metrics_period_mismatch',
      path: 'MetricDataResults.0.Timestamps',
    });
    expect(r.error.message).toMatch(
      /^metrics-90d\.json: MetricDataResults\.0\.Timestamps: points 3600 s apart, but --period is 300 s/,
    );
    // Points closer than the Period given cannot come from it either.
    const finer = parseMetricData(await pagesAt(300), { fileNames: ['m.json'], periodSeconds: 3600 });
    expect(finer.ok ? null : finer.error.message).toMatch(
      /^m\.json: MetricDataResults\.0\.Timestamps: points 300 s apart/,
    );
    expect(parseMetricData(pages, { periodSeconds: 3600 }).ok).toBe(true);
  });

  it('a volume whose I/O skips periods (an hourly job on 5-minute data) takes the fleet’s Period, not its longer spacing', () => {
    const hourly = {
      MetricDataResults: [
        {
          Id: 'v0_r_ops',
          Label: 'vol-0ok VolumeReadOps',
          Timestamps: Array.from({ length: 48 }, (_, i) =>
            new Date(Date.UTC(2026, 10, 22) + i * 3_600_000).toISOString(),
          ),
          Values: Array.from({ length: 48 }, () => 300_000), // 300,000 ops in one 5-minute period: 1,000 IOPS
        },
      ],
    };
    const metrics = unwrap(parseMetricData([json('metrics-1.json'), json('metrics-2.json')]));
    const merged = unwrap(parseMetricData([hourly]));
    metrics.series.set('vol-0ok', merged.series.get('vol-0ok')!);
    const v = plan({ metrics }).volumes.find((x) => x.volumeId === 'vol-0ok')!;
    expect(v.observed).toMatchObject({ readIops: 1000, periodSeconds: 300 });
  });
});

describe('totals leave unpriced volumes out of the sums and count them', () => {
  it('gp2 without a price: vol-0gp2 and vol-0unattached are counted as unpriced, not summed as $0', () => {
    const card = regionRateCardFor('us-east-1')!;
    const p = plan({ catalog: { ...catalog(), rateCard: { ...card, gp2: { storage: null } } } });
    // priced: 1,679.50 − gp2 100 − gp2 20 = 1,559.50 now; recommended 915 − 80 (vol-0gp2's gp3) − 20 (unattached, kept as is) = 815
    expect(p.totals.fleet).toMatchObject({
      volumes: 10,
      unpricedCount: 2,
      currentUsdPerMonth: 1559.5,
      recommendedUsdPerMonth: 815,
    });
    expect(p.totals.byVolumeType.find((t) => t.type === 'gp2')).toMatchObject({
      volumes: 2,
      unpricedCount: 2,
      currentUsdPerMonth: 0,
    });
    expect(fleetPlanToText(p)).toContain('2 volumes unpriced (not in the sums)');
    expect(fleetPlanToMarkdown(p)).toContain('2 volumes unpriced (not in the sums)');
    expect(fleetPlanToCsv(p).trim().split('\n').at(-1)).toContain('2 volumes unpriced (not in the sums)');
    expect(FleetPlanSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  });
});

describe('a recommendation capped by the instance says so', () => {
  it('vol-0capped: m5.large’s 3,600 baseline IOPS bind, not the volume; change the instance or rely on its 30-minute burst', () => {
    const v = plan().volumes.find((x) => x.volumeId === 'vol-0capped')!;
    expect(v.recommended?.iops).toBe(3600);
    expect(v.notes).toContain(
      "recommendation capped at m5.large's 3,600 baseline EBS IOPS, below the 4,250 IOPS target: the instance, not the volume, binds — move to an instance type with a higher EBS baseline, or rely on m5.large's EBS burst (up to 18,750 IOPS, 4,750 Mbps) if the peaks last at most 30 minutes a day",
    );
    expect(fleetPlanToText(plan())).toContain(
      "    note: recommendation capped at m5.large's 3,600 baseline EBS IOPS",
    );
  });
});

describe('FLEET_DEFAULTS: one set of defaults for the CLI, the HTTP API and the web page', () => {
  it('25 % headroom, max, the catalog’s default region; the body refuses a headroom outside the bounds', () => {
    expect(FLEET_DEFAULTS).toEqual({ headroom: 0.25, statistic: 'max', region: DEFAULT_REGION });
    const body = { volumes: {}, metrics: [{}] };
    expect(
      CreateFleetPlanBodySchema.safeParse({ ...body, headroom: FLEET_HEADROOM_BOUNDS.max }).success,
    ).toBe(true);
    expect(
      CreateFleetPlanBodySchema.safeParse({ ...body, headroom: FLEET_HEADROOM_BOUNDS.max + 0.01 }).success,
    ).toBe(false);
    expect(
      CreateFleetPlanBodySchema.safeParse({ ...body, headroom: FLEET_HEADROOM_BOUNDS.min - 0.01 }).success,
    ).toBe(false);
  });
});

describe('catalog facts the expectations above rest on', () => {
  it('us-east-1 has no snapshot price in the built-in catalog', () => {
    expect(activeCatalog().ebs['us-east-1']!.snapshot.standard).toBeNull();
  });
});
