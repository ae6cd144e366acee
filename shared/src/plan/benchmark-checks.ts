import type { InstanceSpec } from '../aws/instance-spec.ts';
import { instanceBursts } from '../aws/instance-spec.ts';
import { descriptorOf, INSTANCE_BURST_MINUTES_PER_DAY } from '../aws/volume-types.ts';
import type { Warning } from '../problem.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import { formatInt, mbps, mbpsToMiBps } from '../units.ts';
import type { Limit, LimitTarget } from './limits.ts';
import { findOverruns, operationsPerVolume, type Overrun } from './sustainability.ts';
import { describeVolume, gp2BaselineIops } from './volume.ts';

/**
 * Benchmarks that can't be trusted (docs/domain.md §10): each check returns a warning with a stable
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
  'exceeds_sustainable',
  'hdd_burst_credits',
  'job_errors',
  'no_group_reporting',
  'several_phases',
  'cached_sequential_reads',
  'ended_before_runtime',
] as const;
export type BenchmarkCheckCode = (typeof BENCHMARK_CHECK_CODES)[number];

/** Shorter than this, burst credits and the instance's daily burst window can hide sustained limits. */
export const MIN_TRUSTED_RUNTIME_SEC = 30 * 60;

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
  // Instance store has no burst: the EBS windows say nothing about a run on local NVMe.
  // Nothing to outlast when the volume has no credits and the instance does not burst.
  const volumeBursts =
    target?.kind !== 'ebs' || descriptorOf(target.volume.type).burst !== null || instance === null;
  if (
    target?.kind !== 'nvme' &&
    (volumeBursts || bursting) &&
    duration !== null &&
    profile.source !== 'observed' &&
    profile.source !== 'timeseries' &&
    duration < MIN_TRUSTED_RUNTIME_SEC
  ) {
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
  warnings.push(
    ...checkOverruns(findOverruns({ profile, target, limits }), { profile, target, instance, limits }),
  );
  return warnings;
}

const held = (o: Overrun) => (o.heldSec === null ? 'for an unknown time' : `for ${minutes(o.heldSec)}`);
const lasts = (sec: number | null) =>
  sec === null ? 'no time' : sec === Infinity ? 'indefinitely' : minutes(sec);

/** One warning per kind of overrun (the instance's IOPS and bandwidth together, say). */
function checkOverruns(
  overruns: readonly Overrun[],
  { profile, target, instance, limits }: BenchmarkCheckInput,
): Warning[] {
  const warnings: Warning[] = [];
  const amount = (l: Limit) => `${n0(l.demand)} ${l.unit}`;
  const config = (o: Overrun) =>
    o.limit.scope === 'instance'
      ? (instance?.instanceType ?? 'the instance')
      : target?.kind === 'ebs'
        ? describeVolume(target.volume)
        : 'the volume';
  for (const o of overruns.filter((x) => x.verdict !== 'bursting')) {
    const ceiling =
      o.verdict === 'above-ceiling'
        ? o.burst
          ? `even its burst ceiling (${o.burst.label}) is ${n0(o.burst.capacity)} ${o.burst.unit}`
          : `${o.limit.label} is ${n0(o.limit.capacity)} ${o.limit.unit} and does not burst`
        : `${o.limit.label} is ${n0(o.limit.capacity)} ${o.limit.unit} sustained, and its burst to ${n0(o.burst!.capacity)} ${o.burst!.unit} lasts ${lasts(o.allowanceSec)} at that rate`;
    warnings.push(
      w(
        'exceeds_sustainable',
        `${config(o)} cannot sustain ${amount(o.limit)} ${o.verdict === 'above-ceiling' ? 'at all' : held(o)}: ${ceiling}. Check the labels (instance type, volume type/size/IOPS/throughput) or the runtime.`,
        o.limit.id,
      ),
    );
    // fio's own numbers above a hard ceiling: the classic mislabelled run (kept for CI gates that match on it).
    if (o.verdict === 'above-ceiling' && profile.source === 'fio')
      warnings.push(
        w(
          'above_provisioned_limit',
          `Measured ${amount(o.limit)} is above the ${o.burst ? o.burst.label : o.limit.label} ceiling of ${n0(o.burst ? o.burst.capacity : o.limit.capacity)} ${o.limit.unit}: is the run labelled with the right ${o.limit.scope === 'volume' ? 'volume type/size/IOPS/throughput' : 'instance type'}?`,
          o.limit.id,
        ),
      );
  }
  const burstingBy = (kind: Overrun['allowance']) =>
    overruns.filter((o) => o.verdict === 'bursting' && o.allowance === kind);
  const inst = burstingBy('instance');
  if (inst.length > 0 && instance?.ebs) {
    const ebs = instance.ebs;
    const baselineMiBps = mbpsToMiBps(mbps(ebs.baselineBandwidthMbps));
    const what = inst.map(
      (o) => `${amount(o.limit)} is above the ${n0(o.limit.capacity)} ${o.limit.unit} baseline`,
    );
    const ran = inst[0]!.heldSec;
    warnings.push(
      w(
        'instance_burst_window',
        `${instance.instanceType} was bursting: ${what.join(' and ')}, reachable only ${INSTANCE_BURST_MINUTES_PER_DAY} minutes per 24 hours${ran === null ? ' (if this rate lasted longer, the labels are wrong)' : `, and the test ran ${minutes(ran)}`}. Sustained performance will be at most the baseline (${n0(ebs.baselineBandwidthMbps)} Mbps = ${n0(baselineMiBps)} MiB/s, ${n0(ebs.baselineIops)} IOPS).`,
        inst[0]!.limit.unit === 'IOPS' && inst.length === 1 ? 'iops' : 'throughput',
      ),
    );
  }
  const gp2 = burstingBy('gp2');
  if (gp2.length > 0 && target?.kind === 'ebs') {
    const o = gp2[0]!;
    const perVolume = operationsPerVolume(limits, target.volume.count ?? 1);
    warnings.push(
      w(
        'gp2_burst_credits',
        `At ${n0(perVolume)} IOPS per volume a full gp2 credit bucket lasts ${lasts(o.allowanceSec)}${o.heldSec !== null ? ` and the test ran ${minutes(o.heldSec)}` : ' (if this rate lasted longer, the labels are wrong)'}; then the volume falls to its ${n0(gp2BaselineIops(target.volume.sizeGiB))} IOPS baseline.`,
        'iops',
      ),
    );
  }
  const hdd = burstingBy('hdd');
  if (hdd.length > 0 && target?.kind === 'ebs') {
    const o = hdd[0]!;
    warnings.push(
      w(
        'hdd_burst_credits',
        `${target.volume.type} ${n0(target.volume.sizeGiB)} GiB delivers ${n0(o.limit.capacity)} MiB/s sustained; ${amount(o.limit)} runs on throughput credits (1 TiB per TiB of size), which last ${lasts(o.allowanceSec)} from a full bucket${o.heldSec !== null ? `; the measurement ran ${minutes(o.heldSec)}` : ''}.`,
        'throughput',
      ),
    );
  }
  return warnings;
}
