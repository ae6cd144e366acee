import * as catalog from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { metricsFixture } from '../metrics-fixtures.ts';
import { readMetrics } from '../metrics-reader.ts';
import { limitLines, statisticOptions, volumeToDraw, type PlanContext } from '../series-view.ts';
import { demandLegend } from './line-style.ts';

describe('the demand chart’s exported legend', () => {
  it('console_volume_sum_5min.csv against an io2 6,000 IOPS on r6i.4xlarge: each ceiling in its own dash', () => {
    const r = readMetrics(metricsFixture('console_volume_sum_5min.csv'), {});
    if (!r.ok) throw new Error(r.error.message);
    const instance = catalog.findInstanceType('r6i.4xlarge')!;
    const ctx: PlanContext = {
      instance,
      instanceCandidates: catalog.upgradePool(instance),
      rateCard: catalog.rateCardFor('us-east-1') ?? catalog.defaultRateCard(),
      headroom: 0.25,
      gp3Generation: 'current',
      nodes: 1,
      syncCommits: false,
      residency: 'unknown',
      datasetGiB: null,
      candidate: { type: 'io2', sizeGiB: 500, iops: 6000, count: 1 },
    };
    const option = statisticOptions(r.imported.profiles!, ctx)[0]!;
    const lines = limitLines(option.profile, volumeToDraw(ctx, option), instance).filter(
      (l) => l.unit === 'IOPS',
    );
    // Baseline and burst are both grey-black on the chart: only their dashes tell them apart.
    expect(demandLegend(lines).map((e) => [e.label, e.color, e.dashed ?? null])).toEqual([
      ['read', '#0969da', null],
      ['write (stacked on read)', '#bc4c00', null],
      ['Volume IOPS (io2): 6,000 IOPS', '#cf222e', '6 3'],
      ['Instance EBS IOPS (r6i.4xlarge): 20,000 IOPS', '#1b1f24', '4 3'],
      ['Instance EBS IOPS (burst) (r6i.4xlarge): 40,000 IOPS', '#57606a', '2 3'],
    ]);
  });
});
