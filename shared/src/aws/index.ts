// AWS rules that need no catalog data: volume types and their limits, instance specs, rate cards.
// The catalog itself (instance types, instance store, prices) is `@blockwise/shared/catalog`
// (aws/catalog.ts), a separate entry so the browser loads its data lazily.
export * from './volume-types.ts';
export * from './instance-spec.ts';
export * from './rate-card.ts';
