// The demand model (docs/domain.md "Demand"): what a workload asked of its storage, with its evidence.
export * from './statistic.ts';
export * from './recurrence.ts';
export * from './censoring.ts';
export * from './demand.ts';
export * from './fleet.ts';
