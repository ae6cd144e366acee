import type { Warning } from '../problem.ts';
import { averageBlockSize, bytesPerSec, iops } from '../units.ts';
import type {
  DirectionStats,
  DirectionTotals,
  FioReport,
  LatencyMs,
  PercentileRangeMs,
} from './fio-report.schema.ts';
import { noLatency, type NormalizedDirection, type NormalizedJob } from './normalize-job.ts';
import { mergeBins, percentileKey, percentileRange, percentilesFromBins } from './percentiles.ts';

/**
 * Totals over jobs (docs/fio-format.md §4): rates add within a run, percentiles do not. Per direction:
 * IOPS, bytes/s and io bytes are sums, runtime the maximum, the mean latency is pooled by sample
 * count, and the percentiles are one job's own (when only one job did I/O), recomputed from merged
 * json+ bins (exact, fio's own method), or else only a range over the jobs (approximate).
 */

/** Bytes moved (a job that failed on its first I/O counts total_ios = 1 with 0 bytes). */
const hadIo = (s: DirectionStats) => s.ioBytes > 0;

/** Combines one direction of several entries; `scope` names it in warnings (`total.read`, `groups.1.write`). */
export function aggregateDirection(
  entries: readonly NormalizedDirection[],
  scope: string,
  warnings: Warning[],
): DirectionStats {
  let iops = 0;
  let bytesPerSec = 0;
  let ioBytes = 0;
  let runtimeMs = 0;
  let totalIos: number | null = 0;
  for (const { stats } of entries) {
    iops += stats.iops;
    bytesPerSec += stats.bytesPerSec;
    ioBytes += stats.ioBytes;
    runtimeMs = Math.max(runtimeMs, stats.runtimeMs);
    totalIos = totalIos === null || stats.totalIos === null ? null : totalIos + stats.totalIos;
  }
  const active = entries.filter((e) => hadIo(e.stats));
  return {
    iops,
    bytesPerSec,
    blockSizeBytes: aggregateBlockSize(active),
    ioBytes,
    runtimeMs,
    totalIos,
    clatMs: aggregateLatency(active, scope, warnings),
  };
}

/** The average I/O size over jobs: summed bytes/s ÷ summed IOPS (docs/domain.md §2). */
function aggregateBlockSize(active: readonly NormalizedDirection[]): number | null {
  if (active.length === 0) return null;
  if (active.length === 1) return active[0]!.stats.blockSizeBytes;
  let totalIops = 0;
  let totalBytesPerSec = 0;
  for (const { stats } of active) {
    totalBytesPerSec += stats.bytesPerSec;
    totalIops += stats.iops;
  }
  return averageBlockSize(bytesPerSec(totalBytesPerSec), iops(totalIops));
}

function aggregateLatency(
  active: readonly NormalizedDirection[],
  scope: string,
  warnings: Warning[],
): LatencyMs {
  // Entries without I/O add no samples (fio 2.x leaves their count unknown, not non-zero).
  const samples = active.length === 0 ? 0 : sumOrNull(active.map((e) => e.stats.clatMs.samples));
  if (active.length === 0) return noLatency(samples);
  // One job did I/O in this direction (one entry, group_reporting, or the others did not touch
  // it): its distribution IS the combined one, so fio's own numbers are exact.
  if (active.length === 1) return { ...active[0]!.stats.clatMs, samples };

  const latencies = active.map((e) => e.stats.clatMs);
  const isTotalLatency = latencies.some((l) => l.isTotalLatency);
  const mean = pooledMean(latencies);
  const withPercentiles = latencies.flatMap((l) => (l.percentiles === null ? [] : [l.percentiles]));
  if (withPercentiles.length === 0) {
    return {
      mean,
      percentiles: null,
      method: 'none',
      range: null,
      approximate: false,
      isTotalLatency,
      samples,
    };
  }
  const range = rangeOverOneList(active) ?? percentileRange(withPercentiles);
  const divisor = active[0]!.divisor;
  const mergeable = active.every(
    (e) => e.bins !== null && e.divisor === divisor && e.percentileList.length > 0,
  );
  if (mergeable) {
    const list = [...new Set(active.flatMap((e) => e.percentileList))];
    const percentiles = percentilesFromBins(mergeBins(active.map((e) => e.bins!)), list, divisor);
    if (percentiles !== null) {
      return { mean, percentiles, method: 'merged-bins', range, approximate: false, isTotalLatency, samples };
    }
  }
  warnings.push({
    code: 'percentiles_approximate',
    message: `${scope}: ${active.length} jobs did I/O and fio gave no json+ latency bins to merge; percentiles of several jobs cannot be added, so only their range over the jobs is known (the combined value lies within it). Use group_reporting or --output-format=json+ for exact combined percentiles`,
    subject: `${scope}.clatMs`,
  });
  return {
    mean,
    percentiles: null,
    method: 'range-over-jobs',
    range,
    approximate: true,
    isTotalLatency,
    samples,
  };
}

