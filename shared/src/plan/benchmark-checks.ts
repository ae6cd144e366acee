import type { InstanceSpec } from '../aws/instance-spec.ts';
import { instanceBursts } from '../aws/instance-spec.ts';
import { INSTANCE_BURST_MINUTES_PER_DAY } from '../aws/volume-types.ts';
import type { Warning } from '../problem.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { formatInt, mbps, mbpsToMiBps } from '../units.ts';
import { demandOf } from './demand.ts';
import type { Limit, LimitTarget } from './limits.ts';
import { gp2BaselineIops, gp2BurstSeconds } from './volume.ts';

/**
 * Benchmarks that can't be trusted (domain.md §10): each check returns a warning with a stable
 * code and the reason in plain words, attached to the number it concerns (`subject`).
 */
export const BENCHMARK_CHECK_CODES = [
  'default_block_size',
  'small_block_benchmark',
  'buffered_io',
  'too_short_for_burst',
  'instance_burst_window',
  'gp2_burst_credits',
  'above_provisioned_limit',
  'job_errors',
  'no_group_reporting',
  'several_phases',
  'cached_sequential_reads',
  'ended_before_runtime',
] as const;
export type BenchmarkCheckCode = (typeof BENCHMARK_CHECK_CODES)[number];

/** Shorter than this, burst credits and the instance's daily burst window can hide sustained limits. */
export const MIN_TRUSTED_RUNTIME_SEC = 30 * 60;
/** Measurements this far above a sustained ceiling cannot come from that ceiling. */
const ABOVE_LIMIT_TOLERANCE = 1.05;

const minutes = (sec: number) => `${(sec / 60).toFixed(sec < 600 ? 1 : 0)} min`;
const n0 = formatInt;

export type BenchmarkCheckInput = {
  profile: IoProfile;
  target: LimitTarget | null;
  instance: InstanceSpec | null;
  limits: readonly Limit[];
};

const w = (code: BenchmarkCheckCode, message: string, subject?: string): Warning =>
  subject === undefined ? { code, message } : { code, message, subject };

