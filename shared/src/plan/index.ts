export {
  describeVolume,
  includedSettingsOf,
  provisionedFieldsOf,
  settingRangesOf,
  validateVolume,
  volumeCapabilities,
  volumeFromLabels,
  volumeToLabels,
  volumeWithSettings,
} from './volume.ts';
export type { VolumeConfig } from './volume.ts';
export { readShare } from './demand.ts';
export type { Demand } from './demand.ts';
export {
  attachContextOf,
  bottleneckStateOf,
  computeLimits,
  LIMIT_IDS,
  SATURATED_UTILIZATION,
  utilizationStatus,
} from './limits.ts';
export type { BottleneckState, Limit, LimitTarget, UtilizationStatus } from './limits.ts';
export {
  billedSeconds,
  clusterMonthlyCost,
  costPerCapability,
  durationCost,
  monthlyCost,
  overProvisioningWaste,
  wasteOf,
} from './cost.ts';
export type { CostBreakdown, DurationCost } from './cost.ts';
export { isUsable, volumeOfRecommendation } from './right-size.ts';
export type { InstanceAdvice, Recommendation } from './right-size.ts';
export { CLIFF_RATIO, sortedPercentiles } from './latency.ts';
export type { Cliff, LatencyComparison, LatencyVerdict } from './latency.ts';

export { ResidencySchema } from './viability.ts';
export type { Residency } from './viability.ts';
export { ANALYSIS_VERSION, planStorage } from './plan.ts';
export type { PlanInput, PlanResult } from './plan.ts';

export { CEILING_TOLERANCE } from './sustainability.ts';
export { CONFIGURATION_CHECK_CODES } from './configuration-checks.ts';
export {
  DatasetGrowthSchema,
  datasetCapacityOf,
  datasetCapacityText,
  datasetFitText,
} from './dataset-growth.ts';
export type { DatasetGrowth } from './dataset-growth.ts';
