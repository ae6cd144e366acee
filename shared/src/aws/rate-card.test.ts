import { describe, expect, it } from 'vitest';
import { monthlyCost } from '../plan/cost.ts';
import { defaultRateCard, listPriceRegions, rateCardFor, regionRateCardFor } from './ebs-prices.ts';
import {
  applyRateOverrides,
  isFullyPriced,
  missingPrices,
  priceAvailable,
  pricedRateCard,
  RateCardSchema,
  RegionRateCardSchema,
  type RegionRateCard,
} from './rate-card.ts';
import { VOLUME_TYPES } from './volume-types.ts';

/** Real catalog regions: prices per component as the February 2022 AWS price list had them. */
const saEast1 = regionRateCardFor('sa-east-1')!;
const atlanta = regionRateCardFor('use1-atl1-az1')!;

function overSaEast1(rates: string): RegionRateCard {
  const r = applyRateOverrides(saEast1, rates);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

describe('missing prices, per component (the catalog as it is)', () => {
  it.each([
    // region, types without a price, what is null
    ['us-east-1', [], []],
    ['eu-central-1', [], []],
    ['sa-east-1', ['io2'], ['io2.storage', 'io2.iops', 'io2.iops2', 'io2.iops3']],
    ['eu-west-3', ['io2'], ['io2.storage', 'io2.iops', 'io2.iops2', 'io2.iops3']],
    // A Local Zone priced for gp2 only.
    ['use1-atl1-az1', ['gp3', 'io2', 'io1', 'st1', 'sc1'], null],
  ] as const)('%s: unpriced %j', (region, unpriced, nulls) => {
    const card = regionRateCardFor(region)!;
    expect(missingPrices(card).map((m) => m.type)).toEqual(unpriced);
    for (const type of VOLUME_TYPES)
      expect(priceAvailable(card, type)).toBe(!unpriced.includes(type as never));
    expect(isFullyPriced(card)).toBe(unpriced.length === 0);
    // rateCardFor keeps giving only complete cards, so callers typed RateCard never see a null.
    expect(rateCardFor(region) !== null).toBe(unpriced.length === 0);
    if (nulls) {
      const found = missingPrices(card).flatMap((m) => m.components.map((c) => `${m.type}.${c}`));
      expect(found).toEqual(nulls);
    }
  });

  // sa-east-1 is dated by the EBS pricing page's file of 2024-07-18 (data/SOURCES.md), which
  // still lists no io2 price there.
  it('the other types of sa-east-1 keep their prices', () => {
    expect(saEast1).toMatchObject({
      region: 'sa-east-1',
      date: '2024-07-18',
      gp3: { storage: 0.152, iops: 0.0095, throughput: 0.076 },
      io1: { storage: 0.238, iops: 0.091 },
      io2: { storage: null, iops: null, iops2: null, iops3: null },
    });
  });

  it.each([['cn-north-1'], ['mars-north-1'], ['__proto__'], ['constructor']])(
    '%s: no card at all (unknown, or priced for no type)',
    (region) => {
      expect(regionRateCardFor(region)).toBeNull();
      expect(rateCardFor(region)).toBeNull();
    },
  );

  it('listPriceRegions says which types each region lacks', () => {
    const regions = new Map(listPriceRegions().map((r) => [r.code, r]));
    expect(regions.get('sa-east-1')).toMatchObject({ complete: false, unpriced: ['io2'] });
    expect(regions.get('us-east-1')).toMatchObject({ complete: true, unpriced: [] });
    expect(regions.get('use1-atl1-az1')!.unpriced).toHaveLength(VOLUME_TYPES.length - 1);
    // The China regions price in CNY only: the catalog (USD) has no offer for them.
    expect(regions.has('cn-north-1')).toBe(false);
  });
});

describe('pricedRateCard: costing a type is an expected failure when its price is missing', () => {
  it.each([
    ['sa-east-1', 'gp3', 15.2],
    ['sa-east-1', 'io1', 23.8],
    ['sa-east-1', 'st1', 8.6],
    ['use1-atl1-az1', 'gp2', 15],
  ] as const)('%s %s 100 GiB (no provisioned IOPS) → $%s', (region, type, total) => {
    const r = pricedRateCard(regionRateCardFor(region)!, type);
    expect(r.ok).toBe(true);
    if (r.ok) expect(monthlyCost({ type, sizeGiB: 100 }, r.value).total).toBe(total);
  });

  it.each([
    [
      saEast1,
      'io2',
      "no io2 price for sa-east-1 in the catalog (AWS Price List, AmazonEC2 offer 20240718135337 for sa-east-1 (published 2024-07-18, fetched 2026-11-24) Regions only: the Amazon EBS pricing page's price file via yeo/ec2.shop@576c890f data/ebs/ebs.json, re-encoded, 2024-07-18)",
    ],
    [atlanta, 'gp3', /^no gp3 price for use1-atl1-az1 in the catalog \(AWS Price List.*, 2022-02-10\)$/],
    // Some components given by the user, the rest still missing: the message names the rest.
    [
      overSaEast1('io2.storage=0.2,io2.iops=0.1'),
      'io2',
      /^no io2 iops2, iops3 price for sa-east-1 in the rate card \(custom rates \(io2\.storage=0\.2, io2\.iops=0\.1\) over AWS/,
    ],
  ] as const)('%#: %s → price_missing', (card, type, message) => {
    const r = pricedRateCard(card, type);
    expect(r).toMatchObject({ ok: false, error: { code: 'price_missing', path: type } });
    if (!r.ok) expect(r.error.message).toMatch(message);
  });

  it('--rates can supply every missing component: the card then prices io2 (tiers as given)', () => {
    const card = overSaEast1('io2.storage=0.2,io2.iops=0.1,io2.iops2=0.07,io2.iops3=0.05');
    expect(priceAvailable(card, 'io2')).toBe(true);
    expect(isFullyPriced(card)).toBe(true);
    expect(card.source).toMatch(/^custom rates \(io2\.storage=0\.2, .*\) over AWS Price List/);
    // The base card is left as it was.
    expect(saEast1.io2.storage).toBeNull();
  });
});

describe('schemas: stored cards keep parsing', () => {
  it('a complete card is both a RateCard and a RegionRateCard; a card with a null price only the latter', () => {
    const complete = JSON.parse(JSON.stringify(defaultRateCard()));
    expect(RateCardSchema.safeParse(complete).success).toBe(true);
    expect(RegionRateCardSchema.safeParse(complete).success).toBe(true);
    const partial = JSON.parse(JSON.stringify(saEast1));
    expect(RegionRateCardSchema.safeParse(partial).success).toBe(true);
    expect(RateCardSchema.safeParse(partial).success).toBe(false);
  });
});
