import type { RateCard, RegionRateCard } from './rate-card.ts';
import { copyRates, isFullyPriced, missingPrices, SEED_GUIDE_GP3 } from './rate-card.ts';
import { VOLUME_TYPES, type VolumeType } from './volume-types.ts';
import { activeCatalog, builtInCatalog, describeSource, sourceDate } from './active-catalog.ts';
import type { CatalogData, EbsRegion } from './catalog-schema.ts';

/**
 * EBS prices per region, from the active catalog (active-catalog.ts): the built-in one (Regions:
 * the EBS pricing page's price file of 2024-07-18; Local and Wavelength Zones: AWS Price List data
 * of 2022-02-10; see data/SOURCES.md) or a refreshed file (`blockwise catalog update`).
 * Each region's card carries its offer file, publication date and fetch date.
 */
export function listPriceRegions(): {
  code: string;
  location: string;
  zoneType: string;
  /** Every type priced: `rateCardFor` gives a card. */
  complete: boolean;
  /** Types the data has no (full) price for: [] when complete, all six when it prices nothing. */
  unpriced: VolumeType[];
}[] {
  return Object.entries(activeCatalog().ebs).map(([code, r]) => {
    const unpriced = missingPrices(toRegionRateCard(code, r)).map((m) => m.type);
    return {
      code,
      location: r.location ?? code,
      zoneType: r.zoneType ?? 'region',
      complete: unpriced.length === 0,
      unpriced,
    };
  });
}

/** The region's prices as the catalog has them, null where it has none (e.g. io2 in sa-east-1). */
function toRegionRateCard(
  code: string,
  region: EbsRegion,
  catalog: CatalogData = activeCatalog(),
): RegionRateCard {
  const r = region.rates;
  const source = catalog.sources[region.source];
  return {
    region: code,
    location: region.location,
    source: source ? describeSource(source) : region.source,
    date: source ? sourceDate(source) : 'unknown',
    ...copyRates(r),
  };
}

/**
 * The rate card of a region, or null when the catalog lacks it or lacks any price (e.g. io2 in
 * regions whose built-in prices list no io2): never a guessed price. `regionRateCardFor` gives the
 * prices such a region does have.
 */
export function rateCardFor(region: string): RateCard | null {
  const card = regionRateCardFor(region);
  return card !== null && isFullyPriced(card) ? card : null;
}

/**
 * A region's prices with null for each component the data lacks (sa-east-1: io2), so the other
 * types can still be costed; null when the region is unknown or the data prices no type there
 * (the China regions). Check `priceAvailable(card, type)` before costing a type.
 */
export function regionRateCardFor(region: string): RegionRateCard | null {
  const regions = activeCatalog().ebs;
  const r = Object.hasOwn(regions, region) ? regions[region] : undefined;
  if (r === undefined) return null;
  const card = toRegionRateCard(region, r);
  return missingPrices(card).length === VOLUME_TYPES.length ? null : card;
}

export const DEFAULT_REGION = 'us-east-1';

/**
 * us-east-1's card: the default when no region is given. A loaded catalog whose us-east-1 lacks
 * a price falls back to the built-in card (its source and date say so).
 */
export function defaultRateCard(): RateCard {
  const card = rateCardFor(DEFAULT_REGION);
  if (card) return card;
  const builtIn = builtInCatalog();
  return toRegionRateCard(DEFAULT_REGION, builtIn.ebs[DEFAULT_REGION]!, builtIn) as RateCard;
}

/**
 * The illustrative card of [guide] in docs/domain.md's sources (gp3 $0.08 / $0.005 / $0.06), over
 * us-east-1 for the other types.
 */
export function seedGuideRateCard(): RateCard {
  const base = defaultRateCard();
  return {
    ...base,
    region: null,
    location: null,
    source:
      'the guide "EBS gp3 vs Local NVMe" (I. Vari) example rates (gp3 $0.08/GB, $0.005/IOPS > 3,000, $0.06/MB/s > 125); other types us-east-1',
    date: '2026-03',
    gp3: { ...SEED_GUIDE_GP3 },
  };
}
