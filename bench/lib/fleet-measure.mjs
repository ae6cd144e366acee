// P15's measurement (bench/goals/fleet.mjs), bundled with server/src/cli/fleet-worker.ts into one
// folder by esbuild exactly as server/scripts/build.mjs bundles the CLI, so the worker threads run
// the compiled code that ships (run through tsx, each worker re-registers the loader and scanned
// ~2× slower per file). Reads the response files in `dir` as `blockwise fleet plan` does, plans,
// and prints one JSON line: times, threads, peak RSS and the load average at the start.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readMetricsFiles, threadsFor } from '../../server/src/cli/fleet-metrics.ts';
import {
  concurrencyGroupsOf,
  parseFleetInstances,
  parseFleetVolumes,
  planFleet,
} from '../../shared/src/fleet/index.ts';
import { findInstanceType, regionRateCardFor, upgradePool } from '../../shared/src/aws/catalog.ts';

const round = (n, digits = 2) => Number(n.toFixed(digits));
const dir = process.env.P15_MEASURE_DIR;
const files = readdirSync(dir)
  .filter((f) => f.startsWith('metrics-'))
  .sort();
const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
const t0 = performance.now();
// CPU seconds of the whole process, worker threads included: steadier than wall time on a shared machine.
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const c0 = cpu();
const volumes = parseFleetVolumes(JSON.parse(readFileSync(join(dir, 'volumes.json'), 'utf8')));
const instances = parseFleetInstances(JSON.parse(readFileSync(join(dir, 'instances.json'), 'utf8')));
if (!volumes.ok || !instances.ok) throw new Error('generated describe-* output did not parse');
const volumeIds = volumes.value.map((v) => v.volumeId);
const threads = await threadsFor(files, dir);
// As the CLI: the volumes of each instance are summed point by point while reading.
const metrics = await readMetricsFiles(
  files,
  dir,
  volumeIds,
  threads,
  undefined,
  concurrencyGroupsOf(volumes.value),
);
const t1 = performance.now();
const c1 = cpu();
const plan = planFleet({
  volumes: volumes.value,
  instances: instances.value,
  metrics,
  catalog: {
    rateCard: regionRateCardFor('us-east-1'),
    findInstance: findInstanceType,
    instancePool: upgradePool,
    snapshotUsdPerGibMonth: null,
  },
  headroom: 0.25,
  statistic: 'p99',
});
const t2 = performance.now();
const c2 = cpu();
let points = 0;
for (const perVolume of metrics.series.values()) for (const s of Object.values(perVolume)) points += s.count;
const statuses = {};
for (const v of plan.volumes) statuses[v.status] = (statuses[v.status] ?? 0) + 1;
process.stdout.write(
  `${JSON.stringify({
    load_at_start: load,
    threads,
    read_s: round((t1 - t0) / 1000),
    plan_s: round((t2 - t1) / 1000),
    read_cpu_s: round(c1 - c0),
    plan_cpu_s: round(c2 - c1),
    points,
    peak_rss_mib: round(process.resourceUsage().maxRSS / 1024, 0),
    heap_used_mib: round(process.memoryUsage().heapUsed / 1024 / 1024, 0),
    statuses,
    instance_rows: plan.instances?.length ?? 0,
    fleet_saving_usd_per_month: plan.totals.fleet.savingUsdPerMonth,
  })}\n`,
);
