// Building a catalog from AWS's published inputs (pure: the server reads the files and streams).
export { OfferAccumulator } from './offer-prices.ts';
export type { OfferRegionPrices } from './offer-prices.ts';
export { parseDescribeInstanceTypes, StoreIopsFileSchema } from './instance-types.ts';
export { emptyCatalog, mergeCatalog } from './merge.ts';
export type { CatalogInputs } from './merge.ts';
export { diffCatalogs, formatCatalogDiff } from './diff.ts';
export type { CatalogDiff } from './diff.ts';
export { formatCatalog } from './format.ts';
