import { planStorage } from '@blockwise/shared';
import { familyMembers, findInstanceType, seedGuideRateCard } from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { typedProfile } from '../../test/fixtures.ts';
import { configOf, costBars, focusVerdicts, liveWaste, storedWaste, typeColumns } from './right-size-view.ts';

// The seed's write-heavy NoSQL profile: ~10,000 write IOPS at ~500 MiB/s.
const profile = typedProfile({
  readMiBps: 20,
  readIops: 500,
  writeMiBps: 500,
  writeIops: 10_000,
  readLatencyMs: { '50': 57, '99': 133, '99.9': 159, '99.99': 180 },
});
const card = seedGuideRateCard();
const atMax = { type: 'gp3' as const, sizeGiB: 1000, iops: 80_000, throughputMiBps: 2000, count: 1 };

function plan(nodes = 4) {
  const instance = findInstanceType('r6i.8xlarge')!;
  return planStorage({
    profile,
    target: { kind: 'ebs', volume: atMax },
    instance,
    rateCard: card,
    nodes,
    minSizeGiB: 1000,
    familyMembers: familyMembers(instance.family),
  });
}

describe('right-size view', () => {
  it('gp3 vs io2 vs gp2 side by side with durability and consistency', () => {
    const cols = typeColumns(plan());
    expect(cols.map((c) => c.type)).toEqual(['gp3', 'io2', 'gp2']);
    expect(cols[0]!.rec).toMatchObject({ type: 'gp3', status: 'meets', rank: 1 });
    expect(cols[1]!.traits.durability).toBe('99.999%');
    expect(cols[2]!.traits.consistency).toMatch(/bursts/);
  });

  it('the seed’s cost story: 1 TB gp3 at the new maximum is $577.50 per node, $2,310 for 4 nodes', () => {
    const p = plan(4);
    const bars = costBars([{ title: 'gp3 at max', plan: p }]);
    expect(bars[0]).toMatchObject({
      kind: 'candidate',
      storage: 80,
      iops: 385,
      throughput: 112.5,
      total: 577.5,
      clusterTotal: 2310,
    });
    expect(bars.filter((b) => b.kind === 'right-sized').map((b) => b.name)).toContain('gp3 right-sized');
  });

  it('over-provisioning waste, live (overProvisioningWaste) and as stored', () => {
    const p = plan(4);
    const live = liveWaste(atMax, p, card, 4, 'current');
    expect(live).toHaveLength(2);
    expect(live[0]!.provisioned.total).toBe(2310);
    const gp3 = p.rightSizing.recommendations.find((r) => r.type === 'gp3')!;
    expect(live[0]!.rightSized.total).toBe(gp3.clusterMonthlyUsd.total);
    expect(live[0]!.wasteUsd).toBeCloseTo(2310 - gp3.clusterMonthlyUsd.total, 2);
    expect(storedWaste(p, 'gp3')).toEqual([{ ...live[0]!, label: live[0]!.label }]);
    expect(configOf(gp3)).toEqual({
      type: 'gp3',
      sizeGiB: gp3.sizeGiB,
      iops: gp3.iops,
      throughputMiBps: gp3.throughputMiBps,
    });
  });

  it('focus verdicts at a chosen percentile', () => {
    expect(focusVerdicts(plan(), '99').read).toMatchObject({ percentile: '99', valueMs: 133, verdict: 'ok' });
    expect(focusVerdicts(plan(), '99').write).toBeNull();
  });
});
