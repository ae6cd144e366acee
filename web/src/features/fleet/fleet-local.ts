import {
  addMetricData,
  concurrencyGroupsOf,
  createFleetMetrics,
  FLEET_DEFAULTS,
  parseFleetInstances,
  parseFleetVolumes,
  planFleet,
  type FleetInstance,
  type FleetMetrics,
  type FleetPlan,
  type FleetStatistic,
  type FleetVolume,
} from '@blockwise/shared/fleet';
import { type Problem, type Result } from '@blockwise/shared/problem';
import type { Catalog } from '../../lib/catalog.ts';
import type { FleetInputs } from './fleet-files.ts';

/**
 * The preview: the plan computed in the browser from the dropped files, by the same shared
 * parsers and planner the server runs for "Save & share" (with the catalog the server serves, so
 * both give the same numbers). Nothing is uploaded until the user saves.
 */

export type FleetOptions = {
  headroom: number;
  statistic: FleetStatistic;
  region: string;
  /** Size p99/p95 on the percentile even where a peak recurs (`--ignore-recurring`, API `ignoreRecurring`). */
  ignoreRecurring: boolean;
};

/** The planner's defaults, as the CLI and the HTTP route apply them. */
export const DEFAULT_OPTIONS: FleetOptions = { ...FLEET_DEFAULTS, ignoreRecurring: false };

const fail = (code: string, message: string, path?: string): { ok: false; error: Problem } => ({
  ok: false,
  error: path === undefined ? { code, message } : { code, message, path },
});

/** The dropped files read once: volumes, instances and the metric summaries the planner needs. */
export type ReadFleet = {
  volumes: FleetVolume[];
  instances: FleetInstance[] | undefined;
  metrics: FleetMetrics;
};

/**
 * Parses the files and summarizes every metric file (the slow part: every point of every file).
 * Depends on the files only, so the page does it once per set of files, not once per option.
 */
export function readDroppedFleet(inputs: FleetInputs): Result<ReadFleet> | null {
  if (!inputs.volumes || inputs.metrics.length === 0) return null;
  const volumes = parseFleetVolumes(inputs.volumes.json);
  if (!volumes.ok)
    return fail(volumes.error.code, `${inputs.volumes.name}: ${volumes.error.message}`, inputs.volumes.name);
  let instances;
  if (inputs.instances) {
    const parsed = parseFleetInstances(inputs.instances.json);
    if (!parsed.ok)
      return fail(
        parsed.error.code,
        `${inputs.instances.name}: ${parsed.error.message}`,
        inputs.instances.name,
      );
    instances = parsed.value;
  }
  const metrics = createFleetMetrics();
  const volumeIds = volumes.value.map((v) => v.volumeId);
  // Volumes sharing an instance are summed point by point while reading (docs/fleet.md §2).
  const concurrency = concurrencyGroupsOf(volumes.value);
  for (const file of inputs.metrics) {
    const added = addMetricData(metrics, file.json, { fileName: file.name, volumeIds, concurrency });
    if (!added.ok) return added;
  }
  return { ok: true, value: { volumes: volumes.value, instances, metrics } };
}

/** The plan of files already read, for one choice of statistic, headroom, region and recurrence (cheap). */
export function planReadFleet(read: ReadFleet, options: FleetOptions, catalog: Catalog): Result<FleetPlan> {
  const fleetCatalog = catalog.fleetCatalogFor(options.region);
  if (!fleetCatalog.ok) return fleetCatalog;
  return {
    ok: true,
    value: planFleet({
      volumes: read.volumes,
      metrics: read.metrics,
      ...(read.instances ? { instances: read.instances } : {}),
      catalog: fleetCatalog.value,
      headroom: options.headroom,
      statistic: options.statistic,
      region: options.region,
      ...(options.ignoreRecurring ? { ignoreRecurring: true } : {}),
      // Planned in the web app: its notes name the page's options, not the CLI's flags.
      audience: 'web',
    }),
  };
}
