import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import { findInstanceType } from '../aws/instances.ts';
import { buildEvidenceQueries, GET_METRIC_DATA_PRICE, promiseClause } from './evidence.ts';
import { fleetPlanToCsv, fleetPlanToMarkdown, fleetPlanToText } from './format.ts';
import {
  addMetricData,
  addMetricDataText,
  createFleetMetrics,
  mergeFleetMetrics,
  summarizeMetricDataText,
} from './metrics.ts';
import { parseFleetInstances, parseFleetVolumes } from './parse.ts';
import { planFleet } from './plan.ts';
import { buildMetricQueries } from './queries.ts';
import type { FleetMetrics, FleetPlan } from './schema.ts';

// fixtures/fleet-evidence/ is written by its generate.mjs (README there: the scenario and the AWS documents).
const DIR = resolve(import.meta.dirname, '../../../fixtures/fleet-evidence');
const text = (name: string) => readFileSync(resolve(DIR, name), 'utf8');
const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};
const volumes = unwrap(parseFleetVolumes(JSON.parse(text('volumes.json'))));
const instances = unwrap(parseFleetInstances(JSON.parse(text('instances.json'))));
type Raw = { MetricDataResults: { Label: string; Timestamps: string[]; Values: number[] }[] };
const raw = JSON.parse(text('metrics.json')) as Raw;

/** Independent of the reader: the raw fixture's points of one Label. */
const pointsOf = (label: string) => raw.MetricDataResults.find((r) => r.Label === label)!;
const sumOf = (label: string) => pointsOf(label).Values.reduce((a, b) => a + b, 0);
const perDay = (label: string) => {
  const r = pointsOf(label);
  const days = new Map<string, number>();
  r.Values.forEach((v, i) =>
    days.set(r.Timestamps[i]!.slice(0, 10), (days.get(r.Timestamps[i]!.slice(0, 10)) ?? 0) + v),
  );
  return [...days].filter(([, m]) => m > 0).sort();
};

function planOf(metrics: FleetMetrics): FleetPlan {
  return planFleet({
    volumes,
    instances,
    metrics,
    catalog: {
      rateCard: regionRateCardFor('us-east-1')!,
      findInstance: findInstanceType,
      snapshotUsdPerGibMonth: null,
    },
    headroom: 0.25,
    statistic: 'max',
  });
}
const plan = planOf(
  unwrap(addMetricDataText(createFleetMetrics(), text('metrics.json'), { fileName: 'metrics.json' })),
);
const byId = new Map(plan.volumes.map((v) => [v.volumeId, v]));

