// AWS rules that need no catalog data: volume types and their limits, instance specs, rate cards.
// The catalog itself (instance types, instance store, prices) is `@blockwise/shared/catalog`
// (aws/catalog.ts), a separate entry so the browser loads its data lazily.
export {
  GP2,
  GP3,
  Gp3GenerationSchema,
  HDD,
  MERGE_MIN_IO_BYTES,
  provisionableGp3ThroughputMiBps,
  VOLUME_TRAITS,
  VOLUME_TYPES,
  VolumeTypeSchema,
} from './volume-types.ts';
export type { Gp3Generation, VolumeType } from './volume-types.ts';
export { sizeOf } from './instance-spec.ts';
export type { InstanceSpec } from './instance-spec.ts';
export {
  applyRateOverrides,
  missingComponents,
  missingPrices,
  priceAvailable,
  pricedRateCard,
  pricesOlderThanAYear,
  SEED_GUIDE_GP3,
} from './rate-card.ts';
export type { RateCard, RegionRateCard } from './rate-card.ts';
export { instanceStoreCapacity } from './instance-store.ts';
