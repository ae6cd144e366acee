import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findInstanceType } from '../aws/instances.ts';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import { addMetricDataText, createFleetMetrics, parseMetricData } from '../fleet/metrics.ts';
import { parseFleetVolumes } from '../fleet/parse.ts';
import { planFleet } from '../fleet/plan.ts';
import { type FleetCatalog, type FleetMetrics, type FleetStatistic } from '../fleet/schema.ts';
import { importMetrics } from '../timeseries/import-metrics.ts';
import { demandFromSeries, demandTarget, peaksOf } from './demand.ts';

/** `fleet plan` on the demand scenarios of fixtures/demand: the same target as the series path. */

const DIR = new URL('../../../fixtures/demand/', import.meta.url);
const text = (name: string) => readFileSync(new URL(name, DIR), 'utf8');
const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};
const catalog: FleetCatalog = {
  rateCard: regionRateCardFor('us-east-1')!,
  findInstance: findInstanceType,
  snapshotUsdPerGibMonth: null,
};
const VOLUME = 'vol-0e1d2c3b4a5968778';
const volumes = unwrap(parseFleetVolumes(JSON.parse(text('volumes_nightly.json'))));

function plan(
  files: string[],
  statistic: FleetStatistic,
  extra: { ignoreRecurring?: boolean; metrics?: FleetMetrics } = {},
) {
  const metrics = extra.metrics ?? createFleetMetrics();
  if (!extra.metrics) for (const f of files) unwrap(addMetricDataText(metrics, text(f), { fileName: f }));
  return planFleet({
    volumes,
    metrics,
    catalog,
    headroom: 0.25,
    statistic,
    ...(extra.ignoreRecurring ? { ignoreRecurring: true } : {}),
  });
}

describe('fleet plan on 14 days with a nightly 8,200-IOPS batch (01:30–01:40 UTC)', () => {
  it.each(['max', 'p99', 'p95'] as const)(
    '--statistic %s: the same target as the series path (≥ 8,200 × 1.25)',
    (statistic) => {
      const v = plan(['gmd_nightly_batch_14d.json'], statistic).volumes[0]!;
      const series = unwrap(importMetrics(text('gmd_nightly_batch_14d.json')));
      const d = unwrap(demandFromSeries(series, { statistic }));
      expect(v.target).toEqual(demandTarget(peaksOf(d), 0.25));
      expect(v.target!.iops).toBeGreaterThanOrEqual(8_200 * 1.25);
    },
  );

  it('p99 names the recurrence in the volume notes; --ignore-recurring sizes on p99 and states the risk', () => {
    const kept = plan(['gmd_nightly_batch_14d.json'], 'p99').volumes[0]!;
    expect(kept.notes.join('\n')).toMatch(
      /VolumeWriteOps: recurring peak, max 4,100 IOPS at 01:30–01:40 UTC on 14 of 14 days; the p99 ignores it, so it is sized on it/,
    );
    const ignored = plan(['gmd_nightly_batch_14d.json'], 'p99', { ignoreRecurring: true });
    expect(ignored.ignoreRecurring).toBe(true);
    expect(ignored.volumes[0]!.target!.iops).toBeLessThan(1_800);
    expect(ignored.volumes[0]!.notes.join('\n')).toMatch(
      /ignored as asked \(--ignore-recurring\): those peaks will be throttled/,
    );
  });

  it('epoch-second timestamps (AWS CLI v1 / wire format) plan the same as ISO 8601', () => {
    const a = plan(['gmd_nightly_batch_14d_epoch.json'], 'p99').volumes[0]!;
    const b = plan(['gmd_nightly_batch_14d.json'], 'p99').volumes[0]!;
    expect(a.target).toEqual(b.target);
    expect(a.observed).toEqual(b.observed);
  });

  it('5-minute Sums only: the note says what they can hide and asks for the busiest minute', () => {
    const v = plan(['gmd_nightly_batch_14d.json'], 'max').volumes[0]!;
    expect(v.observed?.resolutionSeconds).toBe(300);
    expect(v.notes.join('\n')).toContain(
      'a 5-minute average of 8,200 IOPS can hold a 60-second burst of up to 41,000 IOPS',
    );
  });
});

describe('fleet plan: incomplete data is never silent', () => {
  it('only the first page (NextToken, PartialData): the plan and the volume are marked incomplete, naming the file', () => {
    const p = plan(['gmd_nightly_batch_first_page.json'], 'max');
    expect(p.complete).toBe(false);
    expect(p.incomplete).toEqual([
      { volumeId: VOLUME, reason: expect.stringContaining('gmd_nightly_batch_first_page.json') },
    ]);
    expect(p.volumes[0]!.incomplete).toBe(true);
    expect(p.volumes[0]!.notes.join('\n')).toContain(
      'incomplete data: gmd_nightly_batch_first_page.json: CloudWatch answered PartialData for this volume (the response has a NextToken: more pages exist)',
    );
  });

  it('the first page followed by the rest: complete', () => {
    // The rest of the answer, as a second page: the same series, NextToken absent.
    const p = plan(['gmd_nightly_batch_first_page.json', 'gmd_nightly_batch_14d.json'], 'max');
    // PartialData and the NextToken of the first page are answered by the file after it.
    expect(p.complete).toBe(true);
    expect(p.incomplete).toEqual([]);
    const whole = plan(['gmd_nightly_batch_14d.json'], 'max');
    expect(whole.complete).toBe(true);
    expect(whole.incomplete).toEqual([]);
  });
});

