import { planStorage, profileFromFio, SATURATED_UTILIZATION } from '@blockwise/shared';
import { defaultRateCard, findInstanceType, summarizeRun } from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { fixtureReport, typedProfile } from '../../test/fixtures.ts';
import { MAX_AXIS_UTILIZATION, limitRows } from './limits-rows.ts';

describe('limitRows', () => {
  it('seed 000, r5d.4xlarge gp3 16k/1000: the instance bandwidth binds, units spelled out', () => {
    const plan = planStorage({
      profile: typedProfile({ readMiBps: 188, readIops: 3043, writeMiBps: 381, writeIops: 6018 }),
      target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 } },
      instance: findInstanceType('r5d.4xlarge')!,
      rateCard: defaultRateCard(),
    });
    const { rows, axisMax } = limitRows(plan);
    const bw = rows.find((r) => r.id === 'instance-bandwidth')!;
    expect(bw.isBottleneck).toBe(true);
    expect(rows.filter((r) => r.isBottleneck)).toHaveLength(1);
    expect(bw.capacityText).toBe('566.2 MiB/s');
    expect(bw.native).toEqual({ value: '4,750', unit: 'Mbps' });
    expect(bw.demandText).toBe('569 MiB/s');
    expect(bw.utilization).toBeGreaterThanOrEqual(SATURATED_UTILIZATION);
    expect(bw.status).toBe('over');
    expect(bw.utilizationText).toBe('100.5%');
    // The volume's own limits are shown too, each in its unit.
    expect(rows.find((r) => r.id === 'volume-iops')!.capacityText).toBe('16,000 IOPS');
    expect(rows.find((r) => r.id === 'volume-iops')!.native).toBeNull();
    expect(axisMax).toBe(1.5);
  });

  it('a real fio file on the wrong labels: off-scale bars are held at the axis end, warnings beside them', () => {
    const report = fixtureReport('grouped');
    const summary = summarizeRun(report, {
      kind: 'ebs',
      volumeType: 'gp3',
      volumeSizeGiB: 100,
      volumeIops: 3000,
      volumeThroughputMiBps: 125,
      instanceType: 'm5.large',
    });
    const { rows, axisMax } = limitRows(summary.plan!);
    expect(axisMax).toBe(MAX_AXIS_UTILIZATION);
    const iops = rows.find((r) => r.id === 'volume-iops')!;
    expect(iops.offScale).toBe(true);
    expect(iops.plotted).toBe(MAX_AXIS_UTILIZATION);
    expect(iops.utilization).toBeGreaterThan(MAX_AXIS_UTILIZATION);
    expect(iops.warnings.map((w) => w.code)).toContain('above_provisioned_limit');
    // Sustained ceilings first, burst ceilings after.
    const firstBurst = rows.findIndex((r) => !r.sustained);
    expect(rows.slice(firstBurst).every((r) => !r.sustained)).toBe(true);
  });

  it('local NVMe: the instance store ceilings, quoted at 4 KiB', () => {
    const profile = profileFromFio(fixtureReport('randread4k'));
    if (!profile.ok) throw new Error(profile.error.message);
    const plan = planStorage({
      profile: profile.value,
      target: { kind: 'nvme' },
      instance: findInstanceType('r6id.4xlarge')!,
      rateCard: defaultRateCard(),
    });
    const { rows } = limitRows(plan);
    expect(rows.map((r) => r.id)).toEqual(['nvme-read-iops', 'nvme-write-iops']);
    expect(rows[0]!.native?.unit).toBe('IOPS (4 KiB random read)');
  });

  it('no target and no instance: nothing to chart', () => {
    const plan = planStorage({
      profile: typedProfile({ readMiBps: 1, readIops: 100, writeMiBps: 1, writeIops: 100 }),
      target: null,
      instance: null,
      rateCard: defaultRateCard(),
    });
    expect(limitRows(plan).rows).toEqual([]);
  });
});