describe('fleet evidence: minutes throttled, recomputed from the raw fixture', () => {
  it.each(['vol-0confirmed', 'vol-0pinned', 'vol-0contra', 'vol-0gp2'])(
    '%s: minutes and days as summed here',
    (id) => {
      const e = byId.get(id)!.evidence!;
      expect(e.iopsExceededMinutes).toBe(sumOf(`${id} VolumeIOPSExceededCheck`));
      expect(e.throughputExceededMinutes).toBe(sumOf(`${id} VolumeThroughputExceededCheck`));
      expect(e.throttledDays!.map((d) => [d.date, d.minutes])).toEqual(
        perDay(`${id} VolumeIOPSExceededCheck`),
      );
    },
  );

  it('the pinned volume: 415 minutes, "demand above the limit for 415 minutes", exceeded-check censoring, never over', () => {
    expect(sumOf('vol-0pinned VolumeIOPSExceededCheck')).toBe(415);
    const v = byId.get('vol-0pinned')!;
    expect(v.evidence!.throttledMinutes).toBe(415);
    expect(v.status).toBe('under');
    expect(v.censored).toBe(true);
    expect(v.risk).toContain('demand above the limit for 415 minutes (VolumeIOPSExceededCheck');
    expect(v.recommended!.iops).toBeGreaterThan(v.current.iops!);
  });

  it('the model confirmed for one volume, contradicted for another (the instance check fired, not the volume’s): the checks are trusted', () => {
    const confirmed = byId.get('vol-0confirmed')!;
    expect(confirmed.evidence!.bindingCheck).toBe('confirmed');
    expect(confirmed.binding!.id).toBe('volume-iops');
    const contra = byId.get('vol-0contra')!;
    expect(sumOf('vol-0contra VolumeIOPSExceededCheck')).toBe(0);
    expect(contra.evidence!.bindingCheck).toBe('contradicted');
    expect(contra.evidence!.modelBinding).toBe('volume-iops');
    expect(contra.binding!.id).toBe('instance-iops');
    expect(contra.evidence!.instanceThrottledMinutes).toBe(sumOf('i-0small InstanceEBSIOPSExceededCheck'));
    expect(contra.risk).toContain('trusting the checks, the instance binds');
    expect(contra.commands.modify).toEqual([]);
    const row = plan.instances!.find((r) => r.instanceId === 'i-0small')!;
    expect(row.evidence!.iopsExceededMinutes).toBe(sumOf('i-0small InstanceEBSIOPSExceededCheck'));
    const ioEmptyDays = new Set(
      pointsOf('i-0small EBSIOBalance%')
        .Timestamps.filter((_, i) => pointsOf('i-0small EBSIOBalance%').Values[i] === 0)
        .map((t) => t.slice(0, 10)),
    );
    expect(row.evidence!.balanceEmptyDays).toBe(ioEmptyDays.size);
  });

  it('no volume with throttled minutes is "over"', () => {
    const throttled = plan.volumes.filter((v) => (v.evidence?.throttledMinutes ?? 0) > 0);
    expect(throttled.length).toBe(2);
    expect(throttled.every((v) => v.status !== 'over')).toBe(true);
  });

  it('latency beside the promise (0 = a minute without I/O, left out); burst credits ran out on the days the minimum hit 0', () => {
    const r = pointsOf('vol-0gp2 VolumeAvgReadLatency').Values.filter((x) => x > 0);
    const gp2 = byId.get('vol-0gp2')!.evidence!;
    expect(gp2.readLatency!.points).toBe(r.length);
    expect(gp2.readLatency!.typicalMs).toBeCloseTo(r.reduce((a, b) => a + b, 0) / r.length, 3);
    expect(gp2.readLatency!.maxMs).toBe(Math.max(...r));
    expect(gp2.latencyPromise!.maxMs).toBe(10);
    const burst = pointsOf('vol-0gp2 BurstBalance');
    expect(gp2.burstEmptyDays).toBe(
      new Set(burst.Timestamps.filter((_, i) => burst.Values[i] === 0).map((t) => t.slice(0, 10))).size,
    );
    expect(gp2.burstBalanceMinPct).toBe(Math.min(...burst.Values));
    const io2 = byId.get('vol-0io2')!.evidence!;
    expect(io2.latencyPromise!.maxMs).toBe(1);
    expect(io2.findings.join('\n')).toMatch(/read latency 1\.\d+ ms typical.*above what io2 promises/);
  });

  it('no check points is "no data", never 0, in every output', () => {
    const quiet = byId.get('vol-0quiet')!.evidence!;
    expect(quiet.throttledMinutes).toBeNull();
    // Its instance's checks have data (never fired): 'none', not 'no-data'.
    expect(quiet.instanceThrottledMinutes).toBe(0);
    expect(quiet.bindingCheck).toBe('none');
    expect(quiet.findings).toEqual(['volume exceeded checks: no data']);
    const csv = fleetPlanToCsv(plan).split('\n');
    const header = csv[0]!.split(',');
    // RFC 4180 cells: a quoted cell may hold commas and doubled quotes.
    const cells = (line: string) =>
      [...line.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,]*)/g)].map((m) =>
        m[1]!.replace(/^"|"$/g, '').replace(/""/g, '"'),
      );
    const row = cells(csv.find((l) => l.startsWith('vol-0quiet,'))!);
    expect(row[header.indexOf('throttled_minutes')]).toBe('');
    const pinned = cells(csv.find((l) => l.startsWith('vol-0pinned,'))!);
    expect(pinned[header.indexOf('throttled_minutes')]).toBe('415');
    expect(fleetPlanToText(plan)).toContain('vol-0quiet:\n    volume exceeded checks: no data');
    expect(fleetPlanToMarkdown(plan)).toContain("### AWS's evidence");
  });

  it('the same evidence whether parsed whole, scanned, or summarized apart and merged', () => {
    const parsed = planOf(unwrap(addMetricData(createFleetMetrics(), raw)));
    const merged = mergeFleetMetrics(
      createFleetMetrics(),
      unwrap(summarizeMetricDataText(text('metrics.json'))),
    );
    expect(parsed.volumes.map((v) => v.evidence)).toEqual(plan.volumes.map((v) => v.evidence));
    expect(planOf(merged).volumes.map((v) => v.evidence)).toEqual(plan.volumes.map((v) => v.evidence));
  });

  it('refuses a check above the minutes of its period, naming the point', () => {
    const bad = structuredClone(raw) as Raw;
    const r = bad.MetricDataResults.findIndex((x) => x.Label === 'vol-0pinned VolumeIOPSExceededCheck');
    bad.MetricDataResults[r]!.Values[3] = 7;
    const out = addMetricData(createFleetMetrics(), bad, { fileName: 'm.json' });
    expect(out.ok).toBe(false);
    if (!out.ok)
      expect(out.error.message).toContain(
        `m.json: MetricDataResults.${r}.Values.3: VolumeIOPSExceededCheck: expected 0 to 5 minutes`,
      );
  });
});

