import { planStorage, type PlanResult } from '@blockwise/shared/plan';
import { defaultRateCard, findInstanceType, upgradePool } from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { COLORS } from '../../lib/palette.ts';
import { typedProfile } from '../../test/fixtures.ts';
import { BURST_OPACITY, limitBarStyle, limitsLegend } from './limits-legend.ts';
import { limitRows } from './limits-rows.ts';

const planOn = (
  instanceType: string,
  input: Omit<Parameters<typeof planStorage>[0], 'rateCard' | 'instance'>,
): PlanResult => {
  const instance = findInstanceType(instanceType)!;
  return planStorage({
    rateCard: defaultRateCard(),
    instance,
    instanceCandidates: upgradePool(instance),
    ...input,
  });
};

// [guide] r5d.4xlarge with a gp3 16,000 IOPS / 1,000 MiB/s: the instance bandwidth binds (saturated).
const guide = () =>
  planOn('r5d.4xlarge', {
    profile: typedProfile({ readMiBps: 188, readIops: 3043, writeMiBps: 381, writeIops: 6018 }),
    target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 } },
  });

// AWS's benchmark shape on c6a.xlarge: the 40,000-IOPS burst ceiling binds, 6,000 sustained is the fallback.
const bursting = () =>
  planOn('c6a.xlarge', {
    profile: {
      ...typedProfile({ readMiBps: 0, readIops: 0, writeMiBps: 625, writeIops: 40_000, access: 'random' }),
      durationSec: 120,
    },
    target: { kind: 'ebs', volume: { type: 'io2', sizeGiB: 100, iops: 60_000 } },
  });

const labels = (plan: PlanResult) => limitsLegend(limitRows(plan).rows).map((e) => e.label);

describe('What binds: legend of the bar colours (drawn into the exported PNG)', () => {
  it.each([
    [
      'guide, r5d.4xlarge gp3: the bottleneck, headroom and the 100% line (no burst ceilings listed)',
      guide,
      ['bottleneck (the ceiling that binds)', 'headroom', '100% = demand at the ceiling'],
    ],
    [
      'bursting c6a.xlarge: the amber fallback, the sustained bandwidth over its ceiling, faded bursts',
      bursting,
      [
        'bottleneck (the ceiling that binds)',
        'sustained ceiling after the burst',
        'at or over its ceiling',
        'headroom',
        'faded: burst ceiling (temporary)',
        '100% = demand at the ceiling',
      ],
    ],
  ])('%s', (_name, scenario, expected) => {
    expect(labels(scenario())).toEqual(expected);
  });

  it('every bar look the chart draws has its legend entry, in the same colours', () => {
    for (const plan of [guide(), bursting()]) {
      const { rows } = limitRows(plan);
      const legend = limitsLegend(rows);
      for (const row of rows) {
        const style = limitBarStyle(row);
        const solid = legend.filter((e) => !e.dashed && e.opacity === undefined);
        expect(
          solid.some((e) => e.color === style.fill),
          `${row.label}: ${style.fill} in the legend`,
        ).toBe(true);
        if (style.opacity < 1) expect(legend.some((e) => e.opacity === style.opacity)).toBe(true);
        if (style.outline) expect(legend.some((e) => e.outline === style.outline)).toBe(true);
      }
    }
  });

  it('styles: the bottleneck red and framed, the fallback amber, burst ceilings faded', () => {
    const rows = limitRows(bursting()).rows;
    const byId = (id: string) => limitBarStyle(rows.find((r) => r.id === id)!);
    expect(byId('instance-iops-burst')).toEqual({
      fill: COLORS.concern,
      opacity: BURST_OPACITY,
      outline: COLORS.text,
    });
    expect(byId('instance-iops')).toEqual({ fill: COLORS.watch, opacity: 1, outline: null });
    expect(byId('volume-iops')).toEqual({ fill: COLORS.neutral, opacity: 1, outline: null });
  });
});
