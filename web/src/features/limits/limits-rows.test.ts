import {
  bottleneckStateOf,
  CEILING_TOLERANCE,
  planStorage,
  SATURATED_UTILIZATION,
  type PlanInput,
  type PlanResult,
} from '@blockwise/shared/plan';
import { profileFromFio } from '@blockwise/shared/profile';
import { summarizeRun } from '@blockwise/shared/analysis';
import { defaultRateCard, findInstanceType, upgradePool } from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { bottleneckText } from '../../lib/plan-text.ts';
import { fixtureReport, typedProfile } from '../../test/fixtures.ts';
import { MAX_AXIS_UTILIZATION, bottleneckCallout, limitRows } from './limits-rows.ts';

describe('limitRows', () => {
  it('[guide], r5d.4xlarge gp3 16k/1000: the instance bandwidth binds, units spelled out', () => {
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
    // 100.5%: within the domain's 5% tolerance of the ceiling, so at it (saturated), not over it.
    expect(bw.utilization).toBeLessThanOrEqual(CEILING_TOLERANCE);
    expect(bw.status).toBe('saturated');
    expect(bw.utilizationText).toBe('100.5%');
    expect(bw.bottleneckBadge).toBe('bottleneck');
    expect(bottleneckCallout(plan)).toMatchObject({ state: 'saturated', tone: 'concern', burst: null });
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

  it('local NVMe: the instance store ceiling of the direction it can judge, quoted at 4 KiB', () => {
    const profile = profileFromFio(fixtureReport('randread4k'));
    if (!profile.ok) throw new Error(profile.error.message);
    const plan = planStorage({
      profile: profile.value,
      target: { kind: 'nvme' },
      instance: findInstanceType('r6id.4xlarge')!,
      rateCard: defaultRateCard(),
    });
    const { rows } = limitRows(plan);
    // A 4 KiB random-read job: no writes, so no write ceiling is listed (nothing to judge).
    expect(rows.map((r) => r.id)).toEqual(['nvme-read-iops']);
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

const c6a = findInstanceType('c6a.xlarge')!;
const plan = (input: Omit<PlanInput, 'rateCard'>): PlanResult =>
  planStorage({
    rateCard: defaultRateCard(),
    instanceCandidates: input.instance ? upgradePool(input.instance) : [],
    ...input,
  });

// AWS's benchmark shape: 2 minutes of 16 KiB random writes at 40,000 IOPS (625 MiB/s) on
// c6a.xlarge (6,000 IOPS sustained, 40,000 for 30 minutes a day) with a 60,000-IOPS io2.
const bursting = () =>
  plan({
    profile: {
      ...typedProfile({ readMiBps: 0, readIops: 0, writeMiBps: 625, writeIops: 40_000, access: 'random' }),
      durationSec: 120,
    },
    target: { kind: 'ebs', volume: { type: 'io2', sizeGiB: 100, iops: 60_000 } },
    instance: c6a,
  });

describe('the bottleneck, as the domain states it', () => {
  it('bursting on c6a.xlarge: the 40,000-IOPS burst ceiling binds; 6,000 sustained is the fallback', () => {
    const p = bursting();
    expect(p.bottleneck).toMatchObject({ id: 'instance-iops-burst', state: 'bursting' });
    const { rows } = limitRows(p);
    const burst = rows.find((r) => r.id === 'instance-iops-burst')!;
    const sustained = rows.find((r) => r.id === 'instance-iops')!;
    expect(burst).toMatchObject({
      isBottleneck: true,
      bottleneckBadge: 'bottleneck: burst ceiling binds',
      isSustainedFallback: false,
      utilizationText: '100.0%',
      capacityText: '40,000 IOPS',
    });
    expect(sustained).toMatchObject({
      isBottleneck: false,
      bottleneckBadge: null,
      isSustainedFallback: true,
      capacityText: '6,000 IOPS',
      utilizationText: '666.7%',
      status: 'over',
    });
    expect(rows.filter((r) => r.isSustainedFallback)).toHaveLength(1);
    expect(bottleneckCallout(p)).toEqual({
      state: 'bursting',
      tone: 'watch',
      title: 'Bottleneck (burst ceiling): ',
      explanation: p.bottleneck!.explanation,
      burst: {
        binding: 'Instance EBS IOPS (burst): 40,000 IOPS (100.0%)',
        sustained: 'Instance EBS IOPS: 6,000 IOPS (666.7%)',
      },
    });
    expect(p.bottleneck!.explanation).toMatch(/Sustained, the ceiling is 6,000 IOPS/);
    expect(bottleneckText(p)).toBe('Instance EBS IOPS (burst) at 100%, sustained 667%');
  });

  it.each([
    // what, plan, bottleneck id, badge
    [
      'a 10-second fio run labelled gp3 3,000 IOPS on m5.large',
      () =>
        summarizeRun(fixtureReport('grouped'), {
          kind: 'ebs',
          volumeType: 'gp3',
          volumeSizeGiB: 100,
          volumeIops: 3000,
          volumeThroughputMiBps: 125,
          instanceType: 'm5.large',
        }).plan!,
    ],
    [
      'typed-in 569 MiB/s against a 125 MiB/s gp3 on r5d.4xlarge',
      () =>
        plan({
          profile: typedProfile({ readMiBps: 188, readIops: 3043, writeMiBps: 381, writeIops: 6018 }),
          target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000, iops: 3000, throughputMiBps: 125 } },
          instance: findInstanceType('r5d.4xlarge')!,
        }),
    ],
  ])('impossible — %s: a concern, never "saturated" or "pinned"', (_what, make) => {
    const p = make();
    expect(p.bottleneck!.state).toBe('impossible');
    const callout = bottleneckCallout(p)!;
    expect(callout).toMatchObject({
      state: 'impossible',
      tone: 'concern',
      title: 'Not deliverable: ',
      burst: null,
    });
    expect(callout.title + callout.explanation).not.toMatch(/saturated|pinned/);
    const row = limitRows(p).rows.find((r) => r.isBottleneck)!;
    expect(row).toMatchObject({ status: 'over', bottleneckBadge: 'not deliverable' });
    expect(bottleneckText(p)).toMatch(/ not deliverable \(\d+%\)$/);
  });

  it.each([
    // stored before 2026.11.2 (no state): utilization, saturated → state
    [0.6, false, 'within'],
    [0.97, true, 'saturated'],
    [1.04, true, 'saturated'],
    [2.5, true, 'impossible'],
  ] as const)(
    'an analysis stored without a state: %s (saturated %s) reads as %s',
    (utilization, saturated, state) => {
      expect(bottleneckStateOf({ id: 'volume-iops', utilization, saturated, explanation: '' })).toBe(state);
    },
  );

  it('sequential 64 KiB writes: the IOPS demand is merged, the unmerged worst case rides along', () => {
    // 10,000 × 64 KiB sequential writes = 625 MiB/s, merged into 2,500 operations of 256 KiB.
    const p = plan({
      profile: typedProfile({
        readMiBps: 0,
        readIops: 0,
        writeMiBps: 625,
        writeIops: 10_000,
        access: 'sequential',
      }),
      target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 1000, iops: 16_000, throughputMiBps: 1000 } },
      instance: findInstanceType('r6i.8xlarge')!,
    });
    const iops = limitRows(p).rows.find((r) => r.id === 'volume-iops')!;
    expect(iops.demandText).toBe('2,500 IOPS');
    expect(iops.unmergedText).toBe('10,000 IOPS');
    expect(limitRows(p).rows.find((r) => r.id === 'volume-throughput')!.unmergedText).toBeNull();
  });

  it('no state without a bottleneck', () => {
    const p = plan({
      profile: typedProfile({ readMiBps: 1, readIops: 100, writeMiBps: 1, writeIops: 100 }),
      target: null,
      instance: null,
    });
    expect(bottleneckCallout(p)).toBeNull();
    expect(bottleneckText(p)).toBeNull();
  });
});
