import { z } from 'zod';
import type { Result } from '../problem.ts';
import { fail, ok } from '../problem.ts';
import { VOLUME_TYPE_REGISTRY, VOLUME_TYPES, type RateKeyOf, type VolumeType } from './volume-types.ts';

/**
 * EBS prices for one region (or a user's own), in USD:
 * storage per GB-month (AWS's "GB" means GiB); gp3 `iops` per IOPS-month above the free 3,000 and
 * `throughput` per MiB/s-month above the free 125; io1 `iops` per IOPS-month (all of them); io2
 * graduated per IOPS-month: `iops` for 1–32,000, `iops2` for 32,001–64,000, `iops3` above.
 * Every card carries its source and date: a cost without them is not defensible.
 */
const rate = z.number().nonnegative().finite();

/** The types in the rate card's (and the catalog's) key order: the registry's. */
const CARD_TYPES = Object.keys(VOLUME_TYPE_REGISTRY) as VolumeType[];

/** The price components of a type, as `--rates` and the catalog name them: its descriptor's cost-component keys. */
const rateKeysOf = (type: VolumeType): readonly string[] =>
  VOLUME_TYPE_REGISTRY[type].costComponents.map((component) => component.key);

/** Each type's prices, copied (so a card can be edited without touching the one it came from). */
export function copyRates<R extends Record<VolumeType, object>>(rates: R): Pick<R, VolumeType> {
  return Object.fromEntries(CARD_TYPES.map((type) => [type, { ...rates[type] }])) as Pick<R, VolumeType>;
}

/** The price components of each volume type, given the schema of one price. */
const ratesOf = <R extends z.ZodType>(price: R) =>
  Object.fromEntries(
    CARD_TYPES.map((type) => [
      type,
      z.object(Object.fromEntries(rateKeysOf(type).map((key) => [key, price]))),
    ]),
  ) as { [T in VolumeType]: z.ZodObject<{ [K in RateKeyOf<T>]: R }> };

const cardFacts = {
  region: z.string().nullable(),
  location: z.string().nullable(),
  source: z.string(),
  date: z.string(),
};

/**
 * A card with a price for every component of every type: what the cost formulas read. A card
 * narrowed by `pricedRateCard`, or handed to the planner for a region that lacks a type, still
 * holds null for that type: before costing another type than the one it was narrowed for, ask
 * `priceAvailable`.
 */
export const RateCardSchema = z.object({ ...cardFacts, ...ratesOf(rate) });
export type RateCard = z.infer<typeof RateCardSchema>;

/**
 * A region's card as the catalog has it: `null` for a price component it lacks (sa-east-1 has no
 * io2 price in the built-in price data), never a guessed price. Every RateCard is one, so
 * cards stored before missing prices were allowed still parse. Ask `priceAvailable` before costing
 * a type, or narrow with `pricedRateCard`.
 */
export const RegionRateCardSchema = z.object({ ...cardFacts, ...ratesOf(rate.nullable()) });
export type RegionRateCard = z.infer<typeof RegionRateCardSchema>;

/** A volume type the card cannot price, and which of its components are missing. */
type MissingPrice = { type: VolumeType; components: string[] };

/** The price components of `type` the card lacks; [] when it can cost a volume of that type. */
export function missingComponents(card: RegionRateCard, type: VolumeType): string[] {
  const rates = card[type] as Record<string, number | null | undefined>;
  return rateKeysOf(type).filter((key) => typeof rates[key] !== 'number');
}

/** Every volume type with a missing price component, in VOLUME_TYPES order; [] when the card prices them all. */
export function missingPrices(card: RegionRateCard): MissingPrice[] {
  return VOLUME_TYPES.map((type) => ({ type, components: missingComponents(card, type) })).filter(
    (m) => m.components.length > 0,
  );
}

/** Whether the card has every price component of `type` (a volume of that type can be costed). */
export function priceAvailable(card: RegionRateCard, type: VolumeType): boolean {
  return missingComponents(card, type).length === 0;
}

/** Whether the card prices every type: then it is a RateCard. */
export function isFullyPriced(card: RegionRateCard): card is RateCard {
  return VOLUME_TYPES.every((type) => priceAvailable(card, type));
}

