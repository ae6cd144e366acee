import type { DirectionStats, DirectionTotals, FioJob, FioReport } from '../fio/fio-report.schema.ts';
import { fail, ok, type Result, type Warning } from '../problem.ts';
import type {
  Access,
  AccessPattern,
  BenchmarkFacts,
  DirectionLoad,
  IoProfile,
  LatencySummary,
} from './io-profile.schema.ts';

/**
 * A fio report as a planning profile. The totals of one phase (job group) are the demand: groups
 * separated by `stonewall`/`new_group` ran one after another, so adding them would invent a load
 * that never happened. With several groups and none chosen, the busiest phase is used and a
 * warning says so.
 */
export type FromFioOptions = { group?: number; label?: string | null };

/** `Object.keys(o).length > 0` without building the array of keys. */
function hasKeys(o: object): boolean {
  for (const key in o) if (Object.hasOwn(o, key)) return true;
  return false;
}

function latencyOf(d: DirectionStats): LatencySummary | null {
  if (d.iops <= 0) return null;
  const c = d.clatMs;
  if (c.percentiles && hasKeys(c.percentiles)) {
    return { percentiles: c.percentiles, approximate: c.approximate, meanMs: c.mean };
  }
  if (c.range && hasKeys(c.range)) {
    // Percentiles of several jobs cannot be added; the combined value lies inside the per-job
    // range. For verdicts the upper bound is the honest choice (never flatter EBS or NVMe).
    const upper: Record<string, number> = {};
    for (const [key, bounds] of Object.entries(c.range)) upper[key] = bounds.max;
    return { percentiles: upper, approximate: true, meanMs: c.mean };
  }
  return null;
}

function loadOf(d: DirectionStats, sizeMix: DirectionLoad['sizeMix']): DirectionLoad {
  const load: DirectionLoad = {
    iops: d.iops,
    bytesPerSec: d.bytesPerSec,
    blockSizeBytes: d.blockSizeBytes,
    latency: latencyOf(d),
  };
  return sizeMix && d.iops > 0 ? { ...load, sizeMix } : load;
}

/** Which directions an fio `rw=` issues (HOWTO `readwrite`): trim is not planned for. */
const READS = new Set(['read', 'randread', 'rw', 'readwrite', 'randrw']);
const WRITES = new Set(['write', 'randwrite', 'rw', 'readwrite', 'randrw', 'trimwrite', 'randtrimwrite']);

/**
 * Random or sequential per direction, from the jobs' `rw=` (fio's default is `read`, sequential).
 * Jobs of both kinds in one direction make it `mixed`; a direction no job issues is `random`
 * (nothing to count either way).
 */
export function accessFromJobs(jobs: readonly FioJob[]): Access {
  const patterns = { read: new Set<AccessPattern>(), write: new Set<AccessPattern>() };
  for (const job of jobs) {
    const rw = job.settings.rw ?? 'read';
    const sequential = job.settings.sequential ?? !rw.startsWith('rand');
    const pattern: AccessPattern = sequential ? 'sequential' : 'random';
    if (READS.has(rw)) patterns.read.add(pattern);
    if (WRITES.has(rw)) patterns.write.add(pattern);
  }
  const one = (set: Set<AccessPattern>): AccessPattern =>
    set.size > 1 ? 'mixed' : (set.values().next().value ?? 'random');
  return { read: one(patterns.read), write: one(patterns.write), origin: 'fio' };
}

/** The jobs' bssplit for a direction when they all set the same one (else the average stands). */
function sizeMixOf(jobs: readonly FioJob[], dir: 'read' | 'write'): DirectionLoad['sizeMix'] {
  const splits = jobs.map((j) => j.settings.blockSizeSplit[dir]);
  const first = splits[0];
  if (!first || first.length < 2) return undefined;
  const same = splits.every((s) => JSON.stringify(s) === JSON.stringify(first));
  if (!same) return undefined;
  // fio spreads what the entries with a share leave evenly over those without one (HOWTO bssplit).
  const given = first.reduce((sum, e) => sum + (e.percent ?? 0), 0);
  const unset = first.filter((e) => e.percent === null).length;
  const rest = unset > 0 ? Math.max(0, 100 - given) / unset : 0;
  return first.map((e) => ({ blockSizeBytes: e.blockSizeBytes, percent: e.percent ?? rest }));
}

