import { VOLUME_TYPES, type VolumeType } from '@blockwise/shared/aws';
import {
  judgeLatencyPromise,
  measuredLatencyOf,
  type MeasuredLatency,
  type PromiseVerdict,
} from '@blockwise/shared/demand';
import { summarizeEbsNvme, type IoSeries } from '@blockwise/shared/timeseries';
import { fmtMs } from '../../lib/format.ts';
import { fmtUtc } from './series-view.ts';

/**
 * What the series panel shows of the EBS NVMe evidence (`nvme amzn stats`, the EBS CSI driver's
 * metrics: series.ebsNvme) and of measured latency in general (iostat await too): rows ready to
 * render, every number with its unit. The formulas are shared's (timeseries/ebs-nvme.ts,
 * demand/measured-latency.ts); this only picks and formats.
 */

/** At most this many intervals in the table; beyond, those that touched a limit. */
export const MAX_EVIDENCE_ROWS = 30;

export type EvidenceRow = {
  timeMs: number;
  at: string;
  /** p50 / p99 / p99.9, ms text ("—" without operations). */
  read: [string, string, string];
  write: [string, string, string];
  /** Seconds over the volume's IOPS, its throughput, the instance's EBS IOPS, its EBS throughput. */
  exceeded: [string, string, string, string];
  overLimit: boolean;
};

const ms = (us: number | null | undefined) => (us === null || us === undefined ? '—' : fmtMs(us / 1000));
const sec = (s: number | null | undefined) => (s === null || s === undefined ? '—' : `${s.toFixed(2)} s`);

export type EbsEvidenceView = {
  summary: NonNullable<ReturnType<typeof summarizeEbsNvme>>;
  rows: EvidenceRow[];
  /** Intervals in the series (the table may show fewer). */
  intervals: number;
};

/** Null for a series without EBS NVMe statistics. */
export function ebsEvidenceView(series: IoSeries): EbsEvidenceView | null {
  const e = series.ebsNvme;
  const summary = summarizeEbsNvme(series);
  if (!e || !summary) return null;
  const x = e.exceededSec;
  const all: EvidenceRow[] = series.timeMs.map((timeMs, i) => {
    const limits = [x.volumeIops[i], x.volumeThroughput[i], x.instanceIops[i], x.instanceThroughput[i]];
    return {
      timeMs,
      at: fmtUtc(timeMs),
      read: [ms(e.readLatencyUs.p50[i]), ms(e.readLatencyUs.p99[i]), ms(e.readLatencyUs.p999[i])],
      write: [ms(e.writeLatencyUs.p50[i]), ms(e.writeLatencyUs.p99[i]), ms(e.writeLatencyUs.p999[i])],
      exceeded: [sec(limits[0]), sec(limits[1]), sec(limits[2]), sec(limits[3])],
      overLimit: limits.some((v) => (v ?? 0) > 0),
    };
  });
  const rows =
    all.length <= MAX_EVIDENCE_ROWS ? all : all.filter((r) => r.overLimit).slice(0, MAX_EVIDENCE_ROWS);
  return { summary, rows, intervals: all.length };
}

export type LatencyView = {
  measured: MeasuredLatency;
  /** One sentence: the figure, its statistic and its source. */
  headline: string;
  /** Today's type first when known, then the others; each with its verdict sentence. */
  promises: PromiseVerdict[];
};

/** The measured latency against each type's promise; null when the source measures none. */
export function latencyView(series: IoSeries, candidate: VolumeType | null): LatencyView | null {
  const measured = measuredLatencyOf(series);
  if (!measured) return null;
  const types = candidate ? [candidate, ...VOLUME_TYPES.filter((t) => t !== candidate)] : VOLUME_TYPES;
  const direction = measured.direction === 'both' ? '' : ` (${measured.direction}s, the slower direction)`;
  return {
    measured,
    headline: `${measured.statistic === 'p99' ? 'Worst p99' : 'Average'} ${fmtMs(measured.ms)}${direction}, from ${measured.source}`,
    promises: types.map((t) => judgeLatencyPromise(measured, t)),
  };
}