describe('fleet query --evidence', () => {
  it.each([
    // 7 volumes × 3 checks + 2 instances × 2 checks; all: + 7 × 2 latency + 1 gp2 BurstBalance + 2 × 2 balances
    ['none', 0],
    ['checks', 7 * 3 + 2 * 2],
    ['all', 7 * 3 + 2 * 2 + 7 * 2 + 1 + 2 * 2],
  ] as const)('%s: %i evidence queries, ids unique and valid', (level, n) => {
    const q = buildEvidenceQueries(volumes, level, 300);
    expect(q.length).toBe(n);
    const batches = buildMetricQueries({ volumes, days: 2, periodSeconds: 300, evidence: level });
    const all = batches.flatMap((b) => b.queries);
    expect(all.length).toBe(7 * 6 + n);
    expect(new Set(all.map((x) => x.Id)).size).toBe(all.length);
    expect(all.every((x) => /^[a-z][A-Za-z0-9_]*$/.test(x.Id))).toBe(true);
  });

  it('instance balances are queried at 5 minutes at least (basic monitoring), checks with Stat Sum, latency Maximum, balances Minimum', () => {
    const q = buildEvidenceQueries(volumes, 'all', 60);
    const of = (label: string) => q.find((x) => x.Label === label)!.MetricStat;
    expect(of('i-0small EBSIOBalance%')).toMatchObject({
      Period: 300,
      Stat: 'Minimum',
      Metric: { Namespace: 'AWS/EC2', Dimensions: [{ Name: 'InstanceId', Value: 'i-0small' }] },
    });
    expect(of('vol-0pinned VolumeIOPSExceededCheck')).toMatchObject({
      Period: 60,
      Stat: 'Sum',
      Metric: { Namespace: 'AWS/EBS' },
    });
    expect(of('vol-0gp2 VolumeAvgReadLatency').Stat).toBe('Maximum');
    expect(q.some((x) => x.Label === 'vol-0pinned BurstBalance')).toBe(false);
    // USD 0.01 per 1,000 metrics requested.
    expect(GET_METRIC_DATA_PRICE.usdFor(1000)).toBeCloseTo(0.01, 10);
  });
});

describe('promiseClause: a volume’s latency against its own type’s promise, by judgeLatencyPromise', () => {
  const io2 = 'sub-millisecond average latency';
  const gp3 = 'single-digit-millisecond latency';
  it.each([
    // The 20 % tolerance of demand/measured-latency.ts: io2 < 1 ms → above only past 1.2 ms.
    ['io2', io2, 0.4, `; within what io2 promises (${io2})`],
    ['io2', io2, 1.1, `; within what io2 promises (${io2}, < 1 ms, with the 20 % allowed)`],
    ['io2', io2, 1.2, `; within what io2 promises (${io2}, < 1 ms, with the 20 % allowed)`],
    ['io2', io2, 1.25, `; above what io2 promises (${io2}, < 1 ms, by more than the 20 % allowed)`],
    // gp3 1–10 ms: under the floor is still within (the volume is already gp3); above past 12 ms.
    ['gp3', gp3, 0.3, `; within what gp3 promises (${gp3})`],
    ['gp3', gp3, 11.9, `; within what gp3 promises (${gp3}, < 10 ms, with the 20 % allowed)`],
    ['gp3', gp3, 12.5, `; above what gp3 promises (${gp3}, < 10 ms, by more than the 20 % allowed)`],
    // AWS states no figure for st1: the words only, no verdict.
    ['st1', 'no latency figure', 50, '; st1 promises no latency figure'],
  ] as const)('%s at %s ms', (type, text, ms, clause) => {
    expect(promiseClause(type, text, ms)).toBe(clause);
  });
});
