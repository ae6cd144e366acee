import { descriptorOf, type VolumeType } from '../aws/volume-types.ts';
import type { LatencyPromise } from '../aws/volume-types/descriptor.ts';
import {
  judgeLatency,
  SATURATED_THRESHOLDS_MS,
  type LatencyVerdict,
  type LoadLevel,
} from '../plan/latency.ts';
import type { IoProfile } from '../profile/io-profile.schema.ts';
import type { RunHeadline } from '../records/run.ts';
import { summarizeEbsNvme } from '../timeseries/ebs-nvme.ts';
import { summarizeQueue } from '../timeseries/queue.ts';
import { METRICS_FORMATS } from '../timeseries/formats.ts';
import type { IoSeries } from '../timeseries/series.schema.ts';

/**
 * The latency a volume showed in production, from whichever source measured it, and how it
 * stands against what each EBS type promises. Latency is capacity evidence (what the storage
 * delivered), not demand: it is kept beside the plan, never folded into the sizing.
 *
 * Sources, best first: the EBS latency histograms (`nvme amzn stats`, the CSI driver's
 * `aws_ebs_csi_*_io_latency_seconds`: p99 as a bin's upper bound, the worst interval's); else the
 * device's average time per request (iostat/sar `await`, request-weighted). fio's clat
 * percentiles go through the same judgeLatencyPromise (measuredLatencyOfFio).
 */
export type MeasuredLatency = {
  /** Where the figure comes from, for people ("nvme amzn stats latency histograms"). */
  source: string;
  /** `p99`: a percentile from a histogram; `average`: the mean time per request. */
  statistic: 'p99' | 'average';
  /** The figure held against a type's promise (ms): the worse direction's. */
  ms: number;
  /** Which direction gave it. */
  direction: 'read' | 'write' | 'both';
  /** Percentiles where a histogram gives them (ms; each the worst interval's; fio: the run's), for judgeLatency. */
  percentilesMs: Record<string, number>;
  /** What the percentiles span: one interval of a series (its worst), or a whole fio run. */
  span: 'worst interval' | 'whole run';
  /** The load the verdicts were judged at (metrics: light; fio: the plan's). */
  load: LoadLevel;
  /** The fio verdict rules on those percentiles (plan/latency.ts judgeLatency; metrics: light load, p50 against 10 ms; fio: the plan's load). */
  verdicts: LatencyVerdict[];
};

const worse = (a: number | null | undefined, b: number | null | undefined) =>
  a == null ? (b ?? null) : b == null ? a : Math.max(a, b);

/** The series' measured latency, or null when its source reports none (CloudWatch, node_exporter, Datadog). */
export function measuredLatencyOf(series: IoSeries): MeasuredLatency | null {
  const ebs = summarizeEbsNvme(series);
  if (ebs) {
    const r = ebs.read.worstP99?.us ?? null;
    const w = ebs.write.worstP99?.us ?? null;
    const p99 = worse(r, w);
    if (p99 !== null) {
      const e = series.ebsNvme!;
      const worst = (values: readonly (number | null)[]) =>
        values.reduce<number | null>((m, v) => worse(m, v), null);
      const p50 = worse(worst(e.readLatencyUs.p50), worst(e.writeLatencyUs.p50));
      const p999 = worse(ebs.read.worstP999?.us, ebs.write.worstP999?.us);
      const percentilesMs: Record<string, number> = { '99': p99 / 1000 };
      if (p50 !== null) percentilesMs['50'] = p50 / 1000;
      if (p999 !== null) percentilesMs['99.9'] = p999 / 1000;
      return {
        source: `EBS latency histograms (log page 0xD0) of ${METRICS_FORMATS[series.format].label}`,
        statistic: 'p99',
        ms: p99 / 1000,
        direction: r === w ? 'both' : r === p99 ? 'read' : 'write',
        percentilesMs,
        span: 'worst interval',
        load: 'light',
        verdicts: judgeLatency(percentilesMs, { load: 'light', syncCommits: false }),
      };
    }
  }
  const queue = summarizeQueue(series);
  if (queue?.meanAwaitMs != null) {
    return {
      source: `${METRICS_FORMATS[series.format].label} await (request-weighted mean)`,
      statistic: 'average',
      ms: queue.meanAwaitMs,
      direction: 'both',
      percentilesMs: {},
      span: 'worst interval',
      load: 'light',
      verdicts: [],
    };
  }
  return null;
}

/** A fio run's clat percentiles as a stored run keeps them (records/run.ts RunHeadline). */
type FioClat = Pick<RunHeadline, 'readClatMs' | 'writeClatMs' | 'clatApproximate'>;