export function checkBenchmark({ profile, target, instance, limits }: BenchmarkCheckInput): Warning[] {
  const warnings: Warning[] = [];
  const facts = profile.benchmark;
  const duration = profile.durationSec;
  const demand = demandOf(profile);

  if (facts) {
    const sizes = [facts.configuredBlockSize.read, facts.configuredBlockSize.write].filter((s) => s !== null);
    if (facts.blockSizeDefaulted) {
      warnings.push(
        w(
          'default_block_size',
          "fio ran with its default 4 KiB blocks. Unless the application does 4 KiB I/O this measures a different workload: at 4 KiB local NVMe looks many times faster than EBS, at your real block size it may not. Set bs (or bsrange/bssplit) to the application's I/O sizes.",
          'blockSize',
        ),
      );
    } else if (sizes.length > 0 && sizes.every((s) => s === 4096)) {
      warnings.push(
        w(
          'small_block_benchmark',
          '4 KiB blocks measure IOPS, not throughput. Check that the application really does 4 KiB I/O (most databases use 8–16 KiB pages, logs and scans larger); otherwise benchmark at its block sizes.',
          'blockSize',
        ),
      );
    }
    if (facts.direct === false && facts.tool === 'fio') {
      warnings.push(
        w(
          'buffered_io',
          'direct=0: the page cache sat between fio and the device, so reads may come from RAM and writes return before reaching the volume. Use direct=1 to measure the storage.',
          'direct',
        ),
      );
    }
    if (facts.jobErrors.length > 0) {
      warnings.push(
        w(
          'job_errors',
          `fio reported errors: ${facts.jobErrors.map((e) => `job "${e.job}" error ${e.error}`).join(', ')}. The numbers of a failed job are not a measurement.`,
          'error',
        ),
      );
    }
    if (facts.jobEntries > facts.groups && facts.jobEntries >= 4) {
      warnings.push(
        w(
          'no_group_reporting',
          `${facts.jobEntries} job entries without group_reporting: IOPS and throughput are summed here, but latency percentiles cannot be added — without json+ bins the totals are ranges. Add group_reporting (or --output-format=json+).`,
          'latency',
        ),
      );
    }
    if (facts.groups > 1) {
      warnings.push(
        w(
          'several_phases',
          `${facts.groups} job groups (stonewall/new_group) ran one after another; summing them adds phases that never ran at the same time. Plan with one phase.`,
        ),
      );
    }
    if (
      facts.sequential &&
      facts.direct !== true &&
      !(facts.rampTimeSec && facts.rampTimeSec > 0) &&
      (profile.read.iops ?? 0) > 0
    ) {
      warnings.push(
        w(
          'cached_sequential_reads',
          'Sequential reads without ramp_time (and without direct=1): the first seconds may be served from cache. Add ramp_time and direct=1.',
          'read.bytesPerSec',
        ),
      );
    }
    if (
      facts.requestedRuntimeSec &&
      duration !== null &&
      !facts.timeBased &&
      duration < facts.requestedRuntimeSec * 0.9
    ) {
      warnings.push(
        w(
          'ended_before_runtime',
          `The job asked for ${minutes(facts.requestedRuntimeSec)} but finished its data in ${minutes(duration)} (time_based is off): the numbers cover only that.`,
          'runtime',
        ),
      );
    }
  }

  const bursting = instance?.ebs ? instanceBursts(instance) : false;
  const isGp2 = target?.kind === 'ebs' && target.volume.type === 'gp2';
  if (duration !== null && profile.source !== 'observed' && duration < MIN_TRUSTED_RUNTIME_SEC) {
    const windows = [
      isGp2 ? 'gp2 burst credits (about 30 minutes from a full bucket at 3,000 IOPS)' : null,
      bursting
        ? `${instance!.instanceType}'s ${INSTANCE_BURST_MINUTES_PER_DAY}-minute EBS burst window`
        : null,
    ].filter(Boolean);
    warnings.push(
      w(
        'too_short_for_burst',
        `The test ran ${minutes(duration)}, shorter than ${windows.length > 0 ? windows.join(' and ') : 'the 30-minute burst windows of gp2 volumes and of most instances'}: sustained numbers can be lower. Run at least 30 minutes (time_based, runtime=1800).`,
        'runtime',
      ),
    );
  }

  // The instance was bursting: above its baseline during a test shorter than the 30-minute window (seed: r6id).
  if (instance?.ebs && bursting && duration !== null && duration < INSTANCE_BURST_MINUTES_PER_DAY * 60) {
    const baselineMiBps = mbpsToMiBps(mbps(instance.ebs.baselineBandwidthMbps));
    const overTp = demand.throughputMiBps > baselineMiBps;
    const overIops = demand.iops > instance.ebs.baselineIops;
    if (overTp || overIops) {
      const what = [
        overTp
          ? `${n0(demand.throughputMiBps)} MiB/s is above the ${n0(baselineMiBps)} MiB/s baseline`
          : null,
        overIops
          ? `${n0(demand.iops)} IOPS is above the ${n0(instance.ebs.baselineIops)} IOPS baseline`
          : null,
      ].filter(Boolean);
      warnings.push(
        w(
          'instance_burst_window',
          `${instance.instanceType} was bursting: ${what.join(' and ')}, reachable only ${INSTANCE_BURST_MINUTES_PER_DAY} minutes per 24 hours, and the test ran ${minutes(duration)}. Sustained performance will be at most the baseline (${n0(instance.ebs.baselineBandwidthMbps)} Mbps = ${n0(baselineMiBps)} MiB/s, ${n0(instance.ebs.baselineIops)} IOPS).`,
          overTp ? 'throughput' : 'iops',
        ),
      );
    }
  }

  if (isGp2 && target?.kind === 'ebs') {
    const perVolumeDemand = demand.iops / (target.volume.count ?? 1);
    const seconds = gp2BurstSeconds(target.volume.sizeGiB, perVolumeDemand);
    if (seconds !== null && seconds > 0 && (duration === null || duration < seconds)) {
      warnings.push(
        w(
          'gp2_burst_credits',
          `At ${n0(perVolumeDemand)} IOPS per volume a full gp2 credit bucket lasts ${minutes(seconds)}${duration !== null ? ` and the test ran ${minutes(duration)}` : ''}; then the volume falls to its ${n0(gp2BaselineIops(target.volume.sizeGiB))} IOPS baseline.`,
          'iops',
        ),
      );
    }
  }

  for (const l of limits) {
    if (l.scope === 'instance-store') continue;
    // A measurement above a burst ceiling, or above a sustained ceiling that has no burst, means the configuration is mislabelled.
    const hasBurst = limits.some((b) => !b.sustained && b.id === `${l.id}-burst`);
    if (profile.source === 'fio' && l.utilization > ABOVE_LIMIT_TOLERANCE && (!l.sustained || !hasBurst)) {
      warnings.push(
        w(
          'above_provisioned_limit',
          `Measured ${n0(l.demand)} ${l.unit} is above the ${l.label} ceiling of ${n0(l.capacity)} ${l.unit}: is the run labelled with the right ${l.scope === 'volume' ? 'volume type/size/IOPS/throughput' : 'instance type'}?`,
          l.id,
        ),
      );
    }
  }
  return warnings;
}
