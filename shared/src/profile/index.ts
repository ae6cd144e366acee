export { accessOf, AccessPatternSchema, ASSUMED_RANDOM, IoProfileSchema } from './io-profile.schema.ts';
export type { Access, AccessPattern, IoProfile } from './io-profile.schema.ts';
export { profileFromObserved } from './observed.ts';
export type { ObservedMetrics } from './observed.ts';
export { classifyBlockSize } from './size-class.ts';
export { profileFromFio } from './from-fio.ts';
