import { describe, expect, it } from 'vitest';
import { volumeTypeLimits } from '../../fleet/limits.ts';
import { monthlyCost } from '../../plan/cost.ts';
import { rightSize } from '../../plan/right-size.ts';
import { settingRangesOf, validateVolume, volumeCapabilities, type VolumeConfig } from '../../plan/volume.ts';
import { publishedProfile } from '../../test-support/profiles.ts';
import { builtInCatalog } from '../active-catalog.ts';
import { classifyProduct } from '../catalog-build/offer-prices.ts';
import { defaultRateCard } from '../ebs-prices.ts';
import { RateCardSchema } from '../rate-card.ts';
import { SINGLE_DIGIT_MS, SUB_MILLISECOND } from './descriptor.ts';
import { VOLUME_TRAITS, VOLUME_TYPE_REGISTRY, VOLUME_TYPES, type VolumeType } from '../volume-types.ts';

/**
 * A volume type is one descriptor (docs/architecture.md, "Adding a volume type"): every list of
 * types the code keeps is enumerated here against VOLUME_TYPES, so a type added to one and not
 * another fails here, not in a user's plan.
 */

const registry = VOLUME_TYPE_REGISTRY as Record<VolumeType, (typeof VOLUME_TYPE_REGISTRY)[VolumeType]>;
const keysOf = (type: VolumeType) => registry[type].costComponents.map((c) => c.key);
const card = defaultRateCard();

describe('every registry holds every volume type, and only those', () => {
  it('the descriptors are the type list', () => {
    expect(Object.keys(VOLUME_TYPE_REGISTRY).sort()).toEqual([...VOLUME_TYPES].sort());
    expect(Object.keys(VOLUME_TRAITS)).toEqual([...VOLUME_TYPES]);
  });

  it.each(VOLUME_TYPES)('%s: the rate card prices exactly its cost components', (type) => {
    expect(Object.keys(RateCardSchema.shape[type].shape)).toEqual(keysOf(type));
  });

  it.each(VOLUME_TYPES)(
    '%s: every region of the built-in catalog has a (possibly null) price per component',
    (type) => {
      for (const [region, entry] of Object.entries(builtInCatalog().ebs))
        expect(Object.keys(entry.rates[type]), `${region} ${type}`).toEqual(keysOf(type));
    },
  );

  it.each(VOLUME_TYPES)('%s: each component has a Price List usage type, read into the same key', (type) => {
    for (const component of registry[type].costComponents) {
      const product = {
        productFamily: 'Storage',
        attributes: { usagetype: `EUC1-${component.usageType}`, regionCode: 'eu-central-1' },
      };
      const wanted = classifyProduct(product, 'eu-central-1');
      expect(wanted && wanted.kind === 'ebs' ? wanted.key : null).toBe(`${type}.${component.key}`);
    }
  });

  it('no usage type is claimed by two components', () => {
    const all = VOLUME_TYPES.flatMap((type) => registry[type].costComponents.map((c) => c.usageType));
    expect(new Set(all).size).toBe(all.length);
  });

  it.each(VOLUME_TYPES)(
    '%s: the fleet reader bounds it by its own maxima, not the any-type fallback',
    (type) => {
      const max = registry[type].maxima;
      expect(volumeTypeLimits(type)).toEqual({
        sizeGib: max.sizeGiB,
        iops: max.iops,
        throughputMibps: max.throughputMiBps,
      });
    },
  );

  it.each(VOLUME_TYPES)('%s: offers only types of its own media, itself included', (type) => {
    const alternatives = registry[type].alternatives;
    expect(alternatives).toContain(type);
    for (const other of alternatives) {
      expect(VOLUME_TYPES).toContain(other);
      expect(registry[other].traits.media).toBe(registry[type].traits.media);
    }
  });

  it('the right-sizer sizes every type', () => {
    const result = rightSize({
      profile: publishedProfile({
        readMiBps: 160,
        readIops: 640,
        writeMiBps: 0,
        writeIops: 0,
        durationSec: 3600,
      }),
      headroom: 0.2,
      minSizeGiB: 500,
      instance: null,
      rateCard: card,
    });
    expect(result.recommendations.map((r) => r.type).sort()).toEqual([...VOLUME_TYPES].sort());
  });
});