/**
 * `percentileRange` of the entries' percentiles when all of them were read with one key list
 * (percentiles.ts hands jobs with the same percentile keys the same list): the list is the union
 * of their keys, already in ascending order, so no map of keys is built and sorted. Undefined
 * when the lists differ (or none has percentiles), for `percentileRange` to do it.
 */
function rangeOverOneList(active: readonly NormalizedDirection[]): PercentileRangeMs | undefined {
  let list: readonly number[] | null = null;
  for (const e of active) {
    if (e.stats.clatMs.percentiles === null) continue;
    if (list === null) list = e.percentileList;
    else if (e.percentileList !== list) return undefined;
  }
  if (list === null || list.length === 0) return undefined;
  const range: PercentileRangeMs = {};
  for (const p of list) {
    const key = percentileKey(p);
    let min = Infinity;
    let max = -Infinity;
    for (const e of active) {
      const percentiles = e.stats.clatMs.percentiles;
      if (percentiles === null) continue;
      const value = percentiles[key]!;
      if (value < min) min = value;
      if (value > max) max = value;
    }
    range[key] = { min, max };
  }
  return range;
}

/** Mean weighted by sample count; null when a job's count or mean is unknown. */
function pooledMean(latencies: readonly LatencyMs[]): number | null {
  let weighted = 0;
  let weight = 0;
  for (const l of latencies) {
    if (l.mean === null || l.samples === null) return null;
    weighted += l.mean * l.samples;
    weight += l.samples;
  }
  return weight > 0 ? weighted / weight : null;
}

function sumOrNull(values: readonly (number | null)[]): number | null {
  let sum = 0;
  for (const v of values) {
    if (v === null) return null;
    sum += v;
  }
  return sum;
}

/** read/write/trim (and mixed when any job has it) over a set of jobs. */
export function aggregateJobs(
  jobs: readonly NormalizedJob[],
  scope: string,
  warnings: Warning[],
): DirectionTotals {
  const withMixed = jobs.flatMap((j) => (j.mixed === null ? [] : [j.mixed]));
  return {
    read: aggregateDirection(
      jobs.map((j) => j.read),
      `${scope}.read`,
      warnings,
    ),
    write: aggregateDirection(
      jobs.map((j) => j.write),
      `${scope}.write`,
      warnings,
    ),
    trim: aggregateDirection(
      jobs.map((j) => j.trim),
      `${scope}.trim`,
      warnings,
    ),
    // docs/fio-format.md §5: `mixed` is read+write+trim as fio merged them; never added to them.
    mixed: withMixed.length === 0 ? null : aggregateDirection(withMixed, `${scope}.mixed`, warnings),
  };
}

/** The report's `total` and `groups` (stonewall / new_group phases, docs/fio-format.md §4). */
export function aggregateReport(
  jobs: readonly NormalizedJob[],
): Pick<FioReport, 'total' | 'groups'> & { warnings: Warning[] } {
  const warnings: Warning[] = [];
  const byGroup = new Map<number, NormalizedJob[]>();
  for (const job of jobs) {
    const list = byGroup.get(job.job.groupId);
    if (list) list.push(job);
    else byGroup.set(job.job.groupId, [job]);
  }
  const groupIds = [...byGroup.keys()].sort((a, b) => a - b);
  const total = aggregateJobs(jobs, 'total', warnings);
  // With one group, the group is the total (same jobs, same numbers, same warnings).
  if (groupIds.length === 1) return { total, groups: [{ groupId: groupIds[0]!, ...total }], warnings };
  const groupWarnings: Warning[] = [];
  const groups = groupIds.map((groupId) => ({
    groupId,
    ...aggregateJobs(byGroup.get(groupId)!, `groups.${groupId}`, groupWarnings),
  }));
  if (groupIds.length > 1) {
    warnings.push({
      code: 'several_groups',
      message: `${groupIds.length} job groups (stonewall / new_group) ran one after another; the totals add their rates as if they had run at the same time, so read the per-group results for the load of each phase`,
      subject: 'total',
    });
    warnings.push(...groupWarnings);
  }
  return { total, groups, warnings };
}
