import { CATALOG_FORMAT, INSTANCE_COLUMNS, type CatalogData, type CatalogSource } from '../catalog-schema.ts';
import {
  applyStoreIops,
  deriveDVariantPairs,
  mergeInstanceRows,
  type DescribedInstance,
  type StoreIopsFile,
} from './instance-types.ts';
import type { OfferRegionPrices } from './offer-prices.ts';

/** What one `catalog update` read, in the order it applies: each part names its source. */
export type CatalogInputs = {
  offers: { source: CatalogSource; regions: OfferRegionPrices[] }[];
  instances: { source: CatalogSource; instances: DescribedInstance[] }[];
  storeIops: { source: CatalogSource; file: StoreIopsFile }[];
};

export function emptyCatalog(generatedAt: string): CatalogData {
  return {
    format: CATALOG_FORMAT,
    generatedAt,
    sources: {},
    ebs: {},
    ec2: {},
    instances: { columns: [...INSTANCE_COLUMNS], rows: [] },
    dVariantPairs: [],
  };
}

/** A source id not yet used by another source: `id`, else `id#2`, `id#3`… */
function freeId(sources: Record<string, CatalogSource>, source: CatalogSource): string {
  const same = (s: CatalogSource | undefined) =>
    s !== undefined && s.location === source.location && s.fetchedAt === source.fetchedAt;
  if (!Object.hasOwn(sources, source.id) || same(sources[source.id])) return source.id;
  for (let n = 2; ; n++) {
    const id = `${source.id}#${n}`;
    if (!Object.hasOwn(sources, id) || same(sources[id])) return id;
  }
}

/**
 * `base` with the inputs merged over it: a region an offer prices replaces that region's EBS
 * prices (when the offer has EBS products there) and its EC2 prices (when it has instance
 * prices); a component the new offer lacks is null, never the old price under a new date.
 * Regions and instance types the inputs do not mention keep their numbers and sources. Sources
 * nothing refers to any more are dropped.
 */
export function mergeCatalog(
  base: CatalogData,
  inputs: CatalogInputs,
  generatedAt: string,
): { catalog: CatalogData; warnings: string[] } {
  const warnings: string[] = [];
  const sources: Record<string, CatalogSource> = { ...base.sources };
  const ebs = { ...base.ebs };
  const ec2 = { ...base.ec2 };
  const addSource = (source: CatalogSource): string => {
    const id = freeId(sources, source);
    sources[id] = { ...source, id };
    return id;
  };

  for (const offer of inputs.offers) {
    const id = addSource(offer.source);
    for (const r of offer.regions) {
      if (r.ebs)
        ebs[r.region] = {
          location: r.location ?? base.ebs[r.region]?.location ?? null,
          zoneType: r.zoneType ?? base.ebs[r.region]?.zoneType ?? null,
          source: id,
          rates: r.ebs.rates,
          snapshot: r.ebs.snapshot,
        };
      if (r.ec2) ec2[r.region] = { source: id, usdPerHour: r.ec2 };
    }
  }

  let rows = base.instances.rows;
  for (const file of inputs.instances) rows = mergeInstanceRows(rows, file.instances, addSource(file.source));
  for (const file of inputs.storeIops) {
    const applied = applyStoreIops(rows, file.file, addSource(file.source));
    rows = applied.rows;
    if (applied.skipped.length > 0)
      warnings.push(
        `${file.source.location}: store IOPS of ${applied.skipped.length} type(s) not applied, their store layout differs (${applied.skipped.slice(0, 5).join(', ')}${applied.skipped.length > 5 ? ', …' : ''})`,
      );
  }

  const catalog: CatalogData = {
    format: CATALOG_FORMAT,
    generatedAt,
    ...(base.note === undefined ? {} : { note: base.note }),
    sources: {},
    ebs: sortKeys(ebs),
    ec2: sortKeys(ec2),
    instances: { columns: [...INSTANCE_COLUMNS], rows },
    dVariantPairs: deriveDVariantPairs(rows),
  };
  catalog.sources = sortKeys(pickUsed(sources, catalog));
  return { catalog, warnings };
}

function pickUsed(
  sources: Record<string, CatalogSource>,
  catalog: CatalogData,
): Record<string, CatalogSource> {
  const used = new Set<string>();
  for (const r of Object.values(catalog.ebs)) used.add(r.source);
  for (const r of Object.values(catalog.ec2)) used.add(r.source);
  for (const row of catalog.instances.rows)
    for (const id of [row[18], row[19], row[20]]) if (id) used.add(id);
  return Object.fromEntries(Object.entries(sources).filter(([id]) => used.has(id)));
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
