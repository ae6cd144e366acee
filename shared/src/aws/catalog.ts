// The AWS catalog: instance types, instance store, EC2 and EBS prices (generated data + lookups).
// A separate entry point (`@blockwise/shared/catalog`) so the web app can load it lazily. The
// analyses that resolve labels against it are `@blockwise/shared/analysis`, loaded beside it.
export {
  findInstanceType,
  listInstanceTypes,
  nvmePremium,
  suggestInstanceTypes,
  upgradePool,
} from './instances.ts';
export {
  defaultRateCard,
  listPriceRegions,
  rateCardFor,
  regionRateCardFor,
  seedGuideRateCard,
} from './ebs-prices.ts';
export {
  activeCatalog,
  builtInCatalog,
  catalogInfo,
  describeSource,
  installBuiltInCatalog,
  installCatalog,
  sourceDate,
} from './active-catalog.ts';
export { checkCatalogData, RegionCodeSchema } from './catalog-schema.ts';
export type { CatalogData, CatalogSource } from './catalog-schema.ts';
export {
  diffCatalogs,
  emptyCatalog,
  formatCatalog,
  formatCatalogDiff,
  mergeCatalog,
  OfferAccumulator,
  parseDescribeInstanceTypes,
  StoreIopsFileSchema,
} from './catalog-build/index.ts';
export type { CatalogDiff, CatalogInputs, OfferRegionPrices } from './catalog-build/index.ts';
