import { type RunListItem, type RunRegression } from '@blockwise/shared/api';
import {
  extractMetrics,
  metricDefinition,
  type MetricFamily,
  type MetricId,
} from '@blockwise/shared/history';
import { THROUGHPUT_UNITS } from '@blockwise/shared/units';
import { downsampleRows, MAX_CHART_POINTS } from '../../lib/downsample.ts';

/**
 * CI history shaped for its tables and charts. The metrics are the regression gate's own
 * (`extractMetrics` reads a run's stored headline exactly as `checkRegression` does); this module
 * orders a series' runs on a time axis, converts bytes/s to MiB/s for display and cuts each chart
 * to ≤ 2,000 points. (The list of series comes counted from the server: GET /api/series.)
 */

// ── one series over time ─────────────────────────────────────────────────────────────────────

export type HistoryPoint = {
  id: string;
  /** Upload time, UTC ms: the chart's x. */
  t: number;
  createdAt: string;
  branch: string | null;
  commit: string | null;
  name: string | null;
  metrics: Partial<Record<MetricId, number>>;
};

/** The runs oldest first, with the watched metrics each has (absent ones left out, never zero). */
export function historyPoints(items: readonly RunListItem[]): HistoryPoint[] {
  return items
    .map((item) => ({
      id: item.id,
      t: Date.parse(item.createdAt),
      createdAt: item.createdAt,
      branch: item.labels.branch ?? null,
      commit: item.labels.commit ?? null,
      name: item.labels.name ?? null,
      metrics: extractMetrics(item.headline),
    }))
    .filter((p) => Number.isFinite(p.t))
    .sort((a, b) => a.t - b.t || a.id.localeCompare(b.id));
}

/** Branches seen, in order of their latest run (newest first). */
export function branchesOf(items: readonly RunListItem[]): string[] {
  const seen: string[] = [];
  for (const item of [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt))) {
    const b = item.labels.branch;
    if (b && !seen.includes(b)) seen.push(b);
  }
  return seen;
}

export type FamilyChart = {
  family: MetricFamily;
  title: string;
  /** The unit plotted (throughput in MiB/s; stored as B/s). */
  unit: 'IOPS' | 'MiB/s' | 'ms';
  unitName: string;
  metrics: { id: MetricId; name: string }[];
};

export const FAMILY_CHARTS: readonly FamilyChart[] = [
  {
    family: 'iops',
    title: 'IOPS',
    unit: 'IOPS',
    unitName: 'I/O operations per second',
    metrics: [
      { id: 'read.iops', name: 'read' },
      { id: 'write.iops', name: 'write' },
    ],
  },
  {
    family: 'throughput',
    title: 'Throughput',
    unit: 'MiB/s',
    unitName: 'mebibytes per second',
    metrics: [
      { id: 'read.bytesPerSec', name: 'read' },
      { id: 'write.bytesPerSec', name: 'write' },
    ],
  },
  {
    family: 'latency',
    title: 'Completion latency (clat)',
    unit: 'ms',
    unitName: 'milliseconds',
    metrics: [
      { id: 'read.clat.p50', name: 'read p50' },
      { id: 'read.clat.p99', name: 'read p99' },
      { id: 'read.clat.p99.9', name: 'read p99.9' },
      { id: 'write.clat.p50', name: 'write p50' },
      { id: 'write.clat.p99', name: 'write p99' },
      { id: 'write.clat.p99.9', name: 'write p99.9' },
    ],
  },
];

/** A metric's value in the unit its chart plots (bytes/s → MiB/s; IOPS and ms as stored). */
export function displayValue(id: MetricId, value: number): number {
  return metricDefinition(id).unit === 'B/s' ? value / THROUGHPUT_UNITS['MiB/s'] : value;
}

export type HistoryRow = { t: number; id: string } & Partial<Record<MetricId, number | null>>;

/** One row per run for a family's chart (≤ 2,000 rows: min–max decimation keeps the outliers). */
export function familyRows(
  points: readonly HistoryPoint[],
  chart: FamilyChart,
  max: number = MAX_CHART_POINTS,
): HistoryRow[] {
  const rows = points.map((p) => {
    const row: HistoryRow = { t: p.t, id: p.id };
    for (const m of chart.metrics) {
      const v = p.metrics[m.id];
      row[m.id] = v === undefined ? null : displayValue(m.id, v);
    }
    return row;
  });
  return downsampleRows(
    rows,
    chart.metrics.map((m) => m.id),
    max,
  );
}

/** Which metrics of a family a chart can draw (at least one run has a value). */
export function drawnMetrics(points: readonly HistoryPoint[], chart: FamilyChart): FamilyChart['metrics'] {
  return chart.metrics.filter((m) => points.some((p) => p.metrics[m.id] !== undefined));
}

export type RegressionMarker = { id: string; t: number; metric: MetricId; value: number; text: string };

/**
 * Red markers: the points of runs whose regression report says `regression`, on each metric of
 * the family that regressed (the run's value, where the line is).
 */
export function regressionMarkers(
  points: readonly HistoryPoint[],
  reports: ReadonlyMap<string, RunRegression>,
  chart: FamilyChart,
): RegressionMarker[] {
  const out: RegressionMarker[] = [];
  for (const p of points) {
    const r = reports.get(p.id);
    if (!r || r.verdict !== 'regression') continue;
    for (const m of r.metrics) {
      if (m.verdict !== 'regression' || m.family !== chart.family) continue;
      const v = p.metrics[m.metric];
      if (v === undefined) continue;
      out.push({ id: p.id, t: p.t, metric: m.metric, value: displayValue(m.metric, v), text: m.reason });
    }
  }
  return out;
}

/** The runs to check for regressions: the newest `budget` of those shown (bounded requests). */
export function runsToCheck(
  points: readonly HistoryPoint[],
  budget: number,
  selected: string | null,
): string[] {
  const newest = points
    .slice(-budget)
    .map((p) => p.id)
    .reverse();
  return selected && !newest.includes(selected) ? [selected, ...newest] : newest;
}

/**
 * The path of the comparison URL the server returns, relative (`/c/…`) or absolute when the server
 * has BLOCKWISE_PUBLIC_URL: "/c/ID", a frozen comparison (opened in-app), or "/c/pair/BASELINE/RUN",
 * the one not frozen yet (the server freezes it when the link is followed, then redirects to it).
 * Anything else is no link.
 */
export function appPath(url: string | null): string | null {
  if (!url) return null;
  try {
    const path = new URL(url, 'http://localhost').pathname;
    return /^\/c\/(pair\/[A-Za-z0-9_-]{22}\/)?[A-Za-z0-9_-]{22}$/.test(path) ? path : null;
  } catch {
    return null;
  }
}

/** "2026-11-20 14:05 UTC". */
export function fmtWhen(iso: string): string {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC` : iso;
}
