import { z } from 'zod';
import type { RunHeadline } from '../records/run.ts';

/**
 * The numbers a storage regression gate watches, read from a run's headline (what the archive
 * stores with every upload, so checking history never re-parses fio output).
 *
 * Throughput and IOPS get worse when they go down; completion latency (clat) gets worse when it
 * goes up. Latency is watched at p50 (the typical I/O), p99 and p99.9 (the tail a database's
 * commit path feels); fio's p99.99 is left out: on a few-minute CI run it rests on a handful of
 * I/Os and flaps from run to run.
 */

export const METRIC_FAMILIES = ['iops', 'throughput', 'latency'] as const;
export type MetricFamily = (typeof METRIC_FAMILIES)[number];

export const IO_DIRECTIONS = ['read', 'write'] as const;
export type IoDirection = (typeof IO_DIRECTIONS)[number];

/** Percentile keys as the headline spells them (shortest decimal form, see fio-report.schema.ts). */
export const WATCHED_PERCENTILES = ['50', '99', '99.9'] as const;

export const METRIC_IDS = [
  'read.iops',
  'write.iops',
  'read.bytesPerSec',
  'write.bytesPerSec',
  'read.clat.p50',
  'read.clat.p99',
  'read.clat.p99.9',
  'write.clat.p50',
  'write.clat.p99',
  'write.clat.p99.9',
] as const;
export const MetricIdSchema = z.enum(METRIC_IDS);
export type MetricId = z.infer<typeof MetricIdSchema>;

/** Which way is better: a gate flags moves the other way. */
export const MetricDirectionSchema = z.enum(['higher-is-better', 'lower-is-better']);
export type MetricDirection = z.infer<typeof MetricDirectionSchema>;

/** Units of the values: IOPS, bytes per second, milliseconds. */
export const MetricUnitSchema = z.enum(['IOPS', 'B/s', 'ms']);
export type MetricUnit = z.infer<typeof MetricUnitSchema>;

export type MetricDefinition = {
  id: MetricId;
  /** "read IOPS", "write clat p99" — what tables print. */
  label: string;
  io: IoDirection;
  family: MetricFamily;
  direction: MetricDirection;
  unit: MetricUnit;
  /** The percentile key for latency metrics. */
  percentile: string | null;
};

const definition = (
  io: IoDirection,
  family: MetricFamily,
  percentile: string | null = null,
): MetricDefinition => {
  if (family === 'latency') {
    return {
      id: `${io}.clat.p${percentile}` as MetricId,
      label: `${io} clat p${percentile}`,
      io,
      family,
      direction: 'lower-is-better',
      unit: 'ms',
      percentile,
    };
  }
  return {
    id: `${io}.${family === 'iops' ? 'iops' : 'bytesPerSec'}` as MetricId,
    label: `${io} ${family === 'iops' ? 'IOPS' : 'throughput'}`,
    io,
    family,
    direction: 'higher-is-better',
    unit: family === 'iops' ? 'IOPS' : 'B/s',
    percentile: null,
  };
};

/** Every watched metric, in the order reports list them (METRIC_IDS order). */
export const METRICS: readonly MetricDefinition[] = [
  ...IO_DIRECTIONS.map((io) => definition(io, 'iops')),
  ...IO_DIRECTIONS.map((io) => definition(io, 'throughput')),
  ...IO_DIRECTIONS.flatMap((io) => WATCHED_PERCENTILES.map((p) => definition(io, 'latency', p))),
];

export function metricDefinition(id: MetricId): MetricDefinition {
  const found = METRICS.find((m) => m.id === id);
  if (!found) throw new Error(`no metric ${id}`); // METRICS covers METRIC_IDS (tested)
  return found;
}

/** Why a metric has no value for a run. */
export type AbsentReason = 'no-io' | 'no-percentiles' | 'no-such-percentile';

export type MetricReading = { ok: true; value: number } | { ok: false; absent: AbsentReason };

const iopsOf = (h: RunHeadline, io: IoDirection) => (io === 'read' ? h.readIops : h.writeIops);

/**
 * One metric of one run. A direction that did no I/O has no throughput, IOPS or latency to judge
 * (a write-only job's read IOPS are 0 by construction, not a collapse), and a percentile fio did
 * not report (`clat_percentiles=0`, a custom `percentile_list`) is absent, not zero.
 */
export function readMetric(headline: RunHeadline, metric: MetricDefinition): MetricReading {
  const iops = iopsOf(headline, metric.io);
  if (!Number.isFinite(iops) || iops <= 0) return { ok: false, absent: 'no-io' };
  if (metric.family === 'iops') return { ok: true, value: iops };
  if (metric.family === 'throughput') {
    const bytesPerSec = metric.io === 'read' ? headline.readBytesPerSec : headline.writeBytesPerSec;
    return Number.isFinite(bytesPerSec) && bytesPerSec > 0
      ? { ok: true, value: bytesPerSec }
      : { ok: false, absent: 'no-io' };
  }
  const clat = metric.io === 'read' ? headline.readClatMs : headline.writeClatMs;
  if (!clat) return { ok: false, absent: 'no-percentiles' };
  const value = clat[metric.percentile ?? ''];
  return value !== undefined && Number.isFinite(value) && value > 0
    ? { ok: true, value }
    : { ok: false, absent: 'no-such-percentile' };
}

/** Every watched metric a run has a value for, by id (absent ones are left out). */
export function extractMetrics(headline: RunHeadline): Partial<Record<MetricId, number>> {
  const out: Partial<Record<MetricId, number>> = {};
  for (const m of METRICS) {
    const r = readMetric(headline, m);
    if (r.ok) out[m.id] = r.value;
  }
  return out;
}
