import { settingHint } from '../audience.ts';
import type { Warning } from '../problem.ts';
import { buildSeries, type RawColumn, type RawRow } from './build-series.ts';
import { rateRole } from './columns.ts';
import type { IoMetric, SeriesFormat, SeriesImportOptions, SeriesImportResult } from './series.schema.ts';
import { chooseDevice } from './sysstat.ts';

/**
 * Monitoring systems that keep one series per device and quantity (Prometheus node_exporter,
 * Datadog's system.io.*) come apart the same way: pick the device, then join its four quantities
 * by time into the rows every importer hands to buildSeries. Values here are already per-second
 * rates (IOPS, bytes/s); times are exact UTC instants.
 */
export type DeviceMetricSeries = {
  device: string;
  metric: IoMetric;
  /** Where it came from, for errors and the column list: `data.result.3`, `column 4`. */
  source: string;
  /** The series' own name: `node_disk_reads_completed_total{device="vda"}`, `system.io.r_s{device:nvme0n1}`. */
  label: string;
  unit: string;
  /** UTC ms → rate (null: no data at that time). */
  points: Map<number, number | null>;
};

export function seriesFromDeviceMetrics(
  format: SeriesFormat,
  list: readonly DeviceMetricSeries[],
  warnings: Warning[],
  options: SeriesImportOptions,
): SeriesImportResult {
  // Operations over the file: rates × the step between points (the most common one).
  const allTimes = [...new Set(list.flatMap((s) => [...s.points.keys()]))].sort((a, b) => a - b);
  const stepCounts = new Map<number, number>();
  for (let i = 1; i < allTimes.length; i++) {
    const d = allTimes[i]! - allTimes[i - 1]!;
    stepCounts.set(d, (stepCounts.get(d) ?? 0) + 1);
  }
  const stepSec = ([...stepCounts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 1000) / 1000;
  const totals = new Map<string, { operations: number; bytes: number }>();
  for (const s of list) {
    const t = totals.get(s.device) ?? { operations: 0, bytes: 0 };
    let sum = 0;
    for (const v of s.points.values()) sum += (v ?? 0) * stepSec;
    if (s.metric.endsWith('Ops')) t.operations += sum;
    else t.bytes += sum;
    totals.set(s.device, t);
  }
  const choice = chooseDevice(
    [...totals].map(([name, t]) => ({ name, ...t })),
    options.device,
    settingHint('device', options.audience),
  );
  if (!choice.ok) return { ok: false, error: choice.error };
  const chosen = list.filter((s) => s.device === choice.name);
  for (const metric of ['readOps', 'writeOps', 'readBytes', 'writeBytes'] as const) {
    const same = chosen.filter((s) => s.metric === metric);
    if (same.length > 1) {
      return {
        ok: false,
        error: {
          code: 'duplicate_series',
          message: `${same.length} series hold ${metric} of ${choice.name} (${same.map((s) => `${s.source}: ${s.label}`).join('; ')}): narrow the query (a job or instance label), or keep one with --match`,
          path: same[1]!.source,
        },
      };
    }
  }
  const columns: RawColumn[] = chosen.map((s) => ({
    ...rateRole(s.metric, s.unit, choice.name),
    label: s.label,
    source: s.source,
  }));
  const times = [...new Set(chosen.flatMap((s) => [...s.points.keys()]))].sort((a, b) => a - b);
  const rows: RawRow[] = times.map((t) => ({
    where: `${new Date(t).toISOString()}`,
    time: { wallMs: t, offsetMin: 0 },
    values: chosen.map((s) => s.points.get(t) ?? null),
  }));
  return buildSeries(
    {
      format,
      columns,
      rows,
      headerZone: null,
      warnings: [...warnings, ...choice.warnings],
      device: {
        name: choice.name,
        chosenBy: choice.chosenBy,
        devices: [...totals].map(([name, t]) => ({ name, operations: t.operations })),
        hasQueue: false,
        requestSizeCheck: null,
      },
    },
    { ...options, label: options.label ?? choice.name },
  );
}
