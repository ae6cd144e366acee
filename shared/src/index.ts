// The Blockwise domain: everything that computes a number lives under this package.
// The AWS catalog data (instance types, prices) is a separate entry, `@blockwise/shared/catalog`,
// so browsers can load it lazily; everything here takes catalog records as arguments.
export * from './units.ts';
export * from './problem.ts';
export * from './storable-text.ts';
export * from './escape-text.ts';
export * from './fio/fio-report.schema.ts';
export * from './fio/index.ts';
export * from './profile/index.ts';
export * from './aws/volume-types.ts';
export * from './aws/instance-spec.ts';
export * from './aws/rate-card.ts';
export * from './plan/index.ts';
export * from './api/contract.ts';
export * from './api/catalog-info.ts';
export * from './compare/index.ts';
export * from './timeseries/index.ts';
export * from './sysbench/index.ts';
export * from './fio-job/index.ts';
export * from './history/index.ts';
