import { type RunListItem, type RunRegression } from '@blockwise/shared/api';
import { type FioReport } from '@blockwise/shared/fio';
import { checkRegression, defaultSeriesConfig } from '@blockwise/shared/history';
import { type RunLabels } from '@blockwise/shared/records';
import { summarizeRun } from '@blockwise/shared/analysis';

/**
 * Test support: CI history built from a real fio run (fixtures/fio), its headline as the archive
 * stores it (`summarizeRun`), re-measured with a few percent of noise the way repeated runs differ
 * (the server's own series tests do the same), and the gate's real reports (`checkRegression`).
 * Imported by tests only.
 */

export const runId = (n: number) => `R${String(n).padStart(21, '0')}`;

export function historyItem(
  n: number,
  report: FioReport,
  labels: RunLabels,
  createdAt: string,
  scale: { throughput?: number; latency?: number } = {},
): RunListItem {
  const h = summarizeRun(report, labels).headline;
  const t = scale.throughput ?? 1;
  const l = scale.latency ?? 1;
  const clat = (c: Record<string, number> | null) =>
    c ? Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v * l])) : null;
  return {
    id: runId(n),
    createdAt,
    url: `/runs/${runId(n)}`,
    labels,
    fioVersion: report.fioVersion,
    headline: {
      ...h,
      readIops: h.readIops * t,
      writeIops: h.writeIops * t,
      readBytesPerSec: h.readBytesPerSec * t,
      writeBytesPerSec: h.writeBytesPerSec * t,
      readClatMs: clat(h.readClatMs),
      writeClatMs: clat(h.writeClatMs),
    },
  };
}

/** Six main runs (±2.5 %), a healthy and a degraded (−30 % throughput, +60 % latency) feature branch. */
export function seriesHistory(report: FioReport): RunListItem[] {
  const base = { series: 'pg-data-volume', kind: 'ebs', instanceType: 'r6i.4xlarge' } as const;
  const noise = [1, 0.98, 1.025, 0.975, 1.02, 0.99];
  const main = noise.map((t, i) =>
    historyItem(
      i + 1,
      report,
      { ...base, branch: 'main', commit: `c0ffee${i}0` },
      `2026-11-${10 + i}T08:00:00.000Z`,
      {
        throughput: t,
        latency: 2 - t,
      },
    ),
  );
  return [
    ...main,
    historyItem(
      7,
      report,
      { ...base, branch: 'feature/kernel-6.8', commit: 'feed0001' },
      '2026-11-16T09:00:00.000Z',
      {
        throughput: 1.01,
        latency: 0.99,
      },
    ),
    historyItem(
      8,
      report,
      { ...base, branch: 'feature/xfs-nobarrier', commit: 'dead0001' },
      '2026-11-16T10:00:00.000Z',
      {
        throughput: 0.7,
        latency: 1.6,
      },
    ),
  ];
}

/** The gate's report for `items[index]` against the main runs before it, as the server answers it. */
export function regressionOf(items: readonly RunListItem[], index: number): RunRegression {
  const run = items[index]!;
  const baseline = items
    .slice(0, index)
    .filter((i) => i.labels.branch === 'main')
    .reverse()
    .slice(0, 5);
  const report = checkRegression(run, baseline, defaultSeriesConfig());
  return {
    ...report,
    runUrl: `/runs/${run.id}`,
    comparisonUrl: baseline.length > 0 ? `/c/${'C'.repeat(21)}${index}` : null,
  };
}