const busyness = (t: DirectionTotals) => t.read.bytesPerSec + t.write.bytesPerSec + t.trim.bytesPerSec;

/** Facts about how the chosen phase ran, from its jobs' settings (first job's, as group_reporting does). */
function benchmarkFacts(report: FioReport, jobs: FioJob[]): BenchmarkFacts {
  const first = jobs[0];
  const s = first?.settings;
  const configured = (dir: 'read' | 'write') => s?.blockSizeBytes[dir] ?? null;
  // Per-job entries (no group_reporting) each hold one clone; a group_reporting entry holds numjobs of them.
  const perEntryJobs = (job: FioJob) => (jobs.length > 1 ? 1 : (job.settings.numjobs ?? 1));
  const depthOf = (job: FioJob) => (job.settings.synchronousEngine ? 1 : (job.settings.iodepth ?? 1));
  const outstanding = jobs.length > 0 ? jobs.reduce((sum, j) => sum + depthOf(j) * perEntryJobs(j), 0) : null;
  return {
    tool: 'fio',
    version: report.fioVersion,
    configuredBlockSize: { read: configured('read'), write: configured('write') },
    blockSizeDefaulted: jobs.some((j) => j.settings.blockSizeDefaulted === true),
    direct: s?.direct ?? (first && Object.keys(first.options).length > 0 ? false : null),
    rw: s?.rw ?? null,
    sequential: s?.sequential ?? null,
    ioengine: s?.ioengine ?? null,
    outstandingIos: outstanding,
    timeBased: s?.timeBased ?? null,
    rampTimeSec: s?.rampTimeSec ?? null,
    requestedRuntimeSec: s?.runtimeSec ?? null,
    jobEntries: jobs.length,
    groups: report.groups.length,
    jobErrors: jobs.filter((j) => j.error !== 0).map((j) => ({ job: j.name, error: j.error })),
    syncs: jobs.some((j) => (j.settings.fsync ?? 0) > 0 || (j.sync?.totalIos ?? 0) > 0),
  };
}

export function profileFromFio(report: FioReport, options: FromFioOptions = {}): Result<IoProfile> {
  const warnings: Warning[] = [...report.warnings];
  let totals: DirectionTotals = report.total;
  let jobs = report.jobs;
  if (options.group !== undefined) {
    const g = report.groups.find((x) => x.groupId === options.group);
    if (!g) {
      return fail(
        'group_not_found',
        `group ${options.group} is not in this file (groups: ${report.groups.map((x) => x.groupId).join(', ') || 'none'})`,
        'group',
      );
    }
    totals = g;
    jobs = report.jobs.filter((j) => j.groupId === g.groupId);
  } else if (report.groups.length > 1) {
    const busiest = report.groups.reduce((a, b) => (busyness(b) > busyness(a) ? b : a));
    totals = busiest;
    jobs = report.jobs.filter((j) => j.groupId === busiest.groupId);
    warnings.push({
      code: 'phase_selected',
      message: `The file holds ${report.groups.length} job groups that ran one after another; the plan uses group ${busiest.groupId}, the busiest. Pick another group to plan for it.`,
      subject: 'group',
    });
  }
  if (jobs.length === 0) return fail('no_jobs', 'the fio file holds no jobs to plan with', 'jobs');
  const runtimeMs = Math.max(totals.read.runtimeMs, totals.write.runtimeMs, totals.trim.runtimeMs);
  return ok({
    source: 'fio',
    label:
      options.label ??
      (jobs.length === 1 || new Set(jobs.map((j) => j.name)).size === 1 ? jobs[0]!.name : null),
    read: loadOf(totals.read, sizeMixOf(jobs, 'read')),
    write: loadOf(totals.write, sizeMixOf(jobs, 'write')),
    durationSec: runtimeMs > 0 ? runtimeMs / 1000 : null,
    benchmark: benchmarkFacts(report, jobs),
    warnings,
    access: accessFromJobs(jobs),
  });
}
