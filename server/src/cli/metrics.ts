import { VOLUME_TYPES } from '@blockwise/shared/aws';
import {
  demandFromSeries,
  demandTarget,
  measuredLatencyOf,
  peaksOf,
  type DemandEvidence,
} from '@blockwise/shared/demand';
import { escapeText } from '@blockwise/shared/escape-text';
import { type IoProfile } from '@blockwise/shared/profile';
import {
  SIZING_STATISTICS,
  METRICS_FORMATS,
  SERIES_FORMATS,
  SIZING_STATISTIC_LABELS,
  iopsFromQueue,
  summarizeQueue,
  summarizeEbsNvme,
  minutesAbovePerDay,
  profilesByStatistic,
  sizingSummary,
  summarizeSeries,
  type Capacity,
  type IoSeries,
  type MinutesAbove,
  type QueueSummary,
  type RateSummary,
  type SeriesSummary,
} from '@blockwise/shared/timeseries';
import { parseCount, parseFraction, parseRateBytesPerSec } from './flags.ts';
import { measuredLatencyLines, promiseVerdicts } from './latency-text.ts';
import { EXIT, UsageError, parseFlags, type Command } from './io.ts';
import {
  IMPORT_FLAGS,
  IMPORT_USAGE,
  InputError,
  importOptionsFrom,
  loadSeries,
  parseSizingStatistic,
  reportInputError,
} from './metrics-input.ts';

/** Each format of the registry (shared timeseries/formats.ts): what it is, how to collect it, its flags. */
function formatsHelp(): string {
  return SERIES_FORMATS.map((id) => {
    const f = METRICS_FORMATS[id];
    return f.flags.length > 0
      ? `${f.help}\n      flags: ${f.flags.map((flag) => `--${flag}`).join(', ')}`
      : f.help;
  }).join('\n');
}

const usage = `Usage: blockwise metrics FILE [--statistic max|p99|p95] [--ignore-recurring] [--headroom 0.25]
                        [--stat Sum|Average] [--period 300]
                        [--timezone ZONE] [--source-interval 60|300] [--throughput-unit U] [--match TEXT]
                        [--device NAME] [--values counter|rate] [--above-iops N] [--above-bw RATE] [--json]

  Reads a production metrics export and prints per-direction statistics (mean, p50, p95, p99,
  max and when) and the sizing profile for each statistic. FILE is one of (told apart by content):
${formatsHelp()}
  Per-device files: one device is read (--device, else the busiest). iostat and sar also give the
  device's queue: its depth and latency are shown with Little's law (IOPS = queue depth ÷ latency).

  --statistic   the sizing profile to mark and to print with --json (default max: the maximum of the
                points at their own step — never averaged up; p99/p95 ignore the busiest 1%/5% of
                points, but keep a peak that recurs at the same time of day or week)
  --ignore-recurring  size p99/p95 on the percentile even where a peak recurs (the risk is stated)
  --headroom    fraction above the demand the target provisions for (default 0.25)
${IMPORT_USAGE}
  --above-iops  minutes per UTC day above this many IOPS (read + write), against the 30-minute burst budget
  --above-bw    minutes per UTC day above this throughput (read + write), e.g. 4750Mbps or 593.75MB/s`;

const n0 = (v: number | null) => (v === null ? '—' : Math.round(v).toLocaleString('en-US'));
const n1 = (v: number | null) =>
  v === null ? '—' : v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const mib = (v: number | null) => (v === null ? null : v / 1048576);
const kib = (v: number | null) => (v === null ? null : v / 1024);
const when = (ms: number | null) =>
  ms === null ? '' : new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

function statsRow(
  name: string,
  s: RateSummary,
  fmt: (v: number | null) => string,
  scale: (v: number | null) => number | null,
) {
  const cells = [s.mean, s.p50, s.p95, s.p99, s.max].map((v) => fmt(scale(v)).padStart(11));
  return `  ${name.padEnd(18)}${cells.join('')}   ${when(s.maxAtMs)}`;
}

