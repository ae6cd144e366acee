import { activeCatalog } from '../aws/active-catalog.ts';
import { regionRateCardFor } from '../aws/ebs-prices.ts';
import { findInstanceType, upgradePool } from '../aws/instances.ts';
import type { RegionRateCard } from '../aws/rate-card.ts';
import type { FleetCatalog } from '../fleet/schema.ts';
import type { Result } from '../problem.ts';

/**
 * What the fleet planner needs from the active catalog for one region: its EBS rate card (or the
 * one the caller loaded, e.g. the CLI's `--rates` file), instance limits by type, and the region's
 * snapshot price (null when the catalog has none: savings from deleting then leave it out and say
 * so). The CLI, the HTTP route and the browser preview all build it here, so the three plan a fleet
 * with the same lookups.
 */
export function fleetCatalogFor(region: string, rateCard?: RegionRateCard): Result<FleetCatalog> {
  const card = rateCard ?? regionRateCardFor(region);
  if (!card)
    return {
      ok: false,
      error: {
        code: 'region_unknown',
        message: `no EBS prices for region ${region} in the catalog (${activeCatalog().generatedAt.slice(0, 10)})`,
        path: 'region',
      },
    };
  const ebs = activeCatalog().ebs;
  return {
    ok: true,
    value: {
      rateCard: card,
      findInstance: findInstanceType,
      instancePool: upgradePool,
      snapshotUsdPerGibMonth: Object.hasOwn(ebs, region) ? (ebs[region]?.snapshot.standard ?? null) : null,
    },
  };
}