/** The smallest valid volume of a type: its minimum size, and its minimum of every setting it takes. */
function smallest(type: VolumeType): VolumeConfig {
  const r = settingRangesOf(type);
  const v: VolumeConfig = { type, sizeGiB: Math.max(r.sizeGiB[0], 125) };
  if (r.iops) v.iops = r.iops[0];
  if (r.throughputMiBps) v.throughputMiBps = r.throughputMiBps[0];
  return v;
}

describe('a descriptor is self-consistent', () => {
  it.each(VOLUME_TYPES)('%s: its smallest volume is valid and delivers something', (type) => {
    const v = smallest(type);
    expect(validateVolume(v)).toEqual([]);
    const caps = volumeCapabilities(v);
    expect(caps.iops).toBeGreaterThan(0);
    expect(caps.throughputMiBps).toBeGreaterThan(0);
    expect(caps.media).toBe(registry[type].traits.media);
  });

  it.each(VOLUME_TYPES)('%s: cost is Σ quantity × rate of its components (us-east-1, 2022-02-10)', (type) => {
    const v = smallest(type);
    const rates = card[type] as Record<string, number>;
    const sum = registry[type].costComponents.reduce((s, c) => s + c.quantity(v) * rates[c.key]!, 0);
    expect(monthlyCost(v, card).total).toBeCloseTo(sum, 2);
  });

  it('the latency promise is one constant per phrase of the AWS table (single-digit ms, sub-ms; none for HDD)', () => {
    const promises = Object.fromEntries(VOLUME_TYPES.map((t) => [t, registry[t].latencyPromise]));
    expect(promises).toEqual({
      gp2: SINGLE_DIGIT_MS,
      gp3: SINGLE_DIGIT_MS,
      io1: SINGLE_DIGIT_MS,
      io2: SUB_MILLISECOND,
      st1: null,
      sc1: null,
    });
    // The same object, not a copy that could drift from it.
    expect(new Set([registry.gp2, registry.gp3, registry.io1].map((d) => d.latencyPromise)).size).toBe(1);
    expect([SINGLE_DIGIT_MS.fromMs, SINGLE_DIGIT_MS.underMs, SUB_MILLISECOND.underMs]).toEqual([1, 10, 1]);
  });
});

describe('the components of each type, as the Price List names them (aws/catalog-build/offer-prices.ts)', () => {
  it.each([
    ['gp2', [['storage', 'EBS:VolumeUsage.gp2']]],
    [
      'gp3',
      [
        ['storage', 'EBS:VolumeUsage.gp3'],
        ['iops', 'EBS:VolumeP-IOPS.gp3'],
        ['throughput', 'EBS:VolumeP-Throughput.gp3'],
      ],
    ],
    [
      'io1',
      [
        ['storage', 'EBS:VolumeUsage.piops'],
        ['iops', 'EBS:VolumeP-IOPS.piops'],
      ],
    ],
    [
      'io2',
      [
        ['storage', 'EBS:VolumeUsage.io2'],
        ['iops', 'EBS:VolumeP-IOPS.io2'],
        ['iops2', 'EBS:VolumeP-IOPS.io2.tier2'],
        ['iops3', 'EBS:VolumeP-IOPS.io2.tier3'],
      ],
    ],
    ['st1', [['storage', 'EBS:VolumeUsage.st1']]],
    ['sc1', [['storage', 'EBS:VolumeUsage.sc1']]],
  ] as const)('%s', (type, components) => {
    expect(registry[type].costComponents.map((c) => [c.key, c.usageType])).toEqual(components);
  });

  it('an io2 volume of 80,000 IOPS is billed in three tiers (us-east-1: 32,000 × $0.065 + 32,000 × $0.0455 + 16,000 × $0.03185)', () => {
    const v = { sizeGiB: 1000, iops: 80_000 };
    expect(registry.io2.costComponents.map((c) => [c.key, c.quantity(v)])).toEqual([
      ['storage', 1000],
      ['iops', 32_000],
      ['iops2', 32_000],
      ['iops3', 16_000],
    ]);
    expect(monthlyCost({ type: 'io2', ...v }, card)).toEqual({
      storage: 125,
      iops: 4045.6,
      throughput: 0,
      total: 4170.6,
    });
  });
});