function statsTable(title: string, sum: SeriesSummary): string[] {
  const id = (v: number | null) => v;
  return [
    title,
    `  ${''.padEnd(18)}${['mean', 'p50', 'p95', 'p99', 'max'].map((h) => h.padStart(11)).join('')}   max at (UTC)`,
    statsRow('read IOPS', sum.read.iops, n0, id),
    statsRow('write IOPS', sum.write.iops, n0, id),
    statsRow('read+write IOPS', sum.combined.iops, n0, id),
    statsRow('read MiB/s', sum.read.bytesPerSec, n1, mib),
    statsRow('write MiB/s', sum.write.bytesPerSec, n1, mib),
    statsRow('read+write MiB/s', sum.combined.bytesPerSec, n1, mib),
    `  block size (KiB)  read: mean ${n1(kib(sum.read.blockSize.meanBytes))}, p50 ${n1(kib(sum.read.blockSize.p50Bytes))}, at the IOPS peak ${n1(kib(sum.read.blockSize.atIopsPeakBytes))}; write: mean ${n1(kib(sum.write.blockSize.meanBytes))}, p50 ${n1(kib(sum.write.blockSize.p50Bytes))}, at the IOPS peak ${n1(kib(sum.write.blockSize.atIopsPeakBytes))}`,
  ];
}

const n2 = (v: number | null) =>
  v === null ? '—' : v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The device read, and how (per-device exports: iostat, sar, Prometheus, Datadog). */
function deviceLines(series: IoSeries): string[] {
  const d = series.device;
  if (!d) return [];
  const how =
    d.chosenBy === 'asked'
      ? 'as asked'
      : d.chosenBy === 'only'
        ? 'the only one in the file'
        : `the busiest of ${d.devices.length} (${d.devices.map((x) => escapeText(x.name)).join(', ')}); --device NAME picks another`;
  const lines = [`Device: ${escapeText(d.name)}, ${how}`];
  const c = d.requestSizeCheck;
  if (c && c.checked > 0) {
    lines.push(
      c.mismatched === 0
        ? `Request size: the tool's own average request size matches bytes ÷ operations at all ${n0(c.checked)} points checked (within rounding)`
        : `Request size: the tool's average request size disagrees with bytes ÷ operations at ${n0(c.mismatched)} of ${n0(c.checked)} points (see the warnings)`,
    );
  }
  return lines;
}

const MAX_EBS_ROWS = 30;

/**
 * `nvme amzn stats` (series.ebsNvme): per interval the latency the volume measured (µs; average,
 * and p50/p99/p99.9 as histogram bin upper bounds) and the seconds over each limit, then totals.
 * Beyond MAX_EBS_ROWS intervals only those that touched a limit are listed.
 */
