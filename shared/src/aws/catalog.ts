// The AWS catalog: instance types, instance store, EC2 and EBS prices (generated data + lookups).
// A separate entry point (`@blockwise/shared/catalog`) so the web app can load it lazily.
export * from './instances.ts';
export * from './ebs-prices.ts';
export * from './active-catalog.ts';
export * from './catalog-schema.ts';
export * from './catalog-build/index.ts';
// Analyses that resolve labels against the catalog (instance types, regional prices).
export * from '../analysis/index.ts';
