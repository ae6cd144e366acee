// Building a catalog from AWS's published inputs (pure: the server reads the files and streams).
export * from './offer-prices.ts';
export * from './instance-types.ts';
export * from './merge.ts';
export * from './diff.ts';
export * from './format.ts';