function ebsNvmeLines(series: IoSeries): string[] {
  const e = series.ebsNvme;
  const sum = summarizeEbsNvme(series);
  if (!e || !sum) return [];
  const x = e.exceededSec;
  const over = (i: number) =>
    [x.volumeIops, x.volumeThroughput, x.instanceIops, x.instanceThroughput].some((a) => (a[i] ?? 0) > 0);
  const all = series.timeMs.map((_, i) => i);
  const shown = all.length <= MAX_EBS_ROWS ? all : all.filter(over).slice(0, MAX_EBS_ROWS);
  const lat = (l: typeof e.readLatencyUs, i: number) =>
    `${n0(l.avg[i] ?? null)}/${n0(l.p50[i] ?? null)}/${n0(l.p99[i] ?? null)}/${n0(l.p999[i] ?? null)}`;
  const s2 = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(2));
  const us = (w: { us: number; timeMs: number } | null) =>
    w ? `${n0(w.us)} µs at ${when(w.timeMs)} UTC` : '—';
  const out = [
    `EBS NVMe statistics (${METRICS_FORMATS[series.format].label}, log page 0xD0; latency in µs: avg/p50/p99/p99.9, percentiles are histogram bin upper bounds;`,
    "  vol/inst IOPS/tput: seconds of the interval over the volume's or the instance's EBS IOPS or throughput limit):",
    `  ${'interval start (UTC)'.padEnd(18)}${['read IOPS', 'MiB/s', 'read µs', 'write IOPS', 'MiB/s', 'write µs', 'vol IOPS', 'vol tput', 'inst IOPS', 'inst tput', 'queue'].map((h, i) => (i === 2 || i === 5 ? h.padStart(26) : h.padStart(13))).join('')}`,
  ];
  for (const i of shown) {
    out.push(
      `  ${when(series.timeMs[i]!).padEnd(18)}${[
        n0(series.readIops[i] ?? null).padStart(13),
        n1(mib(series.readBytesPerSec[i] ?? null)).padStart(13),
        lat(e.readLatencyUs, i).padStart(26),
        n0(series.writeIops[i] ?? null).padStart(13),
        n1(mib(series.writeBytesPerSec[i] ?? null)).padStart(13),
        lat(e.writeLatencyUs, i).padStart(26),
        s2(x.volumeIops[i]).padStart(13),
        s2(x.volumeThroughput[i]).padStart(13),
        s2(x.instanceIops[i]).padStart(13),
        s2(x.instanceThroughput[i]).padStart(13),
        n0(e.queueLength[i] ?? null).padStart(13),
      ].join('')}`,
    );
  }
  if (shown.length < all.length)
    out.push(
      `  (${shown.length} of ${all.length} intervals shown: those over a limit; --json has the totals)`,
    );
  const t = sum.exceededSec;
  out.push(
    `  Seconds over a limit, all ${sum.intervals} interval(s): volume IOPS ${s2(t.volumeIops)} s, volume throughput ${s2(t.volumeThroughput)} s, instance EBS IOPS ${s2(t.instanceIops)} s, instance EBS throughput ${s2(t.instanceThroughput)} s (${sum.intervalsOverLimit} interval(s) touched a limit)`,
    `  Read latency: mean ${n0(sum.read.meanUs)} µs, worst p99 ${us(sum.read.worstP99)}, worst p99.9 ${us(sum.read.worstP999)}`,
    `  Write latency: mean ${n0(sum.write.meanUs)} µs, worst p99 ${us(sum.write.worstP99)}, worst p99.9 ${us(sum.write.worstP999)}`,
  );
  return out;
}

/** The device queue with Little's law: requests/s = requests in flight ÷ seconds each takes. */
function queueLines(q: QueueSummary | null): string[] {
  if (!q || q.meanAwaitMs === null) return [];
  const at1ms = iopsFromQueue(q.meanQueueDepth, 1);
  const lines = [
    "Device queue and Little's law (IOPS = queue depth ÷ latency):",
    `  mean          ${n2(q.meanQueueDepth)} requests in flight ÷ ${n2(q.meanAwaitMs)} ms = ${n0(q.littleRequestsPerSec)} requests/s (measured ${n0(q.meanRequestsPerSec)}/s, reads + writes + discards + flushes as the tool counts them)`,
  ];
  if (q.busiest) {
    lines.push(
      `  busiest point ${n2(q.busiest.queueDepth)} in flight ÷ ${n2(q.busiest.awaitMs)} ms = ${n0(q.busiest.littleRequestsPerSec)}/s (measured ${n0(q.busiest.requestsPerSec)}/s at ${when(q.busiest.timeMs)} UTC)`,
    );
  }
  lines.push(
    `  The same ${n2(q.meanQueueDepth)} in flight at 1 ms per request (a typical EBS latency) would be ${n0(at1ms)}/s: at a given queue depth, IOPS falls as latency rises; more IOPS at the same latency needs more I/Os in flight.`,
  );
  return lines;
}

const step = (s: number) => (s % 60 === 0 ? `${s / 60}-minute` : `${s}-second`);