/**
 * A fio run's completion latency (clat) as a measured latency: the worse direction's p99 — the
 * percentile the fio comparison holds to its 20 % (plan/latency.ts compareLatency) — from the run's
 * clat percentiles: a profile's (profile/from-fio.ts) or a stored run's headline (the ones the
 * NVMe-vs-EBS comparison reads): fio's own, merged json+ bins, or the upper bound over several
 * jobs, said in the source. `judged` is the plan's load and commit mode (PlanResult.latency), so the
 * verdicts are the plan's own; `measuredOn` names the storage the run was on when the user said (the
 * report does not). Null when the run has no p99 (clat_percentiles=0, a percentile_list without 99,
 * no I/O).
 */
export function measuredLatencyOfFio(
  run: IoProfile | FioClat,
  judged: { load: LoadLevel; syncCommits: boolean; measuredOn?: string | null },
): MeasuredLatency | null {
  const clat: FioClat =
    'read' in run
      ? {
          readClatMs: run.read.iops > 0 ? (run.read.latency?.percentiles ?? null) : null,
          writeClatMs: run.write.iops > 0 ? (run.write.latency?.percentiles ?? null) : null,
          clatApproximate: Boolean(run.read.latency?.approximate || run.write.latency?.approximate),
        }
      : run;
  const r = clat.readClatMs?.['99'];
  const w = clat.writeClatMs?.['99'];
  const p99 = worse(r, w);
  if (p99 === null) return null;
  const direction = r === w ? 'both' : r === p99 ? 'read' : 'write';
  const chosen = (direction === 'write' ? clat.writeClatMs : clat.readClatMs)!;
  // The percentiles the guide's verdicts have thresholds for (p50, p99, p99.9, p99.99), not fio's full list.
  const percentilesMs = Object.fromEntries(
    Object.entries(chosen).filter(([key]) => key in SATURATED_THRESHOLDS_MS),
  );
  const bound = clat.clatApproximate ? ', the upper bound over the jobs (no json+ bins to merge)' : '';
  const on = judged.measuredOn ? ` on ${judged.measuredOn}` : '';
  return {
    source: `fio completion latency (clat) percentiles${on}${bound}`,
    statistic: 'p99',
    ms: p99,
    direction,
    percentilesMs,
    span: 'whole run',
    load: judged.load,
    verdicts: judgeLatency(percentilesMs, { load: judged.load, syncCommits: judged.syncCommits }),
  };
}

/** How a measured latency stands against a type's promise. */
export type PromiseVerdict = {
  type: VolumeType;
  promise: LatencyPromise | null;
  /**
   * `slower-than-today`: the measured latency is below what the type promises (even with the 20 %
   * the fio comparison allows at p99); `as-today`: within the promise's range; `faster-than-today`:
   * the type promises less than was measured; `no-promise`: AWS gives no figure (st1, sc1).
   */
  verdict: 'slower-than-today' | 'as-today' | 'faster-than-today' | 'no-promise';
  message: string;
};

/** The fio comparison's tolerance (plan/latency.ts compareLatency: a p99 within 20 % is acceptable). */
const TOLERANCE = 0.2;

const fmtMs = (ms: number) => `${ms < 1 ? ms.toFixed(2) : ms.toFixed(1)} ms`;

/**
 * Measured latency vs a volume type's promised average latency (descriptor `latencyPromise`): the
 * one rule for it (fio clat, metrics files, the fleet's CloudWatch averages in fleet/evidence.ts).
 */
export function judgeLatencyPromise(
  measured: Pick<MeasuredLatency, 'statistic' | 'ms'>,
  type: VolumeType,
): PromiseVerdict {
  const promise = descriptorOf(type).latencyPromise;
  const what = `measured ${measured.statistic} ${fmtMs(measured.ms)}`;
  if (!promise)
    return {
      type,
      promise,
      verdict: 'no-promise',
      message: `${type}: AWS publishes no latency figure; ${what} cannot be held against it`,
    };
  const range = `${promise.words} (${promise.fromMs > 0 ? `${promise.fromMs}–` : 'under '}${promise.underMs} ms average)`;
  if (measured.ms * (1 + TOLERANCE) < promise.fromMs)
    return {
      type,
      promise,
      verdict: 'slower-than-today',
      message: `${type} promises ${range}; ${what}: slower than today`,
    };
  if (measured.ms > promise.underMs * (1 + TOLERANCE))
    return {
      type,
      promise,
      verdict: 'faster-than-today',
      message: `${type} promises ${range}; ${what}: faster than today`,
    };
  return {
    type,
    promise,
    verdict: 'as-today',
    message: `${type} promises ${range}; ${what}: within the promise`,
  };
}