/**
 * The card, for costing a volume of `type` (plan/cost.ts's `monthlyCost` reads the volume's own
 * type's prices and no other), or the expected failure "no io2 price for sa-east-1 in the catalog
 * (source, date)". The result is the same object: another type the card does not price still
 * holds null, so read only `type`'s prices from it.
 */
export function pricedRateCard(card: RegionRateCard, type: VolumeType): Result<RateCard> {
  if (priceAvailable(card, type)) return ok(card as RateCard);
  return fail('price_missing', missingPriceMessage(card, type), type);
}

/** "no io2 price for sa-east-1 in the catalog (source, date)", naming the components when only some are missing. */
export function missingPriceMessage(card: RegionRateCard, type: VolumeType): string {
  const gap = missingComponents(card, type);
  const some = gap.length > 0 && gap.length < rateKeysOf(type).length;
  const what = some ? `no ${type} ${gap.join(', ')} price` : `no ${type} price`;
  const where = card.region === null ? '' : ` for ${card.region}`;
  const from = card.source.startsWith('custom') ? 'in the rate card' : 'in the catalog';
  return `${what}${where} ${from} (${card.source}, ${card.date})`;
}

/**
 * The example rates of [guide] (docs/domain.md, sources): $0.08 per GB, $0.005 per IOPS above
 * 3,000, $0.06 per MB/s above 125; its cost tables are computed with these. They are NOT the
 * real eu-central-1 rates (docs/domain.md §8); only gp3 is defined by the guide, the other types
 * use the built-in us-east-1 rates.
 */
export const SEED_GUIDE_GP3 = { storage: 0.08, iops: 0.005, throughput: 0.06 } as const;

/**
 * Applies user rates such as `storage=0.08,iops=0.005,throughput=0.06` (keys of `type`), or
 * qualified `gp3.storage=0.08,io2.iops2=0.05` (any type), over a base card. The result's source
 * says the card was edited, so a shared link never passes custom rates off as AWS prices. A rate
 * the base card lacks (null) can be given this way too; the result is a RateCard when the base is.
 */
export function applyRateOverrides<C extends RegionRateCard>(
  base: C,
  text: string,
  type?: VolumeType,
): Result<C> {
  const card = { ...base, ...copyRates(base) } as C;
  const pairs = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (pairs.length === 0)
    return fail('rates_invalid', 'expected key=value pairs such as storage=0.08,iops=0.005');
  const applied: string[] = [];
  for (const pair of pairs) {
    const m = /^([a-z0-9]+)(?:\.([a-z0-9]+))?\s*=\s*(\d+(?:\.\d+)?)$/i.exec(pair);
    if (!m)
      return fail(
        'rates_invalid',
        `"${pair}": expected key=value with a non-negative number, e.g. iops=0.005`,
      );
    const [, first, second, value] = m as unknown as [string, string, string | undefined, string];
    const t = (second === undefined ? type : first) as VolumeType | undefined;
    const key = second ?? first;
    if (t === undefined || !VOLUME_TYPES.includes(t)) {
      return fail(
        'rates_invalid',
        `"${pair}": say which volume type the rate is for (e.g. gp3.${key}=${value}) or pass the volume type`,
      );
    }
    if (!rateKeysOf(t).includes(key)) {
      return fail('rates_invalid', `"${pair}": ${t} has the rates ${rateKeysOf(t).join(', ')}`);
    }
    (card[t] as Record<string, number>)[key] = Number(value);
    applied.push(`${t}.${key}=${value}`);
  }
  card.source = `custom rates (${applied.join(', ')}) over ${base.source}`;
  return ok(card);
}

export function describeRateCard(card: RegionRateCard): string {
  return `${card.region ?? 'custom'}${card.location ? ` (${card.location})` : ''}, prices as of ${card.date}, source: ${card.source}`;
}

const DAY_MS = 86_400_000;

/**
 * Whether prices dated `date` (YYYY-MM-DD) are more than a year old on `today`: AWS changes
 * prices and opens regions several times a year, so such numbers deserve a refresh
 * (`blockwise catalog update`). A date that is not a day ([guide]'s "2026-03", docs/domain.md) is
 * not judged.
 */
export function pricesOlderThanAYear(date: string, today: Date): boolean {
  if (!/^\d{4}-\d{2}-\d{2}/.test(date)) return false;
  const at = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isFinite(at) && today.getTime() - at > 365 * DAY_MS;
}