/** The demand model's answer: what is sized on, on what evidence, and the target (demand/demand.ts). */
function demandLines(d: DemandEvidence, headroom: number): string[] {
  const target = demandTarget(peaksOf(d), headroom);
  const basis = (q: DemandEvidence['read']['iops']) =>
    q.basis === 'recurring-peak' ? ' (recurring peak)' : '';
  return [
    `Demand (${d.statistic} of the ${step(d.resolutionSec)} points, never averaged up${d.ignoreRecurring ? '; recurring peaks ignored, as asked' : ''}):`,
    `  read ${n0(d.read.iops.value)} IOPS${basis(d.read.iops)}, ${n1(mib(d.read.bytesPerSec.value))} MiB/s; write ${n0(d.write.iops.value)} IOPS${basis(d.write.iops)}, ${n1(mib(d.write.bytesPerSec.value))} MiB/s`,
    `  target ${n0(target.iops)} IOPS / ${n0(target.throughputMibps)} MiB/s (read + write × ${1 + headroom})`,
    `  data: ${d.completeness.complete ? 'complete' : `INCOMPLETE — ${d.completeness.issues.length} issue(s), see the warnings`}`,
  ];
}

function render(
  series: IoSeries,
  summary: SeriesSummary,
  sizing: SeriesSummary,
  profiles: Record<(typeof SIZING_STATISTICS)[number], IoProfile>,
  chosen: (typeof SIZING_STATISTICS)[number],
  above: MinutesAbove[],
  demand: DemandEvidence,
  headroom: number,
): string {
  const out: string[] = [];
  const days = (summary.endMs - summary.startMs) / 86_400_000;
  out.push(
    `${escapeText(series.label ?? 'Series')} — ${METRICS_FORMATS[series.format].label}: ${summary.points.toLocaleString('en-US')} points of ${series.periodSec >= 60 ? `${series.periodSec / 60} min` : `${series.periodSec} s`}, ${when(summary.startMs)} → ${when(summary.endMs)} UTC (${days.toFixed(1)} days)`,
    `Values: ${series.conversion.explanation}`,
    `Quality: ${series.quality.gaps} gap(s), ${series.quality.missingPoints} missing point(s), ${series.quality.duplicates} duplicate(s), ${series.quality.partialPoints} partial point(s)${series.quality.naiveTimesAs ? `; times without an offset read as ${series.quality.naiveTimesAs}` : ''}`,
    ...deviceLines(series),
    '',
    ...statsTable(
      `Statistics of the ${series.periodSec >= 60 ? `${series.periodSec / 60}-minute` : `${series.periodSec}-second`} points`,
      summary,
    ),
  );
  if (sizing.periodSec !== summary.periodSec)
    out.push('', ...statsTable('Statistics of the 5-minute averages (what sizing uses)', sizing));
  const queue = queueLines(summarizeQueue(series));
  if (queue.length > 0) out.push('', ...queue);
  const ebs = ebsNvmeLines(series);
  if (ebs.length > 0) out.push('', ...ebs);
  const latency = measuredLatencyLines(measuredLatencyOf(series), VOLUME_TYPES);
  if (latency.length > 0) out.push('', ...latency);
  out.push('', 'Sizing profile (each quantity on its own):');
  out.push(
    `  ${''.padEnd(58)}${['read IOPS', 'MiB/s', 'I/O KiB', 'write IOPS', 'MiB/s', 'I/O KiB'].map((h) => h.padStart(12)).join('')}`,
  );
  for (const s of SIZING_STATISTICS) {
    const p = profiles[s];
    const cells = [
      n0(p.read.iops),
      n1(mib(p.read.bytesPerSec)),
      n1(kib(p.read.blockSizeBytes)),
      n0(p.write.iops),
      n1(mib(p.write.bytesPerSec)),
      n1(kib(p.write.blockSizeBytes)),
    ].map((c) => c.padStart(12));
    out.push(
      `${s === chosen ? '▶' : ' '} ${`${s}: ${SIZING_STATISTIC_LABELS[s]}`.padEnd(58)}${cells.join('')}`,
    );
  }
  for (const a of above) {
    const cap =
      'iops' in a.capacity
        ? `${n0(a.capacity.iops)} IOPS`
        : `${n1(mib(a.capacity.bytesPerSec))} MiB/s (${n1(a.capacity.bytesPerSec / 1e6)} MB/s)`;
    out.push(
      '',
      `Minutes above ${cap} (read + write) per UTC day — burst budget ${a.budgetMinutes} min per 24 h:`,
    );
    for (const d of a.days) {
      out.push(
        `  ${d.day}  ${n1(d.minutesAbove).padStart(7)} min${d.overBudget ? '  OVER BUDGET' : ''}${d.minutesCovered < 1440 ? `  (data for ${n0(d.minutesCovered)} of 1,440 min)` : ''}`,
      );
    }
  }
  out.push('', ...demandLines(demand, headroom));
  const warnings = profiles[chosen].warnings;
  if (warnings.length > 0)
    out.push('', 'Warnings:', ...warnings.map((w) => `  [${w.code}] ${escapeText(w.message)}`));
  return `${out.join('\n')}\n`;
}

