// Fleet right-sizing (docs/fleet.md): describe-volumes + get-metric-data → one plan per volume.

export { FLEET_DEFAULTS, FLEET_HEADROOM_BOUNDS, FleetPlanSchema, FleetStatisticSchema } from './schema.ts';
export { FleetEvidenceFlagSchema, GET_METRIC_DATA_PRICE } from './evidence.ts';
export type {
  ConcurrencyGroups,
  FleetCatalog,
  FleetInstance,
  FleetMetrics,
  FleetPlan,
  FleetStatistic,
  FleetVolume,
  FleetVolumePlan,
  FleetVolumeStatus,
  MetricName,
} from './schema.ts';
export { parseFleetInstances, parseFleetVolumes } from './parse.ts';
export {
  checkFleetRequestSize,
  FLEET_PLAN_BYTES_SLACK,
  FLEET_REQUEST_LIMITS,
  MAX_FLEET_PLAN_TO_REQUEST,
  maxFleetPlanBytes,
} from './limits.ts';
export { buildMetricQueries, labelOf, MAX_POINTS_PER_RESPONSE, MAX_QUERIES_PER_REQUEST } from './queries.ts';
export {
  addMetricData,
  addMetricDataText,
  createFleetMetrics,
  mergeFleetMetrics,
  parseMetricData,
  summarizeMetricDataBytes,
  summarizeMetricDataText,
} from './metrics.ts';
export type { FleetMetricsPart } from './metrics.ts';
export { concurrencyGroupsOf } from './concurrent.ts';

export { MODIFICATION_RULE, planFleet } from './plan.ts';
export {
  describeFleetConfig,
  fleetPlanToCsv,
  fleetPlanToMarkdown,
  fleetPlanToText,
  recurringPeakNotes,
} from './format.ts';
export { describeAlternative } from './format-instances.ts';
