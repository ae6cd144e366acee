import { type RateCard } from '@blockwise/shared/aws';
import {
  planStorage,
  volumeOfRecommendation,
  type PlanInput,
  type PlanResult,
  type Recommendation,
} from '@blockwise/shared/plan';
import {
  defaultRateCard,
  findInstanceType,
  regionRateCardFor,
  seedGuideRateCard,
  upgradePool,
} from '@blockwise/shared/catalog';
import { describe, expect, it } from 'vitest';
import { describeRecommendation } from '../../lib/plan-text.ts';
import { typedProfile } from '../../test/fixtures.ts';
import {
  NO_PRICE,
  costBars,
  focusVerdicts,
  instanceOptionRows,
  liveWaste,
  recommendationCells,
  storedWaste,
  typeColumns,
} from './right-size-view.ts';

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
    instanceCandidates: upgradePool(instance),
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
    expect(volumeOfRecommendation(gp3)).toEqual({
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

const planFor = (input: Omit<PlanInput, 'instanceCandidates'>): PlanResult =>
  planStorage({ ...input, instanceCandidates: input.instance ? upgradePool(input.instance) : [] });
const recOf = (p: PlanResult, type: Recommendation['type']) =>
  p.rightSizing.recommendations.find((r) => r.type === type)!;

// 25,600 read + 25,600 write IOPS of 64 KiB (3,200 MiB/s) held by 4 × gp3 500 GiB on r6i.32xlarge,
// with gp3's limits before 2025 (16,000 IOPS, 1,000 MiB/s per volume): 64,000 IOPS and 4,000 MiB/s
// with 25% headroom take four volumes.
const stripe = () =>
  planFor({
    profile: typedProfile({ readMiBps: 1600, readIops: 25_600, writeMiBps: 1600, writeIops: 25_600 }),
    target: {
      kind: 'ebs',
      volume: { type: 'gp3', sizeGiB: 500, iops: 16_000, throughputMiBps: 1000, count: 4 },
    },
    instance: findInstanceType('r6i.32xlarge')!,
    rateCard: defaultRateCard(),
    gp3Generation: 'before-2025',
  });

// sa-east-1's built-in prices (2024-07-18) have no io2 price: io2 is sized, not priced.
const saEast1 = () =>
  planFor({
    profile: typedProfile({ readMiBps: 100, readIops: 5000, writeMiBps: 100, writeIops: 5000 }),
    target: { kind: 'ebs', volume: { type: 'gp3', sizeGiB: 500, iops: 12_000, throughputMiBps: 250 } },
    instance: findInstanceType('r6i.4xlarge')!,
    rateCard: regionRateCardFor('sa-east-1') as unknown as RateCard,
  });

describe('recommendations in words: stripes, unpriced types, not viable', () => {
  it.each([
    // what, plan, type, provision text
    ['4 × gp3 stripe', stripe, 'gp3', '4 × gp3 500 GiB, 16,000 IOPS, 1,000 MiB/s each (2,000 GiB total)'],
    ['16 × gp2 stripe (size only)', stripe, 'gp2', '16 × gp2 1,334 GiB each (21,344 GiB total)'],
    ['one io2 volume', stripe, 'io2', 'io2 2,000 GiB, 64,000 IOPS'],
    ['unpriced io2', saEast1, 'io2', 'io2 500 GiB, 12,500 IOPS'],
    ['one gp3 volume', saEast1, 'gp3', 'gp3 500 GiB, 12,500 IOPS, 250 MiB/s'],
    ['st1 for random I/O', saEast1, 'st1', null],
  ] as const)('%s', (_what, make, type, text) => {
    expect(describeRecommendation(recOf(make(), type))).toBe(text);
  });

  it('4 × gp3 500 GiB: what to provision on each volume, and what the stripe delivers and costs', () => {
    const p = stripe();
    const gp3 = recOf(p, 'gp3');
    expect(gp3).toMatchObject({ status: 'meets', rank: 1, volumeCount: 4, sizeGiB: 2000, iops: 64_000 });
    expect(volumeOfRecommendation(gp3)).toEqual({
      type: 'gp3',
      sizeGiB: 500,
      iops: 16_000,
      throughputMiBps: 1000,
      count: 4,
    });
    expect(recommendationCells(gp3)).toEqual({
      tone: 'ok',
      verdict: '1. meets the target',
      provision: '4 × gp3 500 GiB, 16,000 IOPS, 1,000 MiB/s each (2,000 GiB total)',
      size: '2,000 GiB',
      sizeNote: 'total of 4 volumes × 500 GiB (RAID 0)',
      iops: '64,000',
      throughput: '4,000 MiB/s',
      // 4 × (500 × $0.08 + 13,000 × $0.005 + 875 × $0.04)
      perNode: '$560.00',
      cluster: '$560.00',
    });
    const bar = costBars([{ title: '4 × gp3', plan: p }]).find((b) => b.key === 'r-gp3')!;
    expect(bar).toMatchObject({ name: 'gp3 right-sized (4 × stripe)', status: 'meets', total: 560 });
  });

  it('unpriced io2 in sa-east-1: sized, says "no price in this region", never $0, and is no cost bar', () => {
    const p = saEast1();
    const io2 = recOf(p, 'io2');
    expect(io2).toMatchObject({ status: 'unpriced', sizeGiB: 500, iops: 12_500 });
    expect(io2.monthlyUsd.total).toBe(0);
    const cells = recommendationCells(io2);
    expect(cells).toMatchObject({ tone: 'watch', perNode: NO_PRICE, cluster: NO_PRICE, size: '500 GiB' });
    expect(cells.verdict).toMatch(/no price in this region$/);
    expect(Object.values(cells).join(' ')).not.toMatch(/\$0/);
    expect(costBars([{ title: 'gp3', plan: p }]).map((b) => b.key)).not.toContain('r-io2');
  });

  it('not viable: every number is a dash (no "0 GiB", no "$0")', () => {
    const cells = recommendationCells(recOf(saEast1(), 'st1'));
    expect(cells).toMatchObject({ tone: 'concern', provision: '—', size: '—', perNode: '—', cluster: '—' });
    expect(cells.verdict).toMatch(/not viable$/);
  });

  it('capped by the instance: a watch, and its cost bar says so', () => {
    // 40,000 random 16 KiB writes on c6a.xlarge, which sustains 6,000 EBS IOPS.
    const p = planFor({
      profile: typedProfile({ readMiBps: 0, readIops: 0, writeMiBps: 625, writeIops: 40_000 }),
      target: { kind: 'ebs', volume: { type: 'io2', sizeGiB: 100, iops: 60_000 } },
      instance: findInstanceType('c6a.xlarge')!,
      rateCard: defaultRateCard(),
    });
    const gp3 = recOf(p, 'gp3');
    expect(gp3.status).toBe('capped-by-instance');
    expect(recommendationCells(gp3)).toMatchObject({
      tone: 'watch',
      verdict: `${gp3.rank}. capped by the instance — does not meet the target`,
      iops: '6,000',
    });
    expect(costBars([{ title: 'io2', plan: p }]).find((b) => b.key === 'r-gp3')!.status).toBe(
      'capped-by-instance',
    );
    // The instances that sustain the 50,000-IOPS target: the cheapest, then the alternatives.
    const options = instanceOptionRows(p.rightSizing.instanceAdvice);
    expect(options[0]).toEqual({
      instanceType: p.rightSizing.instanceAdvice!.upgrade!.instanceType,
      role: 'cheapest',
      bandwidth: expect.stringMatching(/^[\d,]+ Mbps$/),
      iops: expect.stringMatching(/^[\d,]+ IOPS$/),
      monthly: expect.stringMatching(/^\$[\d,]+\.\d\d$/),
      instanceStore: expect.stringMatching(/^(EBS only|local NVMe)$/),
    });
    expect(options.slice(1).map((o) => o.role)).toEqual(
      (p.rightSizing.instanceAdvice!.alternatives ?? []).map(() => 'alternative'),
    );
    expect(options.length).toBeGreaterThan(1);
  });

  it('instance options as stored by older analyses (no price per month, no store flag)', () => {
    expect(
      instanceOptionRows({
        exceeds: ['instance-iops'],
        message: 'm',
        upgrade: {
          instanceType: 'r6i.8xlarge',
          baselineBandwidthMbps: 10_000,
          baselineIops: 40_000,
          usdPerHourUsEast1: null,
        },
      }),
    ).toEqual([
      {
        instanceType: 'r6i.8xlarge',
        role: 'cheapest',
        bandwidth: '10,000 Mbps',
        iops: '40,000 IOPS',
        monthly: 'no us-east-1 price',
        instanceStore: '—',
      },
    ]);
    expect(instanceOptionRows(null)).toEqual([]);
  });

  it.each([
    // what, profile access, target IOPS, unmerged shown
    ['sequential 64 KiB writes: 2,500 merged operations, 10,000 if not merged', 'sequential', 3125, 12_500],
    ['random 64 KiB writes: one operation each, nothing more to say', 'random', 12_500, null],
  ] as const)('%s', (_what, access, iops, unmerged) => {
    const p = planFor({
      profile: typedProfile({ readMiBps: 0, readIops: 0, writeMiBps: 625, writeIops: 10_000, access }),
      target: null,
      instance: findInstanceType('r6i.8xlarge')!,
      rateCard: defaultRateCard(),
    });
    expect(p.rightSizing.target.iops).toBe(iops);
    expect(p.rightSizing.target.iopsUnmerged ?? null).toBe(unmerged);
  });
});