export const metricsCommand: Command = {
  summary:
    'Statistics and sizing profile of production metrics (CloudWatch, Grafana, iostat, sar, Prometheus, Datadog, nvme amzn stats).',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      statistic: { type: 'string' },
      'ignore-recurring': { type: 'boolean' },
      headroom: { type: 'string' },
      ...IMPORT_FLAGS,
      'above-iops': { type: 'string' },
      'above-bw': { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one FILE');
    const file = positionals[0]!;
    const json = values.json === true;
    const statistic = parseSizingStatistic(values.statistic);
    const ignoreRecurring = values['ignore-recurring'] === true;
    const headroom =
      values.headroom === undefined ? 0.25 : parseFraction(values.headroom, '--headroom', { max: 10 });
    const options = importOptionsFrom(values);
    const capacities: Capacity[] = [];
    if (values['above-iops'] !== undefined)
      capacities.push({ iops: parseCount(values['above-iops'], '--above-iops', { min: 1 }) });
    if (values['above-bw'] !== undefined) {
      const bytesPerSec = parseRateBytesPerSec(values['above-bw'], '--above-bw');
      if (!(bytesPerSec > 0)) throw new UsageError('--above-bw: expected a throughput above 0', '--above-bw');
      capacities.push({ bytesPerSec });
    }
    let series: IoSeries;
    try {
      series = await loadSeries(file, 'FILE', options, io);
    } catch (error) {
      if (error instanceof InputError) return reportInputError('metrics', error, io, json);
      throw error;
    }
    const summary = summarizeSeries(series);
    const sizing = sizingSummary(series);
    const profiles = profilesByStatistic(series, { ignoreRecurring });
    const demand = demandFromSeries(series, { statistic, ignoreRecurring });
    if (!sizing.ok || !profiles.ok || !demand.ok) {
      const problem = !sizing.ok
        ? sizing.error
        : !profiles.ok
          ? profiles.error
          : !demand.ok
            ? demand.error
            : { code: 'unknown', message: 'unknown' };
      return reportInputError('metrics', new InputError(file, problem), io, json);
    }
    const above = capacities.map((c) => minutesAbovePerDay(series, c));
    if (json) {
      const measured = measuredLatencyOf(series);
      // The points themselves stay out (up to a million); everything computed from them is here.
      const { format, label, periodSec, conversion, columns, quality, warnings } = series;
      // The device without its per-point queue arrays; the queue as its summary.
      const device = series.device
        ? {
            name: series.device.name,
            chosenBy: series.device.chosenBy,
            devices: series.device.devices,
            requestSizeCheck: series.device.requestSizeCheck,
          }
        : null;
      io.stdout(
        `${JSON.stringify({
          series: {
            format,
            label,
            periodSec,
            conversion,
            columns,
            quality,
            warnings,
            points: series.timeMs.length,
            device,
          },
          summary,
          queue: summarizeQueue(series),
          ebsNvme: summarizeEbsNvme(series),
          measuredLatency: measured
            ? { ...measured, promises: promiseVerdicts(measured, VOLUME_TYPES) }
            : null,
          sizingSummary: sizing.value,
          statistic,
          profile: profiles.value[statistic],
          profiles: profiles.value,
          minutesAbove: above,
          demand: demand.value,
          headroom,
          target: demandTarget(peaksOf(demand.value), headroom),
        })}\n`,
      );
      return EXIT.ok;
    }
    io.stdout(
      render(series, summary, sizing.value, profiles.value, statistic, above, demand.value, headroom),
    );
    return EXIT.ok;
  },
};