describe('fleet plan: the busiest minute and censored demand', () => {
  /** One volume, 2 days of 5-minute Sums at 1,000 IOPS (500 + 500, 16 KiB), plus VolumeAvgIOPS Maximum at `minute` IOPS. */
  function response(minute: number, vol = VOLUME, limitFlat = false) {
    const t0 = Date.parse('2026-11-20T00:00:00Z');
    const n = 2 * 288;
    const stamps = Array.from({ length: n }, (_, i) => new Date(t0 + (n - 1 - i) * 300_000).toISOString());
    const sum = (perSec: number) => Array.from({ length: n }, () => perSec * 300);
    return JSON.stringify({
      MetricDataResults: [
        {
          Id: 'v0_r_ops',
          Label: `${vol} VolumeReadOps`,
          Timestamps: stamps,
          Values: sum(500),
          StatusCode: 'Complete',
        },
        {
          Id: 'v0_w_ops',
          Label: `${vol} VolumeWriteOps`,
          Timestamps: stamps,
          Values: sum(500),
          StatusCode: 'Complete',
        },
        {
          Id: 'v0_r_bytes',
          Label: `${vol} VolumeReadBytes`,
          Timestamps: stamps,
          Values: sum(500 * 16384),
          StatusCode: 'Complete',
        },
        {
          Id: 'v0_w_bytes',
          Label: `${vol} VolumeWriteBytes`,
          Timestamps: stamps,
          Values: sum(500 * 16384),
          StatusCode: 'Complete',
        },
        {
          Id: 'v0_m_iops',
          Label: `${vol} VolumeAvgIOPS`,
          Timestamps: stamps,
          Values: Array.from({ length: n }, (_, i) => (limitFlat ? 11_900 : i % 3 === 0 ? minute : 1_000)),
          StatusCode: 'Complete',
        },
      ],
    });
  }

  it('VolumeAvgIOPS Maximum of 9,000 in 5-minute Sums of 1,000: sized on the busiest minute, 11,250 IOPS', () => {
    const metrics = createFleetMetrics();
    unwrap(addMetricDataText(metrics, response(9_000), { fileName: 'm.json' }));
    const v = plan([], 'max', { metrics }).volumes[0]!;
    expect(v.observed).toMatchObject({
      readIops: 500,
      writeIops: 500,
      peakIops: 9_000,
      resolutionSeconds: 60,
    });
    expect(v.target!.iops).toBe(11_250);
    expect(v.notes.join('\n')).toContain('sized on the busiest minute');
  });

  it('pinned at the 12,000-IOPS limit (VolumeAvgIOPS at 11,900 every minute): under, never right-sized', () => {
    const metrics = createFleetMetrics();
    unwrap(addMetricDataText(metrics, response(0, VOLUME, true), { fileName: 'm.json' }));
    const v = plan([], 'max', { metrics }).volumes[0]!;
    expect(v.censored).toBe(true);
    expect(v.status).toBe('under');
    expect(v.risk).toMatch(
      /^pinned at the limit (at least )?\d+\.\d % of the time; demand unknown above 12,000 IOPS: raise the limit/,
    );
  });

  it('Sums only, reads at 490 MiB/s on a 500-MiB/s gp3: throughput censored as IOPS is (a lower bound), under', () => {
    const r = JSON.parse(response(0)) as { MetricDataResults: { Id: string; Values: number[] }[] };
    r.MetricDataResults = r.MetricDataResults.filter((m) => m.Id !== 'v0_m_iops');
    const reads = r.MetricDataResults.find((m) => m.Id === 'v0_r_bytes')!;
    reads.Values = reads.Values.map(() => 490 * 1024 * 1024 * 300);
    const metrics = createFleetMetrics();
    unwrap(addMetricDataText(metrics, JSON.stringify(r), { fileName: 'm.json' }));
    const v = plan([], 'max', { metrics }).volumes[0]!;
    expect(v.censored).toBe(true);
    expect(v.status).toBe('under');
    expect(v.risk).toMatch(
      /^pinned at the limit at least \d+\.\d % of the time; demand unknown above 500\.0 MiB\/s: raise the limit/,
    );
  });

  it('the same responses through parseMetricData (JSON.parse path) and the scanner plan the same', () => {
    const viaScan = createFleetMetrics();
    unwrap(addMetricDataText(viaScan, text('gmd_nightly_batch_14d.json'), { fileName: 'x' }));
    const viaParse = unwrap(
      parseMetricData([JSON.parse(text('gmd_nightly_batch_14d.json'))], { fileNames: ['x'] }),
    );
    expect(plan([], 'p99', { metrics: viaParse }).volumes[0]!.target).toEqual(
      plan([], 'p99', { metrics: viaScan }).volumes[0]!.target,
    );
  });
});

describe('fleet plan text and markdown carry the demand findings', () => {
  it('recurring peaks and incomplete data are printed, not only in JSON', async () => {
    const { fleetPlanToMarkdown, fleetPlanToText } = await import('../fleet/format.ts');
    const p = plan(['gmd_nightly_batch_first_page.json'], 'p99');
    const t = fleetPlanToText(p);
    expect(t).toContain(
      'Recurring peaks:\n  vol-0e1d2c3b4a5968778: VolumeReadOps: recurring peak, max 4,100 IOPS at 01:30–01:40 UTC on 9 of 9 days',
    );
    expect(t).toContain(
      'INCOMPLETE DATA (the plan for these volumes is from part of their data):\n  vol-0e1d2c3b4a5968778: ',
    );
    expect(fleetPlanToMarkdown(p)).toContain(
      '> **Incomplete data** for 1 volume(s): vol-0e1d2c3b4a5968778 (',
    );
  });
});
